/**
 * The SSRF-safe image fetcher (src/adapters/safe-fetch.ts) on its own, against a local image host: what it
 * fetches, and every form of a private, loopback, link-local or metadata address it refuses,
 * directly, by DNS and by redirect. The MCP and REST suites check that their `imageUrl` reaches it.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileTooLargeError, ValidationError } from '../../src/domain/kernel/errors.js';
import { createImageFetcher, createWebhookPoster, type ImageFetcher } from '../../src/adapters/safe-fetch.js';
import { fakeLookup } from '../support/dns.js';
import { solid } from '../support/images.js';

let host: Server;
let hostUrl: string;
let jpeg: Buffer;
/** 127.0.0.2 stands for a public image host: allowed for this fetcher only. */
let fetchImage: ImageFetcher;

beforeAll(async () => {
  jpeg = await solid([40, 100, 160], 'jpeg', 80, 50);
  host = createServer((req, res) => {
    if (req.url === '/photo.jpg') res.writeHead(200, { 'content-type': 'image/jpeg' }).end(jpeg);
    else if (req.url === '/to-photo') res.writeHead(302, { location: '/photo.jpg' }).end();
    else if (req.url === '/to-loopback') res.writeHead(302, { location: 'http://127.0.0.1:9/' }).end();
    else if (req.url === '/to-metadata')
      res.writeHead(301, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    else if (req.url === '/loop') res.writeHead(302, { location: '/loop' }).end();
    else if (req.url === '/big.jpg') res.writeHead(200).end(Buffer.alloc(11 * 1024 * 1024));
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.2', resolve));
  hostUrl = `http://127.0.0.2:${(host.address() as { port: number }).port}`;
  fetchImage = createImageFetcher({ allowAddresses: ['127.0.0.2'], lookup: fakeLookup });
});
afterAll(async () => {
  host.closeAllConnections();
  await new Promise((r) => host.close(r));
});

/** The refusal `fetchImage(url)` rejects with: a ValidationError on field imageUrl. */
async function refusal(url: string): Promise<ValidationError> {
  const err = await fetchImage(url).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, url).toBeInstanceOf(ValidationError);
  expect((err as ValidationError).field, url).toBe('imageUrl');
  return err as ValidationError;
}

describe('the SSRF-safe image fetcher', () => {
  it('fetches an image from an allowed host, by address, by name and through a redirect', async () => {
    expect((await fetchImage(`${hostUrl}/photo.jpg`)).equals(jpeg)).toBe(true);
    const port = new URL(hostUrl).port;
    expect((await fetchImage(`http://images.example.test:${port}/photo.jpg`)).equals(jpeg)).toBe(true);
    expect((await fetchImage(`${hostUrl}/to-photo`)).equals(jpeg)).toBe(true);
  });

  it('refuses loopback, private, link-local and metadata addresses in every spelling, by DNS and by redirect', async () => {
    const attempts = [
      'http://127.0.0.1:9/',
      'http://[::1]:9/',
      'http://10.0.0.1/photo.jpg',
      'http://192.168.1.1/photo.jpg',
      'http://169.254.169.254/latest/meta-data/',
      'http://2130706433:9/', // 127.0.0.1 as a decimal number
      'http://0177.0.0.1:9/', // in octal
      'http://0x7f.0.0.1:9/', // in hex
      'http://[::ffff:127.0.0.1]:9/', // IPv4-mapped IPv6
      'http://localhost:9/',
      'http://intranet.example.test/photo.jpg', // DNS answers 10.1.2.3
      `${hostUrl}/to-loopback`,
      `${hostUrl}/to-metadata`,
    ];
    for (const url of attempts)
      expect((await refusal(url)).message, url).toMatch(/^Could not fetch imageUrl: .*not allowed/);
  });

  it('refuses IPv6 addresses that embed an IPv4 address, as a literal and as a DNS answer', async () => {
    for (const url of [
      'http://[::127.0.0.1]/', // IPv4-compatible
      'http://[::7f00:1]:9/', // the same, in hex
      'http://[::a00:1]/', // ::10.0.0.1
      'http://[64:ff9b::7f00:1]/', // NAT64
      'http://[2002:7f00:1::1]/', // 6to4 of 127.0.0.1
      'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', // Teredo
      'http://compat.example.test/photo.jpg', // DNS answers ::127.0.0.1
    ])
      expect((await refusal(url)).message, url).toMatch(/embeds an IPv4 address, which is not allowed/);
  });

  it('refuses other schemes, credentials, endless redirects and files over 10 MB', async () => {
    expect((await refusal('file:///etc/passwd')).message).toMatch(/only http and https/);
    expect((await refusal(`http://user:pass@127.0.0.2/photo.jpg`)).message).toMatch(/credentials/);
    expect((await refusal(`${hostUrl}/loop`)).message).toMatch(/more than 3 redirects/);
    expect((await refusal(`${hostUrl}/missing.jpg`)).message).toMatch(/answered 404/);
    expect((await refusal('not a url')).message).toMatch(/not a valid URL/);
    await expect(fetchImage(`${hostUrl}/big.jpg`)).rejects.toBeInstanceOf(FileTooLargeError);
  });
});

describe("the fetcher's timeouts (issue 41: a host that never answers holds a render slot briefly)", () => {
  it('gives up on a host that takes the connection and never answers after 5 s, not the whole 10', async () => {
    let seen = 0;
    const silent = createServer((req) => {
      seen++;
      req.resume();
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.2', resolve));
    try {
      const start = performance.now();
      const err = await refusal(`http://127.0.0.2:${(silent.address() as { port: number }).port}/photo.jpg`);
      const ms = performance.now() - start;
      console.info(`safe-fetch: a silent host was given up after ${ms.toFixed(0)} ms`);
      expect(seen).toBe(1);
      expect(err.message).toBe('Could not fetch imageUrl: no answer within 5000 ms');
      expect(ms).toBeGreaterThanOrEqual(4900);
      expect(ms).toBeLessThan(8000);
    } finally {
      silent.closeAllConnections();
      await new Promise((r) => silent.close(r));
    }
  }, 15_000);

  it('gives up on a host it cannot connect to (its name never resolves here) after 3 s', async () => {
    const neverAnswers = (() => undefined) as unknown as typeof fakeLookup;
    const fetcher = createImageFetcher({ lookup: neverAnswers });
    const start = performance.now();
    const err = await fetcher('http://black-hole.example.test/photo.jpg').then(
      () => undefined,
      (e: unknown) => e,
    );
    const ms = performance.now() - start;
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).message).toBe('Could not fetch imageUrl: no connection within 3000 ms');
    expect(ms).toBeGreaterThanOrEqual(2900);
    expect(ms).toBeLessThan(6000);
  }, 15_000);
});

describe('the webhook poster', () => {
  it("answers the receiver's status without reading its answer: an endless one ends at once (issue 41)", async () => {
    let sent = 0;
    let closed!: () => void;
    const gone = new Promise<void>((resolve) => (closed = resolve));
    const receiver = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(64 * 1024);
      const pump = () => {
        while (res.write(chunk)) if ((sent += chunk.length) > 2 ** 31) return res.end();
      };
      res.on('drain', pump);
      res.on('close', closed);
      pump();
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.2', resolve));
    try {
      const post = createWebhookPoster({ allowAddresses: ['127.0.0.2'], lookup: fakeLookup });
      const url = `http://127.0.0.2:${(receiver.address() as { port: number }).port}/hook`;
      expect(await post(url, '{}', { 'content-type': 'application/json' })).toBe(200);
      await gone;
      expect(sent).toBeLessThan(16 * 1024 * 1024);
    } finally {
      receiver.closeAllConnections();
      await new Promise((r) => receiver.close(r));
    }
  });
});
