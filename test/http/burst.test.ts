/**
 * A burst of generations (issue 27): it queues for the renderer instead of being turned away, the
 * quota is checked before the capacity, and load is shed by the expected wait for a render
 * (RENDER_MAX_WAIT), with that wait as Retry-After and nothing charged.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { photo } from '../support/images.js';
import { assertMatchesOpenApi } from '../support/openapi.js';
import { runCli, spawnServer } from '../support/process.js';
import { call, generate, startTestServer, type ApiResponse } from '../support/server.js';

const PHOTO = { data: photo('friends_by_Aitzol_Berasategi.jpg') };

/** `count` generations at once against `bases` in turn; their answers. */
const burst = (bases: string[], token: string, count: number) =>
  Promise.all(
    Array.from({ length: count }, (_, i) =>
      generate(bases[i % bases.length] as string, token, { title: `Burst ${i}`, fileFormat: 'jpeg' }, PHOTO),
    ),
  );
const statuses = (answers: ApiResponse[]) => answers.map((a) => a.status).sort((a, b) => a - b);

describe('a burst of POST /generate', () => {
  it('16 at once on an agency account, default settings: all 201, each charged once', async () => {
    const srv = await startTestServer();
    try {
      const { token } = await srv.createUser('agency');
      const answers = await burst([srv.base], token, 16);
      expect(statuses(answers)).toEqual(Array(16).fill(201));
      const usage = await call(srv.base, 'GET', '/usage', { token });
      expect(usage.body.data.usage.generated).toBe(16);
    } finally {
      await srv.close();
    }
  }, 60_000);

  it("16 at once on a free account: exactly 10 × 201 and 6 × 429, the quota's answer, not 503", async () => {
    const srv = await startTestServer();
    try {
      const { token } = await srv.createUser('free');
      const answers = await burst([srv.base], token, 16);
      expect(statuses(answers)).toEqual([...Array(10).fill(201), ...Array(6).fill(429)]);
      for (const refused of answers.filter((a) => a.status === 429))
        assertMatchesOpenApi('POST', '/generate', 429, refused.body);
    } finally {
      await srv.close();
    }
  }, 60_000);

  it('the same free burst split over two processes on one store: exactly 10 × 201 and 6 × 429', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'titlecard-burst-'));
    const made = await runCli(
      ['users', 'create', '--email', 'burst@example.com', '--name', 'Burst', '--tier', 'free', '--json'],
      { DATA_DIR: dataDir },
    );
    expect(made.code, made.stderr).toBe(0);
    const { token } = JSON.parse(made.stdout) as { token: string };
    const servers = await Promise.all([
      spawnServer({ DATA_DIR: dataDir }),
      spawnServer({ DATA_DIR: dataDir }),
    ]);
    try {
      const answers = await burst(
        servers.map((s) => s.base),
        token,
        16,
      );
      expect(statuses(answers)).toEqual([...Array(10).fill(201), ...Array(6).fill(429)]);
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 90_000);

  it('past RENDER_MAX_WAIT of expected wait, 503 with that wait as Retry-After, and nothing charged', async () => {
    // One render at a time, no wait allowed: every generation that would queue is refused.
    const srv = await startTestServer({ env: { RENDER_CONCURRENCY: '1', RENDER_MAX_WAIT: '0' } });
    try {
      const { token } = await srv.createUser('pro');
      const answers = await burst([srv.base], token, 4);
      const created = answers.filter((a) => a.status === 201).length;
      const refused = answers.filter((a) => a.status === 503);
      expect(created).toBeGreaterThanOrEqual(1);
      expect(refused.length).toBeGreaterThanOrEqual(1);
      expect(created + refused.length).toBe(4);
      for (const r of refused) {
        expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(r.body.error.code).toBe('BUSY');
        assertMatchesOpenApi('POST', '/generate', 503, r.body);
      }
      const usage = await call(srv.base, 'GET', '/usage', { token });
      expect(usage.body.data.usage.generated).toBe(created);
    } finally {
      await srv.close();
    }
  }, 60_000);
});
