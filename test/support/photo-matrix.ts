/**
 * The matrix of test/render/photos-*.test.ts: backgrounds × the four templates × the three aspects
 * through the renderer, measured on the pixels: exact sizes, text inside the safe zone, and a WCAG
 * contrast ratio of at least 4.5:1 whenever the gradient is on, with the text shadow on and off.
 * Measured from the outputs: the ink box where two renders with the text in two colours differ,
 * the contrast 3 to 6 px outside the glyphs, as a reader sees it. The renderer's own contrast
 * behind the glyphs, on the pixels it blended, is checked beside it. The backgrounds are split
 * over files so that the test runner spreads them over the cores.
 */
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { ASPECTS } from '../../src/domain/design.js';
import { generateOptionsSchema } from '../../src/domain/images/schemas.js';
import { safeZoneOf } from '../../src/domain/render/geometry.js';
import { createRenderer, type RenderResult } from '../../src/domain/render/index.js';
import { outsideContrast } from './contrast.js';
import { differenceBox, PHOTO_FILES, photo, solid } from './images.js';
import { testFonts } from './server.js';

export const TEMPLATES = ['bottom-left', 'left', 'right', 'split'] as const;
export const ASPECT_NAMES = ['og', 'square', 'portrait'] as const;

/** Backgrounds of the matrix: every photograph, and the two extremes, plain white and plain black. */
export const BACKGROUNDS: [string, () => Promise<Buffer>][] = [
  ...PHOTO_FILES.map((f) => [f, async () => photo(f)] as [string, () => Promise<Buffer>]),
  ['plain white', () => solid([255, 255, 255], 'png', 1600, 1000)],
  ['plain black', () => solid([0, 0, 0], 'png', 1600, 1000)],
];

/** The matrix's tests for `backgrounds` (a slice of {@link BACKGROUNDS}), with the minimum logged. */
export function photoMatrix(backgrounds: [string, () => Promise<Buffer>][]): void {
  const renderer = createRenderer(testFonts());
  const matrixMinimum = { contrast: Infinity, where: '' };
  const outsideMinimum = { contrast: Infinity, where: '' };
  afterAll(() => {
    console.log(
      `[titlecard] minimum contrast over this part of the matrix, 10th percentile: ${matrixMinimum.contrast.toFixed(2)}:1 behind the glyphs (renderer) at ${matrixMinimum.where}; ${outsideMinimum.contrast.toFixed(2)}:1 3–6 px outside them (from the output) at ${outsideMinimum.where}`,
    );
  });

  describe('every background × template × aspect, measured on the pixels', () => {
    for (const [name, load] of backgrounds) {
      it(`${name}: right size, ink inside its box and out of the safe zones, contrast at least 4.5:1 (shadow on and off)`, async () => {
        const input = await load();
        for (const template of TEMPLATES)
          for (const aspect of ASPECT_NAMES) {
            const base = {
              title: 'Notes from a week of building things in the open',
              subtitle: 'Field report · 6 min read',
              template,
              aspect,
              // Lossless, so that the glyphs keep exactly the text colour for the outside measurement.
              fileFormat: 'png',
            } as const;
            const where = `${name}, ${template}, ${aspect}`;
            // Where the ink fell, from the outputs alone: the same card with its text in two colours
            // (no gradient, no shadow) differs exactly where the glyphs are.
            const [magenta, cyan] = await Promise.all(
              ['#FF00FF', '#00FFFF'].map((colorHex) =>
                renderer.render(
                  input,
                  generateOptionsSchema.parse({
                    ...base,
                    colorMode: 'custom',
                    colorHex,
                    gradient: false,
                    textShadow: false,
                  }),
                ),
              ),
            );
            const ink = await differenceBox((magenta as RenderResult).image, (cyan as RenderResult).image);
            expect(ink, where).toBeDefined();
            const safe = safeZoneOf(aspect);
            const boxes = (magenta as RenderResult).layout.blocks.map((b) => b.box);
            const left = Math.min(...boxes.map((b) => b.x));
            const right = Math.max(...boxes.map((b) => b.x + b.width));
            expect(ink?.left, where).toBeGreaterThanOrEqual(Math.max(left, safe.x) - 1);
            expect(ink?.right, where).toBeLessThanOrEqual(Math.min(right, safe.x + safe.width) + 1);
            expect(ink?.top, where).toBeGreaterThanOrEqual(safe.y - 1);
            expect(ink?.bottom, where).toBeLessThanOrEqual(safe.y + safe.height + 1);

            for (const textShadow of [true, false]) {
              const options = generateOptionsSchema.parse({ ...base, textShadow });
              const out = await renderer.render(input, options, { measure: true });
              const meta = await sharp(out.image).metadata();
              expect([meta.width, meta.height]).toEqual([ASPECTS[aspect].width, ASPECTS[aspect].height]);
              const at = `${where}, shadow ${textShadow ? 'on' : 'off'}`;
              // The renderer's own view, behind the glyphs on the pixels it blended.
              const contrast = out.ink?.contrastP10 ?? 0;
              expect(contrast, at).toBeGreaterThanOrEqual(4.5);
              if (contrast < matrixMinimum.contrast) Object.assign(matrixMinimum, { contrast, where: at });

              // Each text block on its own (split puts them far apart, with bare photo between).
              const measured = await Promise.all(
                out.layout.blocks.map((b) =>
                  outsideContrast(
                    out.image,
                    b.lines.map((l) => ({
                      x: l.x - 8,
                      y: l.baseline - l.ascent - 8,
                      width: l.width + 16,
                      height: l.ascent + l.descent + 16,
                    })),
                    out.tones.text,
                  ),
                ),
              );
              const outside = {
                glyphPixels: measured.reduce((n, m) => n + m.glyphPixels, 0),
                p10: Math.min(...measured.map((m) => m.p10)),
              };
              expect(outside.glyphPixels, `${at}: glyphs of the text colour`).toBeGreaterThan(2000);
              expect(outside.p10, at).toBeGreaterThanOrEqual(4.5);
              if (outside.p10 < outsideMinimum.contrast)
                Object.assign(outsideMinimum, { contrast: outside.p10, where: at });
            }
          }
      });
    }
  });
}
