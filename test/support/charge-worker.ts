/**
 * A separate OS process that charges the quota on a store it opens itself (its own connection), for
 * the record-store contract's concurrency check. Protocol: argv[2] is the JSON job; it writes
 * `ready` once its store is open, waits for a line on stdin (so that every process starts charging
 * at the same moment), charges, writes the number of successful charges, and exits.
 *
 * `racy` replaces the atomic charge by a read-then-write one (count, pause, then charge without a
 * limit): the broken implementation the contract must catch.
 */
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { openStorage, type StorageConfig } from '../../src/adapters/storage/index.js';

interface Job {
  storage: StorageConfig;
  userId: string;
  month: string;
  limit: number;
  charges: number;
  racy: boolean;
}

const job = JSON.parse(process.argv[2] as string) as Job;
const { store, blobs } = await openStorage(job.storage);
const charge = async (): Promise<string | undefined> => {
  if (!job.racy) return store.usage.tryCharge(job.userId, job.month, job.limit);
  if ((await store.usage.get(job.userId, job.month)) >= job.limit) return undefined;
  await sleep(20);
  return store.usage.tryCharge(job.userId, job.month, Number.MAX_SAFE_INTEGER);
};
process.stdout.write('ready\n');
await once(process.stdin, 'data');
const results = await Promise.all(Array.from({ length: job.charges }, charge));
process.stdout.write(`${results.filter((r) => r !== undefined).length}\n`);
await Promise.all([store.close(), blobs.close()]);
process.stdin.destroy();
