/**
 * Source-over (Porter-Duff) blending in 8-bit sRGB, in place, as resvg and libvips composite: a
 * gradient layer, a text layer's shadow and text, and the RGBA of an image, rect or logo layer or
 * of colour glyphs, each over the canvas rows it is asked for (compose.ts calls them layer by layer,
 * band by band). Each is blended only where it has coverage: the gradient over the rows or columns
 * its bands reach (it is computed, not rasterised: a linear band's opacity is a function of one
 * coordinate), the text and shadow within the text's box. The shadow arrives as an opacity per
 * pixel (overlay.ts `shadeOf`, computed while the photo decodes), so that here it is only lerped.
 *
 * Blending here rather than compositing canvas-sized layers in libvips (which works in floating
 * point, 15 to 20 ms a layer) takes 4 to 6 ms on the main thread for a 1200×630 card, spread over
 * several turns of the event loop (`npm run bench`).
 */
import type { Canvas, GradientGeometry, Rect } from '../geometry.js';
import type { TextMasks } from '../text/overlay.js';
import { gradientAlpha, type Rgb } from './tones.js';

/** Canvas rows `from` (inclusive) to `to` (exclusive): the part of the canvas one call blends. */
export interface RowRange {
  from: number;
  to: number;
}

/** The rows of `box` (relative to it) that fall within `rows`. */
function boxRows(box: Rect, rows: RowRange): RowRange {
  return { from: Math.max(0, rows.from - box.y), to: Math.min(box.height, rows.to - box.y) };
}

/**
 * Source-over of colour `c` at opacity `a` (0..1) onto the pixel at byte `i`. Three channels: the
 * lerp; four: {@link overStraight}.
 */
function over(px: Buffer, i: number, channels: number, c: Rgb, a: number): void {
  if (channels === 4) return overStraight(px, i, c, a);
  px[i] = (px[i] as number) + ((c[0] - (px[i] as number)) * a + 0.5);
  px[i + 1] = (px[i + 1] as number) + ((c[1] - (px[i + 1] as number)) * a + 0.5);
  px[i + 2] = (px[i + 2] as number) + ((c[2] - (px[i + 2] as number)) * a + 0.5);
}

/**
 * The Porter-Duff over of colour `c` at opacity `a` (0..1) onto the straight-alpha RGBA pixel at
 * byte `i` (the result's alpha grows). Small enough for V8 to inline into the loops over a row: as
 * a branch of {@link over} it was not, and the gradient over a 1200×630 RGBA card took 15 ms; this
 * about 8 (`npm run bench`, the `composite` stage of the RGBA PNG).
 */
function overStraight(px: Buffer, i: number, c: Rgb, a: number): void {
  const pa = px[i + 3] as number;
  if (pa === 255) {
    // Opaque below (most pixels of most photos with alpha): the lerp, and the alpha stays.
    const keep = 1 - a;
    px[i] = c[0] * a + (px[i] as number) * keep + 0.5;
    px[i + 1] = c[1] * a + (px[i + 1] as number) * keep + 0.5;
    px[i + 2] = c[2] * a + (px[i + 2] as number) * keep + 0.5;
    return;
  }
  const below = (pa / 255) * (1 - a);
  const alpha = a + below;
  if (alpha <= 0) return;
  // One division a pixel, not one a channel.
  const k = 1 / alpha;
  px[i] = (c[0] * a + (px[i] as number) * below) * k + 0.5;
  px[i + 1] = (c[1] * a + (px[i + 1] as number) * below) * k + 0.5;
  px[i + 2] = (c[2] * a + (px[i + 2] as number) * below) * k + 0.5;
  px[i + 3] = alpha * 255 + 0.5;
}

/**
 * Per-row and per-column transparency (1 - opacity) of a linear gradient's bands, when each band
 * runs along one axis (all of layout.ts's do); undefined otherwise (then it is computed per pixel).
 * The bands are stacked with source-over, so their transparencies multiply.
 */
function separable(geometry: GradientGeometry, width: number, height: number) {
  if (geometry.kind !== 'linear') return undefined;
  const rows = new Float32Array(height).fill(1);
  const cols = new Float32Array(width).fill(1);
  for (const band of geometry.bands) {
    const vertical = band.from[0] === band.to[0];
    const horizontal = band.from[1] === band.to[1];
    if (!vertical && !horizontal) return undefined;
    const single = { kind: 'linear' as const, bands: [band] };
    // Pixel centres, as resvg samples a gradient.
    if (vertical)
      for (let y = 0; y < height; y++)
        rows[y] = (rows[y] as number) * (1 - gradientAlpha(single, 0, y + 0.5));
    else
      for (let x = 0; x < width; x++) cols[x] = (cols[x] as number) * (1 - gradientAlpha(single, x + 0.5, 0));
  }
  return { rows, cols };
}

/**
 * Source-over of colour `c` onto the RGB pixel at byte `i` with an opacity in 1/256ths (0..256):
 * integer arithmetic, rounded; the hot loop of the gradient, text and shadow.
 */
function lerp256(px: Buffer, i: number, c: Rgb, a8: number): void {
  const p0 = px[i] as number;
  const p1 = px[i + 1] as number;
  const p2 = px[i + 2] as number;
  px[i] = p0 + (((c[0] - p0) * a8 + 128) >> 8);
  px[i + 1] = p1 + (((c[1] - p1) * a8 + 128) >> 8);
  px[i + 2] = p2 + (((c[2] - p2) * a8 + 128) >> 8);
}

/**
 * Two lanes of a colour word for {@link lerpRow}: the colour's bytes `k` (low half) and `k + 2`
 * (high half), cycling R, G, B, each × `a8` plus the rounding half (128). The even lanes of word
 * phase p are `laneWord(c, p)`, its odd lanes `laneWord(c, p + 1)`. A module function, not closures
 * made in lerpRow once per row: those allocated about 0.7 MB per card (V8's sampling heap profiler)
 * and, run by tsx (the bench and the tests), each called esbuild's `__name`, which the CPU profile
 * of a loaded server showed among the blend's own samples.
 */
function laneWord(colour: Rgb, k: number, a8: number): number {
  return (((colour[k % 3] as number) | ((colour[(k + 2) % 3] as number) << 16)) * a8 + 0x00800080) >>> 0;
}

/**
 * Source-over of `colour` at an opacity in 1/256ths onto `length` bytes of RGB from byte `start`
 * (a whole number of pixels, `start` on a pixel). Four bytes at a time where they are aligned: two
 * 8-bit lanes in each 16-bit half of a 32-bit word (SIMD within a register), which takes about a
 * third of the time of byte by byte on a 1200×630 card; the bytes of lanes cycle R, G, B with a
 * period of three words. Rounds like {@link lerp256}: (p·(256 − a) + c·a + 128) >> 8. `all` is
 * the word view of `px` when it starts word-aligned (one view per canvas: a typed array per row
 * costs more than the row's blend).
 */
function lerpRow(
  px: Uint8Array,
  all: Uint32Array | undefined,
  start: number,
  length: number,
  colour: Rgb,
  a8: number,
): void {
  const end = start + length;
  let i = start;
  // Bytes up to the first aligned word that starts on an R byte (every 12 bytes), one at a time.
  while (i < end && ((px.byteOffset + i) % 4 !== 0 || (i - start) % 3 !== 0)) {
    const p = px[i] as number;
    px[i] = p + ((((colour[(i - start) % 3] as number) - p) * a8 + 128) >> 8);
    i++;
  }
  const inverse = 256 - a8;
  // The colour's bytes in the three word phases (R G B R, G B R G, B R G B), as even and odd lanes, × a.
  const e0 = laneWord(colour, 0, a8);
  const e1 = laneWord(colour, 1, a8);
  const e2 = laneWord(colour, 2, a8);
  const o0 = laneWord(colour, 1, a8);
  const o1 = laneWord(colour, 2, a8);
  const o2 = laneWord(colour, 3, a8);
  // Whole groups of three words (four pixels), unrolled: the phases stay constants.
  const count = Math.floor((end - i) / 12) * 3;
  const words = all ?? new Uint32Array(px.buffer, px.byteOffset + i, count);
  const first = all ? (px.byteOffset + i) / 4 - all.byteOffset / 4 : 0;
  for (let w = first; w < first + count; w += 3) {
    let v = words[w] as number;
    words[w] =
      (((Math.imul(v & 0xff00ff, inverse) + e0) >>> 8) & 0xff00ff) |
      ((Math.imul((v >>> 8) & 0xff00ff, inverse) + o0) & 0xff00ff00);
    v = words[w + 1] as number;
    words[w + 1] =
      (((Math.imul(v & 0xff00ff, inverse) + e1) >>> 8) & 0xff00ff) |
      ((Math.imul((v >>> 8) & 0xff00ff, inverse) + o1) & 0xff00ff00);
    v = words[w + 2] as number;
    words[w + 2] =
      (((Math.imul(v & 0xff00ff, inverse) + e2) >>> 8) & 0xff00ff) |
      ((Math.imul((v >>> 8) & 0xff00ff, inverse) + o2) & 0xff00ff00);
  }
  for (i += count * 4; i < end; i++) {
    const p = px[i] as number;
    px[i] = p + ((((colour[(i - start) % 3] as number) - p) * a8 + 128) >> 8);
  }
}

/**
 * Whether every value is 1 (a gradient axis no band reaches). A loop rather than `every` with a
 * callback, which boxed each non-integral value on V8's heap (1,200 per call).
 */
function allOnes(values: Float32Array): boolean {
  for (let i = 0; i < values.length; i++) if (values[i] !== 1) return false;
  return true;
}

/** The gradient of `tones` over the canvas rows `rows` (only where its opacity is above zero). */
export function blendGradient(
  canvas: Canvas,
  geometry: GradientGeometry,
  colour: Rgb,
  strength: number,
  rows: RowRange,
): void {
  const { pixels: px, width, height, channels } = canvas;
  const axes = separable(geometry, width, height);
  const alphaAt = axes
    ? (x: number, y: number) => (1 - (axes.rows[y] as number) * (axes.cols[x] as number)) * strength
    : (x: number, y: number) => gradientAlpha(geometry, x + 0.5, y + 0.5) * strength;
  if (channels === 4) {
    if (axes && allOnes(axes.cols)) {
      // Bands along y only (bottom-left, top, bottom): one opacity per row.
      for (let y = rows.from; y < rows.to; y++) {
        const a = alphaAt(0, y);
        if (a > 0)
          for (let i = y * width * 4, end = i + width * 4; i < end; i += 4) overStraight(px, i, colour, a);
      }
      return;
    }
    for (let y = rows.from; y < rows.to; y++)
      for (let x = 0, i = y * width * 4; x < width; x++, i += 4) {
        const a = alphaAt(x, y);
        if (a > 0) overStraight(px, i, colour, a);
      }
    return;
  }
  const to256 = (a: number) => Math.round(a * 256);
  if (axes && allOnes(axes.cols)) {
    // Bands along y only (bottom-left, top, bottom): one opacity per row.
    const words =
      px.byteOffset % 4 === 0 ? new Uint32Array(px.buffer, px.byteOffset, px.length >> 2) : undefined;
    for (let y = rows.from; y < rows.to; y++) {
      const a8 = to256(alphaAt(0, y));
      if (a8 !== 0) lerpRow(px, words, y * width * 3, width * 3, colour, a8);
    }
    return;
  }
  if (axes && allOnes(axes.rows)) {
    // Bands along x only (left, right, split): one opacity per column, the same in every row.
    const cols = Int32Array.from({ length: width }, (_, x) => to256(alphaAt(x, 0)));
    for (let y = rows.from; y < rows.to; y++)
      for (let x = 0, i = y * width * 3; x < width; x++, i += 3) {
        const a8 = cols[x] as number;
        if (a8 !== 0) lerp256(px, i, colour, a8);
      }
    return;
  }
  for (let y = rows.from; y < rows.to; y++)
    for (let x = 0, i = y * width * 3; x < width; x++, i += 3) {
      const a8 = to256(alphaAt(x, y));
      if (a8 !== 0) lerp256(px, i, colour, a8);
    }
}

/** A coverage 0..255 as an opacity in 1/256ths (0..256) for {@link lerp256}: one table for every card. */
const COVERAGE_256 = Int32Array.from({ length: 256 }, (_, m) => Math.round((m / 255) * 256));

/**
 * The shadow (when `masks.shade`) filled with `shadowColour` at its opacity, then the text's
 * coverage (the alpha of `masks.text`) filled with `textColour`, row by row over the box, each only
 * over the span of the row it covers (`masks.shade.spans`, `masks.spans`).
 */
export function blendText(
  canvas: Canvas,
  masks: TextMasks,
  textColour: Rgb,
  shadowColour: Rgb,
  rows: RowRange,
): void {
  const { pixels: px, width, channels } = canvas;
  const { box, text, shade, spans } = masks;
  const { from, to } = boxRows(box, rows);
  for (let y = from; y < to; y++) {
    const at = ((box.y + y) * width + box.x) * channels;
    const m0 = y * box.width;
    if (shade) {
      const shadeTo = shade.spans[2 * y + 1] as number;
      for (let x = shade.spans[2 * y] as number, i = at + x * channels; x < shadeTo; x++, i += channels) {
        const a8 = shade.alpha[m0 + x] as number;
        if (a8 === 0) continue;
        if (channels === 3) lerp256(px, i, shadowColour, a8);
        else overStraight(px, i, shadowColour, a8 / 256);
      }
    }
    const textTo = spans[2 * y + 1] as number;
    for (let x = spans[2 * y] as number; x < textTo; x++) {
      const t = text[(m0 + x) * 4 + 3] as number;
      if (t === 0) continue;
      if (channels === 3) lerp256(px, at + x * 3, textColour, COVERAGE_256[t] as number);
      else overStraight(px, at + x * 4, textColour, t / 255);
    }
  }
}

/** Premultiplied RGBA (`premultiplied`) or straight RGBA in `box`, over the canvas. */
export function blendRgba(
  canvas: Canvas,
  box: Rect,
  rgba: Uint8Array,
  premultiplied: boolean,
  rows: RowRange,
): void {
  const { pixels: px, width, channels } = canvas;
  const c: Rgb = [0, 0, 0];
  const { from, to } = boxRows(box, rows);
  for (let y = from; y < to; y++) {
    for (let x = 0; x < box.width; x++) {
      const s = (y * box.width + x) * 4;
      const a = (rgba[s + 3] as number) / 255;
      if (a === 0) continue;
      for (let ch = 0; ch < 3; ch++) {
        const v = rgba[s + ch] as number;
        c[ch] = premultiplied ? Math.min(255, v / a) : v;
      }
      over(px, ((box.y + y) * width + box.x + x) * channels, channels, c, a);
    }
  }
}

/** The photo + gradient behind the text's box, before the shadow and text: what ink is measured against. */
export interface Backdrop {
  box: Rect;
  /** RGB of the box, row-major. */
  rgb: Uint8Array;
}

/** A backdrop of `box` to be filled band by band ({@link keepBackdrop}). */
export function emptyBackdrop(box: Rect): Backdrop {
  return { box, rgb: new Uint8Array(box.width * box.height * 3) };
}

/** Copies the rows of `backdrop.box` within `rows` from `canvas` (RGB of each pixel). */
export function keepBackdrop(canvas: Canvas, backdrop: Backdrop, rows: RowRange): void {
  const { box, rgb } = backdrop;
  const { from, to } = boxRows(box, rows);
  for (let y = from; y < to; y++)
    for (let x = 0; x < box.width; x++) {
      const i = ((box.y + y) * canvas.width + box.x + x) * canvas.channels;
      rgb.set(canvas.pixels.subarray(i, i + 3), (y * box.width + x) * 3);
    }
}
