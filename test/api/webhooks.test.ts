/**
 * Webhooks (docs/webhooks.md) against a receiver on 127.0.0.1 that verifies every delivery with the
 * `standardwebhooks` library, as a user's receiver would: image.created from /generate and from a
 * batch, batch.completed to the endpoint and to the batch's own webhookUrl, a receiver that is down
 * for a while still getting every event, and a private receiver refused.
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/process.js';
import { call, generate, settled, startTestServer, upload, type TestServer } from '../support/server.js';

const PHOTO = path.join(ROOT, 'src/web/static/samples/dragonfly.jpg');

interface Received {
  path: string;
  id: string;
  event: { type: string; timestamp: string; data: Record<string, unknown> };
}

/**
 * A receiver: verifies each delivery with the secret of its path, or answers 503 while down; on
 * `/never` it takes the request and never answers (the sender's timeout ends it).
 */
function receiver() {
  const secrets = new Map<string, string>();
  const received: Received[] = [];
  const refused: string[] = [];
  const state = { down: false };
  const server = createServer((req, res) => {
    if (req.url === '/never') {
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      if (state.down) {
        refused.push(id);
        res.writeHead(503).end();
        return;
      }
      const secret = secrets.get(req.url ?? '');
      try {
        const event = new Webhook(secret ?? 'whsec_AAAA').verify(Buffer.concat(chunks).toString(), {
          'webhook-id': id,
          'webhook-timestamp': String(req.headers['webhook-timestamp']),
          'webhook-signature': String(req.headers['webhook-signature']),
        }) as Received['event'];
        received.push({ path: req.url ?? '', id, event });
        res.writeHead(204).end();
      } catch {
        res.writeHead(400).end('bad signature');
      }
    });
  });
  return { server, secrets, received, refused, state };
}

async function until<T>(what: () => T | Promise<T>, ok: (v: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await what();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('webhooks', () => {
  let srv: TestServer;
  const rx = receiver();
  let rxUrl = '';
  let now = new Date();
  beforeAll(async () => {
    await new Promise<void>((resolve) => rx.server.listen(0, '127.0.0.1', resolve));
    rxUrl = `http://127.0.0.1:${(rx.server.address() as AddressInfo).port}`;
    srv = await startTestServer({ clock: { now: () => now }, fetcher: { allowAddresses: ['127.0.0.1'] } });
  });
  afterAll(async () => {
    rx.server.closeAllConnections();
    await srv?.close();
    rx.server.close();
  });

  it('signs image.created from /generate and from a batch, and batch.completed to the endpoint and to the batch webhookUrl; the receiver verifies each with standardwebhooks', async () => {
    const { token } = await srv.createUser('agency');
    const made = await call(srv.base, 'POST', '/webhooks', { token, json: { url: `${rxUrl}/hooks` } });
    expect(made.status).toBe(201);
    expect(made.body.data.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    rx.secrets.set('/hooks', made.body.data.secret as string);
    const listed = (await call(srv.base, 'GET', '/webhooks', { token })).body.data.webhooks;
    expect(listed).toEqual([{ id: made.body.data.id, url: `${rxUrl}/hooks`, createdAt: expect.any(String) }]);

    const generated = await generate(
      srv.base,
      token,
      { title: 'Announced by webhook' },
      { data: await readFile(PHOTO) },
    );
    expect(generated.status).toBe(201);
    const created = await until(
      () => rx.received.filter((r) => r.event.type === 'image.created'),
      (l) => l.length === 1,
    );
    expect(created[0]?.event.data).toMatchObject({
      id: generated.body.data.id,
      url: generated.body.data.url,
    });

    const asset = await upload(srv, token, '/assets', 'image', await readFile(PHOTO), 'p.jpg');
    const batch = await call(srv.base, 'POST', '/batches', {
      token,
      json: {
        items: [0, 1, 2].map((i) => ({ asset: asset.body.data.id, title: `Batch ${i}` })),
        webhookUrl: `${rxUrl}/batch`,
      },
    });
    expect(batch.body.data.webhookSecret).toMatch(/^whsec_/);
    // The answer holds a secret: no cache may keep it (issue 41).
    expect(batch.headers.get('cache-control')).toBe('no-store');
    rx.secrets.set('/batch', batch.body.data.webhookSecret as string);
    await settled(srv.base, token, batch.body.data.id as string);
    const completed = await until(
      () => rx.received.filter((r) => r.event.type === 'batch.completed'),
      (l) => l.length === 2,
    );
    expect(completed.map((c) => c.path).sort()).toEqual(['/batch', '/hooks']);
    expect(completed[0]?.event.data).toMatchObject({ id: batch.body.data.id, status: 'completed', done: 3 });
    const fromBatch = rx.received.filter((r) => r.event.type === 'image.created' && r.event.data.batchId);
    expect(fromBatch.map((r) => r.event.data.index).sort()).toEqual([0, 1, 2]);

    const deliveries = (await call(srv.base, 'GET', '/webhooks/deliveries', { token })).body.data.deliveries;
    expect(deliveries).toHaveLength(6);
    for (const d of deliveries)
      expect(d).toMatchObject({ status: 'delivered', attempts: 1, lastStatus: 204 });
  });

  it('a receiver that is down loses nothing: the delivery is retried with the same webhook-id after the backoff, and arrives', async () => {
    const { token } = await srv.createUser('pro');
    const made = await call(srv.base, 'POST', '/webhooks', { token, json: { url: `${rxUrl}/down` } });
    rx.secrets.set('/down', made.body.data.secret as string);
    rx.state.down = true;
    const test = await call(srv.base, 'POST', `/webhooks/${made.body.data.id as string}/test`, { token });
    expect(test.status).toBe(202);
    const id = test.body.data.id as string;
    const first = await until(
      async () => (await call(srv.base, 'GET', '/webhooks/deliveries', { token })).body.data.deliveries[0],
      (d) => d.attempts === 1,
    );
    expect(first).toMatchObject({
      id,
      status: 'pending',
      lastStatus: 503,
      lastError: 'the receiver answered 503',
    });
    // Down through the 5 s retry too.
    now = new Date(now.getTime() + 6000);
    await until(
      async () => (await call(srv.base, 'GET', '/webhooks/deliveries', { token })).body.data.deliveries[0],
      (d) => d.attempts === 2,
    );
    rx.state.down = false;
    now = new Date(now.getTime() + 301_000); // past the 5 min retry
    const delivered = await until(
      async () => (await call(srv.base, 'GET', '/webhooks/deliveries', { token })).body.data.deliveries[0],
      (d) => d.status === 'delivered',
    );
    expect(delivered).toMatchObject({ attempts: 3, lastStatus: 204 });
    expect(rx.refused.filter((r) => r === id)).toHaveLength(2);
    expect(rx.received.filter((r) => r.id === id).map((r) => r.event.type)).toEqual(['webhook.test']);
  });

  it('a retry of POST /webhooks with its Idempotency-Key makes no second endpoint nor secret (issue 41)', async () => {
    const { token } = await srv.createUser('pro');
    const post = () =>
      call(srv.base, 'POST', '/webhooks', {
        token,
        json: { url: `${rxUrl}/retried` },
        headers: { 'idempotency-key': 'a1f4c2d0-webhook' },
      });
    const first = await post();
    expect(first.status).toBe(201);
    expect(first.body.data.secret).toMatch(/^whsec_/);
    const again = await post();
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(again.body.data.secret).toBeUndefined();
    expect((await call(srv.base, 'GET', '/webhooks', { token })).body.data.webhooks).toHaveLength(1);
    await call(srv.base, 'DELETE', `/webhooks/${first.body.data.id as string}`, { token });
    expect((await post()).status).toBe(404);
  });

  it("an account whose receiver never answers delays no other account's events: its test events stop at 3 waiting (then 429), and another account's arrives within 2 s (issue 41)", async () => {
    const slow = await srv.createUser('pro');
    const never = await call(srv.base, 'POST', '/webhooks', {
      token: slow.token,
      json: { url: `${rxUrl}/never` },
    });
    const answers: number[] = [];
    for (let i = 0; i < 20; i++)
      answers.push(
        (
          await call(srv.base, 'POST', `/webhooks/${never.body.data.id as string}/test`, {
            token: slow.token,
          })
        ).status,
      );
    expect(answers.slice(0, 3)).toEqual([202, 202, 202]);
    expect(new Set(answers.slice(3))).toEqual(new Set([429]));

    const other = await srv.createUser('pro');
    const fair = await call(srv.base, 'POST', '/webhooks', {
      token: other.token,
      json: { url: `${rxUrl}/fair` },
    });
    rx.secrets.set('/fair', fair.body.data.secret as string);
    const sent = performance.now();
    await call(srv.base, 'POST', `/webhooks/${fair.body.data.id as string}/test`, { token: other.token });
    await until(
      () => rx.received.find((r) => r.path === '/fair'),
      (r) => r !== undefined,
      10_000,
    );
    const tookMs = performance.now() - sent;
    console.info(`webhooks: another account's test event arrived ${tookMs.toFixed(0)} ms after it was sent`);
    expect(tookMs).toBeLessThan(2000);
  });

  it('refuses a private receiver the fetch policy does not allow, and says so on the delivery', async () => {
    const { token } = await srv.createUser('pro');
    const made = await call(srv.base, 'POST', '/webhooks', { token, json: { url: 'http://10.1.2.3/hook' } });
    // The secret is shown once: no cache keeps the answer that holds it.
    expect(made.status).toBe(201);
    expect(made.headers.get('cache-control')).toBe('no-store');
    await call(srv.base, 'POST', `/webhooks/${made.body.data.id as string}/test`, { token });
    const d = await until(
      async () => (await call(srv.base, 'GET', '/webhooks/deliveries', { token })).body.data.deliveries[0],
      (x) => x.attempts === 1,
    );
    expect(d.lastStatus).toBeNull();
    expect(d.lastError).toContain('10.1.2.3 is a private, loopback, link-local or reserved address');
    // No retry can change an address: it fails now, not after 27 hours of retries (issue 41).
    expect([d.status, d.nextAttemptAt]).toEqual(['failed', null]);
    expect(
      (await call(srv.base, 'POST', '/webhooks', { token, json: { url: 'ftp://x' } })).body.error.details
        .field,
    ).toBe('url');
    const id = made.body.data.id as string;
    expect((await call(srv.base, 'DELETE', `/webhooks/${id}`, { token })).body).toEqual({
      success: true,
      message: `Webhook endpoint ${id} deleted`,
    });
    expect((await call(srv.base, 'GET', '/webhooks/deliveries', { token })).body.data.deliveries).toEqual([]);
  });
});
