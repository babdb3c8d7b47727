/**
 * Tone analysis: reads the pixels behind the text and chooses the text colour, the gradient's colour
 * and the gradient's strength.
 *
 * - Contrast is the WCAG 2 contrast ratio (L1 + 0.05) / (L2 + 0.05) of relative luminances
 *   (WCAG 2.2, "contrast ratio" and "relative luminance" definitions), computed per pixel behind the
 *   text's lines after the gradient is composited over the photo. The figure we hold to 4.5:1 (WCAG
 *   1.4.3, AA for normal text) is the 10th percentile over those pixels, so a few stray highlights do
 *   not decide the colour but nine pixels in ten clear the bar. It is taken for each text block
 *   (title, subtitle) on its own and the lowest counts: pooled, the title's many pixels would hide a
 *   small subtitle on a bright patch (seen on the split template: 5.5:1 pooled, 2.3:1 for the
 *   subtitle measured from the outside, test/render/photos-matrix-*.test.ts).
 * - The gradient's colour is a deep (or, behind dark text, pale) shade of the dominant hue under the
 *   text, not flat black. Its strength starts at {@link GRADIENT_MIN_STRENGTH} and rises in steps of
 *   0.05 until the text reaches {@link TARGET_CONTRAST} (4.5:1 plus a 5% margin) or
 *   {@link GRADIENT_MAX_STRENGTH}.
 * - `colorMode` auto picks whichever of white and black needs the weaker gradient (white on a tie);
 *   with `gradient` off, the one with the higher contrast.
 */
import type { Canvas, GradientGeometry, Rect } from '../geometry.js';

export type Rgb = [number, number, number];

/** WCAG 1.4.3 (AA) minimum contrast ratio for normal text. */
export const WCAG_AA_CONTRAST = 4.5;
/**
 * What the analysis aims for: 5% above WCAG AA. The analysis samples the lines' boxes; the glyph
 * pixels themselves measured 4.52:1 at worst over the photo matrix when it aimed for 4.5 exactly
 * (test/render/photos-matrix-*.test.ts), too close to the bar.
 */
export const TARGET_CONTRAST = WCAG_AA_CONTRAST * 1.05;
/** The gradient is always at least this strong when on: a visible, designed overlay. */
export const GRADIENT_MIN_STRENGTH = 0.35;
/**
 * And at most this strong, so that the photo always shows through its text side (issue 42: a
 * custom colour that no gradient could make legible blackened the card). White or black text
 * reaches 4.5:1 long before it over any photo (the deep shade at 0.9 over pure white is 13:1);
 * a custom colour that does not is named in the render report's `warnings`.
 */
export const GRADIENT_MAX_STRENGTH = 0.9;
const CONTRAST_PERCENTILE = 0.1;

/**
 * The sRGB transfer function inverted: an encoded channel value 0..1 to linear light 0..1
 * (IEC 61966-2-1, as quoted by WCAG 2.2's definition of relative luminance).
 */
function srgbToLinear(c: number): number {
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** {@link srgbToLinear} of every 8-bit value, for the per-pixel loops. */
const LINEAR = Float64Array.from({ length: 256 }, (_, v) => srgbToLinear(v / 255));

/** Relative luminance of an 8-bit sRGB colour (WCAG 2.2 definition), 0..1; channels are clamped to 0..255. */
export function relativeLuminance([r, g, b]: Rgb): number {
  const lin = (v: number) => srgbToLinear(Math.min(255, Math.max(0, v)) / 255);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/**
 * Luma of the 8-bit RGB pixel at byte `i` of `pixels`, 0..255: the Rec. 709 weights on the encoded
 * values (not linear light, unlike {@link relativeLuminance}), for edges and flatness.
 */
export function lumaAt(pixels: ArrayLike<number>, i: number): number {
  return (
    0.2126 * (pixels[i] as number) + 0.7152 * (pixels[i + 1] as number) + 0.0722 * (pixels[i + 2] as number)
  );
}

/** WCAG contrast ratio of two relative luminances, 1..21. */
export function contrastRatio(l1: number, l2: number): number {
  return (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
}

/** `#RGB` or `#RRGGBB` to an RGB triple. */
export function parseHex(hex: string): Rgb {
  const h = hex.slice(1);
  const full = h.length === 3 ? [...h].map((c) => c + c).join('') : h;
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as Rgb;
}

/**
 * The gradient's opacity ramp: 1 at the edge, `mid` where the text ends (`textAt`), 0 at the end.
 * Beyond the text it fades along {@link fadeCurve}, whose slope is 0 at both ends: a linear fade's
 * corner where it meets the clear photo is seen as an edge (a Mach band), one in the sky of the
 * `left` template at `portrait` in issue 42.
 */
function ramp(t: number, textAt: number, mid: number): number {
  if (t <= 0) return 1;
  if (t >= 1) return 0;
  if (t <= textAt) return 1 - (1 - mid) * (t / textAt);
  return mid * (1 - fadeCurve((t - textAt) / (1 - textAt)));
}

/** Share of the fade at each end over which {@link fadeCurve} eases in and out. */
const FADE_EASE = 0.15;
/** {@link fadeCurve}'s steepest slope, as a multiple of its mean (1 over the fade): 1 / (1 − ease). */
export const FADE_STEEPEST = 1 / (1 - FADE_EASE);

/**
 * How far a fade has gone at `u` (0..1 along it), 0..1: straight in the middle, easing in and out
 * over {@link FADE_EASE} at each end with a parabola, so its slope has no corner where it meets the
 * text's band or the clear photo (a Mach band), and its steepest slope is only
 * {@link FADE_STEEPEST} times the mean (smoothstep's is 1.5: a deep scrim needs a fade that much
 * longer for the same step; issue 55, item 8).
 */
export function fadeCurve(u: number): number {
  const e = FADE_EASE;
  const m = FADE_STEEPEST;
  if (u <= e) return (m * u * u) / (2 * e);
  if (u >= 1 - e) return 1 - (m * (1 - u) * (1 - u)) / (2 * e);
  return m * (u - e / 2);
}

/** Opacity (0..1 before strength) of the gradient at a canvas point, exactly as the overlay draws it. */
export function gradientAlpha(geometry: GradientGeometry, x: number, y: number): number {
  if (geometry.kind === 'radial') {
    const dx = (x - geometry.cx) / geometry.rx;
    const dy = (y - geometry.cy) / geometry.ry;
    return ramp(Math.sqrt(dx * dx + dy * dy), RADIAL_TEXT_AT, 0.9);
  }
  let clear = 1;
  // Indexed, not destructured: called for every sample and row, where destructuring's iterators
  // were allocated on V8's heap (its sampling heap profiler) and outlived young collections.
  for (let k = 0; k < geometry.bands.length; k++) {
    const band = geometry.bands[k] as (typeof geometry.bands)[number];
    const x0 = band.from[0];
    const y0 = band.from[1];
    const dx = band.to[0] - x0;
    const dy = band.to[1] - y0;
    const len2 = dx * dx + dy * dy || 1;
    const t = ((x - x0) * dx + (y - y0) * dy) / len2;
    clear *= 1 - ramp(t, Math.min(Math.max(band.textAt, 0.01), 0.99), BAND_TEXT_ALPHA);
  }
  return 1 - clear;
}

/** Relative opacity of a linear band where the text ends. */
export const BAND_TEXT_ALPHA = 0.85;
/** Where the radial glow's 90% stop sits. */
export const RADIAL_TEXT_AT = 0.75;

/**
 * How many levels of luma (of 255) a scrim of `colour` at `strength` changes the photo where its
 * linear bands' fades begin (where the text ends, at {@link BAND_TEXT_ALPHA} of its strength): the
 * largest over the bands of the distance between the colour's luma and the photo's mean luma along
 * that line (sampled every 8 px across the band). 0 for a radial glow. For gradient.ts's
 * `fadedForDepth`.
 */
export function scrimDepth(
  canvas: Canvas,
  geometry: GradientGeometry,
  colour: Rgb,
  strength: number,
): number {
  if (geometry.kind !== 'linear') return 0;
  const { pixels, width, height, channels } = canvas;
  const scrimLuma = lumaAt(colour, 0);
  let deepest = 0;
  for (const band of geometry.bands) {
    const x = Math.round(band.from[0] + (band.to[0] - band.from[0]) * band.textAt);
    const y = Math.round(band.from[1] + (band.to[1] - band.from[1]) * band.textAt);
    const vertical = band.to[0] === band.from[0];
    let sum = 0;
    let n = 0;
    for (let k = 0; k < (vertical ? width : height); k += 8) {
      const px = vertical ? k : Math.min(width - 1, Math.max(0, x));
      const py = vertical ? Math.min(height - 1, Math.max(0, y)) : k;
      sum += lumaAt(pixels, (py * width + px) * channels);
      n++;
    }
    if (n > 0) deepest = Math.max(deepest, BAND_TEXT_ALPHA * strength * Math.abs(sum / n - scrimLuma));
  }
  return deepest;
}

/** Pixels sampled behind the text: sRGB values and the gradient opacity at each, by text block. */
export interface Samples {
  rgb: Uint8Array;
  alpha: Float32Array;
  count: number;
  /** Where each block's samples end (exclusive), in order: block k is `groupEnds[k-1] ?? 0` to `groupEnds[k]`. */
  groupEnds: number[];
}

/** Most pixels sampled behind the text; a grid this dense measures contrast to within a pixel row. */
const MAX_SAMPLES = 8_000;

/**
 * Samples the canvas behind the text on an even grid (at most {@link MAX_SAMPLES} samples).
 * `pixels` is 8-bit sRGB, `channels` 3 or 4, row-major `width` wide; `blocks` holds each text
 * block's rectangles (its lines).
 */
export function sampleBehind(
  pixels: Buffer,
  width: number,
  height: number,
  channels: number,
  blocks: Rect[][],
  geometry: GradientGeometry,
): Samples {
  const rects = blocks.flat();
  const area = rects.reduce((a, r) => a + r.width * r.height, 0);
  const step = Math.max(1, Math.ceil(Math.sqrt(area / MAX_SAMPLES)));
  const capacity = rects.reduce(
    (a, r) => a + (Math.ceil(r.width / step) + 1) * (Math.ceil(r.height / step) + 1),
    0,
  );
  const rgb = new Uint8Array(capacity * 3);
  const alpha = new Float32Array(capacity);
  let count = 0;
  const groupEnds: number[] = [];
  for (const r of blocks.flatMap((b, k) => b.map((rect) => ({ ...rect, k })))) {
    const x0 = Math.max(0, Math.floor(r.x));
    const x1 = Math.min(width, Math.ceil(r.x + r.width));
    const y0 = Math.max(0, Math.floor(r.y));
    const y1 = Math.min(height, Math.ceil(r.y + r.height));
    for (let y = y0; y < y1; y += step) {
      for (let x = x0; x < x1; x += step) {
        const i = (y * width + x) * channels;
        rgb[count * 3] = pixels[i] as number;
        rgb[count * 3 + 1] = pixels[i + 1] as number;
        rgb[count * 3 + 2] = pixels[i + 2] as number;
        alpha[count] = gradientAlpha(geometry, x, y);
        count++;
      }
    }
    groupEnds[r.k] = count;
  }
  // A block whose rectangles were all empty ends where the one before it ended.
  for (let k = 0; k < blocks.length; k++) groupEnds[k] ??= groupEnds[k - 1] ?? 0;
  return { rgb, alpha, count, groupEnds };
}

/** The dominant colour of the samples: the mean colour of the most weighted of 12 hue sectors. */
export function dominantColour(s: Samples): Rgb {
  const sums = Array.from({ length: 13 }, () => [0, 0, 0, 0]); // 12 hue sectors + greys
  for (let i = 0; i < s.count; i++) {
    const r = s.rgb[i * 3] as number;
    const g = s.rgb[i * 3 + 1] as number;
    const b = s.rgb[i * 3 + 2] as number;
    const max = Math.max(r, g, b);
    const min = Math.min(r, g, b);
    const chroma = max - min;
    let sector = 12;
    if (chroma > 24) {
      let h: number;
      if (max === r) h = ((g - b) / chroma + 6) % 6;
      else if (max === g) h = (b - r) / chroma + 2;
      else h = (r - g) / chroma + 4;
      sector = Math.floor(h * 2) % 12;
    }
    const w = sector === 12 ? 1 : 1 + chroma / 64;
    const acc = sums[sector] as number[];
    acc[0] = (acc[0] as number) + r * w;
    acc[1] = (acc[1] as number) + g * w;
    acc[2] = (acc[2] as number) + b * w;
    acc[3] = (acc[3] as number) + w;
  }
  const best = sums.reduce((a, b) => ((b[3] as number) > (a[3] as number) ? b : a));
  const w = (best[3] as number) || 1;
  return [(best[0] as number) / w, (best[1] as number) / w, (best[2] as number) / w];
}

/** A shade of `colour` with HSL lightness `lightness` and saturation capped at `maxSaturation`. */
export function shade(colour: Rgb, lightness: number, maxSaturation: number): Rgb {
  const [r, g, b] = colour.map((v) => v / 255) as Rgb;
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l0 = (max + min) / 2;
  const d = max - min;
  let h = 0;
  if (d > 0) {
    if (max === r) h = ((g - b) / d + 6) % 6;
    else if (max === g) h = (b - r) / d + 2;
    else h = (r - g) / d + 4;
  }
  const s0 = d === 0 ? 0 : d / (1 - Math.abs(2 * l0 - 1));
  const s = Math.min(s0, maxSaturation);
  const c = (1 - Math.abs(2 * lightness - 1)) * s;
  const x = c * (1 - Math.abs((h % 2) - 1));
  const m = lightness - c / 2;
  const sector = Math.floor(h);
  const [r1, g1, b1] = [
    [c, x, 0],
    [x, c, 0],
    [0, c, x],
    [0, x, c],
    [x, 0, c],
    [c, 0, x],
  ][sector % 6] as Rgb;
  return [(r1 + m) * 255, (g1 + m) * 255, (b1 + m) * 255];
}

/** Contrast histogram: ratios 1..21 in steps of 0.01. */
const BINS = 2001;
const histogram = new Uint32Array(BINS);

/**
 * The lowest, over the text blocks, of the `q` quantile of the per-sample contrast of `text` over
 * that block's samples with the gradient at `strength`, to 0.01. Counted in a histogram: linear in
 * the number of samples, no sort.
 */
export function contrastQuantile(
  s: Samples,
  text: Rgb,
  gradient: Rgb,
  strength: number,
  q = CONTRAST_PERCENTILE,
): number {
  let lowest = 21;
  let from = 0;
  for (const to of s.groupEnds.length ? s.groupEnds : [s.count]) {
    lowest = Math.min(lowest, blockQuantile(s, from, to, text, gradient, strength, q));
    from = to;
  }
  return lowest;
}

function blockQuantile(
  s: Samples,
  from: number,
  to: number,
  text: Rgb,
  gradient: Rgb,
  strength: number,
  q: number,
): number {
  if (to <= from) return 21;
  const lt = relativeLuminance(text);
  const [g0, g1, g2] = gradient;
  histogram.fill(0);
  for (let i = from; i < to; i++) {
    const a = (s.alpha[i] as number) * strength;
    // Rounded to the nearest 8-bit value (the sum is never negative: `| 0` truncates like floor).
    const r = ((s.rgb[i * 3] as number) * (1 - a) + g0 * a + 0.5) | 0;
    const g = ((s.rgb[i * 3 + 1] as number) * (1 - a) + g1 * a + 0.5) | 0;
    const b = ((s.rgb[i * 3 + 2] as number) * (1 - a) + g2 * a + 0.5) | 0;
    const lb =
      0.2126 * (LINEAR[r] as number) + 0.7152 * (LINEAR[g] as number) + 0.0722 * (LINEAR[b] as number);
    const ratio = lt > lb ? (lt + 0.05) / (lb + 0.05) : (lb + 0.05) / (lt + 0.05);
    const bin = Math.min(BINS - 1, Math.floor((ratio - 1) * 100));
    histogram[bin] = (histogram[bin] as number) + 1;
  }
  const rank = Math.floor(q * (to - from));
  let seen = 0;
  for (let bin = 0; bin < BINS; bin++) {
    seen += histogram[bin] as number;
    if (seen > rank) return 1 + bin / 100;
  }
  return 21;
}

export interface ToneChoice {
  text: Rgb;
  /** Colour of the text shadow. */
  shadow: Rgb;
  gradient: { colour: Rgb; strength: number } | undefined;
  /** The achieved 10th-percentile contrast ratio. */
  contrast: number;
}

const WHITE: Rgb = [255, 255, 255];
const BLACK: Rgb = [0, 0, 0];

/** Chooses text colour, gradient colour and strength (see the module comment). */
export function chooseTones(
  s: Samples,
  options: {
    colorMode: 'auto' | 'white' | 'black' | 'custom';
    colorHex?: string | undefined;
    gradient: boolean;
  },
): ToneChoice {
  const dominant = dominantColour(s);
  const candidates: Rgb[] =
    options.colorMode === 'auto'
      ? [WHITE, BLACK]
      : options.colorMode === 'white'
        ? [WHITE]
        : options.colorMode === 'black'
          ? [BLACK]
          : [parseHex(options.colorHex ?? '#ffffff')];
  let best: ToneChoice | undefined;
  for (const text of candidates) {
    const lightText = relativeLuminance(text) > 0.18;
    const gradientColour = lightText ? shade(dominant, 0.1, 0.55) : shade(dominant, 0.94, 0.35);
    const shadow = lightText ? BLACK : WHITE;
    let choice: ToneChoice;
    if (!options.gradient) {
      choice = { text, shadow, gradient: undefined, contrast: contrastQuantile(s, text, gradientColour, 0) };
    } else {
      // The weakest strength, on a 0.05 grid from the minimum to the maximum, that reaches the target. Contrast
      // rises with strength (the gradient's shade contrasts with the text more than any photo pixel
      // it covers can), so a binary search over the grid finds it in at most four steps.
      const grid = Array.from(
        { length: Math.round((GRADIENT_MAX_STRENGTH - GRADIENT_MIN_STRENGTH) / 0.05) + 1 },
        (_, i) => Math.min(GRADIENT_MAX_STRENGTH, GRADIENT_MIN_STRENGTH + i * 0.05),
      );
      // Each grid point measured at most once (the search's last probe is usually its answer).
      const measured = new Map<number, number>();
      const at = (i: number) => {
        let contrast = measured.get(i);
        if (contrast === undefined) {
          contrast = contrastQuantile(s, text, gradientColour, grid[i] as number);
          measured.set(i, contrast);
        }
        return contrast;
      };
      let lo = 0;
      let hi = grid.length - 1;
      let loContrast = at(lo);
      if (loContrast >= TARGET_CONTRAST) hi = lo;
      else {
        while (hi - lo > 1) {
          const mid = (lo + hi) >> 1;
          if (at(mid) >= TARGET_CONTRAST) hi = mid;
          else lo = mid;
        }
      }
      loContrast = at(hi);
      choice = {
        text,
        shadow,
        gradient: { colour: gradientColour, strength: grid[hi] as number },
        contrast: loContrast,
      };
    }
    if (!best || better(choice, best)) best = choice;
  }
  return best as ToneChoice;
}

function better(a: ToneChoice, b: ToneChoice): boolean {
  const aOk = a.contrast >= TARGET_CONTRAST;
  const bOk = b.contrast >= TARGET_CONTRAST;
  if (aOk !== bOk) return aOk;
  if (aOk && a.gradient && b.gradient && a.gradient.strength !== b.gradient.strength)
    return a.gradient.strength < b.gradient.strength;
  return a.contrast > b.contrast + 1e-9;
}

/**
 * What to tell a person when the text ended under WCAG AA's 4.5:1 (1.4.3) against the photo behind
 * it, with what would help; undefined when it did not. A custom colour of middling lightness can
 * stay under it even at {@link GRADIENT_MAX_STRENGTH}, as can any colour without a gradient. ASCII
 * only: it travels in the `Titlecard-Warning` header too.
 *
 * @param contrast the lowest 10th-percentile contrast ratio of the text layers, 1..21
 */
export function contrastNotice(
  contrast: number,
  options: { colorMode: string; colorHex?: string | undefined; gradient: boolean },
): string | undefined {
  if (contrast >= WCAG_AA_CONTRAST) return undefined;
  // Rounded down: 4.46 is "4.4", never "4.5:1, under the 4.5:1".
  const reached = `reaches ${(Math.floor(contrast * 10) / 10).toFixed(1)}:1 against the photo behind it, under the 4.5:1 that WCAG asks of text`;
  if (options.colorMode === 'custom')
    return `The text colour ${options.colorHex ?? ''} ${reached}: a lighter or darker colorHex, or colorMode auto, makes it readable.`;
  if (!options.gradient) return `The text ${reached}: gradient true makes it readable.`;
  return `The text ${reached}.`;
}
