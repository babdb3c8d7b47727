/**
 * POST /generate with bad input, through real HTTP: the documented status and error code, a message
 * naming the field, nothing stored and nothing charged (docs/api.md#errors; docs/api.md).
 */
import { readdirSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { photo, solid } from '../support/images.js';
import { assertMatchesOpenApi } from '../support/openapi.js';
import {
  answerBeforeUploadEnds,
  call,
  generate,
  startTestServer,
  type TestServer,
} from '../support/server.js';

let srv: TestServer;
let white: Buffer;

beforeAll(async () => {
  srv = await startTestServer();
  white = await solid([255, 255, 255]);
});
afterAll(async () => srv.close());

describe('bad input: the documented error, nothing stored, nothing charged', () => {
  async function expectRefused(
    fields: Record<string, string>,
    image: { data: Buffer; filename?: string; type?: string } | undefined,
    status: number,
    details?: { field: string; constraint: string },
  ) {
    const user = await srv.createUser('free');
    const res = await generate(srv.base, user.token, fields, image);
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body.success).toBe(false);
    if (details) {
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details).toEqual(details);
      expect(res.body.error.message).toContain(details.field);
      assertMatchesOpenApi('POST', '/generate', 400, res.body);
    }
    const usage = await call(srv.base, 'GET', '/usage', { token: user.token });
    expect(usage.body.data.usage.generated).toBe(0);
    const list = await call(srv.base, 'GET', '/images', { token: user.token });
    expect(list.body.data.pagination.total).toBe(0);
    return res;
  }
  const jpeg = () => ({ data: white, filename: 'photo.png', type: 'image/png' });

  it('every invalid or missing field is a 400 VALIDATION_ERROR naming it', async () => {
    const cases: [Record<string, string>, string, string][] = [
      [{}, 'title', 'required'],
      [{ title: '   ' }, 'title', 'minLength'],
      [{ title: 'x'.repeat(201) }, 'title', 'maxLength'],
      [{ title: 'ok', subtitle: 'y'.repeat(201) }, 'subtitle', 'maxLength'],
      [{ title: 'ok', subtitle: '  ' }, 'subtitle', 'minLength'],
      [{ title: 'ok', position: 'middle' }, 'position', 'enum'],
      [{ title: 'ok', position: '{"x": 1.5, "y": 0.5}' }, 'position.x', 'max'],
      [{ title: 'ok', position: '{"x": 0.5}' }, 'position.y', 'required'],
      [{ title: 'ok', position: '{"x": 0.5, "y": "low"}' }, 'position.y', 'type'],
      [{ title: 'ok', position: '{broken' }, 'position', 'format'],
      [{ title: 'ok', template: 'top-right' }, 'template', 'enum'],
      [{ title: 'ok', colorMode: 'rainbow' }, 'colorMode', 'enum'],
      [{ title: 'ok', colorMode: 'custom' }, 'colorHex', 'required'],
      [{ title: 'ok', colorMode: 'custom', colorHex: 'red' }, 'colorHex', 'format'],
      [{ title: 'ok', colorMode: 'custom', colorHex: '#12345' }, 'colorHex', 'format'],
      [{ title: 'ok', gradient: 'yes' }, 'gradient', 'type'],
      [{ title: 'ok', textShadow: '1' }, 'textShadow', 'type'],
      [{ title: 'ok', fontSize: 'big' }, 'fontSize', 'type'],
      [{ title: 'ok', fontSize: '23.5' }, 'fontSize', 'min'],
      [{ title: 'ok', fontSize: '121' }, 'fontSize', 'max'],
      [{ title: 'ok', font: 'comic-sans' }, 'font', 'enum'],
      [{ title: 'ok', font: '{"system": "comic-sans"}' }, 'font.system', 'enum'],
      [{ title: 'ok', aspect: 'wide' }, 'aspect', 'enum'],
      [{ title: 'ok', fileFormat: 'gif' }, 'fileFormat', 'enum'],
      [{ title: 'bell\u0007' }, 'title', 'format'],
    ];
    for (const [fields, field, constraint] of cases)
      await expectRefused(fields, jpeg(), 400, { field, constraint });
  });

  it('a missing image, or image sent as text, is a 400 on field image', async () => {
    await expectRefused({ title: 'No image' }, undefined, 400, { field: 'image', constraint: 'required' });
    const user = await srv.createUser('free');
    const form = new FormData();
    form.append('title', 'x');
    form.append('image', 'not a file');
    const res = await fetch(`${srv.base}/generate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}` },
      body: form,
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { details: unknown } }).error.details).toEqual({
      field: 'image',
      constraint: 'type',
    });
  });

  it('a text field sent as a file, or a second image, is a 400 naming that field, in any order', async () => {
    const user = await srv.createUser('free');
    const send = async (parts: [string, string | Blob][]) => {
      const form = new FormData();
      for (const [name, value] of parts)
        if (typeof value === 'string') form.append(name, value);
        else form.append(name, value, `${name}.bin`);
      const res = await fetch(`${srv.base}/generate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${user.token}` },
        body: form,
      });
      const body = (await res.json()) as { error: { message: string; details: unknown } };
      return { status: res.status, ...body.error };
    };
    const image = new Blob([white]);
    const text = new Blob(['A title from a file']);
    for (const parts of [
      [
        ['image', image],
        ['title', text],
      ],
      [
        ['title', text],
        ['image', image],
      ],
    ] as [string, Blob][][]) {
      const refused = await send(parts);
      expect(refused.status).toBe(400);
      expect(refused.details).toEqual({ field: 'title', constraint: 'type' });
      expect(refused.message).toBe('Expected a text value for title but received a file');
    }
    const twice = await send([
      ['title', 'x'],
      ['image', image],
      ['image', image],
    ]);
    expect(twice.status).toBe(400);
    expect(twice.details).toEqual({ field: 'image', constraint: 'type' });
    expect(twice.message).toBe('Expected a single file for image but received several');
    const usage = await call(srv.base, 'GET', '/usage', { token: user.token });
    expect(usage.body.data.usage.generated).toBe(0);
  });

  it('a body that is not multipart/form-data is a 400', async () => {
    const user = await srv.createUser('free');
    const res = await call(srv.base, 'POST', '/generate', { token: user.token, json: { title: 'json' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('the bytes decide the format: GIF, SVG, TIFF, HEIC or text named photo.jpg are refused', async () => {
    const gif = await sharp(white).resize(100, 100).gif().toBuffer();
    const tiff = await sharp(white).resize(100, 100).tiff().toBuffer();
    const heic = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypheic'), Buffer.alloc(64)]);
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><rect width="100" height="100"/></svg>',
    );
    for (const data of [gif, tiff, heic, svg, Buffer.from('hello world')]) {
      const res = await expectRefused(
        { title: 'Disguised' },
        { data, filename: 'photo.jpg', type: 'image/jpeg' },
        400,
        {
          field: 'image',
          constraint: 'format',
        },
      );
      expect(res.body.error.message).toMatch(/JPEG, PNG or WebP/);
    }
  });

  it('a corrupt or truncated image is a 400, never a 500', async () => {
    const real = photo('mate_RainDrops.jpg');
    const truncated = real.subarray(0, Math.floor(real.length * 0.3));
    const corrupt = Buffer.concat([real.subarray(0, 600), Buffer.alloc(5000, 0x55)]);
    const pngTruncated = (await solid([1, 2, 3], 'png', 300, 300)).subarray(0, 80);
    for (const data of [truncated, corrupt, pngTruncated]) {
      await expectRefused({ title: 'Broken' }, { data }, 400, { field: 'image', constraint: 'format' });
    }
  });

  it('a decompression bomb (a small PNG of 20000 × 20000 pixels) is refused without being decoded', async () => {
    const chunk = (type: string, data: Buffer) => {
      const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
      const len = Buffer.alloc(4);
      len.writeUInt32BE(data.length);
      const crc = Buffer.alloc(4);
      crc.writeUInt32BE(crc32(body));
      return Buffer.concat([len, body, crc]);
    };
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(20000, 0);
    ihdr.writeUInt32BE(20000, 4);
    ihdr.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
    const row = Buffer.alloc(20001); // filter byte + zeros
    const idat = deflateSync(Buffer.concat(Array.from({ length: 64 }, () => row)));
    const bomb = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', ihdr),
      chunk('IDAT', idat),
      chunk('IEND', Buffer.alloc(0)),
    ]);
    expect(bomb.length).toBeLessThan(10_000);
    const started = Date.now();
    const res = await expectRefused(
      { title: 'Bomb' },
      { data: bomb, filename: 'bomb.png', type: 'image/png' },
      400,
      {
        field: 'image',
        constraint: 'max',
      },
    );
    expect(res.body.error.message).toContain('20000×20000');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('an image over 10 MB is a 413 FILE_TOO_LARGE without details, answered before the upload ends', async () => {
    const big = Buffer.concat([white, Buffer.alloc(10 * 1024 * 1024 + 1 - white.length)]);
    const res = await expectRefused({ title: 'Too big' }, { data: big }, 413);
    expect(res.body).toEqual({
      success: false,
      error: { code: 'FILE_TOO_LARGE', message: expect.stringContaining('10 MB') },
    });
    assertMatchesOpenApi('POST', '/generate', 413, res.body);
    // The 413 comes once the upload crosses 10 MB, while the rest of a 50 MB upload is still unsent.
    const early = await answerBeforeUploadEnds(
      srv.base,
      (await srv.createUser('free')).token,
      { title: 'Big' },
      {
        sentBytes: 11 * 1024 * 1024,
        declaredBytes: 50 * 1024 * 1024,
      },
    );
    expect(early.status).toBe(413);
    // 50 MB: the answer still arrives as a 413, not a reset connection.
    const huge = Buffer.alloc(50 * 1024 * 1024, 1);
    const user = await srv.createUser('free');
    const r2 = await generate(srv.base, user.token, { title: 'Huge' }, { data: huge });
    expect(r2.status).toBe(413);
    // Nothing of the refused uploads stays open or on disk: no descriptor of this process (the test
    // server runs in it) still points at an upload's temporary file.
    // (The upload's stream closes and its file goes just after the answer: looked at until they
    // have, for up to 2 s.)
    await vi.waitFor(
      () => {
        const open = readdirSync('/proc/self/fd')
          .map((fd) => {
            try {
              return readlinkSync(`/proc/self/fd/${fd}`);
            } catch {
              return '';
            }
          })
          .filter(
            (target) => target.startsWith(path.join(srv.dataDir, 'uploads')) && !target.endsWith('uploads'),
          );
        expect(open).toEqual([]);
        // And no file is left in the server's upload directory.
        const [own] = readdirSync(path.join(srv.dataDir, 'uploads'));
        expect(readdirSync(path.join(srv.dataDir, 'uploads', own as string))).toEqual([]);
      },
      { timeout: 2000, interval: 20 },
    );
  });

  it('an image of exactly 10 MB is accepted', async () => {
    const padded = Buffer.concat([white, Buffer.alloc(10 * 1024 * 1024 - white.length)]);
    const user = await srv.createUser('free');
    const res = await generate(
      srv.base,
      user.token,
      { title: 'Exactly ten' },
      { data: padded, filename: 'x.png', type: 'image/png' },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });
});
