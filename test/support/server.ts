/**
 * A real Titlecard server for tests: SQLite and local disk in a fresh temporary DATA_DIR, the real
 * renderer, listening on 127.0.0.1 on a free port. Requests go through real HTTP (fetch).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { createApp } from '../../src/api/app.js';
import type { Tier, User } from '../../src/domain/model.js';
import type { Clock } from '../../src/domain/ports.js';
import { loadFontLibrary, type FontLibrary } from '../../src/domain/render/fonts.js';
import { createRenderer } from '../../src/domain/render/index.js';
import { createServices, type Services } from '../../src/domain/services.js';
import { createImageFetcher, type ImageFetcherOptions } from '../../src/mcp/fetch-image.js';
import { mountMcp } from '../../src/mcp/http.js';
import { openStorage } from '../../src/storage/index.js';

let fonts: FontLibrary | undefined;
/** The font library, loaded once per test file. */
export function testFonts(): FontLibrary {
  fonts ??= loadFontLibrary();
  return fonts;
}

export const silentLogger = pino({ level: 'silent' });

export interface TestServer {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  /** The spec's {base_url}: url + /api */
  base: string;
  dataDir: string;
  services: Services;
  server: Server;
  createUser(tier?: Tier, email?: string): Promise<{ user: User; token: string }>;
  close(): Promise<void>;
}

let userCounter = 0;

export interface TestServerOptions {
  clock?: Clock;
  dataDir?: string;
  /** Options of the MCP imageUrl fetcher (tests allow 127.0.0.2 and inject DNS answers). */
  fetcher?: ImageFetcherOptions;
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'titlecard-test-')));
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { store, blobs } = await openStorage({ dataDir });
  const services = createServices({
    store,
    blobs,
    renderer: createRenderer(testFonts()),
    logger: silentLogger,
    publicUrl: url,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const fetchImage = createImageFetcher(options.fetcher ?? {});
  server.on(
    'request',
    createApp(services, {
      logger: silentLogger,
      mount: (app) => mountMcp(app, { services, fetchImage, logger: silentLogger, publicUrl: url }),
    }),
  );
  return {
    url,
    base: `${url}/api`,
    dataDir,
    services,
    server,
    async createUser(tier = 'pro', email) {
      const created = await services.accounts.createUser({
        email: email ?? `user${++userCounter}-${process.pid}-${Date.now()}@example.com`,
        displayName: 'Test User',
        tier,
      });
      return { user: created.user, token: created.token.token };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await services.close();
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/** A JSON request with an optional bearer token. */
export async function call(
  base: string,
  method: string,
  route: string,
  options: { token?: string; json?: unknown; headers?: Record<string, string> } = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  const res = await fetch(`${base}${route}`, { method, headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as unknown) : undefined };
}

export interface Upload {
  data: Buffer;
  filename?: string;
  type?: string;
}

/** POST /generate with form fields and an optional image file. */
export async function generate(
  base: string,
  token: string | undefined,
  fields: Record<string, string>,
  image?: Upload,
): Promise<ApiResponse> {
  const form = new FormData();
  if (image)
    form.append(
      'image',
      new Blob([image.data], { type: image.type ?? 'image/jpeg' }),
      image.filename ?? 'photo.jpg',
    );
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const res = await fetch(`${base}/generate`, {
    method: 'POST',
    headers: token ? { authorization: `Bearer ${token}` } : {},
    body: form,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as unknown) : undefined };
}

/** Downloads a file URL without any token (as a social network would). */
export async function download(url: string): Promise<{ status: number; headers: Headers; data: Buffer }> {
  const res = await fetch(url);
  return { status: res.status, headers: res.headers, data: Buffer.from(await res.arrayBuffer()) };
}
