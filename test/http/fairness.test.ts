/**
 * One account's slow image hosts stall no other account (issue 41): an account whose `imageUrl`s
 * never answer holds at most its share of the generations under way (src/domain/images/admission.ts)
 * and of the batch runner (src/domain/batches/runner.ts), so another account's single card and
 * single batch item finish within 2 s of their normal time. Each figure is printed.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeLookup } from '../support/dns.js';
import { withEventLoopWatched } from '../support/event-loop.js';
import { solid } from '../support/images.js';
import { call, settled, startTestServer, upload, type TestServer } from '../support/server.js';

let srv: TestServer;
/** An image host that takes every request and never answers (127.0.0.2: allowed for this server). */
let slowHost: Server;
let slowUrl: string;

beforeAll(async () => {
  slowHost = createServer((req) => req.resume());
  await new Promise<void>((resolve) => slowHost.listen(0, '127.0.0.2', resolve));
  slowUrl = `http://127.0.0.2:${(slowHost.address() as AddressInfo).port}`;
  // 8 generations under way at most (2 renders + 6 waiting): an account's share is 2.
  srv = await startTestServer({
    env: { RENDER_CONCURRENCY: '2', RENDER_QUEUE: '6' },
    fetcher: { allowAddresses: ['127.0.0.2'], lookup: fakeLookup },
  });
});
afterAll(async () => {
  slowHost.closeAllConnections();
  await new Promise((r) => slowHost.close(r));
  await srv?.close();
});

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const start = performance.now();
  const result = await work();
  return { result, ms: performance.now() - start };
}

describe("an account whose image hosts never answer, and another account's work", () => {
  it('a single card of another account is made within 2 s of its normal time while 10 slow generations are sent', async () => {
    const slow = await srv.createUser('agency');
    const other = await srv.createUser('agency');
    const photo = await solid([90, 120, 150], 'jpeg', 1200, 800);
    const card = () => upload(srv, other.token, '/generate', 'image', photo, 'p.jpg', { title: 'On time' });
    const normal = await timed(card);
    expect(normal.result.status).toBe(201);

    const stalled = Array.from({ length: 10 }, async (_, i) => {
      const form = new FormData();
      form.append('title', `Slow ${i}`);
      form.append('imageUrl', `${slowUrl}/photo-${i}.jpg`);
      const res = await fetch(`${srv.base}/generate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${slow.token}` },
        body: form,
      });
      return { status: res.status };
    });
    // The slow account's share is taken at once; the rest of its requests are refused.
    await new Promise((r) => setTimeout(r, 300));
    const { result: during, maxDelayMs } = await withEventLoopWatched(() => timed(card));
    console.info(`fairness: longest event-loop stall during the card ${maxDelayMs.toFixed(0)} ms`);
    expect(maxDelayMs).toBeLessThan(500);
    console.info(
      `fairness: a card took ${normal.ms.toFixed(0)} ms alone, ${during.ms.toFixed(0)} ms beside 10 slow generations`,
    );
    expect(during.result.status).toBe(201);
    expect(during.ms).toBeLessThan(normal.ms + 2000);
    slowHost.closeAllConnections();
    const answers = (await Promise.all(stalled)).map((r) => r.status);
    console.info(`fairness: the slow generations were answered ${answers.join(', ')}`);
    // 2 admitted (they fail when the host goes: 400 on imageUrl), 8 refused at once (503, Retry-After).
    expect(answers.filter((s) => s === 503)).toHaveLength(8);
  }, 60_000);

  it('a single batch item of another account finishes within 2 s of its normal time beside a 12-item batch of slow URLs', async () => {
    const slow = await srv.createUser('agency');
    const other = await srv.createUser('agency');
    const asset = await upload(
      srv,
      other.token,
      '/assets',
      'image',
      await solid([60, 140, 90], 'jpeg', 1200, 800),
      'a.jpg',
    );
    const oneItem = async () => {
      const made = await call(srv.base, 'POST', '/batches', {
        token: other.token,
        json: { items: [{ asset: asset.body.data.id, title: 'On time' }] },
      });
      return settled(srv.base, other.token, made.body.data.id as string);
    };
    const normal = await timed(oneItem);
    expect(normal.result).toMatchObject({ status: 'completed', done: 1 });

    // Older, so first in line: the runner still leaves a slot to the other account.
    const slowBatch = await call(srv.base, 'POST', '/batches', {
      token: slow.token,
      json: {
        items: Array.from({ length: 12 }, (_, i) => ({
          imageUrl: `${slowUrl}/item-${i}.jpg`,
          title: `Slow ${i}`,
        })),
      },
    });
    expect(slowBatch.status).toBe(202);
    await new Promise((r) => setTimeout(r, 300));
    const { result: during, maxDelayMs } = await withEventLoopWatched(() => timed(oneItem));
    console.info(`fairness: longest event-loop stall during the batch item ${maxDelayMs.toFixed(0)} ms`);
    expect(maxDelayMs).toBeLessThan(500);
    console.info(
      `fairness: a batch item took ${normal.ms.toFixed(0)} ms alone, ${during.ms.toFixed(0)} ms beside 12 slow items`,
    );
    expect(during.result).toMatchObject({ status: 'completed', done: 1 });
    expect(during.ms).toBeLessThan(normal.ms + 2000);
    await call(srv.base, 'DELETE', `/batches/${slowBatch.body.data.id as string}`, { token: slow.token });
    slowHost.closeAllConnections();
  }, 60_000);

  it("after 10 failed imageUrl fetches an account's next imageUrl is refused at once (429) without a fetch; another account's is fetched", async () => {
    let requests = 0;
    const missing = createServer((req, res) => {
      requests++;
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => missing.listen(0, '127.0.0.2', resolve));
    const missingUrl = `http://127.0.0.2:${(missing.address() as AddressInfo).port}`;
    try {
      const failing = await srv.createUser('agency');
      const other = await srv.createUser('agency');
      const generate = async (token: string, url: string) => {
        const form = new FormData();
        form.append('title', 'Fetched');
        form.append('imageUrl', url);
        const res = await fetch(`${srv.base}/generate`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}` },
          body: form,
        });
        return {
          status: res.status,
          headers: res.headers,
          body: (await res.json()) as Record<string, unknown>,
        };
      };
      for (let i = 0; i < 10; i++) {
        const answer = await generate(failing.token, `${missingUrl}/gone-${i}.jpg`);
        expect(answer.status).toBe(400);
      }
      expect(requests).toBe(10);
      const refused = await generate(failing.token, `${missingUrl}/gone-10.jpg`);
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ error: 'Rate limit exceeded' });
      expect(String(refused.body.message)).toMatch(/^Too many failed imageUrl fetches: try again in \d+ s$/);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(requests).toBe(10);
      const usage = await call(srv.base, 'GET', '/usage', { token: failing.token });
      expect(usage.body.data.usage.generated).toBe(0);
      // Another account's failures are its own.
      expect((await generate(other.token, `${missingUrl}/gone.jpg`)).status).toBe(400);
      expect(requests).toBe(11);
    } finally {
      await new Promise((r) => missing.close(r));
    }
  });
});
