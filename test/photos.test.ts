/**
 * The real photographs of ../shared/fixtures/photos through the renderer and through the API,
 * across templates, aspects and formats: exact sizes, text inside the safe zone, and a WCAG contrast
 * ratio of at least 4.5:1 behind the text whenever the gradient is on.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeZoneOf } from '../src/domain/render/layout.js';
import { createRenderer } from '../src/domain/render/index.js';
import { ASPECTS, generateOptionsSchema } from '../src/domain/schemas.js';
import { PHOTO_FILES, photo } from './support/images.js';
import { download, generate, startTestServer, testFonts, type TestServer } from './support/server.js';

const renderer = createRenderer(testFonts());
const TEMPLATES = ['bottom-left', 'left', 'right', 'split'] as const;
const ASPECT_NAMES = ['og', 'square', 'portrait'] as const;

describe('every photo × template × aspect', () => {
  for (const file of PHOTO_FILES) {
    it(`${file}: right size, text in the safe zone, contrast at least 4.5:1`, async () => {
      let minContrast = Infinity;
      for (const template of TEMPLATES)
        for (const aspect of ASPECT_NAMES) {
          const options = generateOptionsSchema.parse({
            title: 'Notes from a week of building things in the open',
            subtitle: 'Field report · 6 min read',
            template,
            aspect,
            fileFormat: 'jpeg',
          });
          const out = await renderer.render(photo(file), options);
          const meta = await sharp(out.image).metadata();
          expect([meta.width, meta.height]).toEqual([ASPECTS[aspect].width, ASPECTS[aspect].height]);
          const safe = safeZoneOf(aspect);
          const b = out.layout.bounds;
          const where = `${template} ${aspect}`;
          expect(b.x, where).toBeGreaterThanOrEqual(safe.x - 0.5);
          expect(b.y, where).toBeGreaterThanOrEqual(safe.y - 0.5);
          expect(b.x + b.width, where).toBeLessThanOrEqual(safe.x + safe.width + 0.5);
          expect(b.y + b.height, where).toBeLessThanOrEqual(safe.y + safe.height + 0.5);
          expect(out.tones.contrast, where).toBeGreaterThanOrEqual(4.5);
          minContrast = Math.min(minContrast, out.tones.contrast);
        }
      expect(minContrast).toBeGreaterThanOrEqual(4.5);
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
