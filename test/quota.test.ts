/**
 * The monthly quota (spec section 8) at its boundary: exact under concurrency within one process and
 * across two processes sharing one DATA_DIR; the 429 body and Retry-After; revocation and listing
 * across processes.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../src/domain/services.js';
import { openStorage } from '../src/storage/index.js';
import { assertMatchesOpenApi } from './support/openapi.js';
import { spawnServer, type ServerProcess } from './support/process.js';
import {
  call,
  download,
  generate,
  silentLogger,
  startTestServer,
  testFonts,
  type TestServer,
} from './support/server.js';
import { solid } from './support/images.js';
import { createRenderer } from '../src/domain/render/index.js';

let small: Buffer;
beforeAll(async () => {
  small = await solid([200, 120, 40], 'jpeg', 480, 300);
});

function expectQuotaError(res: { status: number; headers: Headers; body: Record<string, unknown> }) {
  expect(res.status).toBe(429);
  assertMatchesOpenApi('POST', '/generate', 429, res.body);
  expect(res.body.error).toBe('Rate limit exceeded');
  expect(res.body.message).toMatch(/quota/i);
  const now = new Date();
  const reset = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  const expected = Math.ceil((reset - Date.now()) / 1000);
  expect(Math.abs((res.body.retryAfter as number) - expected)).toBeLessThanOrEqual(5);
  expect(res.headers.get('retry-after')).toBe(String(res.body.retryAfter));
}

describe('quota in one process', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer();
  });
  afterAll(async () => srv.close());

  it('with k units left, exactly k of N concurrent generate requests succeed', async () => {
    const { user, token } = await srv.createUser('free');
    for (let i = 0; i < 7; i++) await srv.services.quota.charge(user);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => generate(srv.base, token, { title: `Race ${i}` }, { data: small })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 201, 429, 429, 429, 429, 429]);
    for (const r of results.filter((x) => x.status === 429)) expectQuotaError(r);
    const usage = await call(srv.base, 'GET', '/usage', { token });
    expect(usage.body.data.usage).toEqual({ generated: 10, limit: 10, remaining: 0, percentUsed: 100 });
    const list = await call(srv.base, 'GET', '/images', { token });
    expect(list.body.data.pagination.total).toBe(3);
  });

  it('an exhausted quota is refused before the upload is read, and the 429 still arrives', async () => {
    const { user, token } = await srv.createUser('free');
    for (let i = 0; i < 10; i++) await srv.services.quota.charge(user);
    const big = Buffer.alloc(8 * 1024 * 1024, 7);
    const res = await generate(srv.base, token, { title: 'No more' }, { data: big });
    expectQuotaError(res);
  });

  it('raising the tier raises the limit at once', async () => {
    const { user, token } = await srv.createUser('free');
    for (let i = 0; i < 10; i++) await srv.services.quota.charge(user);
    expect((await generate(srv.base, token, { title: 'Blocked' }, { data: small })).status).toBe(429);
    await srv.services.accounts.setTier(user.email, 'pro');
    expect((await generate(srv.base, token, { title: 'Allowed' }, { data: small })).status).toBe(201);
  });
});

describe('two server processes sharing one DATA_DIR', () => {
  let dataDir: string;
  let a: ServerProcess;
  let b: ServerProcess;
  let local: ReturnType<typeof createServices>;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'titlecard-2proc-'));
    const storage = await openStorage({ dataDir });
    local = createServices({
      ...storage,
      renderer: createRenderer(testFonts()),
      logger: silentLogger,
      publicUrl: 'http://unused',
    });
    [a, b] = await Promise.all([spawnServer({ DATA_DIR: dataDir }), spawnServer({ DATA_DIR: dataDir })]);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await local?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('the quota is exact under concurrent requests split across both', async () => {
    const { user, token } = await local.accounts.createUser({
      email: 'race@example.com',
      displayName: 'Race',
      tier: 'free',
    });
    for (let i = 0; i < 6; i++) await local.quota.charge(user);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        generate((i % 2 ? a : b).base, token.token, { title: `Split ${i}` }, { data: small }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(4);
    expect(results.filter((r) => r.status === 429)).toHaveLength(8);
    expect((await local.quota.usage(user)).usage.generated).toBe(10);
  });

  it('a token revoked through one process is refused by the other on the next request', async () => {
    const { token } = await local.accounts.createUser({
      email: 'revoke@example.com',
      displayName: 'Rev',
      tier: 'pro',
    });
    const second = await call(a.base, 'POST', '/tokens', { token: token.token, json: { name: 'second' } });
    const secret = second.body.data.token as string;
    expect((await call(b.base, 'GET', '/usage', { token: secret })).status).toBe(200);
    expect(
      (await call(a.base, 'DELETE', `/tokens/${second.body.data.id as string}`, { token: token.token }))
        .status,
    ).toBe(200);
    expect((await call(b.base, 'GET', '/usage', { token: secret })).status).toBe(401);
  });

  it('an image generated through one is listed and served through the other', async () => {
    const { token } = await local.accounts.createUser({
      email: 'share@example.com',
      displayName: 'Share',
      tier: 'pro',
    });
    const made = await generate(a.base, token.token, { title: 'Made on A' }, { data: small });
    expect(made.status).toBe(201);
    const listed = await call(b.base, 'GET', '/images', { token: token.token });
    expect(listed.body.data.images[0].id).toBe(made.body.data.id);
    const key = new URL(made.body.data.url as string).pathname;
    const file = await download(`${b.url}${key}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
  });
});
