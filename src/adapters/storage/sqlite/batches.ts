/** Batches and their items (src/domain/batches); an item's claim is one UPDATE … RETURNING. */
import type Database from 'better-sqlite3';
import type { RecordStore } from '../../../domain/kernel/ports.js';
import type { Batch, BatchItem, BatchItemStatus } from '../../../domain/kernel/records.js';

interface BatchRow {
  id: string;
  user_id: string;
  total: number;
  webhook_url: string | null;
  created_at: string;
  completed_at: string | null;
  cancelled_at: string | null;
}

interface ItemRow {
  batch_id: string;
  idx: number;
  user_id: string;
  options: string;
  status: BatchItemStatus;
  image_id: string | null;
  error: string | null;
  claimed_at: string | null;
  warnings: string | null;
}

const date = (v: string | null) => (v === null ? null : new Date(v));

const toBatch = (r: BatchRow): Batch => ({
  id: r.id,
  userId: r.user_id,
  total: r.total,
  webhookUrl: r.webhook_url,
  createdAt: new Date(r.created_at),
  completedAt: date(r.completed_at),
  cancelledAt: date(r.cancelled_at),
});

const toItem = (r: ItemRow): BatchItem => ({
  batchId: r.batch_id,
  userId: r.user_id,
  index: r.idx,
  options: JSON.parse(r.options) as Record<string, unknown>,
  status: r.status,
  imageId: r.image_id,
  error: r.error === null ? null : (JSON.parse(r.error) as BatchItem['error']),
  claimedAt: date(r.claimed_at),
  ...(r.warnings === null ? {} : { warnings: JSON.parse(r.warnings) as string[] }),
});

/** The `batches` repository of the {@link RecordStore} on SQLite. */
export function sqliteBatches(db: Database.Database): RecordStore['batches'] {
  const q = {
    insertBatch: db.prepare(
      `INSERT INTO batches (id, user_id, total, webhook_url, created_at, completed_at, cancelled_at)
       VALUES (@id, @userId, @total, @webhookUrl, @createdAt, NULL, NULL)`,
    ),
    insertItem: db.prepare(
      `INSERT INTO batch_items (batch_id, idx, user_id, options, status, image_id, error, claimed_at)
       VALUES (@batchId, @index, @userId, @options, @status, NULL, NULL, NULL)`,
    ),
    find: db.prepare<[string, string], BatchRow>('SELECT * FROM batches WHERE id = ? AND user_id = ?'),
    list: db.prepare<[string, number], BatchRow>(
      'SELECT * FROM batches WHERE user_id = ? ORDER BY created_at DESC, id DESC LIMIT ?',
    ),
    items: db.prepare<[string], ItemRow>('SELECT * FROM batch_items WHERE batch_id = ? ORDER BY idx'),
    counts: db.prepare<[string], { status: BatchItemStatus; n: number }>(
      'SELECT status, count(*) AS n FROM batch_items WHERE batch_id = ? GROUP BY status',
    ),
    // The oldest waiting item, in batch order: batch ids are random, so order by the batch's age.
    claim: db.prepare<{ at: string; staleBefore: string; busy: string }, ItemRow>(
      `UPDATE batch_items SET status = 'running', claimed_at = @at
       WHERE (batch_id, idx) = (
         SELECT i.batch_id, i.idx FROM batch_items i JOIN batches b ON b.id = i.batch_id
         WHERE (i.status = 'queued' OR (i.status = 'running' AND i.claimed_at < @staleBefore))
           AND i.user_id NOT IN (SELECT value FROM json_each(@busy))
         ORDER BY b.created_at, i.batch_id, i.idx LIMIT 1)
       RETURNING *`,
    ),
    claimItem: db.prepare<{ batchId: string; index: number; at: string }, ItemRow>(
      `UPDATE batch_items SET status = 'running', claimed_at = @at
       WHERE batch_id = @batchId AND idx = @index AND status IN ('queued', 'running') RETURNING *`,
    ),
    queuedBefore: db.prepare<[string, number], { batch_id: string; idx: number }>(
      `SELECT i.batch_id, i.idx FROM batch_items i JOIN batches b ON b.id = i.batch_id
       WHERE i.status = 'queued' AND b.created_at < ? ORDER BY b.created_at, i.batch_id, i.idx LIMIT ?`,
    ),
    stalledBefore: db.prepare<[string, number], { batch_id: string; idx: number }>(
      `SELECT batch_id, idx FROM batch_items WHERE status = 'running' AND claimed_at < ?
       ORDER BY claimed_at LIMIT ?`,
    ),
    renew: db.prepare(
      "UPDATE batch_items SET claimed_at = ? WHERE batch_id = ? AND idx = ? AND status = 'running'",
    ),
    finish: db.prepare(
      "UPDATE batch_items SET status = @status, image_id = @imageId, error = @error, warnings = @warnings WHERE batch_id = @batchId AND idx = @index AND status = 'running'",
    ),
    cancelItems: db.prepare(
      "UPDATE batch_items SET status = 'cancelled' WHERE batch_id = ? AND user_id = ? AND status = 'queued'",
    ),
    markCancelled: db.prepare(
      'UPDATE batches SET cancelled_at = ? WHERE id = ? AND user_id = ? AND cancelled_at IS NULL',
    ),
    complete: db.prepare(
      `UPDATE batches SET completed_at = ? WHERE id = ? AND completed_at IS NULL AND NOT EXISTS (
         SELECT 1 FROM batch_items WHERE batch_id = batches.id AND status IN ('queued', 'running'))`,
    ),
    deleteItems: db.prepare('DELETE FROM batch_items WHERE user_id = ?'),
    deleteFinished: db.prepare(
      'DELETE FROM batches WHERE id = ? AND user_id = ? AND completed_at IS NOT NULL',
    ),
    deleteItemsOf: db.prepare('DELETE FROM batch_items WHERE batch_id = ? AND user_id = ?'),
    deleteBatches: db.prepare('DELETE FROM batches WHERE user_id = ?'),
  };
  const create = db.transaction((batch: Batch, items: BatchItem[]) => {
    q.insertBatch.run({ ...batch, createdAt: batch.createdAt.toISOString() });
    for (const item of items) q.insertItem.run({ ...item, options: JSON.stringify(item.options) });
  });
  const cancel = db.transaction((userId: string, id: string, at: string) => {
    if (!q.find.get(id, userId)) return 0;
    const n = q.cancelItems.run(id, userId).changes;
    q.markCancelled.run(at, id, userId);
    return n;
  });
  return {
    async create(batch, items) {
      create.immediate(batch, items);
    },
    async find(userId, id) {
      const r = q.find.get(id, userId);
      return r && toBatch(r);
    },
    async list(userId, limit) {
      return q.list.all(userId, limit).map(toBatch);
    },
    async items(batchId) {
      return q.items.all(batchId).map(toItem);
    },
    async counts(batchId) {
      const counts: Record<BatchItemStatus, number> = {
        queued: 0,
        running: 0,
        done: 0,
        failed: 0,
        cancelled: 0,
      };
      for (const { status, n } of q.counts.all(batchId)) counts[status] = n;
      return counts;
    },
    async claimNext(at, staleBefore, busy) {
      const r = q.claim.get({
        at: at.toISOString(),
        staleBefore: staleBefore.toISOString(),
        busy: JSON.stringify(busy),
      });
      return r && toItem(r);
    },
    async claimItem(batchId, index, at) {
      const r = q.claimItem.get({ batchId, index, at: at.toISOString() });
      return r && toItem(r);
    },
    async queuedBefore(before, limit) {
      return q.queuedBefore
        .all(before.toISOString(), limit)
        .map((r) => ({ batchId: r.batch_id, index: r.idx }));
    },
    async stalledBefore(claimedBefore, limit) {
      return q.stalledBefore
        .all(claimedBefore.toISOString(), limit)
        .map((r) => ({ batchId: r.batch_id, index: r.idx }));
    },
    async renew(items, at) {
      db.transaction(() => {
        for (const i of items) q.renew.run(at.toISOString(), i.batchId, i.index);
      })();
    },
    async finishItem(batchId, index, result) {
      q.finish.run({
        batchId,
        index,
        status: result.status,
        imageId: result.status === 'done' ? result.imageId : null,
        error: result.status === 'failed' ? JSON.stringify(result.error) : null,
        warnings:
          result.status === 'done' && result.warnings?.length ? JSON.stringify(result.warnings) : null,
      });
    },
    async cancel(userId, id, at) {
      return cancel.immediate(userId, id, at.toISOString());
    },
    async complete(batchId, at) {
      return q.complete.run(at.toISOString(), batchId).changes === 1;
    },
    async removeFinished(userId, id) {
      return db.transaction(() => {
        if (q.deleteFinished.run(id, userId).changes === 0) return false;
        q.deleteItemsOf.run(id, userId);
        return true;
      })();
    },
    async deleteAllForUser(userId) {
      db.transaction(() => {
        q.deleteItems.run(userId);
        q.deleteBatches.run(userId);
      })();
    },
  };
}
