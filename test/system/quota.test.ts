/**
 * The monthly quota (docs/api.md#limits) at its boundary: exact under concurrency within one process and
 * across two processes sharing one DATA_DIR; the 429 body and Retry-After; revocation and listing
 * across processes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertMatchesOpenApi } from '../support/openapi.js';
import { twoProcessChecks } from '../support/two-processes.js';
import {
  answerBeforeUploadEnds,
  call,
  generate,
  startTestServer,
  type TestServer,
} from '../support/server.js';
import { solid } from '../support/images.js';

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
    const { workspace, token } = await srv.createUser('free');
    for (let i = 0; i < 7; i++) await srv.services.ledger.charge(workspace);
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
    const { workspace, token } = await srv.createUser('free');
    for (let i = 0; i < 10; i++) await srv.services.ledger.charge(workspace);
    // The answer comes while most of the upload is still unsent: the server did not read it.
    const early = await answerBeforeUploadEnds(
      srv.base,
      token,
      { title: 'No more' },
      {
        sentBytes: 64 * 1024,
        declaredBytes: 8 * 1024 * 1024,
      },
    );
    expect(early.status).toBe(429);
    // A slow uploader that goes on sending after the 429 can finish: the server reads and discards
    // the rest instead of closing the connection under it (which its next writes meet as EPIPE).
    const slow = await answerBeforeUploadEnds(
      srv.base,
      token,
      { title: 'No more' },
      { sentBytes: 64 * 1024, declaredBytes: 2 * 1024 * 1024, sendRestAfterAnswer: true },
    );
    expect(slow.status).toBe(429);
    // And a client that sends everything at once still reads the 429 (no reset connection).
    const big = Buffer.alloc(8 * 1024 * 1024, 7);
    const res = await generate(srv.base, token, { title: 'No more' }, { data: big });
    expectQuotaError(res);
  });

  it('raising the tier raises the limit at once', async () => {
    const { user, workspace, token } = await srv.createUser('free');
    for (let i = 0; i < 10; i++) await srv.services.ledger.charge(workspace);
    expect((await generate(srv.base, token, { title: 'Blocked' }, { data: small })).status).toBe(429);
    await srv.services.accounts.setTier(user.email, 'pro');
    expect((await generate(srv.base, token, { title: 'Allowed' }, { data: small })).status).toBe(201);
  });
});

describe('two server processes sharing one DATA_DIR', () => {
  twoProcessChecks(() => ({ config: {}, env: {} }));
});
