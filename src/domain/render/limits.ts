/**
 * The renderer's limits, in one place: what an input may be (pixels, aspect ratio, a font's glyphs,
 * a template document) and what a render may hold (decode memory, glyph caches). Each says its
 * source: ours, measured, or the contract's (docs/api.md#limits). `index.ts` exports them; the
 * stages import them from here.
 */

/** Largest accepted input, in pixels (64 megapixels: an 8000 × 8000 photo). Our choice; protects memory. */
export const MAX_INPUT_PIXELS = 64_000_000;

/**
 * Most a photo's longer side may be, as a multiple of its shorter side (our choice). A cover crop
 * of a 64000×1 strip would scale it to a 40-megapixel-wide line; nothing that thin is a background.
 */
export const MAX_ASPECT_RATIO = 20;

/**
 * Above this enlargement a card is visibly soft, and the answer says so (issue 42, item 5): at 1.5×
 * a photo pixel spreads over 2.25 card pixels, past what resampling hides at a feed's size. Ours.
 */
export const UPSCALE_NOTICE = 1.5;

/**
 * Most bytes the decodes under way may hold at once, estimated by photo/decode.ts `decodeMemory`: 112 MiB,
 * so that two progressive JPEGs of up to 14 megapixels (a phone or camera photo, 52 MiB each)
 * decode at once on two cores; larger ones decode one at a time. Beyond it a decode waits for
 * others to finish; one that needs more runs alone. With 64 MiB a server made 0.50 of the floor's
 * cards of a 13-megapixel progressive JPEG at four in flight; with 112 MiB, 0.66 to 0.83, and its
 * session's high-water resident memory stayed under 400 MiB once such decodes began by giving
 * glibc's free pages back ({@link LARGE_DECODE_MIB}; `npm run bench -- --http`, docs/performance.md).
 */
export const DECODE_MEMORY_BUDGET = 112 * 2 ** 20;

/**
 * A decode expected to hold this many MiB or more first has glibc give its free pages back
 * (photo/malloc-trim.ts): 16, a baseline JPEG of 32 megapixels or a progressive one of 4. Trimming
 * after every render instead cost about 1.7 ms of CPU a card in page faults on the small `mate`
 * photo (`perf record`, docs/performance.md).
 */
export const LARGE_DECODE_MIB = 16;

export const FONT_BOUNDS = {
  /** Outline points (on- and off-curve) of one glyph: a 200-character title of such glyphs draws 1 million. */
  pointsPerGlyph: 5_000,
  /** Paint operations (layers, transforms, clips, fills) of one colour glyph. */
  paintsPerGlyph: 10_000,
  /** Nesting of one colour glyph's paint graph (groups, transforms, clips). */
  paintDepth: 64,
  /** Outline points one colour glyph's clips draw in all: each clip glyph's points, each time it is used. */
  clipPointsPerGlyph: 200_000,
} as const;

/**
 * Longest SVG of one colour glyph, characters: 4 Mi (4,194,304). The largest of Noto Color Emoji's
 * 41,863 glyphs makes 1,414,105 (measured); a font past its upload bounds (text/font-bounds.ts) could
 * make hundreds of millions.
 */
export const COLOR_GLYPH_MAX_CHARS = 4 * 1024 * 1024;

/**
 * Characters of glyph outlines and colour-glyph SVG kept per process, over every font: 64 million
 * (64 MB as V8 keeps ASCII strings). The least recently used glyphs are dropped past it (lru-cache),
 * so no font, however large its glyphs, grows the process without bound.
 */
export const GLYPH_CACHE_CHARS = 64 * 1024 * 1024;

/** Limits of a template (our choice; docs/templates.md). */
export const TEMPLATE_LIMITS = {
  layers: 24,
  imageLayers: 8,
  variables: 20,
  /** The document as JSON, bytes. */
  bytes: 32 * 1024,
  nameLength: 100,
  contentLength: 500,
  /** A text variable's value, characters (docs/api.md#limits). */
  textLength: 200,
  /** A template's own `size`: each side in px, and its area (the og card is 0.76 megapixels). */
  sideMin: 200,
  sideMax: 2400,
  pixelsMax: 4_000_000,
} as const;
