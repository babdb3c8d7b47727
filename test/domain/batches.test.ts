/**
 * Batches with a queue (QUEUE=redis) whose Redis is away when a batch is made: the batch is stored
 * and answered with its items queued, and a worker's requeue hands them over once the queue is
 * back; items whose job ran out of retries are queued again (issue 44). And how many batches an
 * account keeps (issue 41, item 7).
 */
import { describe, expect, it } from 'vitest';
import { BATCHES_KEPT, BATCHES_UNFINISHED } from '../../src/domain/batches/batches.js';
import { NotFoundError, TooManyAttemptsError } from '../../src/domain/kernel/errors.js';
import type { ItemQueue } from '../../src/domain/kernel/ports.js';
import { openSqliteStore } from '../../src/adapters/storage/sqlite/index.js';
import { createMemoryBlobStore } from '../support/memory-blobs.js';
import { solid } from '../support/images.js';
import { testServices } from '../support/server.js';
import { fakeClock } from '../support/domain.js';

describe('batches on a queue that was away', () => {
  it('requeueWaiting hands over the items a failed enqueue left, once they are older than the cutoff', async () => {
    const added: { batchId: string; index: number; again?: boolean }[] = [];
    let away = true;
    const itemQueue: ItemQueue = {
      async add(items, { again } = {}) {
        if (away) throw new Error('Connection is closed.');
        added.push(...items.map((i) => (again ? { ...i, again } : i)));
      },
      async ping() {},
    };
    const clock = fakeClock('2026-11-25T10:00:00.000Z');
    const blobs = createMemoryBlobStore();
    const store = openSqliteStore(':memory:');
    const s = testServices({ store, blobs, clock, itemQueue });
    const { token } = await s.accounts.createUser({ email: 'q@example.com', displayName: 'Q', tier: 'pro' });
    const principal = await s.accounts.authenticate(`Bearer ${token.token}`);
    const asset = await s.assets.uploadImage(
      principal,
      await solid([1, 2, 3], 'jpeg', 300, 200),
      {},
      'a.jpg',
    );
    const items = [0, 1, 2].map((i) => ({ asset: asset.id, title: `Waiting ${i}` }));
    const made = await s.batches.create(principal, { items });
    expect(made).toMatchObject({ status: 'queued', total: 3 });
    const [batch] = await s.batches.list(principal);
    expect(batch).toMatchObject({ id: made.id, status: 'queued', total: 3 });

    away = false;
    // Too young: a batch made this instant may still be on its way to the queue.
    expect(await s.requeueWaiting(new Date('2026-11-25T10:00:00.000Z'))).toBe(0);
    expect(await s.requeueWaiting(new Date('2026-11-25T10:01:00.000Z'))).toBe(3);
    expect(added).toEqual([0, 1, 2].map((index) => ({ batchId: batch!.id, index })));

    // A worker claimed item 1, and its job ran out of retries while a store was away: its claim
    // goes stale, and two minutes on it is queued again (the failed job retried).
    added.length = 0;
    await store.batches.claimItem(batch!.id, 1, clock.now());
    clock.set('2026-11-25T10:01:59.000Z');
    expect(await s.requeueWaiting(new Date('2026-11-25T09:00:00.000Z'))).toBe(0);
    clock.set('2026-11-25T10:02:01.000Z');
    expect(await s.requeueWaiting(new Date('2026-11-25T09:00:00.000Z'))).toBe(1);
    expect(added).toEqual([{ batchId: batch!.id, index: 1, again: true }]);
    await s.close();
  });
});

describe('how many batches an account keeps', () => {
  it('refuses an 11th unfinished batch (429 RATE_LIMITED) and, at 100 kept, removes the oldest finished for a new one', async () => {
    const clock = fakeClock('2026-11-25T10:00:00.000Z');
    // A queue that takes the items and never runs them: every batch stays unfinished until cancelled.
    const s = testServices({
      store: openSqliteStore(':memory:'),
      blobs: createMemoryBlobStore(),
      clock,
      itemQueue: { add: async () => undefined, ping: async () => undefined },
    });
    const { token } = await s.accounts.createUser({ email: 'k@example.com', displayName: 'K', tier: 'pro' });
    const principal = await s.accounts.authenticate(`Bearer ${token.token}`);
    const asset = await s.assets.uploadImage(
      principal,
      await solid([1, 2, 3], 'jpeg', 300, 200),
      {},
      'a.jpg',
    );
    let minute = 0;
    const make = async () => {
      clock.set(new Date(Date.parse('2026-11-25T10:00:00.000Z') + ++minute * 60_000).toISOString());
      return s.batches.create(principal, { items: [{ asset: asset.id, title: `Batch ${minute}` }] });
    };

    const first = [];
    for (let i = 0; i < BATCHES_UNFINISHED; i++) first.push(await make());
    const refused = await make().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TooManyAttemptsError);
    expect(refused).toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: 60 });
    expect((refused as Error).message).toMatch(/^Too many batches under way \(at most 10; cancel one/);
    expect(await s.batches.list(principal)).toHaveLength(BATCHES_UNFINISHED);

    // Cancelled before they start, they finish at once; then 90 more, each cancelled.
    for (const b of first) await s.batches.cancel(principal, b.id);
    for (let i = 0; i < BATCHES_KEPT - BATCHES_UNFINISHED; i++)
      await s.batches.cancel(principal, (await make()).id);
    expect(await s.batches.list(principal)).toHaveLength(BATCHES_KEPT);

    const newest = await make();
    const kept = await s.batches.list(principal);
    expect(kept).toHaveLength(BATCHES_KEPT);
    expect(kept[0]!.id).toBe(newest.id);
    expect(kept.map((b) => b.id)).not.toContain(first[0]!.id);
    expect(kept.map((b) => b.id)).toContain(first[1]!.id);
    await expect(s.batches.get(principal, first[0]!.id)).rejects.toBeInstanceOf(NotFoundError);
    await s.close();
  });
});
