/**
 * Batches with a queue (QUEUE=redis) whose Redis is away when a batch is made: the request fails,
 * the batch stays stored with its items queued, and a worker's requeue hands them over once the
 * queue is back.
 */
import { describe, expect, it } from 'vitest';
import type { ItemQueue } from '../../src/domain/kernel/ports.js';
import { openSqliteStore } from '../../src/storage/sqlite/index.js';
import { createMemoryBlobStore } from '../support/memory-blobs.js';
import { solid } from '../support/images.js';
import { testServices } from '../support/server.js';
import { fakeClock } from '../support/domain.js';

describe('batches on a queue that was away', () => {
  it('requeueWaiting hands over the items a failed enqueue left, once they are older than the cutoff', async () => {
    const added: { batchId: string; index: number }[] = [];
    let away = true;
    const itemQueue: ItemQueue = {
      async add(items) {
        if (away) throw new Error('Connection is closed.');
        added.push(...items);
      },
    };
    const clock = fakeClock('2026-11-25T10:00:00.000Z');
    const blobs = createMemoryBlobStore();
    const s = testServices({ store: openSqliteStore(':memory:'), blobs, clock, itemQueue });
    const { token } = await s.accounts.createUser({ email: 'q@example.com', displayName: 'Q', tier: 'pro' });
    const principal = await s.accounts.authenticate(`Bearer ${token.token}`);
    const asset = await s.assets.uploadImage(
      principal,
      await solid([1, 2, 3], 'jpeg', 300, 200),
      {},
      'a.jpg',
    );
    const items = [0, 1, 2].map((i) => ({ asset: asset.id, title: `Waiting ${i}` }));
    await expect(s.batches.create(principal, { items })).rejects.toThrow('Connection is closed.');
    const [batch] = await s.batches.list(principal);
    expect(batch).toMatchObject({ status: 'queued', total: 3 });

    away = false;
    // Too young: a batch made this instant may still be on its way to the queue.
    expect(await s.requeueWaiting(new Date('2026-11-25T10:00:00.000Z'))).toBe(0);
    expect(await s.requeueWaiting(new Date('2026-11-25T10:01:00.000Z'))).toBe(3);
    expect(added).toEqual([0, 1, 2].map((index) => ({ batchId: batch!.id, index })));
    await s.close();
  });
});
