/**
 * Idempotency-Key on POST /generate and POST /tokens (IETF draft): a retry gets the first answer and
 * is not charged again, another request with the same key is a 422, a retry while the first is under
 * way a 409; also across two processes sharing one DATA_DIR.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import Database from 'better-sqlite3';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { photo, solid } from '../support/images.js';
import { assertMatchesOpenApi } from '../support/openapi.js';
import { runCli, spawnServer } from '../support/process.js';
import { call, startTestServer, type TestServer } from '../support/server.js';

let srv: TestServer;
let small: Buffer;
beforeAll(async () => {
  srv = await startTestServer();
  small = await solid([90, 30, 60], 'jpeg', 640, 400);
});
afterAll(async () => srv.close());

/** POST /generate with an Idempotency-Key. */
async function generateWithKey(base: string, token: string, key: string, title: string, image = small) {
  const form = new FormData();
  form.append('image', new Blob([image], { type: 'image/jpeg' }), 'a.jpg');
  form.append('title', title);
  const res = await fetch(`${base}/generate`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'idempotency-key': key },
    body: form,
  });
  return {
    status: res.status,
    body: (await res.json()) as { data?: { id: string; url: string }; error?: { code: string } },
  };
}

const generated = async (token: string) =>
  (await call(srv.base, 'GET', '/usage', { token })).body.data.usage.generated as number;

/** Resolves once the server has a render under way (the renders_active gauge of GET /metrics). */
async function renderUnderWay(url: string): Promise<void> {
  for (;;) {
    const metrics = await (await fetch(`${url}/metrics`)).text();
    if (/^titlecard_renders_active [1-9]/m.test(metrics)) return;
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('Idempotency-Key', () => {
  it('a retry with the same key and request gets the first answer and is not charged again', async () => {
    const { token } = await srv.createUser('pro');
    const first = await generateWithKey(srv.base, token, 'retry-1', 'Once');
    const again = await generateWithKey(srv.base, token, 'retry-1', 'Once');
    expect(first.status).toBe(201);
    expect(again).toEqual(first);
    expect(await generated(token)).toBe(1);
    expect((await call(srv.base, 'GET', '/images', { token })).body.data.pagination.total).toBe(1);
  });

  it('the same key with another request is a 422, and charges nothing', async () => {
    const { token } = await srv.createUser('pro');
    expect((await generateWithKey(srv.base, token, 'reused', 'First')).status).toBe(201);
    const other = await generateWithKey(srv.base, token, 'reused', 'Second');
    expect(other.status).toBe(422);
    expect(other.body.error?.code).toBe('IDEMPOTENCY_MISMATCH');
    assertMatchesOpenApi('POST', '/generate', 422, other.body);
    expect(await generated(token)).toBe(1);
  });

  it('a retry while the first is under way is a 409; only one generation is charged', async () => {
    const { token } = await srv.createUser('pro');
    const big = photo('Kleiber_by_Lukas_Baubkus.jpg');
    // The retry is sent once the first is rendering (a fixed delay raced the render once renders
    // got faster): its upload and fingerprint take a fraction of the first's render.
    const [a, b] = await Promise.all([
      generateWithKey(srv.base, token, 'racing', 'Race', big),
      renderUnderWay(srv.url).then(() => generateWithKey(srv.base, token, 'racing', 'Race', big)),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    const conflict = a.status === 409 ? a : b;
    expect(conflict.body.error?.code).toBe('IDEMPOTENCY_IN_FLIGHT');
    expect(await generated(token)).toBe(1);
  });

  it('POST /tokens: a retry names the same token, not a second one, and the secret is neither stored nor replayed', async () => {
    const { user, token } = await srv.createUser('pro');
    const headers = { 'idempotency-key': 'token-1' };
    const first = await call(srv.base, 'POST', '/tokens', { token, json: { name: 'ci' }, headers });
    const again = await call(srv.base, 'POST', '/tokens', { token, json: { name: 'ci' }, headers });
    expect(first.status).toBe(201);
    const secret = first.body.data.token as string;
    expect(secret).toMatch(/^tc_/);
    // The retry: that token's list entry, without its secret.
    expect(again.status).toBe(200);
    assertMatchesOpenApi('POST', '/tokens', 200, again.body);
    expect(again.body.data).toEqual({
      id: first.body.data.id,
      name: 'ci',
      lastUsedAt: null,
      createdAt: first.body.data.createdAt,
      scopes: first.body.data.scopes,
      userId: user.id,
    });
    expect(
      (await srv.services.accounts.listTokens(await srv.services.accounts.actAs(user.email))).filter(
        (t) => t.name === 'ci',
      ),
    ).toHaveLength(1);
    // Nothing at rest holds the secret.
    const db = new Database(path.join(srv.dataDir, 'titlecard.db'), { readonly: true });
    const kept = db.prepare('SELECT response FROM idempotency WHERE key = ?').all('token-1');
    db.close();
    expect(kept).toHaveLength(1);
    expect(JSON.stringify(kept)).not.toContain(secret);
    const bad = await call(srv.base, 'POST', '/tokens', { token, json: { name: 'other' }, headers });
    expect(bad.status).toBe(422);
    // Once the token is revoked, a retry says so instead of naming it.
    await call(srv.base, 'DELETE', `/tokens/${first.body.data.id as string}`, { token });
    const late = await call(srv.base, 'POST', '/tokens', { token, json: { name: 'ci' }, headers });
    expect(late.status).toBe(404);
    expect(late.body.error.message).toMatch(/revoked/);
  });

  it('a failed request does not stick: the same key may be retried after an error', async () => {
    const { token } = await srv.createUser('pro');
    const broken = await generateWithKey(
      srv.base,
      token,
      'after-error',
      'Broken',
      Buffer.from('not an image'),
    );
    expect(broken.status).toBe(400);
    const fixed = await generateWithKey(srv.base, token, 'after-error', 'Broken', small);
    expect(fixed.status).toBe(201);
  });

  it('across two processes on one DATA_DIR, the same key charges exactly once', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'titlecard-idem-'));
    const made = await runCli(
      ['users', 'create', '--email', 'idem@example.com', '--name', 'I', '--tier', 'pro', '--json'],
      { DATA_DIR: dataDir },
    );
    const token = (JSON.parse(made.stdout) as { token: string }).token;
    const [a, b] = await Promise.all([
      spawnServer({ DATA_DIR: dataDir }),
      spawnServer({ DATA_DIR: dataDir }),
    ]);
    try {
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          generateWithKey(i % 2 ? a.base : b.base, token, 'shared-key', 'Shared'),
        ),
      );
      const created = answers.filter((x) => x.status === 201);
      expect(created.length).toBeGreaterThanOrEqual(1);
      expect(answers.every((x) => x.status === 201 || x.status === 409)).toBe(true);
      expect(new Set(created.map((x) => x.body.data?.id)).size).toBe(1);
      const usage = await call(a.base, 'GET', '/usage', { token });
      expect(usage.body.data.usage.generated).toBe(1);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
