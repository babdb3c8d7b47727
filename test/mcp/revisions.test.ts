/**
 * Every revision in use, on both transports: the v2 client at 2026-07-28 (stateless, the `_meta`
 * envelope, `server/discover`), the v2 client at 2025-11-25 and a v1 client (SDK 1.32, the
 * `initialize` handshake) each list the same tools and the studio's page (an MCP App), and generate
 * a card with the same result (its
 * record as structured content and as text, an inline JPEG preview, a link to the full image),
 * over Streamable HTTP at /mcp and over stdio (`titlecard mcp`).
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageRecordSchema } from '../../src/domain/images/schemas.js';
import { STUDIO_URI } from '../../src/mcp/studio.js';
import { PREVIEWS_URI } from '../../src/mcp/link-preview-app.js';
import { VERSION } from '../../src/version.js';
import { solid } from '../support/images.js';
import {
  CLIENT_KINDS,
  REVISION_OF,
  httpClient,
  stdioClient,
  type McpTestClient,
} from '../support/mcp-clients.js';
import { TOOL_NAMES } from '../support/mcp-tools.js';
import { CLI, ROOT } from '../support/process.js';
import { startTestServer, type TestServer } from '../support/server.js';

let srv: TestServer;
let token: string;
let jpeg: Buffer;

beforeAll(async () => {
  srv = await startTestServer();
  ({ token } = await srv.createUser('pro'));
  jpeg = await solid([40, 100, 160], 'jpeg', 800, 500);
});
afterAll(async () => {
  await srv.close();
});

/** The scenario every client runs: tools, then one card, checked as an assistant reads it. */
async function listAndGenerate(client: McpTestClient) {
  expect(client.revision()).toBe(REVISION_OF[client.kind]);
  const tools = await client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual(TOOL_NAMES);
  // The studio (an MCP App): named by generate_image, listed and read as a resource at every revision.
  const generate = tools.find((t) => t.name === 'generate_image');
  expect((generate?._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri).toBe(STUDIO_URI);
  expect((await client.listResources()).map((r) => r.uri)).toEqual([STUDIO_URI, PREVIEWS_URI]);
  const [page] = await client.readResource(STUDIO_URI);
  expect(page?.mimeType).toBe('text/html;profile=mcp-app');
  expect(page?.text).toMatch(/^<!doctype html>/i);
  const r = await client.callTool('generate_image', {
    title: `Made by ${client.kind}`,
    imageBase64: jpeg.toString('base64'),
    aspect: 'square',
    fileFormat: 'webp',
  });
  expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
  const record = imageRecordSchema.parse(r.structuredContent);
  expect([record.width, record.height]).toEqual([1080, 1080]);
  expect(JSON.parse(r.content[0]?.text ?? '')).toEqual(r.structuredContent);
  const preview = r.content.find((c) => c.type === 'image');
  expect(preview?.mimeType).toBe('image/jpeg');
  expect((await sharp(Buffer.from(preview?.data ?? '', 'base64')).metadata()).format).toBe('jpeg');
  const link = r.content.find((c) => c.type === 'resource_link');
  expect(link?.mimeType).toBe('image/webp');
  return record;
}

describe('Streamable HTTP at /mcp', () => {
  for (const kind of CLIENT_KINDS)
    it(`${kind}: lists the tools and generates a card`, async () => {
      const client = await httpClient(kind, `${srv.url}/mcp`, token);
      try {
        const record = await listAndGenerate(client);
        expect(record.url.startsWith(srv.url)).toBe(true);
      } finally {
        await client.close();
      }
    });

  it('a 2026-07-28 call carrying an image of more than 4 MiB in base64 is taken, as at the older revisions (up to the 15 MB body limit)', async () => {
    const { randomBytes } = await import('node:crypto');
    const noise = await sharp(randomBytes(2000 * 2000 * 3), {
      raw: { width: 2000, height: 2000, channels: 3 },
    })
      .jpeg({ quality: 95 })
      .toBuffer();
    const base64 = noise.toString('base64');
    expect(base64.length).toBeGreaterThan(4 * 1024 * 1024);
    const client = await httpClient('v2 at 2026-07-28', `${srv.url}/mcp`, token);
    try {
      const r = await client.callTool('generate_image', {
        title: 'Large',
        imageBase64: base64,
        fileFormat: 'jpeg',
      });
      expect(r.isError, JSON.stringify(r.content).slice(0, 300)).toBeFalsy();
    } finally {
      await client.close();
    }
  });

  it("answers a 2026-07-28 server/discover with the revisions served and the package's version", async () => {
    const res = await fetch(`${srv.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'server/discover',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'server/discover',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 'curl', version: '1' },
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await res.json()) as { result: Record<string, unknown> };
    expect(body.result.supportedVersions).toEqual(expect.arrayContaining(['2026-07-28']));
    expect(JSON.stringify(body.result)).toContain(`"version":"${VERSION}"`);
  });
});

describe('stdio (titlecard mcp, on the local store)', () => {
  for (const kind of CLIENT_KINDS)
    it(`${kind}: lists the tools and generates a card`, async () => {
      const services = srv.services;
      const { token: own } = await services.accounts.createUser({
        email: `stdio-${kind.replace(/\W+/g, '-')}@example.com`,
        displayName: kind,
        tier: 'pro',
      });
      const client = await stdioClient(kind, {
        command: process.execPath,
        args: [...CLI, 'mcp'],
        cwd: ROOT,
        env: {
          PATH: process.env.PATH ?? '',
          DATA_DIR: srv.dataDir,
          TITLECARD_TOKEN: own.token,
          LOG_LEVEL: 'warn',
        },
        stderr: 'pipe',
      });
      try {
        await listAndGenerate(client);
      } finally {
        await client.close();
      }
    });
});
