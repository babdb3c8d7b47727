/**
 * Batches and their items (src/domain/batches). An item's `_id` is `batchId:index`; a claim is one
 * findOneAndUpdate. FerretDB performs it as a read then a write, so two runners may rarely take one
 * item: the item is still charged once (a keyed charge) and recorded once (a derived image id).
 */
import type { Collection, Db } from 'mongodb';
import type { RecordStore } from '../../../domain/kernel/ports.js';
import type { Batch, BatchItem, BatchItemStatus } from '../../../domain/kernel/records.js';

type BatchDoc = Omit<Batch, 'id'> & { _id: string };
type ItemDoc = BatchItem & { _id: string; batchCreatedAt: Date };

const toBatch = ({ _id, ...rest }: BatchDoc): Batch => ({ id: _id, ...rest });
const toItem = ({ _id: _i, batchCreatedAt: _c, ...rest }: ItemDoc): BatchItem => rest;

/** The `batches` repository of the {@link RecordStore} on MongoDB; creates its indexes first. */
export async function mongoBatches(db: Db): Promise<RecordStore['batches']> {
  const batches: Collection<BatchDoc> = db.collection('batches');
  const items: Collection<ItemDoc> = db.collection('batch_items');
  await Promise.all([
    batches.createIndex({ userId: 1, createdAt: -1 }, { name: 'batches_by_user' }),
    items.createIndex({ batchId: 1, index: 1 }, { name: 'batch_items_by_batch' }),
    items.createIndex({ status: 1, batchCreatedAt: 1 }, { name: 'batch_items_waiting' }),
    items.createIndex({ userId: 1 }, { name: 'batch_items_by_user' }),
  ]);
  return {
    async create({ id, ...rest }, list) {
      await batches.insertOne({ _id: id, ...rest });
      if (list.length > 0)
        await items.insertMany(
          list.map((i) => ({ _id: `${i.batchId}:${i.index}`, ...i, batchCreatedAt: rest.createdAt })),
          { ordered: false },
        );
    },
    async find(userId, id) {
      const doc = await batches.findOne({ _id: id, userId });
      return doc ? toBatch(doc) : undefined;
    },
    async list(userId, limit) {
      return (await batches.find({ userId }).sort({ createdAt: -1, _id: -1 }).limit(limit).toArray()).map(
        toBatch,
      );
    },
    async items(batchId) {
      return (await items.find({ batchId }).sort({ index: 1 }).toArray()).map(toItem);
    },
    async counts(batchId) {
      const counts: Record<BatchItemStatus, number> = {
        queued: 0,
        running: 0,
        done: 0,
        failed: 0,
        cancelled: 0,
      };
      for (const status of Object.keys(counts) as BatchItemStatus[])
        counts[status] = await items.countDocuments({ batchId, status });
      return counts;
    },
    async claimNext(at, staleBefore, busy) {
      const doc = await items.findOneAndUpdate(
        {
          $or: [{ status: 'queued' }, { status: 'running', claimedAt: { $lt: staleBefore } }],
          ...(busy.length > 0 ? { userId: { $nin: [...busy] } } : {}),
        },
        { $set: { status: 'running', claimedAt: at } },
        { sort: { batchCreatedAt: 1, batchId: 1, index: 1 }, returnDocument: 'after' },
      );
      return doc ? toItem(doc) : undefined;
    },
    async claimItem(batchId, index, at) {
      const doc = await items.findOneAndUpdate(
        { _id: `${batchId}:${index}`, status: { $in: ['queued', 'running'] } },
        { $set: { status: 'running', claimedAt: at } },
        { returnDocument: 'after' },
      );
      return doc ? toItem(doc) : undefined;
    },
    async queuedBefore(before, limit) {
      const docs = await items
        .find({ status: 'queued', batchCreatedAt: { $lt: before } }, { projection: { batchId: 1, index: 1 } })
        .sort({ batchCreatedAt: 1, batchId: 1, index: 1 })
        .limit(limit)
        .toArray();
      return docs.map((d) => ({ batchId: d.batchId, index: d.index }));
    },
    async stalledBefore(claimedBefore, limit) {
      const docs = await items
        .find(
          { status: 'running', claimedAt: { $lt: claimedBefore } },
          { projection: { batchId: 1, index: 1 } },
        )
        .sort({ claimedAt: 1 })
        .limit(limit)
        .toArray();
      return docs.map((d) => ({ batchId: d.batchId, index: d.index }));
    },
    async renew(list, at) {
      if (list.length === 0) return;
      await items.updateMany(
        { _id: { $in: list.map((i) => `${i.batchId}:${i.index}`) }, status: 'running' },
        { $set: { claimedAt: at } },
      );
    },
    async finishItem(batchId, index, result) {
      await items.updateOne(
        { _id: `${batchId}:${index}`, status: 'running' },
        {
          $set: {
            status: result.status,
            imageId: result.status === 'done' ? result.imageId : null,
            error: result.status === 'failed' ? result.error : null,
            ...(result.status === 'done' && result.warnings?.length ? { warnings: result.warnings } : {}),
          },
        },
      );
    },
    async cancel(userId, id, at) {
      if (!(await batches.findOne({ _id: id, userId }))) return 0;
      const { modifiedCount } = await items.updateMany(
        { batchId: id, userId, status: 'queued' },
        { $set: { status: 'cancelled' } },
      );
      await batches.updateOne({ _id: id, userId, cancelledAt: null }, { $set: { cancelledAt: at } });
      return modifiedCount;
    },
    async complete(batchId, at) {
      if ((await items.countDocuments({ batchId, status: { $in: ['queued', 'running'] } })) > 0) return false;
      return (
        (await batches.updateOne({ _id: batchId, completedAt: null }, { $set: { completedAt: at } }))
          .modifiedCount === 1
      );
    },
    async removeFinished(userId, id) {
      // The batch first: items left by a crash between the two belong to no batch and are never claimed.
      const { deletedCount } = await batches.deleteOne({ _id: id, userId, completedAt: { $ne: null } });
      if (deletedCount === 0) return false;
      await items.deleteMany({ batchId: id, userId });
      return true;
    },
    async deleteAllForUser(userId) {
      await items.deleteMany({ userId });
      await batches.deleteMany({ userId });
    },
  };
}
