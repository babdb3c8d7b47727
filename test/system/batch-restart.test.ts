/**
 * A batch survives `kill -9` of the embedded server mid-batch: started again on the same data
 * directory, it finishes with every item rendered once and charged once (issue 27, item 2).
 */
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { photo } from '../support/images.js';
import { runCli, spawnServer } from '../support/process.js';
import { call, settled } from '../support/server.js';

let dataDir: string;
let token: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'titlecard-batch-restart-'));
  const made = await runCli(
    ['users', 'create', '--email', 'bulk@example.com', '--name', 'Bulk', '--tier', 'agency', '--json'],
    { DATA_DIR: dataDir },
  );
  token = (JSON.parse(made.stdout) as { token: string }).token;
});
afterAll(async () => rm(dataDir, { recursive: true, force: true }));

describe('a batch across a crash', () => {
  it('kill -9 mid-batch, start again: every item is rendered and charged exactly once', async () => {
    const first = await spawnServer({ DATA_DIR: dataDir });
    let batchId: string;
    try {
      // A 4K photo, so that each item takes long enough to be caught mid-batch.
      const form = new FormData();
      form.append('image', new Blob([photo('Kleiber_by_Lukas_Baubkus.jpg')]), 'kleiber.jpg');
      const asset = (await (
        await fetch(`${first.base}/assets`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}` },
          body: form,
        })
      ).json()) as { data: { id: string } };
      const items = Array.from({ length: 30 }, (_, i) => ({
        asset: asset.data.id,
        title: `Survives a crash ${i}`,
      }));
      const created = await call(first.base, 'POST', '/batches', { token, json: { items } });
      expect(created.status).toBe(202);
      batchId = created.body.data.id as string;
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        const { done } = (await call(first.base, 'GET', `/batches/${batchId}`, { token })).body.data;
        if ((done as number) >= 5) break;
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      first.proc.kill('SIGKILL');
      await once(first.proc, 'exit');
    }

    const second = await spawnServer({ DATA_DIR: dataDir });
    try {
      const before = (await call(second.base, 'GET', `/batches/${batchId}`, { token })).body.data;
      expect(before.done).toBeGreaterThanOrEqual(5);
      expect(before.done).toBeLessThan(30);
      const batch = await settled(second.base, token, batchId);
      expect(batch).toMatchObject({ status: 'completed', done: 30, failed: 0 });
      const ids = new Set(batch.items.map((i: { image: { id: string } }) => i.image.id));
      expect(ids.size).toBe(30);
      const images = await call(second.base, 'GET', '/images?limit=100', { token });
      expect(images.body.data.pagination.total).toBe(30);
      const usage = await call(second.base, 'GET', '/usage', { token });
      expect(usage.body.data.usage.generated).toBe(30);
    } finally {
      await second.stop();
    }
  }, 180_000);
});
