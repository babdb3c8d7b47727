/**
 * The renderer: a pure function of its input and the font set loaded at start-up. Its stages, each
 * in its own file:
 *   decode → cover crop (decode.ts), and meanwhile: lay out the text (layout.ts, shaping.ts) and
 *   rasterise it and its shadow within the text's box (overlay.ts);
 *   then analyse the tones (tones.ts) → blend gradient, shadow and text into the photo (blend.ts)
 *   → encode the card and its thumbnail at once (here).
 * The photo decodes on a libvips thread while the text is laid out and rasterised: neither waits
 * for the other, so the title costs little on top of the photo (docs/performance.md). Layout, tones and
 * the blend run on the main thread, each in its own turn of the event loop, none longer than a few
 * milliseconds once warmed up ({@link warmUp}).
 */
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { type PngEncodeOptions, Transformer } from '@napi-rs/image';
import pLimit from 'p-limit';
import sharp, { type Sharp } from 'sharp';
import { FILE_TYPES } from '../images/files.js';
import type { FileFormat } from '../kernel/records.js';
import {
  ASPECTS,
  type FontName,
  generateOptionsSchema,
  type GenerateOptions,
  type LayoutReport,
  type RenderReport,
  type Template,
} from '../schemas.js';
import { type ImageInput, startDecodeCover } from './decode.js';
import type { FontLibrary, LoadedFont } from './fonts.js';
import { layoutText, safeZoneOf, type Placement, type Rect, type TextLayout } from './layout.js';
import { rasteriseText, type TextMasks } from './overlay.js';
import { type Backdrop, blendOverlay, type LogoPixels, type Overlay } from './blend.js';
import { reportLayout } from './report.js';
import { meanOver, saliencyMap } from './saliency.js';
import {
  chooseTones,
  contrastRatio,
  relativeLuminance,
  sampleBehind,
  type Rgb,
  type ToneChoice,
} from './tones.js';

/** Quality of jpeg and webp output (spec 4.1 rule 5, section 8). */
export const LOSSY_QUALITY = 85;
/**
 * How far around a line's cap-height box the tone analysis reads the background, px: a reader
 * judges text against what lies just outside the strokes, 3 to 6 px.
 */
export const READING_MARGIN_PX = 6;
/**
 * Rows blended per turn of the event loop: a 1200×630 card's blend (6 to 9 ms) in four parts of
 * about 2 ms (`npm run bench` measures the event-loop delay).
 */
export const BLEND_BAND_ROWS = 160;
/** Thumbnail width in px; the height follows the aspect (og 400×210, square 400×400, portrait 400×500). */
export const THUMBNAIL_WIDTH = 400;

/** Corners a logo can sit in (a preset's `logo.corner`). */
export const LOGO_CORNERS = ['top-left', 'top-right', 'bottom-left', 'bottom-right'] as const;
export type LogoCorner = (typeof LOGO_CORNERS)[number];

/** A logo laid over the card: its decoded bytes (PNG, JPEG or WebP, alpha kept) and where it goes. */
export interface LogoOverlay {
  image: Buffer;
  /** Natural size of `image`, px. */
  width: number;
  height: number;
  corner: LogoCorner;
  /** Logo width as a fraction of the canvas width, 0.05 to 0.3. */
  size: number;
}

/** Gap kept between a logo and the text, as a fraction of the canvas width. */
export const LOGO_GAP = 0.02;
/** A logo is never taller than this fraction of the canvas height (a tall logo is scaled down). */
const LOGO_MAX_HEIGHT = 0.25;

/**
 * Where a logo goes, px: `size` × the canvas width wide (height by its aspect, at most
 * {@link LOGO_MAX_HEIGHT} of the canvas), in its corner of the safe zone (spec 4.1 rule 3).
 */
export function logoRect(aspect: GenerateOptions['aspect'], logo: Omit<LogoOverlay, 'image'>): Rect {
  const canvas = ASPECTS[aspect];
  const safe = safeZoneOf(aspect);
  let width = Math.round(canvas.width * logo.size);
  let height = Math.round((width * logo.height) / logo.width);
  const maxHeight = Math.round(canvas.height * LOGO_MAX_HEIGHT);
  if (height > maxHeight) {
    width = Math.max(1, Math.round((width * maxHeight) / height));
    height = maxHeight;
  }
  const left = logo.corner.endsWith('left') ? safe.x : safe.x + safe.width - width;
  const top = logo.corner.startsWith('top') ? safe.y : safe.y + safe.height - height;
  return { x: Math.round(left), y: Math.round(top), width, height };
}

/**
 * What the renderer draws: the generate options, with an uploaded font (`{custom}`) loaded by the
 * domain into a {@link LoadedFont} (an unresolved one is a fault), and an optional logo.
 */
export type RenderOptions = Omit<GenerateOptions, 'font'> & {
  font: GenerateOptions['font'] | LoadedFont;
  logo?: LogoOverlay | undefined;
};

/** The font to lay out with; throws (a fault of ours) for an uploaded font the domain did not load. */
function fontOf(font: RenderOptions['font']): FontName | LoadedFont {
  if (typeof font === 'object' && 'custom' in font)
    throw new Error(`the uploaded font ${font.custom} was not loaded before rendering`);
  return font;
}

/**
 * Milliseconds spent in each stage of one render. `overlay` (text and shadow rasterised) runs while
 * the photo decodes, and `thumbnail` while the card encodes: the stages add up to more than the
 * render's wall time.
 */
export interface RenderTimings {
  decode: number;
  layout: number;
  tones: number;
  overlay: number;
  composite: number;
  encode: number;
  thumbnail: number;
}

export interface RenderResult {
  image: Buffer;
  thumbnail: Buffer;
  width: number;
  height: number;
  thumbnailWidth: number;
  thumbnailHeight: number;
  format: FileFormat;
  contentType: string;
  layout: TextLayout;
  tones: ToneChoice;
  /** What the layout came to and the contrast reached (the `Titlecard-Render-Report` header). */
  report: RenderReport;
  timings: RenderTimings;
  /**
   * When this render had its turn and when it finished, in ms of `performance.now()`: the time it
   * waited in the queue is not included. Lets tests and `npm run bench` see renders overlap.
   */
  span: { start: number; end: number };
  /** Present when asked for with `measure`. */
  ink?: InkMeasurement;
}

/**
 * What the text looks like on the finished image, measured on its pixels (opt-in: it costs one more
 * composite, about 20 ms): the pixels where the text layer has ink (alpha ≥ 50%), and the backdrop
 * behind them (photo + gradient, no shadow, no text).
 */
export interface InkMeasurement {
  /** Bounding box of the ink, px, or undefined when nothing was drawn. */
  box: { left: number; top: number; right: number; bottom: number } | undefined;
  /** WCAG 2 contrast ratio of the text colour against the backdrop at ink pixels: 10th percentile and minimum. */
  contrastP10: number;
  contrastMin: number;
}

export interface RendererOptions {
  /**
   * Most renders at once; further requests wait their turn. Default: the number of cores, where
   * throughput stops rising (`npm run bench`: two at once on 2 cores). Each render holds the
   * decoded photo at canvas size (portrait 1080 × 1350 × 3 bytes = 4.4 MB), the text's box as RGBA
   * (at most the canvas, 5.8 MB) and the encoded outputs, besides what libvips holds while it
   * decodes: about 15 MB.
   */
  concurrency?: number | undefined;
}

export interface Renderer {
  /**
   * Renders a titled image. Throws ValidationError (field `image`) for an input that is not a
   * decodable JPEG, PNG or WebP within the pixel limit; any other error is a fault of ours.
   * With `measure`, the result carries {@link InkMeasurement} (for tests and `npm run bench`).
   */
  render(
    input: ImageInput,
    options: RenderOptions,
    diagnostics?: { measure?: boolean },
  ): Promise<RenderResult>;
  /**
   * Lays the texts out without a photo (`POST /layout`): the report of what `render` would set.
   * `template: auto` needs the photo to choose, so it is laid out as bottom-left here (and
   * reported so). Milliseconds, once the fonts it needs are loaded ({@link FontLibrary.prepare}).
   */
  layout(options: RenderOptions): Promise<LayoutReport>;
  /** Renders under way and waiting for a turn. */
  load(): { active: number; waiting: number };
}

/** The templates `auto` chooses from: those with one text box (split keeps two apart). */
export const AUTO_CANDIDATES = ['bottom-left', 'left', 'right'] as const;

/**
 * `template=auto`: lays the text out in each of {@link AUTO_CANDIDATES} and keeps the one whose lines
 * cover the calmest, least salient part of the cropped photo (lowest mean of the saliency map over
 * the line boxes, saliency.ts). Ties keep the earlier candidate, bottom-left first.
 */
export function chooseTemplate(
  canvas: { pixels: Buffer; width: number; height: number; channels: number },
  layOut: (template: Template) => TextLayout,
): { template: Template; layout: TextLayout; scores: Record<string, number> } {
  const map = saliencyMap(canvas.pixels, canvas.width, canvas.height, canvas.channels);
  const scores: Record<string, number> = {};
  let best: { template: Template; layout: TextLayout; score: number } | undefined;
  for (const template of AUTO_CANDIDATES) {
    const layout = layOut(template);
    const rects = layout.blocks.flatMap((b) =>
      b.lines.map((l) => ({
        x: l.x,
        y: l.baseline - l.ascent,
        width: l.width,
        height: l.ascent + l.descent,
      })),
    );
    const score = meanOver(map, rects);
    scores[template] = score;
    if (!best || score < best.score - 1e-9) best = { template, layout, score };
  }
  const chosen = best as { template: Template; layout: TextLayout };
  return { template: chosen.template, layout: chosen.layout, scores };
}

/**
 * Template wins over position; with neither, the default template bottom-left (spec 4.1 rule 1).
 * `auto` must be resolved first (see {@link chooseTemplate}); here it stands for bottom-left.
 */
export function placementOf(options: Pick<GenerateOptions, 'template' | 'position'>): Placement {
  if (options.template === 'auto') return { template: 'bottom-left' };
  if (options.template) return { template: options.template };
  if (options.position !== undefined) return { position: options.position };
  return { template: 'bottom-left' };
}

/**
 * Encoder settings, chosen by speed and size on 1200×630 cards from the photos of
 * ../shared/fixtures/photos (`npm run bench -- --encoders` prints the table; docs/performance.md):
 * - PNG: the Rust `png` crate (through @napi-rs/image) with its fast deflate and adaptive filters:
 *   about a fifth of libvips' time at zlib level 3, for 1% more bytes.
 * - JPEG: quality {@link LOSSY_QUALITY} with libjpeg's standard Huffman tables: optimised tables
 *   save 1.7% of the bytes and take 2.3 times as long.
 * - WebP: quality {@link LOSSY_QUALITY} at effort (libwebp method) 2: half the time of the default
 *   effort 4 for 2.4% more bytes.
 */
export const ENCODER_SETTINGS = {
  // CompressionType.Fast (1) and FilterType.Adaptive (5) by number: @napi-rs/image 1.15 declares
  // both enums in its types but exports them as empty objects, so `CompressionType.Fast` would be
  // undefined at run time and leave its defaults (no filter, zlib's default level: 53% larger).
  png: { compressionType: 1, filterType: 5 } satisfies PngEncodeOptions,
  jpeg: { quality: LOSSY_QUALITY, optimiseCoding: false },
  webp: { quality: LOSSY_QUALITY, effort: 2 },
} as const;

/**
 * Encodes a pipeline's pixels as a card in `format` ({@link ENCODER_SETTINGS}); JPEG is flattened
 * onto white (no alpha). PNG goes from libvips to @napi-rs/image as a stored PNG (zlib level 0, no
 * filters: about 3 ms), which keeps the channels (RGB, or RGBA for a photo with alpha). Both encode
 * on libuv's thread pool; the call that starts @napi-rs/image's task takes 0.05 ms on the main
 * thread at the median and up to 5 ms (40 calls on a 1200×630 card). Rejects as the pipeline does
 * (an undecodable input).
 */
export async function encodeCard(pipeline: Sharp, format: FileFormat): Promise<Buffer> {
  switch (format) {
    case 'png': {
      const stored = await pipeline.png({ compressionLevel: 0 }).toBuffer();
      return new Transformer(stored).png(ENCODER_SETTINGS.png);
    }
    case 'jpeg':
      return pipeline.flatten({ background: '#ffffff' }).jpeg(ENCODER_SETTINGS.jpeg).toBuffer();
    case 'webp':
      return pipeline.webp(ENCODER_SETTINGS.webp).toBuffer();
  }
}

/** See {@link InkMeasurement}: over the text's box, the ink is where a glyph (outline or colour) covers ≥ 50%. */
function measureInk(masks: TextMasks, backdrop: Backdrop, text: Rgb): InkMeasurement {
  const lt = relativeLuminance(text);
  const { box } = masks;
  const { rgb } = backdrop;
  const ratios: number[] = [];
  let ink: InkMeasurement['box'];
  for (let y = 0; y < box.height; y++) {
    for (let x = 0; x < box.width; x++) {
      const i = y * box.width + x;
      const coverage = Math.max(masks.text[i * 4 + 3] as number, (masks.colour?.[i * 4 + 3] as number) ?? 0);
      if (coverage < 128) continue;
      const lb = relativeLuminance([
        rgb[i * 3] as number,
        rgb[i * 3 + 1] as number,
        rgb[i * 3 + 2] as number,
      ]);
      ratios.push(contrastRatio(lt, lb));
      const cx = box.x + x;
      const cy = box.y + y;
      if (!ink) ink = { left: cx, top: cy, right: cx, bottom: cy };
      else {
        ink.left = Math.min(ink.left, cx);
        ink.right = Math.max(ink.right, cx);
        ink.top = Math.min(ink.top, cy);
        ink.bottom = Math.max(ink.bottom, cy);
      }
    }
  }
  ratios.sort((a, b) => a - b);
  return {
    box: ink,
    contrastP10: ratios[Math.floor(ratios.length * 0.1)] ?? 21,
    contrastMin: ratios[0] ?? 21,
  };
}

/** A promise's value and how long it took to settle, ms. */
interface Timed<T> {
  value: T;
  ms: number;
}
/** `promise` with the ms from `started` (default now, `performance.now()`) until it settled. */
function timed<T>(promise: Promise<T>, started = performance.now()): Promise<Timed<T>> {
  return promise.then((value) => ({ value, ms: performance.now() - started }));
}

/**
 * Renders `renders` cards on a plain synthetic background and throws them away, so that the
 * JavaScript of the render path is compiled before the first request: a process's first renders
 * ran their pixel loops unoptimised and held the event loop for up to 70 ms each (`npm run bench`).
 * `titlecard serve` calls it at start-up (about 0.3 s).
 */
export async function warmUp(renderer: Renderer, renders = 4): Promise<void> {
  const photo = await sharp({ create: { width: 1200, height: 630, channels: 3, background: '#4a6b8a' } })
    .jpeg()
    .toBuffer();
  // With an emoji: the colour font (25 MB) loads here rather than in a request, where its first
  // use held the event loop for about 45 ms; it adds about 25 MB of resident memory.
  const options = generateOptionsSchema.parse({
    title: 'Warm-up card ✨',
    subtitle: 'Titlecard',
    fileFormat: 'jpeg',
  });
  for (let i = 0; i < renders; i++) await renderer.render(photo, options);
}

export function createRenderer(fonts: FontLibrary, rendererOptions: RendererOptions = {}): Renderer {
  const limit = pLimit(rendererOptions.concurrency ?? availableParallelism());
  /** The layout of `options` with `template` (resolved: never auto). */
  const layOut = (options: RenderOptions, template: Template | undefined) =>
    layoutText(fonts, {
      aspect: options.aspect,
      placement: template ? { template } : placementOf(options),
      title: options.title,
      subtitle: options.subtitle,
      font: fontOf(options.font),
      fontSize: options.fontSize,
      reserve: reserveOf(options),
    });
  /** The logo's rectangle grown by the gap: what the text keeps out of. */
  const reserveOf = (options: RenderOptions): Rect | undefined => {
    if (!options.logo) return undefined;
    const rect = logoRect(options.aspect, options.logo);
    const gap = ASPECTS[options.aspect].width * LOGO_GAP;
    return { x: rect.x - gap, y: rect.y - gap, width: rect.width + 2 * gap, height: rect.height + 2 * gap };
  };
  /** Loads the large fallback fonts the texts need before they are laid out (off the main thread). */
  const prepareFonts = (options: RenderOptions) =>
    Promise.all([
      fonts.prepare(options.title, 'bold'),
      options.subtitle ? fonts.prepare(options.subtitle, 'regular') : undefined,
    ]);
  const templateOf = (options: RenderOptions): Template | undefined =>
    options.template === 'auto'
      ? 'bottom-left'
      : (options.template ?? (options.position === undefined ? 'bottom-left' : undefined));

  return {
    load: () => ({ active: limit.activeCount, waiting: limit.pendingCount }),
    render: (input, options, diagnostics) => limit(() => renderOne(input, options, diagnostics)),
    async layout(options) {
      await prepareFonts(options);
      const template = templateOf(options);
      return reportLayout(layOut(options, template), fonts, {
        ...options,
        font: fontOf(options.font),
        template,
      });
    },
  };

  async function renderOne(
    input: ImageInput,
    options: RenderOptions,
    diagnostics: { measure?: boolean } | undefined,
  ): Promise<RenderResult> {
    const t: Partial<RenderTimings> = {};
    const start = performance.now();
    let mark = start;
    const lap = (stage: keyof RenderTimings) => {
      const now = performance.now();
      t[stage] = now - mark;
      mark = now;
    };
    const { width, height } = ASPECTS[options.aspect];
    // The photo decodes on libvips' threads while the main thread lays the text out and resvg
    // rasterises it on libuv's: neither needs the other until the tones are chosen (except
    // template auto, whose layout is chosen on the photo). The layout waits until the decode is
    // under way, so as not to hold up its start (startDecodeCover); large fallback fonts load meanwhile.
    const fontsReady = prepareFonts(options);
    // Awaited below; if the photo is refused first, a rejection must not count as unhandled.
    fontsReady.catch(() => undefined);
    const decodeStart = await startDecodeCover(input, width, height, options.focus);
    const decoding = timed(decodeStart.decoded, start);
    const logo = options.logo && logoRect(options.aspect, options.logo);
    const logoPixels =
      options.logo && logo
        ? sharp(options.logo.image)
            .resize(logo.width, logo.height, { fit: 'fill' })
            .ensureAlpha()
            .raw()
            .toBuffer()
            .then((rgba): LogoPixels => ({ rect: logo, rgba }))
        : undefined;
    // A rejected decode is awaited below; until then it must not count as unhandled.
    decoding.catch(() => undefined);
    logoPixels?.catch(() => undefined);

    let template = templateOf(options);
    let layout: TextLayout | undefined;
    let layoutMs = 0;
    let masks: Promise<Timed<TextMasks | undefined>> | undefined;
    await fontsReady;
    // A large fallback font just loaded took its own turn of the event loop; the layout takes the next.
    await yieldToEventLoop();
    if (options.template !== 'auto') {
      const started = performance.now();
      layout = layOut(options, template);
      layoutMs = performance.now() - started;
      masks = timed(rasteriseText(layout, options.textShadow));
      masks.catch(() => undefined);
    }
    const decoded = await decoding;
    const canvas = decoded.value;
    t.decode = decoded.ms;
    mark = performance.now();
    if (!layout) {
      const chosen = chooseTemplate(canvas, (t) => layOut(options, t));
      template = chosen.template;
      layout = chosen.layout;
      masks = timed(rasteriseText(layout, options.textShadow));
    }
    const report = reportLayout(layout, fonts, { ...options, font: fontOf(options.font), template });
    lap('layout');
    t.layout = (t.layout ?? 0) + layoutMs;
    // Each step on the main thread is its own turn of the event loop (no render holds it
    // for more than 20 ms); the yields cost microseconds.
    await yieldToEventLoop();
    mark = performance.now();

    // The pixels a reader sees the glyphs against, block by block: each line's box from cap height
    // to baseline, grown by READING_MARGIN_PX on every side (the ring 3 to 6 px around the glyphs
    // that test/render/photos.test.ts measures from the outside).
    const rects = layout.blocks.map((b) =>
      b.lines.map((l) => ({
        x: l.x - READING_MARGIN_PX,
        y: l.baseline - l.size * 0.72 - READING_MARGIN_PX,
        width: l.width + 2 * READING_MARGIN_PX,
        height: l.size * 0.72 + 2 * READING_MARGIN_PX,
      })),
    );
    const samples = sampleBehind(canvas.pixels, width, height, canvas.channels, rects, layout.gradient);
    const tones = chooseTones(samples, options);
    lap('tones');

    const rasterised = await (masks as Promise<Timed<TextMasks | undefined>>);
    t.overlay = rasterised.ms;
    const text = rasterised.value;
    const overlay: Overlay = { geometry: layout.gradient, tones, masks: text, logo: await logoPixels };
    mark = performance.now();
    let ink: InkMeasurement | undefined;
    if (diagnostics?.measure) {
      // In one piece: the ink measurement reads the backdrop between the gradient and the text.
      const backdrop = blendOverlay(canvas, overlay, undefined, true);
      ink = backdrop && text && measureInk(text, backdrop, tones.text);
    } else
      for (let from = 0; from < height; from += BLEND_BAND_ROWS) {
        await yieldToEventLoop();
        blendOverlay(canvas, overlay, { from, to: Math.min(height, from + BLEND_BAND_ROWS) });
      }
    lap('composite');

    // The card and its thumbnail encode at once, from the same composed pixels.
    const raw = { raw: { width, height, channels: canvas.channels } };
    const thumbnailHeight = Math.round((THUMBNAIL_WIDTH * height) / width);
    const [encoded, thumbnailEncoded] = await Promise.all([
      timed(encodeCard(sharp(canvas.pixels, raw), options.fileFormat)),
      timed(
        encodeCard(sharp(canvas.pixels, raw).resize(THUMBNAIL_WIDTH, thumbnailHeight), options.fileFormat),
      ),
    ]);
    const image = encoded.value;
    const thumbnail = thumbnailEncoded.value;
    t.encode = encoded.ms;
    t.thumbnail = thumbnailEncoded.ms;
    mark = performance.now();

    return {
      image,
      thumbnail,
      width,
      height,
      thumbnailWidth: THUMBNAIL_WIDTH,
      thumbnailHeight,
      format: options.fileFormat,
      contentType: FILE_TYPES[options.fileFormat].contentType,
      layout,
      tones,
      report: { ...report, contrast: tones.contrast },
      timings: t as RenderTimings,
      span: { start, end: mark },
      ...(ink ? { ink } : {}),
    };
  }
}
