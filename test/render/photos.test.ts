/**
 * The real photographs of test/fixtures/photos through the API, across templates, aspects and
 * formats: each answers 201 with an image of the exact size and format and no metadata. (The
 * renderer's matrix over them: photos-matrix-*.test.ts.)
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASPECTS } from '../../src/domain/design.js';
import { PHOTO_FILES, photo } from '../support/images.js';
import { ASPECT_NAMES, TEMPLATES } from '../support/photo-matrix.js';
import { download, generate, startTestServer, type TestServer } from '../support/server.js';

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
