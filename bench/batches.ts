/**
 * The batch queue's cost (issue 27): one `titlecard serve` (built, embedded default), 200 cards made
 * two ways from the same uploaded photo (an asset) and title length: 200 synchronous
 * `POST /api/generate` at 4 in flight, then one 200-item `POST /api/batches` followed until it
 * completes. The overhead per item is the batch's time over the synchronous time, less one; the
 * target is at most 5%. Then the server's resident memory and its high-water mark (VmHWM).
 *
 *   npm run bench -- --batches [--photos mate_RainDrops.jpg]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { runCli, spawnServer } from '../test/support/process.js';
import { TITLE } from './engines.js';
import { procMemoryMiB } from './stats.js';

const ITEMS = 200;
const IN_FLIGHT = 4;

/** Prints the synchronous and the batch timings of {@link ITEMS} cards of `photo`. */
export async function batchFigures(
  photo: Buffer,
  name: string,
  print: (line: string) => void,
): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'titlecard-bench-batch-'));
  const env = { DATA_DIR: dataDir, LOG_LEVEL: 'info' };
  const made = await runCli(
    ['users', 'create', '--email', 'bulk@example.com', '--name', 'Bulk', '--tier', 'agency', '--json'],
    env,
  );
  const { token } = JSON.parse(made.stdout) as { token: string };
  const server = await spawnServer(env);
  const auth = { authorization: `Bearer ${token}` };
  try {
    const form = new FormData();
    form.append('image', new Blob([photo]), name);
    const asset = (
      (await (
        await fetch(`${server.base}/assets`, { method: 'POST', headers: auth, body: form })
      ).json()) as {
        data: { id: string };
      }
    ).data.id;
    const generate = async (i: number) => {
      const body = new FormData();
      body.append('asset', asset);
      body.append('title', `${TITLE} ${i}`);
      body.append('fileFormat', 'jpeg');
      const res = await fetch(`${server.base}/generate`, { method: 'POST', headers: auth, body });
      await res.arrayBuffer();
      if (res.status !== 201) throw new Error(`POST /generate answered ${res.status}`);
    };
    for (let i = 0; i < 4; i++) await generate(i); // warm-up

    let next = 0;
    const syncStart = performance.now();
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < ITEMS) await generate(next++);
      }),
    );
    const syncSeconds = (performance.now() - syncStart) / 1000;

    const items = Array.from({ length: ITEMS }, (_, i) => ({
      asset,
      title: `${TITLE} ${i}`,
      fileFormat: 'jpeg',
    }));
    const batchStart = performance.now();
    const created = (await (
      await fetch(`${server.base}/batches`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ items }),
      })
    ).json()) as { data: { id: string } };
    let batch: { status: string; done: number; failed: number };
    do {
      await new Promise((r) => setTimeout(r, 50));
      batch = (
        (await (await fetch(`${server.base}/batches/${created.data.id}`, { headers: auth })).json()) as {
          data: typeof batch;
        }
      ).data;
    } while (batch.status !== 'completed');
    const batchSeconds = (performance.now() - batchStart) / 1000;
    if (batch.done !== ITEMS)
      throw new Error(`the batch made ${batch.done} of ${ITEMS} (failed ${batch.failed})`);

    const pid = server.proc.pid ?? 0;
    print(`\nBatches: ${ITEMS} JPEG cards of ${name} (an asset), one server process`);
    print(
      `  ${ITEMS} synchronous POST /generate, ${IN_FLIGHT} in flight: ${syncSeconds.toFixed(2)} s (${((syncSeconds * 1000) / ITEMS).toFixed(1)} ms a card)`,
    );
    print(
      `  one ${ITEMS}-item batch, until completed: ${batchSeconds.toFixed(2)} s (${((batchSeconds * 1000) / ITEMS).toFixed(1)} ms a card)`,
    );
    print(
      `  the queue's overhead per item: ${((batchSeconds / syncSeconds - 1) * 100).toFixed(1)}% (target ≤ 5%)`,
    );
    print(
      `  server memory: VmRSS ${procMemoryMiB(pid, 'VmRSS').toFixed(0)} MiB, VmHWM ${procMemoryMiB(pid, 'VmHWM').toFixed(0)} MiB`,
    );
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
