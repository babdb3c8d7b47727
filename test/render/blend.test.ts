/**
 * The overlay's blend (src/domain/render/blend.ts) and text masks (overlay.ts) as functions: the
 * word-at-a-time gradient against source-over byte by byte, the text and its shadow, and the large
 * fallback fonts loaded ahead of a layout (fonts.ts `prepare`).
 */
import { describe, expect, it } from 'vitest';
import { blendOverlay, type Canvas } from '../../src/domain/render/blend.js';
import { loadFontLibrary } from '../../src/domain/render/fonts.js';
import { layoutText } from '../../src/domain/render/layout.js';
import { type GradientGeometry } from '../../src/domain/render/gradient.js';
import {
  rasteriseText,
  SHADOW_OPACITY,
  shadeOf,
  shadowOf,
  textBoxOf,
} from '../../src/domain/render/overlay.js';
import { gradientAlpha, type Rgb, type ToneChoice } from '../../src/domain/render/tones.js';
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

  it('stretches the half-resolution shadow ×2 bilinearly into opacities, by the plain per-pixel formula', () => {
    // A half-resolution plane of noise with empty margins and empty rows, its spans computed plainly.
    const width = 60;
    const height = 30;
    const coverage = new Uint8Array(noise(width * height, 3));
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++)
        if (y < 3 || y > 25 || y === 12 || x < 5 + y || x > 50) coverage[y * width + x] = 0;
    const spans = new Int32Array(2 * height);
    for (let y = 0; y < height; y++) {
      const covered = [...coverage.subarray(y * width, (y + 1) * width).keys()].filter(
        (x) => coverage[y * width + x] !== 0,
      );
      spans[2 * y] = covered[0] ?? 0;
      spans[2 * y + 1] = covered.length ? (covered.at(-1) as number) + 1 : 0;
    }
    // Text: solid (255) in a square, partly covering (128) beside it.
    const text = new Uint8Array(4 * width * height * 4);
    const textSpans = new Int32Array(4 * height);
    for (let y = 20; y < 40; y++) {
      for (let x = 30; x < 50; x++) text[(y * 2 * width + x) * 4 + 3] = x < 40 ? 255 : 128;
      textSpans[2 * y] = 30;
      textSpans[2 * y + 1] = 50;
    }
    const shade = shadeOf({ coverage, width, height, spans }, text, textSpans);
    const at = (x: number, y: number) => coverage[y * width + x] as number;
    const clamp = (v: number, max: number) => Math.min(max, Math.max(0, v));
    let wrong = 0;
    let outsideSpans = 0;
    let shaded = 0;
    for (let y = 0; y < 2 * height; y++)
      for (let x = 0; x < 2 * width; x++) {
        const near = [x >> 1, y >> 1] as const;
        const far = [
          clamp(x % 2 ? near[0] + 1 : near[0] - 1, width - 1),
          clamp(y % 2 ? near[1] + 1 : near[1] - 1, height - 1),
        ];
        // Rows first, kept in single precision, then columns: ¾ of the nearest sample, ¼ of the next.
        const column = (cx: number) => Math.fround(0.75 * at(cx, near[1]) + 0.25 * at(cx, far[1] as number));
        const s = Math.fround(0.75 * column(near[0]) + 0.25 * column(far[0] as number));
        const solid = text[(y * 2 * width + x) * 4 + 3] === 255;
        const expected = s < 0.5 || solid ? 0 : Math.floor((s * SHADOW_OPACITY * 256) / 255 + 0.5);
        const actual = shade.alpha[y * 2 * width + x] as number;
        if (actual !== expected) wrong++;
        if (actual > 0) shaded++;
        if (actual > 0 && (x < (shade.spans[2 * y] as number) || x >= (shade.spans[2 * y + 1] as number)))
          outsideSpans++;
      }
    expect(wrong).toBe(0);
    expect(outsideSpans).toBe(0);
    expect(shaded).toBeGreaterThan(1000);
    // None under the solid part of the text, some under the part it covers partly.
    expect(shade.alpha[25 * 2 * width + 35]).toBe(0);
    expect(shade.alpha[25 * 2 * width + 45]).toBeGreaterThan(0);
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
