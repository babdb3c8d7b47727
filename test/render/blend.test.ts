/**
 * The overlay's blend (src/domain/render/paint/blend.ts) and text masks (overlay.ts) as functions: the
 * word-at-a-time gradient against the definition of source-over byte by byte, the text and its
 * shadow, the shadow's enlargement against libvips' own, and the large fallback fonts loaded ahead
 * of a layout (fonts.ts `prepare`).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { blendGradient, blendText } from '../../src/domain/render/paint/blend.js';
import type { Canvas, GradientGeometry } from '../../src/domain/render/geometry.js';
import { loadFontLibrary } from '../../src/domain/render/text/fonts.js';
import { layoutText } from '../support/layout.js';
import {
  rasteriseText,
  SHADOW_OPACITY,
  shadeOf,
  shadowOf,
  textBoxOf,
  type TextMasks,
} from '../../src/domain/render/text/overlay.js';
import { gradientAlpha, type Rgb, type ToneChoice } from '../../src/domain/render/paint/tones.js';
import { testFonts } from '../support/server.js';

/** Deterministic noise (a linear congruential generator): every byte value occurs. */
function noise(length: number, seed = 7): Buffer {
  const out = Buffer.alloc(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

/** Source-over of `c` at `a` (1/256ths) on one byte, rounded: the definition the fast path must meet. */
const overByte = (p: number, c: number, a8: number) => p + (((c - p) * a8 + 128) >> 8);

const tones = (gradient: { colour: Rgb; strength: number } | undefined): ToneChoice => ({
  text: [255, 255, 255],
  shadow: [0, 0, 0],
  gradient,
  contrast: 7,
});

/** The gradient of `tones` (when it has one), then the shadow and text of `masks`, over every row. */
function blendOverlay(
  canvas: Canvas,
  {
    geometry,
    tones,
    masks,
  }: { geometry: GradientGeometry; tones: ToneChoice; masks: TextMasks | undefined; logo: undefined },
): void {
  const rows = { from: 0, to: canvas.height };
  if (tones.gradient) blendGradient(canvas, geometry, tones.gradient.colour, tones.gradient.strength, rows);
  if (masks) blendText(canvas, masks, tones.text, tones.shadow, rows);
}

describe('gradient blend', () => {
  // A band from the bottom edge up to a third of the height, as the bottom-left template draws it.
  const band = (height: number): GradientGeometry => ({
    kind: 'linear',
    bands: [{ from: [0, height], to: [0, height / 3], textAt: 0.4 }],
  });

  for (const { name, width, offset } of [
    { name: 'a 1200 px wide canvas, word-aligned', width: 1200, offset: 0 },
    { name: 'an odd width', width: 333, offset: 0 },
    { name: 'a buffer that does not start on a word', width: 1200, offset: 3 },
  ])
    it(`equals source-over byte by byte on ${name}`, () => {
      const height = 90;
      const colour: Rgb = [12, 200, 77];
      const strength = 0.8;
      const backing = noise(width * height * 3 + offset);
      const pixels = backing.subarray(offset);
      const before = Buffer.from(pixels);
      const canvas: Canvas = { pixels, width, height, channels: 3 };
      blendOverlay(canvas, {
        geometry: band(height),
        tones: tones({ colour, strength }),
        masks: undefined,
        logo: undefined,
      });
      let differing = 0;
      for (let y = 0; y < height; y++) {
        const a8 = Math.round(gradientAlpha(band(height), 0, y + 0.5) * strength * 256);
        for (let i = y * width * 3; i < (y + 1) * width * 3; i++)
          if (pixels[i] !== overByte(before[i] as number, colour[i % 3] as number, a8)) differing++;
      }
      expect(differing).toBe(0);
      // The band is clear above its end and at full strength at the bottom edge.
      expect(pixels.subarray(0, width * 3).equals(before.subarray(0, width * 3))).toBe(true);
      const last = (height - 1) * width * 3;
      expect(pixels.subarray(last, last + width * 3).equals(before.subarray(last, last + width * 3))).toBe(
        false,
      );
    });

  it('lays the gradient over a photo with alpha as Porter-Duff source-over of straight alpha, within 1', () => {
    const width = 301;
    const height = 90;
    const colour: Rgb = [12, 200, 77];
    const strength = 0.8;
    const pixels = noise(width * height * 4, 11);
    // Every opacity below, opaque (the fast path) and clear among them.
    for (let i = 3; i < pixels.length; i += 16) pixels[i] = 255;
    for (let i = 7; i < pixels.length; i += 64) pixels[i] = 0;
    const before = Buffer.from(pixels);
    blendOverlay(
      { pixels, width, height, channels: 4 },
      { geometry: band(height), tones: tones({ colour, strength }), masks: undefined, logo: undefined },
    );
    let worst = 0;
    for (let y = 0; y < height; y++) {
      const a = gradientAlpha(band(height), 0, y + 0.5) * strength;
      for (let i = y * width * 4; i < (y + 1) * width * 4; i += 4) {
        const below = ((before[i + 3] as number) / 255) * (1 - a);
        const alpha = a + below;
        const expected =
          alpha === 0
            ? [...before.subarray(i, i + 4)]
            : [
                ...[0, 1, 2].map(
                  (k) => ((colour[k] as number) * a + (before[i + k] as number) * below) / alpha,
                ),
                alpha * 255,
              ];
        for (let k = 0; k < 4; k++)
          worst = Math.max(worst, Math.abs((pixels[i + k] as number) - (expected[k] as number)));
      }
    }
    expect(worst).toBeLessThanOrEqual(1);
    expect(pixels.equals(before)).toBe(false);
  });
});

describe('text and shadow', () => {
  const fonts = testFonts();
  const layout = layoutText(fonts, {
    aspect: 'og',
    placement: { template: 'bottom-left' },
    title: 'Shadow',
    font: 'arial',
  });

  it('fills the glyphs with the text colour, shades under them, and leaves the rest of the canvas alone', async () => {
    const masks = await rasteriseText(layout, true);
    if (!masks) throw new Error('nothing rasterised');
    const { box } = masks;
    expect(box).toEqual(textBoxOf(layout));
    const grey = 128;
    const canvas: Canvas = {
      pixels: Buffer.alloc(1200 * 630 * 3, grey),
      width: 1200,
      height: 630,
      channels: 3,
    };
    blendOverlay(canvas, { geometry: layout.gradient, tones: tones(undefined), masks, logo: undefined });
    const at = (x: number, y: number) => canvas.pixels[(y * 1200 + x) * 3] as number;
    let solid = 0;
    let shaded = 0;
    let changedOutside = 0;
    let solidNotWhite = 0;
    for (let y = 0; y < 630; y++)
      for (let x = 0; x < 1200; x++) {
        const inside = x >= box.x && x < box.x + box.width && y >= box.y && y < box.y + box.height;
        const v = at(x, y);
        if (!inside) {
          if (v !== grey) changedOutside++;
          continue;
        }
        const coverage = masks.text[((y - box.y) * box.width + (x - box.x)) * 4 + 3] as number;
        if (coverage === 255) {
          solid++;
          if (v !== 255) solidNotWhite++;
        } else if (coverage === 0 && v < grey) shaded++;
      }
    expect(changedOutside).toBe(0);
    expect(solidNotWhite).toBe(0);
    expect(solid).toBeGreaterThan(1000);
    // The shadow (black at 55%, blurred) darkens the grey around and below the glyphs.
    expect(shaded).toBeGreaterThan(1000);
    // Spans: each row's covered columns hold all of its coverage.
    let outsideSpan = 0;
    for (let y = 0; y < box.height; y++)
      for (let x = 0; x < box.width; x++)
        if ((masks.text[(y * box.width + x) * 4 + 3] as number) > 0)
          if (x < (masks.spans[2 * y] as number) || x >= (masks.spans[2 * y + 1] as number)) outsideSpan++;
    expect(outsideSpan).toBe(0);
  });

  it('blends shadow and text in one pass exactly as shadow first, text second, over every column', async () => {
    const masks = await rasteriseText(layout, true);
    if (!masks?.shade) throw new Error('no shadow rasterised');
    const { box } = masks;
    const canvasOf = (): Canvas => ({ pixels: noise(1200 * 630 * 3), width: 1200, height: 630, channels: 3 });
    const blend = (canvas: Canvas, m: typeof masks) =>
      blendOverlay(canvas, { geometry: layout.gradient, tones: tones(undefined), masks: m, logo: undefined });
    // One pass, as the renderer does it: the shadow only over its spans, none under solid glyphs.
    const fused = canvasOf();
    blend(fused, masks);
    // Two passes with nothing skipped: the shadow alone (its shade made with no text, every half
    // row's and every row's span the whole width), then the text alone.
    const twoPass = canvasOf();
    const plane = await shadowOf(layout, box, masks.text);
    const halfRows = new Int32Array(2 * plane.height);
    for (let y = 0; y < plane.height; y++) halfRows[2 * y + 1] = plane.width;
    const noText = new Uint8Array(masks.text.length);
    const noSpans = new Int32Array(2 * box.height);
    const shade = shadeOf({ ...plane, spans: halfRows }, noText, noSpans);
    const wholeRows = new Int32Array(2 * box.height);
    for (let y = 0; y < box.height; y++) wholeRows[2 * y + 1] = box.width;
    blend(twoPass, { ...masks, text: noText, spans: noSpans, shade: { ...shade, spans: wholeRows } });
    blend(twoPass, { ...masks, shade: undefined });
    expect(fused.pixels.equals(twoPass.pixels)).toBe(true);
  });

  it('stretches the half-resolution shadow ×2 as libvips interpolates it bilinearly, within rounding (1/256 of opacity)', async () => {
    // A blurred shape, as a shadow always is (σ = 6% of the font size: 0.7 to 3.6 half-resolution
    // px), at half resolution.
    const width = 60;
    const height = 30;
    const coverage = new Uint8Array(width * height);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++)
        coverage[y * width + x] = Math.round(
          255 * Math.exp(-(((x - 30) / 6) ** 2 + ((y - 15) / 4) ** 2) / 2),
        );
    const spans = new Int32Array(2 * height);
    for (let y = 0; y < height; y++) {
      const covered = [...coverage.subarray(y * width, (y + 1) * width).keys()].filter(
        (x) => coverage[y * width + x] !== 0,
      );
      spans[2 * y] = covered[0] ?? 0;
      spans[2 * y + 1] = covered.length ? (covered.at(-1) as number) + 1 : 0;
    }
    // Text over part of it: solid (255) in a square, partly covering (128) beside it.
    const text = new Uint8Array(4 * width * height * 4);
    const textSpans = new Int32Array(4 * height);
    for (let y = 20; y < 40; y++) {
      for (let x = 50; x < 70; x++) text[(y * 2 * width + x) * 4 + 3] = x < 60 ? 255 : 128;
      textSpans[2 * y] = 50;
      textSpans[2 * y + 1] = 70;
    }
    const shade = shadeOf({ coverage, width, height, spans }, text, textSpans);
    // The reference: libvips' affine transform with its bilinear interpolator, pixel centres mapped
    // onto pixel centres (x_out + ½ = 2 × (x_in + ½), hence the output offset of ½), as an opacity
    // in 256ths.
    const { data: enlarged, info } = await sharp(Buffer.from(coverage), {
      raw: { width, height, channels: 1 },
    })
      .affine(
        [
          [2, 0],
          [0, 2],
        ],
        { interpolator: sharp.interpolators.bilinear, odx: 0.5, ody: 0.5 },
      )
      .extractChannel(0)
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([2 * width, 2 * height]);
    let worst = 0;
    let total = 0;
    let outsideSpans = 0;
    for (let y = 0; y < 2 * height; y++)
      for (let x = 0; x < 2 * width; x++) {
        const i = y * 2 * width + x;
        const actual = shade.alpha[i] as number;
        if (actual > 0 && (x < (shade.spans[2 * y] as number) || x >= (shade.spans[2 * y + 1] as number)))
          outsideSpans++;
        // Under a glyph's solid part the text replaces the pixel: no shadow at all.
        if (text[i * 4 + 3] === 255) {
          expect(actual, `${x},${y}`).toBe(0);
          continue;
        }
        const expected = Math.round(((enlarged[i] as number) * SHADOW_OPACITY * 256) / 255);
        worst = Math.max(worst, Math.abs(actual - expected));
        total += Math.abs(actual - expected);
      }
    expect(worst).toBeLessThanOrEqual(1);
    expect(total / (4 * width * height)).toBeLessThan(0.5);
    expect(outsideSpans).toBe(0);
    // Some shadow under the part of the text that covers partly.
    expect(shade.alpha[25 * 2 * width + 65]).toBeGreaterThan(0);
  });

  it('draws no shadow when it is off', async () => {
    const masks = await rasteriseText(layout, false);
    expect(masks?.shade).toBeUndefined();
  });
});

describe('large fallback fonts', () => {
  it('are loaded ahead of the layout, once, however many renders ask at once', async () => {
    const library = loadFontLibrary();
    expect(library.loadTimes.has('sc-bold')).toBe(false);
    await Promise.all([library.prepare('我们的标题', 'bold'), library.prepare('构建时间', 'bold')]);
    expect([...library.loadTimes.keys()].filter((k) => k.startsWith('sc'))).toEqual(['sc-bold']);
    const chain = library.chain('arial', 'bold', '我们的标题');
    expect(chain.at(-1)?.name).toBe('NotoSansSC_700Bold');
    // Latin text needs no large fallback: nothing more is loaded.
    const loaded = library.loadTimes.size;
    await library.prepare('Hello', 'regular');
    expect(library.loadTimes.size).toBe(loaded);
  });
});
