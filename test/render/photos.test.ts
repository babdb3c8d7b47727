/**
 * The real photographs of test/fixtures/photos through the renderer and through the API,
 * across templates, aspects and formats: exact sizes, text inside the safe zone, and a WCAG contrast
 * ratio of at least 4.5:1 whenever the gradient is on, with the text shadow on and off. Measured from
 * the outputs: the ink box where two renders with the text in two colours differ, the contrast 3 to
 * 6 px outside the glyphs, as a reader sees it (a transparent PNG flattened on white). The renderer's
 * own contrast behind the glyphs, on the pixels it blended, is checked beside it.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeZoneOf } from '../../src/domain/render/geometry.js';
import { createRenderer, type RenderResult } from '../../src/domain/render/index.js';
import { generateOptionsSchema } from '../../src/domain/images/schemas.js';
import { ASPECTS } from '../../src/domain/design.js';
import { outsideContrast } from '../support/contrast.js';
import { differenceBox, PHOTO_FILES, photo, solid } from '../support/images.js';
import { download, generate, startTestServer, testFonts, type TestServer } from '../support/server.js';

const renderer = createRenderer(testFonts());
const TEMPLATES = ['bottom-left', 'left', 'right', 'split'] as const;
const ASPECT_NAMES = ['og', 'square', 'portrait'] as const;

/** Backgrounds of the matrix: every photograph, and the two extremes, plain white and plain black. */
const BACKGROUNDS: [string, () => Promise<Buffer>][] = [
  ...PHOTO_FILES.map((f) => [f, async () => photo(f)] as [string, () => Promise<Buffer>]),
  ['plain white', () => solid([255, 255, 255], 'png', 1600, 1000)],
  ['plain black', () => solid([0, 0, 0], 'png', 1600, 1000)],
];
const matrixMinimum = { contrast: Infinity, where: '' };
const outsideMinimum = { contrast: Infinity, where: '' };
afterAll(() => {
  console.log(
    `[titlecard] minimum contrast over the matrix, 10th percentile: ${matrixMinimum.contrast.toFixed(2)}:1 behind the glyphs (renderer) at ${matrixMinimum.where}; ${outsideMinimum.contrast.toFixed(2)}:1 3–6 px outside them (from the output) at ${outsideMinimum.where}`,
  );
});

describe('every background × template × aspect, measured on the pixels', () => {
  for (const [name, load] of BACKGROUNDS) {
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

describe('the photos through the API', () => {
  let srv: TestServer;
  let token: string;
  beforeAll(async () => {
    srv = await startTestServer();
    ({ token } = await srv.createUser('agency'));
  });
  afterAll(async () => srv.close());

  const formats = ['png', 'jpeg', 'webp'] as const;
  PHOTO_FILES.forEach((file, i) => {
    const template = TEMPLATES[i % 4] as string;
    const aspect = ASPECT_NAMES[i % 3] as (typeof ASPECT_NAMES)[number];
    const fileFormat = formats[i % 3] as string;
    it(`${file} as ${template}, ${aspect}, ${fileFormat}`, async () => {
      const res = await generate(
        srv.base,
        token,
        { title: 'A title on a real photograph', subtitle: 'Subtitle', template, aspect, fileFormat },
        {
          data: photo(file),
          filename: file,
          type: file.endsWith('.png') ? 'image/png' : 'image/jpeg',
        },
      );
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const image = await download(res.body.data.url as string);
      const meta = await sharp(image.data).metadata();
      expect(meta.format).toBe(fileFormat);
      expect([meta.width, meta.height]).toEqual([ASPECTS[aspect].width, ASPECTS[aspect].height]);
      expect(meta.exif).toBeUndefined();
    });
  });
});
