/**
 * A real Titlecard server for tests, started exactly as `titlecard serve` starts it: SQLite and local
 * disk in a fresh temporary DATA_DIR, the real renderer, on 127.0.0.1 and a free port. Requests go
 * through real HTTP (fetch).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pino, type Logger } from 'pino';
import { loadConfig } from '../../src/config.js';
import type { User, Workspace } from '../../src/domain/kernel/records.js';
import type { Tier } from '../../src/domain/design.js';
import type { Clock } from '../../src/domain/kernel/ports.js';
import { loadFontLibrary, type FontLibrary } from '../../src/domain/render/text/fonts.js';
import type { MailMessage, Mailer } from '../../src/domain/kernel/ports.js';
import { createRenderer } from '../../src/domain/render/index.js';
import { createServices, type ServiceDeps, type Services } from '../../src/domain/services.js';
import { createServiceThrottles } from '../../src/adapters/storage/throttle.js';
import type { ImageFetcherOptions } from '../../src/adapters/safe-fetch.js';
import { serviceSettingsOf } from '../../src/runtime.js';
import { recognizeOutages } from '../../src/domain/kernel/errors.js';
import { redisOutage } from '../../src/adapters/queue.js';
import { mongoOutage } from '../../src/adapters/storage/mongo/outage.js';
import { s3Outage } from '../../src/adapters/storage/s3.js';
import { startServer } from '../../src/server.js';

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
  /** The API's base address: url + /api */
  base: string;
  dataDir: string;
  services: Services;
  server: Server;
  /** An account (its email confirmed) with its personal workspace and its first token's secret. */
  createUser(tier?: Tier, email?: string): Promise<{ user: User; workspace: Workspace; token: string }>;
  /** The account emails this server sent (when the test gave it no SMTP_URL), oldest first. */
  mail: MailMessage[];
  /**
   * The newest message of {@link mail} (from index `after` on) sent to `to` whose text matches
   * `pattern`, waiting up to 2 s for it: account mail leaves off the request path.
   */
  mailTo(to: string, pattern: RegExp, after?: number): Promise<MailMessage>;
  /**
   * Confirms `email` by the link of the newest verification message sent to it (read from {@link mail},
   * or from `text` when the test reads its own mailbox), as its owner would.
   */
  confirmEmail(email: string, text?: string): Promise<void>;
  close(): Promise<void>;
}

let userCounter = 0;

export interface TestServerOptions {
  clock?: Clock;
  dataDir?: string;
  /** Options of the MCP imageUrl fetcher (tests allow 127.0.0.2 and inject DNS answers). */
  fetcher?: ImageFetcherOptions;
  /** Environment variables of the configuration (as `titlecard serve` reads them). */
  env?: Record<string, string>;
  /** The server's logger; default silent (a test that reads the request log passes its own). */
  logger?: Logger;
  /** How long the test mailer takes to hand over a message, ms (see {@link memoryMailer}). */
  mailDelayMs?: number;
  /** Fetches OAuth Client ID Metadata Documents (a loopback https server with a test certificate). */
  oauthFetch?: typeof globalThis.fetch;
}

/** `titlecard serve` in this process, on 127.0.0.1 and a free port, through the production start-up. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'titlecard-test-')));
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, ...options.env });
  const mailer = memoryMailer(options.mailDelayMs);
  const mailTo = async (to: string, pattern: RegExp, after = 0): Promise<MailMessage> => {
    for (let i = 0; i < 100; i++) {
      const found = mailer.sent
        .slice(after)
        .filter((m) => m.to === to && pattern.test(m.text))
        .at(-1);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`no message to ${to} matching ${String(pattern)}`);
  };
  const running = await startServer(config, options.logger ?? silentLogger, {
    ...(options.env?.SMTP_URL ? {} : { mailer }),
    fonts: testFonts(),
    ...(options.clock ? { clock: options.clock } : {}),
    fetcher: options.fetcher ?? {},
    ...(options.oauthFetch ? { oauthFetch: options.oauthFetch } : {}),
  });
  const { services, publicUrl } = running.runtime;
  // Requests go to the public URL (http://localhost:<port>), so that the URLs of published files are
  // the ones the tests fetch.
  return {
    url: publicUrl,
    base: `${publicUrl}/api`,
    dataDir,
    services,
    server: running.server,
    async createUser(tier = 'pro', email) {
      const created = await services.accounts.createUser({
        email: email ?? `user${++userCounter}-${process.pid}-${Date.now()}@example.com`,
        displayName: 'Test User',
        tier,
      });
      return { user: created.user, workspace: created.workspace, token: created.token.token };
    },
    mail: mailer.sent,
    mailTo,
    async confirmEmail(email, text) {
      const link = /\/verify-email\?token=(lnk_[0-9A-Za-z]{43})/;
      const token = link.exec(text ?? (await mailTo(email, link)).text)?.[1];
      if (!token) throw new Error(`no confirmation link was sent to ${email}`);
      const res = await fetch(`${publicUrl}/verify-email`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(publicUrl).origin },
        body: new URLSearchParams({ token }).toString(),
      });
      if (res.status !== 200) throw new Error(`confirming ${email} answered ${res.status}`);
    },
    async close() {
      running.server.closeAllConnections();
      await running.close();
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

/**
 * Starts a `POST /generate` whose body claims `declaredBytes` of image but sends only the first
 * `sentBytes`, and resolves with the status the server answers while the rest is still unsent.
 * Rejects if no answer comes within 10 s: the server was waiting for the body.
 * With `sendRestAfterAnswer`, the client then sends the rest of the body, in 64 KiB writes a turn of
 * the event loop apart, as a slow uploader whose answer came early would, and resolves only once
 * all of it was taken; it rejects if the server closed the connection first (the client would
 * have met EPIPE or ECONNRESET).
 * Without it, the rest is never sent.
 */
export function answerBeforeUploadEnds(
  base: string,
  token: string,
  fields: Record<string, string>,
  upload: { sentBytes: number; declaredBytes: number; sendRestAfterAnswer?: boolean },
): Promise<{ status: number; body: unknown }> {
  const boundary = `----titlecard${Date.now()}`;
  const head = Buffer.from(
    Object.entries(fields)
      .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
      .join('') +
      `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const url = new URL(`${base}/generate`);
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(head.length + upload.declaredBytes + tail.length),
      },
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error('no answer while the upload was under way: the server waited for the whole body'));
    }, 10_000);
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => {
        clearTimeout(timer);
        const answer = {
          status: res.statusCode ?? 0,
          body: text ? (JSON.parse(text) as unknown) : undefined,
        };
        if (!upload.sendRestAfterAnswer) {
          req.destroy();
          resolve(answer);
          return;
        }
        sendRest(upload.declaredBytes - upload.sentBytes).then(() => {
          req.destroy();
          resolve(answer);
        }, reject);
      });
    });
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.write(head);
    req.write(Buffer.alloc(upload.sentBytes, 0xff));
    /**
     * Writes `bytes` more of the image, then the closing boundary; settles when all was sent, and
     * rejects if the connection closes first (a write to a closed request never calls back).
     */
    const sendRest = async (bytes: number) => {
      const early = () => new Error('the server closed the connection during the upload');
      const closed = req.destroyed
        ? Promise.reject(early())
        : new Promise<never>((_, fail) => req.once('close', () => fail(early())));
      closed.catch(() => undefined);
      const chunk = Buffer.alloc(64 * 1024, 0xff);
      const write = (data: Buffer) =>
        Promise.race([
          new Promise<void>((done, fail) => req.write(data, (err) => (err ? fail(err) : done()))),
          closed,
        ]);
      for (let left = bytes; left > 0; left -= chunk.length) {
        await write(left < chunk.length ? chunk.subarray(0, left) : chunk);
        await new Promise((turn) => setImmediate(turn));
      }
      await Promise.race([new Promise<void>((done) => req.end(tail, done)), closed]);
    };
  });
}

/**
 * A Mailer that keeps what it is asked to send, for tests that read the links; each message takes
 * `delayMs` to hand over, as an SMTP server's answer does (default 0).
 */
export function memoryMailer(delayMs = 0): Mailer & { sent: MailMessage[] } {
  const sent: MailMessage[] = [];
  return {
    sent,
    async send(message) {
      if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
      sent.push(message);
    },
  };
}

/** Polls a batch until it is completed or cancelled (or `timeoutMs` passes). */
export async function settled(base: string, token: string, id: string, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await call(base, 'GET', `/batches/${id}`, { token });
    if (['completed', 'cancelled'].includes(res.body.data.status as string) || Date.now() > deadline)
      return res.body.data;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A multipart upload (to `srv.base`) of one file as `field`, with text fields. */
export async function upload(
  srv: TestServer,
  token: string,
  route: string,
  field: string,
  data: Buffer,
  filename: string,
  fields: Record<string, string> = {},
): Promise<ApiResponse> {
  const form = new FormData();
  form.append(field, new Blob([data]), filename);
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const res = await fetch(`${srv.base}${route}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

/** The domain services on given stores, with a test mailer and the production throttles. */
export function testServices(
  deps: Omit<
    ServiceDeps,
    | 'throttle'
    | 'resetThrottle'
    | 'previewThrottle'
    | 'pageThrottle'
    | 'pageAddressThrottle'
    | 'fetchThrottle'
    | 'siteAddressThrottle'
    | 'mailer'
    | 'renderer'
    | 'logger'
    | 'publicUrl'
    | 'secretsKey'
    | keyof ReturnType<typeof serviceSettingsOf>
  > &
    Partial<
      Pick<
        ServiceDeps,
        'mailer' | 'renderer' | 'publicUrl' | 'secretsKey' | keyof ReturnType<typeof serviceSettingsOf>
      >
    >,
): Services {
  // As the composition root does: each adapter reads its own driver's outage errors.
  recognizeOutages(mongoOutage, s3Outage, redisOutage);
  return createServices({
    renderer: createRenderer(testFonts()),
    logger: silentLogger,
    publicUrl: 'https://cards.example.com',
    mailer: memoryMailer(),
    secretsKey: randomBytes(32),
    ...createServiceThrottles(),
    ...serviceSettingsOf(loadConfig({})),
    ...deps,
  });
}
