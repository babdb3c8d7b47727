/**
 * The MCP connector over Streamable HTTP, with the v2 SDK's real Client (at 2026-07-28) against the running server:
 * tools and their schemas, every tool, authentication and revocation, the quota shared with REST,
 * imageUrl through the domain's SSRF-safe fetcher, and the transport's edges (405, DNS rebinding,
 * no OAuth discovery).
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOL_NAMES } from '../support/mcp-tools.js';
import { imageRecordSchema } from '../../src/domain/images/schemas.js';
import { fakeLookup } from '../support/dns.js';
import { solid } from '../support/images.js';
import { call, download, startTestServer, type TestServer } from '../support/server.js';

let srv: TestServer;
let imageHost: Server;
let imageHostUrl: string;
let jpeg: Buffer;

beforeAll(async () => {
  // 127.0.0.2 is allowed for this test server only: it stands for a public image host.
  srv = await startTestServer({ fetcher: { allowAddresses: ['127.0.0.2'], lookup: fakeLookup } });
  jpeg = await solid([40, 100, 160], 'jpeg', 800, 500);
  imageHost = createServer((req, res) => {
    if (req.url === '/photo.jpg') res.writeHead(200, { 'content-type': 'image/jpeg' }).end(jpeg);
    else if (req.url?.startsWith('/to-loopback'))
      res.writeHead(302, { location: `${srv.url}/api/openapi.json` }).end();
    else if (req.url === '/to-metadata')
      res.writeHead(301, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    else if (req.url === '/loop') res.writeHead(302, { location: '/loop' }).end();
    else if (req.url === '/big.jpg') {
      res.writeHead(200, { 'content-type': 'image/jpeg' });
      res.end(Buffer.alloc(11 * 1024 * 1024));
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => imageHost.listen(0, '127.0.0.2', resolve));
  imageHostUrl = `http://127.0.0.2:${(imageHost.address() as { port: number }).port}`;
});
afterAll(async () => {
  imageHost.closeAllConnections();
  await new Promise((r) => imageHost.close(r));
  await srv.close();
});

/** The v2 client at the current revision, 2026-07-28 (revisions.test.ts runs the older ones). */
async function connect(token: string): Promise<Client> {
  const client = new Client(
    { name: 'titlecard-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}
const tool = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  await client.callTool({ name, arguments: args });
const errorText = (r: CallToolResult) => {
  expect(r.isError).toBe(true);
  return (r.content[0] as { text: string }).text;
};

describe('tools/list', () => {
  it('lists every tool with titles, input and output schemas, and every annotation set', async () => {
    const { token } = await srv.createUser('pro');
    const client = await connect(token);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOL_NAMES);
    for (const t of tools) {
      expect(t.title, t.name).toBeTruthy();
      expect(t.description, t.name).toBeTruthy();
      expect(t.outputSchema, t.name).toBeDefined();
      expect(Object.keys(t.annotations ?? {}).sort()).toEqual([
        'destructiveHint',
        'idempotentHint',
        'openWorldHint',
        'readOnlyHint',
      ]);
    }
    const generate = tools.find((t) => t.name === 'generate_image');
    expect(generate?.description).toMatch(/quota/);
    expect(generate?.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
    });
    const props = Object.keys(generate?.inputSchema.properties ?? {});
    expect(props).toEqual(
      expect.arrayContaining([
        'title',
        'subtitle',
        'template',
        'position',
        'font',
        'aspect',
        'fileFormat',
        'imageUrl',
        'imageBase64',
      ]),
    );
    expect(props).not.toContain('imagePath'); // a path on the server's disk is never offered over HTTP
    expect(tools.find((t) => t.name === 'list_images')?.annotations?.readOnlyHint).toBe(true);
    await client.close();
  });
});

describe('generate_image', () => {
  it('returns the record as structured content and text, an inline JPEG preview and a link to the image', async () => {
    const { token } = await srv.createUser('pro');
    const client = await connect(token);
    const r = await tool(client, 'generate_image', {
      title: 'From an assistant',
      subtitle: 'via MCP',
      imageBase64: jpeg.toString('base64'),
      template: 'split',
      aspect: 'square',
      fileFormat: 'webp',
      font: { system: 'lora' },
    });
    expect(r.isError).toBeFalsy();
    const record = imageRecordSchema.parse(r.structuredContent);
    expect([record.width, record.height]).toEqual([1080, 1080]);
    expect(JSON.parse((r.content[0] as { text: string }).text)).toEqual(r.structuredContent);
    const preview = r.content.find((c) => c.type === 'image') as { data: string; mimeType: string };
    expect(preview.mimeType).toBe('image/jpeg');
    const previewBytes = Buffer.from(preview.data, 'base64');
    expect(previewBytes.length).toBeLessThanOrEqual(100 * 1024);
    const meta = await sharp(previewBytes).metadata();
    expect(meta.format).toBe('jpeg');
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBeLessThanOrEqual(1568);
    const link = r.content.find((c) => c.type === 'resource_link') as { uri: string; mimeType: string };
    expect(link.uri).toBe(record.url);
    expect(link.mimeType).toBe('image/webp');
    const file = await download(record.url);
    expect(file.status).toBe(200);
    expect((await sharp(file.data).metadata()).format).toBe('webp');
    await client.close();
  });

  it('fetches an http imageUrl from a public host', async () => {
    const { token } = await srv.createUser('pro');
    const client = await connect(token);
    const r = await tool(client, 'generate_image', {
      title: 'Fetched',
      imageUrl: `${imageHostUrl}/photo.jpg`,
    });
    expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
    const viaDns = await tool(client, 'generate_image', {
      title: 'Fetched by name',
      imageUrl: `http://images.example.test:${new URL(imageHostUrl).port}/photo.jpg`,
    });
    expect(viaDns.isError, JSON.stringify(viaDns.content)).toBeFalsy();
    await client.close();
  });

  it('imageUrl goes through the SSRF-safe fetcher: loopback, metadata, a private DNS answer and a redirect to the server are refused', async () => {
    // Every spelling of every refused address is test/system/safe-fetch.test.ts's; here, that the
    // tool's imageUrl reaches that fetcher (the domain's), and that a refusal charges nothing.
    const { token } = await srv.createUser('pro');
    const client = await connect(token);
    const port = new URL(srv.url).port;
    const attempts = [
      `http://127.0.0.1:${port}/api/openapi.json`,
      'http://169.254.169.254/latest/meta-data/',
      `http://intranet.example.test/photo.jpg`, // DNS answers 10.1.2.3
      `${imageHostUrl}/to-loopback`, // redirect to the server itself
    ];
    for (const imageUrl of attempts) {
      const text = errorText(await tool(client, 'generate_image', { title: 'SSRF', imageUrl }));
      expect(text, imageUrl).toMatch(/Could not fetch imageUrl: .*not allowed/);
    }
    expect(
      errorText(await tool(client, 'generate_image', { title: 'x', imageUrl: 'file:///etc/passwd' })),
    ).toMatch(/imageUrl/);
    expect(
      errorText(await tool(client, 'generate_image', { title: 'x', imageUrl: `${imageHostUrl}/loop` })),
    ).toMatch(/redirects/);
    expect(
      errorText(await tool(client, 'generate_image', { title: 'x', imageUrl: `${imageHostUrl}/big.jpg` })),
    ).toMatch(/10 MB/);
    const usage = await call(srv.base, 'GET', '/usage', { token });
    expect(usage.body.data.usage.generated).toBe(0);
    await client.close();
  });

  it('errors the model can act on come back as isError results naming the problem', async () => {
    const { workspace, token } = await srv.createUser('free');
    const client = await connect(token);
    expect(errorText(await tool(client, 'generate_image', { title: 'No image' }))).toMatch(
      /imageBase64, or one of asset and imageUrl \(or a preset with a background\)/,
    );
    expect(
      errorText(
        await tool(client, 'generate_image', {
          title: 'x',
          imageBase64: jpeg.toString('base64'),
          fontSize: 300,
        }),
      ),
    ).toMatch(/fontSize/);
    expect(
      errorText(
        await tool(client, 'generate_image', {
          title: 'x',
          imageBase64: Buffer.from('GIF89a....').toString('base64'),
        }),
      ),
    ).toBe(
      'Invalid imageBase64 (format): Expected a JPEG, PNG or WebP image for imageBase64 but received a GIF image',
    );
    // Node's decoder skips what is not base64: such a value is refused on its own terms.
    expect(
      errorText(
        await tool(client, 'generate_image', { title: 'x', imageBase64: `!${jpeg.toString('base64')}` }),
      ),
    ).toBe('Invalid imageBase64 (format): Expected base64 for imageBase64 but received "!" at character 1');
    expect(
      errorText(await tool(client, 'generate_image', { title: 'x', imageBase64: 'data:image/jpeg,abc' })),
    ).toBe(
      'Invalid imageBase64 (format): Expected base64 for imageBase64 but received a data: URL without ;base64',
    );
    // A data URL (as assistants often send) and MIME's 76-character lines are read as the bytes they hold.
    const wrapped = jpeg.toString('base64').replace(/.{76}/g, '$&\r\n');
    for (const imageBase64 of [`data:image/png;base64,${jpeg.toString('base64')}`, wrapped]) {
      const made = await tool(client, 'generate_image', { title: 'Inline', imageBase64 });
      expect(made.isError, JSON.stringify(made.content)).toBeFalsy();
    }
    // The free tier's 10 units: the two cards above, and eight more.
    for (let i = 0; i < 8; i++) await srv.services.ledger.charge(workspace);
    const quota = errorText(
      await tool(client, 'generate_image', { title: 'Over', imageBase64: jpeg.toString('base64') }),
    );
    expect(quota).toMatch(/quota/i);
    expect(quota).toContain(
      new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() + 1, 1)).toISOString(),
    );
    await client.close();
  });
});

describe('check_layout', () => {
  it('answers the fit check of POST /layout, free', async () => {
    const { token } = await srv.createUser('free');
    const client = await connect(token);
    const r = await tool(client, 'check_layout', { title: '新しいリリースのお知らせ', template: 'left' });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({
      template: 'left',
      lines: { title: ['新しい', 'リリースの', 'お知らせ'], subtitle: [] },
      truncated: false,
      fallbackFonts: ['Noto Sans JP'],
      missingCharacters: [],
    });
    expect((await call(srv.base, 'GET', '/usage', { token })).body.data.usage.generated).toBe(0);
    await client.close();
  });
});

describe('list_templates, get_template, and generate_image with a template', () => {
  it("lists the built-ins and the account's own with their variables, reads a document, and fills a template with fields", async () => {
    const { token } = await srv.createUser('pro');
    const created = await call(srv.base, 'POST', '/templates', {
      token,
      json: {
        name: 'Quote',
        variables: { who: { type: 'text', required: true } },
        layers: [
          { type: 'image', source: 'background' },
          { type: 'text', content: '{{title}}', box: { x: 0.1, y: 0.1, w: 0.8, h: 0.5 } },
          { type: 'text', content: '— {{who}}', box: { x: 0.1, y: 0.65, w: 0.8, h: 0.1 }, weight: 'regular' },
        ],
      },
    });
    const id = created.body.data.id as string;
    const client = await connect(token);
    const list = await tool(client, 'list_templates');
    const templates = (list.structuredContent as { templates: { id: string; variables: object }[] })
      .templates;
    expect(templates.map((t) => t.id)).toEqual(['bottom-left', 'left', 'right', 'split', id]);
    expect(templates.at(-1)?.variables).toEqual({ who: { type: 'text', required: true, maxLength: 200 } });
    const one = await tool(client, 'get_template', { id: 'split' });
    expect((one.structuredContent as { document: { layers: unknown[] } }).document.layers).toHaveLength(5);
    const missing = await tool(client, 'generate_image', {
      title: 'Less, but better',
      template: id,
      imageUrl: `${imageHostUrl}/photo.jpg`,
    });
    expect(errorText(missing)).toContain('fields.who');
    const made = await tool(client, 'generate_image', {
      title: 'Less, but better',
      template: id,
      fields: { who: 'Dieter Rams' },
      imageUrl: `${imageHostUrl}/photo.jpg`,
    });
    expect(made.isError).toBeFalsy();
    expect(imageRecordSchema.parse(made.structuredContent).width).toBe(1200);
    await client.close();
  });
});

describe('start_batch and get_batch', () => {
  it('starts a batch from an imageUrl, follows it to completion, and names a bad item', async () => {
    const { token } = await srv.createUser('pro');
    const client = await connect(token);
    const started = await tool(client, 'start_batch', {
      items: [0, 1, 2].map((i) => ({
        imageUrl: `${imageHostUrl}/photo.jpg`,
        title: `From an assistant ${i}`,
      })),
    });
    expect(started.isError, JSON.stringify(started.content)).toBeFalsy();
    const id = (started.structuredContent as { id: string }).id;
    let batch: { status: string; done: number; items: { image: { url: string } | null }[] } | undefined;
    for (let i = 0; i < 200 && batch?.status !== 'completed'; i++) {
      batch = (await tool(client, 'get_batch', { id })).structuredContent as typeof batch;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(batch).toMatchObject({ status: 'completed', done: 3 });
    expect(batch?.items.every((i) => i.image?.url.startsWith(srv.url))).toBe(true);
    expect(
      errorText(
        await tool(client, 'start_batch', { items: [{ imageUrl: `${imageHostUrl}/photo.jpg`, title: '' }] }),
      ),
    ).toContain('items[0].title');
    await client.close();
  });
});

describe('delete_image', () => {
  it('is marked destructive, deletes the image and its files, and says so for an unknown id', async () => {
    const { token } = await srv.createUser('pro');
    const client = await connect(token);
    const tool_ = (await client.listTools()).tools.find((t) => t.name === 'delete_image');
    expect(tool_?.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
    const made = await tool(client, 'generate_image', {
      title: 'Short-lived',
      imageBase64: jpeg.toString('base64'),
    });
    const record = imageRecordSchema.parse(made.structuredContent);
    expect((await download(record.url)).status).toBe(200);
    const r = await tool(client, 'delete_image', { id: record.id });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toEqual({ deleted: record.id });
    expect((await download(record.url)).status).toBe(404);
    const again = await tool(client, 'delete_image', { id: record.id });
    expect(again.isError).toBe(true);
    expect((again.content[0] as { text: string }).text).toMatch(new RegExp(`No image with id ${record.id}`));
    await client.close();
  });
});

describe('list_images, get_usage, validate_token', () => {
  it('pages with an opaque cursor, absent at the end', async () => {
    const { token } = await srv.createUser('pro');
    const client = await connect(token);
    for (const title of ['c', 'a', 'b'])
      await tool(client, 'generate_image', { title, imageBase64: jpeg.toString('base64') });
    const first = await tool(client, 'list_images', { limit: 2, sort: 'title', order: 'asc' });
    const page1 = first.structuredContent as {
      images: { title: string }[];
      total: number;
      nextCursor?: string;
    };
    expect(page1.images.map((i) => i.title)).toEqual(['a', 'b']);
    expect(page1.total).toBe(3);
    expect(page1.nextCursor).toBeTypeOf('string');
    const second = (await tool(client, 'list_images', { cursor: page1.nextCursor }))
      .structuredContent as typeof page1;
    expect(second.images.map((i) => i.title)).toEqual(['c']);
    expect(second.nextCursor).toBeUndefined();
    expect(errorText(await tool(client, 'list_images', { cursor: 'garbage' }))).toMatch(/cursor/);
    await client.close();
  });

  it('get_usage gives the usage record and the reset date; validate_token the profile', async () => {
    const { user, token } = await srv.createUser('agency');
    const client = await connect(token);
    await tool(client, 'generate_image', { title: 'One', imageBase64: jpeg.toString('base64') });
    const usage = (await tool(client, 'get_usage')).structuredContent as Record<string, unknown>;
    const rest = await call(srv.base, 'GET', '/usage', { token });
    expect(usage).toEqual({ ...rest.body.data, resetsAt: rest.body.data.period.end });
    expect((usage.usage as { generated: number }).generated).toBe(1);
    const v = (await tool(client, 'validate_token')).structuredContent as {
      user: { id: string; tier: string };
    };
    expect(v.user).toEqual({ id: user.id, email: user.email, displayName: 'Test User', tier: 'agency' });
    await client.close();
  });
});

describe('authentication and the shared quota', () => {
  it("a request without a token, or with a bad one, is a 401 with the REST API's body and challenge (RFC 6750 section 3), plus the resource metadata (RFC 9728)", async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    for (const [authorization, challenge] of [
      [undefined, /^Bearer realm="titlecard"$/],
      [
        'Bearer tc_0000000000000000000000000000000000000000',
        /^Bearer realm="titlecard", error="invalid_token"$/,
      ],
    ] as const) {
      const res = await fetch(`${srv.url}/mcp`, {
        method: 'POST',
        body,
        headers: authorization ? { ...headers, authorization } : headers,
      });
      expect(res.status).toBe(401);
      const rest = await fetch(`${srv.base}/usage`, { headers: authorization ? { authorization } : {} });
      expect(rest.headers.get('www-authenticate')).toMatch(challenge);
      expect(res.headers.get('www-authenticate')).toBe(
        `${rest.headers.get('www-authenticate') ?? ''}, resource_metadata="${srv.url}/.well-known/oauth-protected-resource/mcp"`,
      );
      expect(await res.json()).toEqual(await rest.json());
    }
    await expect(connect('tc_0000000000000000000000000000000000000000')).rejects.toThrow();
  });

  it('a token revoked through REST is refused by MCP on the next call', async () => {
    const { token } = await srv.createUser('pro');
    const second = await call(srv.base, 'POST', '/tokens', { token, json: { name: 'assistant' } });
    const client = await connect(second.body.data.token as string);
    expect((await tool(client, 'get_usage')).isError).toBeFalsy();
    await call(srv.base, 'DELETE', `/tokens/${second.body.data.id as string}`, { token });
    await expect(tool(client, 'get_usage')).rejects.toThrow(/401|Unauthorized/);
  });

  it('a generation through MCP and one through REST draw on the same quota', async () => {
    const { workspace, token } = await srv.createUser('free');
    for (let i = 0; i < 9; i++) await srv.services.ledger.charge(workspace);
    const client = await connect(token);
    const r = await tool(client, 'generate_image', {
      title: 'Last one',
      imageBase64: jpeg.toString('base64'),
    });
    expect(r.isError).toBeFalsy();
    const usage = await call(srv.base, 'GET', '/usage', { token });
    expect(usage.body.data.usage.remaining).toBe(0);
    const form = new FormData();
    form.append('image', new Blob([jpeg]), 'a.jpg');
    form.append('title', 'REST');
    const rest = await fetch(`${srv.base}/generate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(rest.status).toBe(429);
    await client.close();
  });
});

describe('transport edges', () => {
  it('is stateless: GET and DELETE answer 405', async () => {
    const { token } = await srv.createUser('pro');
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${srv.url}/mcp`, { method, headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
  });

  it('refuses a foreign Host or Origin (DNS rebinding)', async () => {
    const { token } = await srv.createUser('pro');
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
    };
    const origin = await fetch(`${srv.url}/mcp`, {
      method: 'POST',
      body,
      headers: { ...headers, origin: 'https://evil.example' },
    });
    expect(origin.status).toBe(403);
    // The server listens on loopback (PUBLIC_URL unset): any loopback origin, any port, is the machine's own.
    for (const own of ['http://127.0.0.1:1234', 'http://localhost:5173', 'http://[::1]:8080']) {
      const res = await fetch(`${srv.url}/mcp`, {
        method: 'POST',
        body,
        headers: { ...headers, origin: own },
      });
      expect(res.status, own).toBe(200);
    }
    const host = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        `${srv.url}/mcp`,
        { method: 'POST', headers: { ...headers, host: 'evil.example' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(host).toBe(403);
  });

  it('without an https (or loopback) PUBLIC_URL there is no OAuth: no discovery documents, no resource_metadata, API tokens only', async () => {
    const plain = await startTestServer({ env: { PUBLIC_URL: 'http://titlecard.internal:3000' } });
    try {
      const local = `http://127.0.0.1:${(plain.server.address() as AddressInfo).port}`;
      for (const path of [
        '/.well-known/oauth-protected-resource/mcp',
        '/.well-known/oauth-authorization-server',
        '/authorize',
      ]) {
        const res = await fetch(`${local}${path}`);
        expect(res.status, path).toBe(404);
      }
      const res = await fetch(`${local}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="titlecard"');
      // A server with a public address takes no loopback origin but its own.
      const loopback = await fetch(`${local}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'http://localhost:5173' },
        body: '{}',
      });
      expect(loopback.status).toBe(403);
    } finally {
      await plain.close();
    }
  });
});
