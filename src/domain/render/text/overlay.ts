/**
 * The overlay's text layers: coverage masks of the glyphs and of their soft shadow, rasterised by
 * resvg from glyph outlines (no SVG <text>: resvg's own text layout is not used) on libuv's thread
 * pool. They depend on the layout only, not on the photo or the tones, so the renderer starts them
 * while the photo is still being decoded; blend.ts then lays them over the pixels in the colours the
 * tone analysis chose.
 *
 * Only the text's box is rasterised (the line boxes grown by {@link TEXT_BOX_PAD} of the largest
 * size), not the canvas: on a 1200×630 card with a two-line title that is about a third of the
 * pixels. The shadow is the text's own coverage at half resolution, blurred by libvips (a Gaussian
 * of σ = 0.06 × each block's size) and moved down: resvg's feGaussianBlur on a layer of its own took
 * 20 to 28 ms even at half scale, this about 5 ms of CPU (a CPU profile of `npm run bench`).
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { renderAsync } from '@resvg/resvg-js';
import sharp from 'sharp';
import { svgNumber } from './colr.js';
import type { TextLayout } from './layout.js';
import type { Rect } from '../geometry.js';

const n = svgNumber;

/** Shadow look, as fractions of the block's font size: blur σ, downward offset. */
export const SHADOW_SIGMA = 0.06;
export const SHADOW_OFFSET = 0.03;
/** Opacity of the text shadow (of its colour, `ToneChoice.shadow`). */
export const SHADOW_OPACITY = 0.55;
/**
 * How far the text's box reaches past the line boxes, as a fraction of the largest font size: room
 * for glyphs that overhang their advance or the font's ascent (accents, swashes, emoji) and for the
 * shadow (3σ of blur plus its offset: 0.21 of the size).
 */
export const TEXT_BOX_PAD = 0.5;

/**
 * The rasterised text of one layout, all within `box` (canvas px, even coordinates and size, inside
 * the canvas), row-major, `box.width` wide.
 */
export interface TextMasks {
  box: Rect;
  /** The outline glyphs in white: premultiplied RGBA, whose alpha is their coverage (the text colour fills it). */
  text: Uint8Array;
  /** For each row of the box, the columns [from, to) where `text` has coverage (from = to when none). */
  spans: Int32Array;
  /** Colour glyphs (emoji) in their own colours: premultiplied RGBA, or undefined when there are none. */
  colour: Uint8Array | undefined;
  /** The shadow's opacity over the box ({@link shadeOf}), or undefined when it is off. */
  shade: Shade | undefined;
}

/** The text's box on the canvas: line boxes grown by {@link TEXT_BOX_PAD}, snapped outward to even px. */
export function textBoxOf(layout: TextLayout): Rect {
  const sizes = layout.blocks.map((b) => b.size);
  const pad = Math.max(0, ...sizes) * TEXT_BOX_PAD;
  const even = (v: number, up: boolean) => 2 * (up ? Math.ceil(v / 2) : Math.floor(v / 2));
  const { bounds } = layout;
  const x0 = Math.max(0, even(bounds.x - pad, false));
  const y0 = Math.max(0, even(bounds.y - pad, false));
  const x1 = Math.min(even(layout.width, false), even(bounds.x + bounds.width + pad, true));
  const y1 = Math.min(even(layout.height, false), even(bounds.y + bounds.height + pad, true));
  return { x: x0, y: y0, width: Math.max(0, x1 - x0), height: Math.max(0, y1 - y0) };
}

/** The SVG documents of the text layers in a viewBox on `box`; a layer with nothing to draw is undefined. */
export function buildTextSvgs(
  layout: TextLayout,
  box: Rect,
): { text: string | undefined; colour: string | undefined } {
  let paths = '';
  let colour = '';
  for (const line of layout.blocks.flatMap((b) => b.lines)) {
    for (const g of line.glyphs) {
      const k = g.size / g.font.upem;
      const matrix = `matrix(${k.toFixed(6)} 0 0 ${(-k).toFixed(6)} ${n(g.x)} ${n(g.y)})`;
      // Colour glyphs (emoji) keep their own colours and cast no shadow of the text colour.
      if (g.font.isColor) colour += `<g transform="${matrix}">${g.font.colorSvg(g.glyphId)}</g>`;
      else {
        const d = g.font.glyphPath(g.glyphId);
        if (d) paths += `<path transform="${matrix}" d="${d}"/>`;
      }
    }
  }
  const svg = (body: string) =>
    `<svg xmlns="http://www.w3.org/2000/svg" width="${box.width}" height="${box.height}" viewBox="${box.x} ${box.y} ${box.width} ${box.height}">${body}</svg>`;
  return {
    text: paths ? svg(`<g fill="#fff">${paths}</g>`) : undefined,
    colour: colour ? svg(colour) : undefined,
  };
}

/**
 * Rasterises an SVG with resvg at its own size on libuv's thread pool into premultiplied RGBA. Only known
 * option keys are passed: resvg-js 2.6 silently drops every option when one key is unknown (and
 * then loads all system fonts).
 */
async function rasterise(source: string) {
  const image = await renderAsync(source, { fitTo: { mode: 'original' }, font: { loadSystemFonts: false } });
  return { pixels: image.pixels, width: image.width, height: image.height };
}

/** How much smaller the shadow is blurred than drawn: it is smooth, so half resolution looks the same. */
export const SHADOW_SCALE = 0.5;

/**
 * The shadow at {@link SHADOW_SCALE}: coverage 0..255 of `width × height` px (half the text box's),
 * stretched back over the box bilinearly when it is blended (blend.ts).
 */
export interface ShadowPlane {
  coverage: Uint8Array;
  width: number;
  height: number;
  /** For each row, the columns [from, to) where `coverage` is not 0 (from = to when none). */
  spans: Int32Array;
}

/**
 * The shadow as the blend draws it: an opacity in 1/256ths (0 to 141: {@link SHADOW_OPACITY} of
 * 256) for each pixel of the text's box, row-major, `box.width` wide.
 */
export interface Shade {
  alpha: Uint8Array;
  /** For each row, the columns [from, to) where `alpha` is not 0 (from = to when none). */
  spans: Int32Array;
}

/**
 * The half-resolution shadow (`plane`) stretched ×2 bilinearly over the box (`2 × plane.width` by
 * `2 × plane.height` px; sample centres: a pixel lies a quarter of a half-resolution sample from
 * its nearest one, so the weights are ¾ and ¼; edges clamped) and turned into the opacity the
 * blend lerps with: coverage c (0..255) gives round(c × {@link SHADOW_OPACITY} × 256 / 255), and
 * c below 0.5 gives 0. Pixels that a glyph covers whole (alpha 255 in `text`, premultiplied RGBA
 * of the box, whose covered columns per row are `textSpans`) get 0: the text's colour replaces
 * them, so a shadow there would change nothing. Only the columns of each row's two half rows'
 * spans are computed (coverage is 0 elsewhere). Computed while the photo decodes, so that the
 * blend after it only lerps.
 */
export function shadeOf(plane: ShadowPlane, text: Uint8Array, textSpans: Int32Array): Shade {
  const { coverage: c, width: w, height: h, spans } = plane;
  const boxWidth = 2 * w;
  const alpha = new Uint8Array(boxWidth * 2 * h);
  const shadeSpans = new Int32Array(2 * 2 * h);
  const k = (SHADOW_OPACITY / 255) * 256;
  const line = new Float32Array(w);
  for (let y = 0; y < 2 * h; y++) {
    const near = Math.min(h - 1, y >> 1);
    const far = Math.min(h - 1, Math.max(0, y % 2 === 0 ? near - 1 : near + 1));
    // The union of the two half rows' spans (an empty one, from = to, adds nothing).
    const nearFrom = spans[2 * near] as number;
    const nearTo = spans[2 * near + 1] as number;
    const farFrom = spans[2 * far] as number;
    const farTo = spans[2 * far + 1] as number;
    const lo = Math.min(nearFrom === nearTo ? w : nearFrom, farFrom === farTo ? w : farFrom);
    const hi = Math.max(nearFrom === nearTo ? 0 : nearTo, farFrom === farTo ? 0 : farTo);
    if (hi <= lo) continue;
    const a = near * w;
    const b = far * w;
    for (let x = lo; x < hi; x++) line[x] = 0.75 * (c[a + x] as number) + 0.25 * (c[b + x] as number);
    // The column on each side that the stretch reads is 0 (as the coverage there).
    if (lo > 0) line[lo - 1] = 0;
    if (hi < w) line[hi] = 0;
    const row = y * boxWidth;
    const textFrom = textSpans[2 * y] as number;
    const textTo = textSpans[2 * y + 1] as number;
    let first = boxWidth;
    let last = 0;
    // A half-resolution sample k covers pixels 2k and 2k + 1 and reaches one more on each side.
    for (let x = Math.max(0, 2 * lo - 1); x < Math.min(boxWidth, 2 * hi + 1); x++) {
      const half = x >> 1;
      const v = line[half] as number;
      const side =
        x % 2 === 0
          ? (line[half > 0 ? half - 1 : 0] as number)
          : (line[half < w - 1 ? half + 1 : half] as number);
      // Rounded to single precision, as the stretch has always been kept (a Float32Array row).
      const s = Math.fround(0.75 * v + 0.25 * side);
      if (s < 0.5) continue;
      if (x >= textFrom && x < textTo && text[(row + x) * 4 + 3] === 255) continue;
      alpha[row + x] = (s * k + 0.5) | 0;
      if (x < first) first = x;
      last = x + 1;
    }
    if (last > first) {
      shadeSpans[2 * y] = first;
      shadeSpans[2 * y + 1] = last;
    }
  }
  return { alpha, spans: shadeSpans };
}

/**
 * The shadow of the text's coverage (`text`: premultiplied RGBA of white glyphs in `box`): block by
 * block, the rows of its lines averaged down to {@link SHADOW_SCALE}, blurred by libvips with
 * σ = {@link SHADOW_SIGMA} × its size (scaled) and moved down by {@link SHADOW_OFFSET} × its size,
 * the blocks stacked with source-over. About 5 ms of CPU for a two-line title, half of it on
 * libvips' threads (measured with `process.cpuUsage` around `rasteriseText`, with and without it).
 */
export async function shadowOf(layout: TextLayout, box: Rect, text: Uint8Array): Promise<ShadowPlane> {
  const width = box.width / 2; // box sizes are even
  const height = box.height / 2;
  const blurs: Promise<ShadowStrip | undefined>[] = [];
  for (const block of layout.blocks) {
    // Each block's averaging in a turn of the event loop of its own, one after another (branches
    // yielding side by side would share one turn), while libvips blurs the blocks before it.
    await yieldToEventLoop();
    const blur = blockShadow(block, box, text);
    // Awaited below with the others; until then a rejection must not count as unhandled.
    blur.catch(() => undefined);
    blurs.push(blur);
  }
  const strips = await Promise.all(blurs);
  await yieldToEventLoop();
  const coverage = new Uint8Array(width * height);
  for (const strip of strips) {
    if (!strip) continue;
    for (let y = Math.max(0, -strip.origin); y < strip.rows && strip.origin + y < height; y++) {
      const from = y * width;
      const to = (strip.origin + y) * width;
      for (let x = 0; x < width; x++) {
        const a = strip.blurred[from + x] as number;
        if (a === 0) continue;
        const below = coverage[to + x] as number;
        coverage[to + x] = (a + below - (a * below + 127) / 255) | 0;
      }
    }
  }
  return { coverage, width, height, spans: spansOf(coverage, width, height, 1) };
}

/** One block's blurred shadow: `rows` half-resolution rows of the box's width, the first at half row `origin`. */
interface ShadowStrip {
  blurred: Buffer;
  rows: number;
  origin: number;
}

/**
 * The shadow of one block (see {@link shadowOf}): its rows of `text` averaged down to
 * {@link SHADOW_SCALE} here, blurred on libvips' threads; undefined when the block has no rows in the box.
 */
function blockShadow(
  block: TextLayout['blocks'][number],
  box: Rect,
  text: Uint8Array,
): Promise<ShadowStrip | undefined> {
  const width = box.width / 2;
  const height = box.height / 2;
  const sigma = block.size * SHADOW_SIGMA * SHADOW_SCALE;
  const reach = Math.ceil(3 * sigma);
  // The block's rows (its line boxes, which hold its glyphs and no other block's), in half rows.
  const top = Math.max(
    0,
    Math.floor((Math.min(...block.lines.map((l) => l.baseline - l.ascent)) - box.y) / 2),
  );
  const bottom = Math.min(
    height,
    Math.ceil((Math.max(...block.lines.map((l) => l.baseline + l.descent)) - box.y) / 2),
  );
  if (bottom <= top) return Promise.resolve(undefined);
  // Half-resolution coverage of those rows (2×2 means), with room above and below for the blur.
  const rows = bottom - top + 2 * reach;
  const plane = new Uint8Array(width * rows);
  for (let y = top; y < bottom; y++) {
    const a = 2 * y * box.width * 4 + 3;
    const b = a + box.width * 4;
    const to = (y - top + reach) * width;
    for (let x = 0; x < width; x++)
      plane[to + x] =
        ((text[a + 8 * x] as number) +
          (text[a + 8 * x + 4] as number) +
          (text[b + 8 * x] as number) +
          (text[b + 8 * x + 4] as number) +
          2) >>
        2;
  }
  const origin = top - reach + Math.round((block.size * SHADOW_OFFSET) / 2);
  return (
    sharp(plane, { raw: { width, height: rows, channels: 1 } })
      .blur(Math.max(0.3, sigma))
      // One band reads as greyscale, which sharp would hand back as sRGB: keep the one band.
      .toColourspace('b-w')
      .raw()
      .toBuffer()
      .then((blurred) => ({ blurred, rows, origin }))
  );
}

/**
 * For each of `height` rows of `width` pixels of `stride` bytes, the columns [from, to) whose last
 * byte (the alpha of RGBA, or the one byte of a plane) is not 0; from = to when none. See
 * {@link TextMasks.spans} and {@link ShadowPlane.spans}.
 */
function spansOf(bytes: Uint8Array, width: number, height: number, stride: number): Int32Array {
  const spans = new Int32Array(2 * height);
  for (let y = 0; y < height; y++) {
    const row = y * width * stride + stride - 1;
    let first = 0;
    while (first < width && bytes[row + first * stride] === 0) first++;
    let last = width;
    while (last > first && bytes[row + (last - 1) * stride] === 0) last--;
    spans[2 * y] = first;
    spans[2 * y + 1] = last;
  }
  return spans;
}

/**
 * Rasterises the layout's text (and, with `textShadow`, its shadow) within {@link textBoxOf}. Runs
 * on the thread pool; resolves to undefined when the box is empty (nothing to draw).
 */
export async function rasteriseText(layout: TextLayout, textShadow: boolean): Promise<TextMasks | undefined> {
  // A turn of the event loop of its own, apart from the layout: a colour glyph's first SVG takes
  // about 10 ms (COLRv1 paint graph), a first emoji layout about 18.
  await yieldToEventLoop();
  const box = textBoxOf(layout);
  if (box.width === 0 || box.height === 0) return undefined;
  const svgs = buildTextSvgs(layout, box);
  const count = box.width * box.height;
  const [text, colour] = await Promise.all([
    svgs.text === undefined ? undefined : rasterise(svgs.text),
    svgs.colour === undefined ? undefined : rasterise(svgs.colour),
  ]);
  const coverage = text?.pixels ?? new Uint8Array(count * 4);
  const shadow = textShadow && text ? await shadowOf(layout, box, coverage) : undefined;
  // The spans in a turn of the event loop of their own too, and the shade in the next.
  await yieldToEventLoop();
  const spans = spansOf(coverage, box.width, box.height, 4);
  if (shadow) await yieldToEventLoop();
  return {
    box,
    text: coverage,
    spans,
    colour: colour?.pixels,
    shade: shadow && shadeOf(shadow, coverage, spans),
  };
}
