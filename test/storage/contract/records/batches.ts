/** The RecordStore contract, batches: items claimed once, stale claims taken over, completion once; charges once per key. */
import { expect, it } from 'vitest';
import { newId } from '../../../../src/domain/kernel/ids.js';
import type { Batch, BatchItem } from '../../../../src/domain/kernel/records.js';
import type { ContractContext } from './fixtures.js';

export function batchesContract({ open }: ContractContext): void {
  it('claims each waiting item once in batch order, takes over a stale claim, records results, completes a batch once, cancels what waits', async () => {
    const store = await open();
    const userId = newId('usr');
    const at = new Date('2026-11-20T10:00:00.000Z');
    const batch: Batch = {
      id: newId('bat'),
      userId,
      total: 3,
      webhookUrl: null,
      createdAt: at,
      completedAt: null,
      cancelledAt: null,
    };
    const item = (index: number): BatchItem => ({
      batchId: batch.id,
      userId,
      index,
      options: { title: `T${index}`, template: 'left' },
      status: 'queued',
      imageId: null,
      error: null,
      claimedAt: null,
    });
    await store.batches.create(batch, [item(0), item(1), item(2)]);
    expect(await store.batches.find(userId, batch.id)).toEqual(batch);
    expect(await store.batches.find(newId('usr'), batch.id)).toBeUndefined();
    expect(await store.batches.counts(batch.id)).toMatchObject({ queued: 3, running: 0 });
    const mine = (list: { batchId: string; index: number }[]) =>
      list.filter((i) => i.batchId === batch.id).map((i) => i.index);
    expect(mine(await store.batches.queuedBefore(new Date(at.getTime() + 1), 1000))).toEqual([0, 1, 2]);
    expect(mine(await store.batches.queuedBefore(at, 1000))).toEqual([]);

    // The test's store may hold other tests' items: only this batch's are looked at.
    const stale = new Date(at.getTime() - 10_000);
    // An account in `busy` (its items fill its share of the runner) is passed over, however old.
    for (let i = 0; i < 50; i++) {
      const next = await store.batches.claimNext(at, stale, [userId]);
      if (!next) break;
      expect(next.userId).not.toBe(userId);
    }
    const claimed: BatchItem[] = [];
    for (let i = 0; i < 50 && claimed.length < 3; i++) {
      const next = await store.batches.claimNext(at, stale, []);
      if (!next) break;
      if (next.batchId === batch.id) claimed.push(next);
    }
    expect(claimed.map((c) => c.index)).toEqual([0, 1, 2]);
    expect(mine(await store.batches.queuedBefore(new Date(at.getTime() + 1), 1000))).toEqual([]);
    expect(claimed[0]).toMatchObject({
      status: 'running',
      claimedAt: at,
      options: { title: 'T0', template: 'left' },
    });
    expect(await store.batches.claimNext(at, stale, []).then((c) => c?.batchId === batch.id)).toBe(false);

    // Item 2's runner died: after the stale time it is taken over; renewed claims are not.
    const later = new Date(at.getTime() + 20_000);
    await store.batches.renew(
      [
        { batchId: batch.id, index: 0 },
        { batchId: batch.id, index: 1 },
      ],
      later,
    );
    let takenOver: BatchItem | undefined;
    for (let i = 0; i < 50 && !takenOver; i++) {
      const next = await store.batches.claimNext(later, new Date(later.getTime() - 10_000), []);
      if (!next) break;
      if (next.batchId === batch.id) takenOver = next;
    }
    expect(takenOver?.index).toBe(2);

    await store.batches.finishItem(batch.id, 0, { status: 'done', imageId: 'img_x' });
    await store.batches.finishItem(batch.id, 1, {
      status: 'failed',
      error: { code: 'QUOTA_EXCEEDED', message: 'm', field: null },
    });
    expect(await store.batches.complete(batch.id, later)).toBe(false); // item 2 still running
    await store.batches.finishItem(batch.id, 2, { status: 'done', imageId: 'img_y' });
    expect(await store.batches.complete(batch.id, later)).toBe(true);
    expect(await store.batches.complete(batch.id, later)).toBe(false);
    expect(
      (await store.batches.items(batch.id)).map((i) => [i.status, i.imageId, i.error?.code ?? null]),
    ).toEqual([
      ['done', 'img_x', null],
      ['failed', null, 'QUOTA_EXCEEDED'],
      ['done', 'img_y', null],
    ]);

    const other: Batch = { ...batch, id: newId('bat'), total: 2, createdAt: later };
    await store.batches.create(
      other,
      [0, 1].map((i) => ({ ...item(i), batchId: other.id })),
    );
    expect(await store.batches.cancel(newId('usr'), other.id, later)).toBe(0);
    expect(await store.batches.cancel(userId, other.id, later)).toBe(2);
    expect((await store.batches.find(userId, other.id))?.cancelledAt).toEqual(later);
    expect(await store.batches.counts(other.id)).toMatchObject({ cancelled: 2, queued: 0 });
    expect((await store.batches.list(userId, 10)).map((b) => b.id)).toEqual([other.id, batch.id]);

    // Only a finished batch is removed, only by its owner, with its items.
    expect(await store.batches.removeFinished(userId, other.id)).toBe(false);
    expect(await store.batches.complete(other.id, later)).toBe(true);
    expect(await store.batches.removeFinished(newId('usr'), other.id)).toBe(false);
    expect(await store.batches.removeFinished(userId, other.id)).toBe(true);
    expect(await store.batches.items(other.id)).toEqual([]);
    expect(await store.batches.find(userId, other.id)).toBeUndefined();
    expect((await store.batches.list(userId, 10)).map((b) => b.id)).toEqual([batch.id]);
    await store.batches.deleteAllForUser(userId);
    expect(await store.batches.list(userId, 10)).toEqual([]);
    await store.close();
  });

  it('charges once per key: a second charge with the key answers the first, a refund gives the unit back once', async () => {
    const store = await open();
    const userId = newId('usr');
    const first = await store.usage.tryChargeOnce(userId, '2026-11', 5, 'bat_a:1');
    expect(first).toBeDefined();
    expect(await store.usage.tryChargeOnce(userId, '2026-11', 5, 'bat_a:1')).toBe(first);
    expect(await store.usage.get(userId, '2026-11')).toBe(1);
    await store.usage.tryCharge(userId, '2026-11', 5);
    expect(await store.usage.get(userId, '2026-11')).toBe(2);
    await store.usage.refund(userId, '2026-11', first!);
    await store.usage.refund(userId, '2026-11', first!);
    expect(await store.usage.get(userId, '2026-11')).toBe(1);
    // Refunded, the key charges anew.
    expect(await store.usage.tryChargeOnce(userId, '2026-11', 5, 'bat_a:1')).toBeDefined();
    expect(await store.usage.get(userId, '2026-11')).toBe(2);
    // At the limit, a new key is refused.
    for (let i = 0; i < 3; i++) await store.usage.tryCharge(userId, '2026-11', 5);
    expect(await store.usage.tryChargeOnce(userId, '2026-11', 5, 'bat_a:2')).toBeUndefined();
    await store.close();
  });

  it('charges a key once when many processes charge it at the same moment, and again once after a refund (issue 44)', async () => {
    const store = await open();
    const userId = newId('usr');
    const key = `img:${newId('img')}`;
    const receipts = await Promise.all(
      Array.from({ length: 12 }, () => store.usage.tryChargeOnce(userId, '2026-11', 50, key)),
    );
    expect(new Set(receipts).size).toBe(1);
    expect(await store.usage.get(userId, '2026-11')).toBe(1);
    // A refund and a charge of the same key racing (a worker's record, a serving process giving up):
    // whatever the order, at most one unit, and a charge after both holds it.
    await Promise.all([
      store.usage.refund(userId, '2026-11', receipts[0]!),
      store.usage.tryChargeOnce(userId, '2026-11', 50, key),
    ]);
    expect(await store.usage.get(userId, '2026-11')).toBeLessThanOrEqual(1);
    await Promise.all(Array.from({ length: 6 }, () => store.usage.tryChargeOnce(userId, '2026-11', 50, key)));
    expect(await store.usage.get(userId, '2026-11')).toBe(1);
    // The charge sweep finds it by its prefix and time, and only within the window.
    const now = Date.now();
    const found = await store.usage.keyedBetween(
      'img:',
      new Date(now - 60_000),
      new Date(now + 60_000),
      10_000,
    );
    expect(found.filter((c) => c.key === key)).toEqual([
      { userId, month: '2026-11', key, receipt: expect.any(String) as string },
    ]);
    expect(
      (await store.usage.keyedBetween('img:', new Date(now + 60_000), new Date(now + 120_000), 10)).filter(
        (c) => c.key === key,
      ),
    ).toEqual([]);
    expect(
      (await store.usage.keyedBetween('bat_', new Date(now - 60_000), new Date(now + 60_000), 10_000)).filter(
        (c) => c.key === key,
      ),
    ).toEqual([]);
    await store.close();
  });
}
