/**
 * What a hostile or careless client meets at the HTTP layer, each pinned by a test: mismatched
 * Content-Encoding, malformed percent-encoding in paths, /mcp body errors in JSON-RPC, multipart
 * parts without a name, broken images, /files ranges, the bounded render queue, slow clients and
 * the rate-limit headers.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHOTO_FILES, photo } from '../support/images.js';
import { spawnServer } from '../support/process.js';
import { assertMatchesOpenApi } from '../support/openapi.js';
import { call, generate, startTestServer, type TestServer } from '../support/server.js';

let srv: TestServer;
let token: string;
beforeAll(async () => {
  srv = await startTestServer();
  ({ token } = await srv.createUser('pro'));
});
afterAll(async () => srv.close());

describe('malformed requests get a 4xx with a clear error, never a 500', () => {
  it('a Content-Encoding that does not match the body: 400 on field body for REST, JSON-RPC -32700 for /mcp', async () => {
    for (const encoding of ['gzip', 'deflate', 'br']) {
      const rest = await fetch(`${srv.base}/tokens`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-encoding': encoding,
        },
        body: '{"name":"not compressed"}',
      });
      expect(rest.status, encoding).toBe(400);
      const body = (await rest.json()) as { error: { code: string; details: { field: string } } };
      expect(body.error.code).toBe('VALIDATION_ERROR');
      expect(body.error.details.field).toBe('body');
      const mcp = await fetch(`${srv.url}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-encoding': encoding,
        },
        body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      });
      expect(mcp.status, encoding).toBe(400);
      expect(((await mcp.json()) as { error: { code: number } }).error.code).toBe(-32700);
    }
    // A real gzip body still works.
    const ok = await fetch(`${srv.base}/tokens`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'content-encoding': 'gzip',
      },
      body: gzipSync('{"name":"compressed"}'),
    });
    expect(ok.status).toBe(201);
  });

  it('a JSON endpoint given another Content-Type: 400 on field body naming the type, not a missing field', async () => {
    const post = (path: string, headers: Record<string, string>, body?: string | FormData) =>
      fetch(`${srv.base}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, ...headers },
        body,
      }).then(async (res) => ({
        status: res.status,
        error: ((await res.json()) as { error: { message: string; details: unknown } }).error,
      }));
    // curl -d '{"name": "x"}' without -H sends application/x-www-form-urlencoded.
    const cases: [string, Record<string, string>, string][] = [
      [
        '/tokens',
        { 'content-type': 'application/x-www-form-urlencoded' },
        '"application/x-www-form-urlencoded"',
      ],
      ['/tokens', { 'content-type': 'text/plain;charset=UTF-8' }, '"text/plain;charset=UTF-8"'],
      ['/layout', { 'content-type': 'text/plain' }, '"text/plain"'],
      ['/presets', { 'content-type': 'application/xml' }, '"application/xml"'],
    ];
    for (const [path, headers, received] of cases) {
      const refused = await post(path, headers, '{"name": "x", "title": "x"}');
      expect(refused.status, path).toBe(400);
      expect(refused.error.details).toEqual({ field: 'body', constraint: 'format' });
      expect(refused.error.message).toBe(
        `Expected a body of Content-Type application/json but received ${received}`,
      );
    }
    // No body at all is still the route's own error on its first required field.
    const empty = await post('/tokens', {});
    expect(empty.status).toBe(400);
    expect(empty.error.details).toEqual({ field: 'name', constraint: 'required' });
    // A batch reads multipart/form-data (its CSV) too; XML names both types.
    const xml = await post('/batches', { 'content-type': 'application/xml' }, '<batch/>');
    expect(xml.error.message).toBe(
      'Expected a body of Content-Type application/json or multipart/form-data but received "application/xml"',
    );
    const created = await post('/tokens', { 'content-type': 'application/json' }, '{"name": "json"}');
    expect(created.status).toBe(201);
    const tokens = await call(srv.base, 'GET', '/tokens', { token });
    expect(tokens.body.data.tokens.map((t: { name: string }) => t.name)).toContain('json');
  });

  it('malformed percent-encoding in a path parameter: 400 naming the path', async () => {
    for (const [method, path] of [
      ['GET', '/files/%zz'],
      ['GET', '/files/%'],
      ['GET', '/files/%E0%A4%A'],
      ['DELETE', '/api/tokens/%'],
      ['GET', '/api/images/%zz'],
    ] as const) {
      const res = await fetch(`${srv.url}${path}`, { method, headers: { authorization: `Bearer ${token}` } });
      expect(res.status, path).toBe(400);
      const body = (await res.json()) as {
        error: { code: string; details: { field: string; constraint: string } };
      };
      expect(body.error.details, path).toEqual({ field: 'path', constraint: 'format' });
    }
  });

  it('/mcp: unparseable JSON is JSON-RPC -32700; a body over the limit names the real limit', async () => {
    const headers = {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const broken = await fetch(`${srv.url}/mcp`, { method: 'POST', headers, body: '{"jsonrpc": "2.0", ' });
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 }, id: null });
    // The same for a large body, parsed in a turn of its own (src/mcp/http.ts), and for JSON that
    // is not an object or array.
    for (const body of [`{"x": "${'a'.repeat(100_000)}`, `"${'a'.repeat(100_000)}"`, '42']) {
      const refused = await fetch(`${srv.url}/mcp`, { method: 'POST', headers, body });
      expect(refused.status, body.slice(0, 20)).toBe(400);
      expect(await refused.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 }, id: null });
    }
    const huge = await fetch(`${srv.url}/mcp`, {
      method: 'POST',
      headers,
      body: `{"x":"${'a'.repeat(16 * 1024 * 1024)}"}`,
    });
    expect(huge.status).toBe(413);
    const answer = (await huge.json()) as { error: { code: number; message: string } };
    expect(answer.error.code).toBe(-32600);
    expect(answer.error.message).toMatch(/15 MB/);
  });

  it('JSON nested 30,000 deep is a 400 on body (REST) or JSON-RPC -32600 (/mcp), not a 500 from a stack overflow (issue 41)', async () => {
    const deep = (inner: string) => `${'['.repeat(30_000)}${inner}${']'.repeat(30_000)}`;
    const template = await fetch(`${srv.base}/templates`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: `{"name":"Deep","layers":${deep('1')}}`,
    });
    expect(template.status).toBe(400);
    expect(((await template.json()) as { error: { details: unknown; message: string } }).error).toMatchObject(
      {
        details: { field: 'body', constraint: 'max' },
        message: 'Expected JSON nested at most 64 deep, but the body nests deeper',
      },
    );
    const rpc = await fetch(`${srv.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"check_layout","arguments":{"title":${deep('"x"')}}}}`,
    });
    expect(rpc.status).toBe(400);
    expect(await rpc.json()).toMatchObject({ error: { code: -32600 } });
    // 64 deep is still taken (as a document, refused for what it says, not for its depth).
    const fine = await fetch(`${srv.base}/templates`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: `{"name":"Deep","layers":${'['.repeat(60)}${']'.repeat(60)}}`,
    });
    expect(fine.status).toBe(400);
    expect(((await fine.json()) as { error: { details: { field: string } } }).error.details.field).not.toBe(
      'body',
    );
  });

  it('a multipart part with an empty name is a 400 naming the body', async () => {
    const boundary = 'xxBOUNDARYxx';
    const body =
      `--${boundary}\r\nContent-Disposition: form-data; name=""\r\n\r\nvalue\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nHi\r\n--${boundary}--\r\n`;
    const res = await fetch(`${srv.base}/generate`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      body,
    });
    expect(res.status).toBe(400);
    const answer = (await res.json()) as { error: { message: string; details: { field: string } } };
    expect(answer.error.details.field).toBe('body');
    expect(answer.error.message).not.toMatch(/undefined/);
  });
});

describe('broken images are refused, not published', () => {
  /** A photo-like JPEG or PNG (noise, so that every row carries data). */
  const photoLike = (format: 'jpeg' | 'png') =>
    sharp({
      create: {
        width: 1600,
        height: 1200,
        channels: 3,
        background: '#000000',
        noise: { type: 'gaussian', mean: 128, sigma: 50 },
      },
    })
      .toFormat(format)
      .toBuffer();

  it('a JPEG or PNG cut short is a 400, wherever the cut falls', async () => {
    for (const format of ['jpeg', 'png'] as const) {
      const whole = await photoLike(format);
      for (const keep of [0.9, 0.99]) {
        const cut = whole.subarray(0, Math.floor(whole.length * keep));
        for (const aspect of ['og', 'portrait']) {
          const res = await generate(
            srv.base,
            token,
            { title: 'Cut', aspect },
            { data: cut, type: `image/${format}` },
          );
          expect(res.status, `${format} at ${keep}, ${aspect}`).toBe(400);
          expect(res.body.error.details).toEqual({ field: 'image', constraint: 'format' });
          expect(res.body.error.message).toMatch(/corrupt or truncated/);
        }
      }
    }
  });

  it('a whole JPEG with data appended after its end (a motion photo) is accepted', async () => {
    const jpeg = await photoLike('jpeg');
    const res = await generate(
      srv.base,
      token,
      { title: 'Motion' },
      { data: Buffer.concat([jpeg, Buffer.alloc(200_000, 0x42)]) },
    );
    expect(res.status).toBe(201);
  });

  it('a JPEG whose header claims more pixels than its data holds is a 400', async () => {
    const jpeg = await sharp({ create: { width: 800, height: 1202, channels: 3, background: '#336699' } })
      .jpeg()
      .toBuffer();
    // SOF0: FF C0, length (2), precision (1), height (2), width (2).
    const sof = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
    expect(sof).toBeGreaterThan(0);
    const lying = Buffer.from(jpeg);
    lying.writeUInt16BE(8000, sof + 5);
    lying.writeUInt16BE(8000, sof + 7);
    const res = await generate(srv.base, token, { title: 'Liar' }, { data: lying });
    expect(res.status).toBe(400);
    expect(res.body.error.details.field).toBe('image');
  });

  it('a valid but extreme 64000×1 or 1×64000 PNG is refused with a true message: an aspect-ratio limit', async () => {
    for (const [width, height] of [
      [64000, 1],
      [1, 64000],
    ] as const) {
      const png = await sharp({ create: { width, height, channels: 3, background: '#808080' } })
        .png()
        .toBuffer();
      const res = await generate(srv.base, token, { title: 'Thin' }, { data: png, type: 'image/png' });
      expect(res.status, `${width}×${height}`).toBe(400);
      expect(res.body.error.details).toEqual({ field: 'image', constraint: 'max' });
      expect(res.body.error.message).toMatch(/aspect ratio/);
      expect(res.body.error.message).toContain(`${width}×${height}`);
    }
  });

  it('every fixture photograph still passes the strict decoding', async () => {
    for (const file of PHOTO_FILES) {
      const res = await generate(
        srv.base,
        token,
        { title: file, fileFormat: 'jpeg' },
        { data: photo(file), type: file.endsWith('.png') ? 'image/png' : 'image/jpeg' },
      );
      expect(res.status, file).toBe(201);
    }
  });
});

describe('/files', () => {
  it('streams with a strong ETag: If-None-Match gets 304, HEAD only headers, a range 206, a range past the end 416', async () => {
    const made = await generate(
      srv.base,
      token,
      { title: 'Files', fileFormat: 'png' },
      {
        data: await sharp({ create: { width: 800, height: 500, channels: 3, background: '#204060' } })
          .jpeg()
          .toBuffer(),
      },
    );
    const url = made.body.data.url as string;
    const key = new URL(url).pathname.split('/').pop() as string;
    const full = await fetch(url);
    const bytes = Buffer.from(await full.arrayBuffer());
    expect(full.headers.get('etag')).toBe(`"${key}"`);
    expect(full.headers.get('accept-ranges')).toBe('bytes');
    expect(Number(full.headers.get('content-length'))).toBe(bytes.length);

    const again = await fetch(url, { headers: { 'if-none-match': `"${key}"` } });
    expect(again.status).toBe(304);
    expect((await again.arrayBuffer()).byteLength).toBe(0);

    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBe(bytes.length);
    expect(head.headers.get('content-type')).toBe('image/png');

    const part = await fetch(url, { headers: { range: 'bytes=100-299' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-299/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(100, 300))).toBe(true);

    const past = await fetch(url, { headers: { range: `bytes=${bytes.length + 10}-` } });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${bytes.length}`);

    // A range in another unit is ignored (RFC 9110 section 14.2): the whole file, 200.
    for (const range of ['items=0-5', `pages=${bytes.length + 10}-`]) {
      const other = await fetch(url, { headers: { range } });
      expect(other.status, range).toBe(200);
      expect(other.headers.get('content-range'), range).toBeNull();
      expect(Buffer.from(await other.arrayBuffer()).equals(bytes), range).toBe(true);
    }
  });
});

describe('a bounded render queue', () => {
  it('past RENDER_CONCURRENCY + RENDER_QUEUE generations, POST /generate answers 503 with Retry-After and charges nothing', async () => {
    const busy = await startTestServer({ env: { RENDER_CONCURRENCY: '1', RENDER_QUEUE: '1' } });
    try {
      const { token: own } = await busy.createUser('pro');
      const big = photo('Kleiber_by_Lukas_Baubkus.jpg');
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) => generate(busy.base, own, { title: `Burst ${i}` }, { data: big })),
      );
      const created = answers.filter((a) => a.status === 201).length;
      const refused = answers.filter((a) => a.status === 503);
      expect(created).toBeGreaterThanOrEqual(2);
      expect(refused.length).toBeGreaterThan(0);
      expect(created + refused.length).toBe(6);
      for (const r of refused) {
        expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(r.body.error.code).toBe('BUSY');
        assertMatchesOpenApi('POST', '/generate', 503, r.body);
      }
      const usage = await call(busy.base, 'GET', '/usage', { token: own });
      expect(usage.body.data.usage.generated).toBe(created);
    } finally {
      await busy.close();
    }
  });
});

describe('slow clients', () => {
  it('300 trickling connections are dropped after the header timeout, and others are served meanwhile', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'titlecard-slow-'));
    const server = await spawnServer({ DATA_DIR: dataDir });
    try {
      const { port } = new URL(server.url);
      const sockets = await Promise.all(
        Array.from(
          { length: 300 },
          () =>
            new Promise<Socket>((resolve) => {
              const s = connect(Number(port), '127.0.0.1', () => {
                s.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: ');
                resolve(s);
              });
              s.on('error', () => undefined);
              s.resume(); // read what the server sends (its 408), so that the end of the stream is seen
            }),
        ),
      );
      const started = Date.now();
      const closed = Promise.all(
        sockets.map(
          (s) => new Promise<number>((resolve) => s.once('close', () => resolve(Date.now() - started))),
        ),
      );
      const served = await fetch(`${server.url}/healthz`);
      expect(served.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(Math.max(...(await closed))).toBeLessThan(15_000); // 10 s header timeout, checked every 2 s
    } finally {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 40_000);
});

describe('rate-limit headers', () => {
  it('authenticated answers carry the monthly quota as RateLimit-Policy and RateLimit (IETF draft)', async () => {
    const { token: own } = await srv.createUser('free');
    const before = await fetch(`${srv.base}/usage`, { headers: { authorization: `Bearer ${own}` } });
    expect(before.headers.get('ratelimit-policy')).toMatch(
      /^"monthly";q=10;w=(2419200|2505600|2592000|2678400)$/,
    );
    expect(before.headers.get('ratelimit')).toMatch(/^"monthly";r=10;t=\d+$/);
    const made = await generate(
      srv.base,
      own,
      { title: 'Counted' },
      {
        data: await sharp({ create: { width: 400, height: 300, channels: 3, background: '#123456' } })
          .jpeg()
          .toBuffer(),
      },
    );
    expect(made.status).toBe(201);
    expect(made.headers.get('ratelimit')).toMatch(/^"monthly";r=9;t=\d+$/);
    const reset = Number(/t=(\d+)/.exec(made.headers.get('ratelimit') ?? '')?.[1]);
    const now = new Date();
    const expected = (Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) - Date.now()) / 1000;
    expect(Math.abs(reset - expected)).toBeLessThan(5);
  });
});
