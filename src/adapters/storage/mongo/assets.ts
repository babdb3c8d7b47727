/** Uploads kept for reuse: backgrounds, logos and fonts. */
import type { Collection, Db } from 'mongodb';
import type { RecordStore } from '../../../domain/kernel/ports.js';
import { toAsset, type AssetDoc } from './documents.js';

/** The `assets` repository of the {@link RecordStore} on MongoDB; creates its indexes first. */
export async function mongoAssets(db: Db): Promise<RecordStore['assets']> {
  const assets: Collection<AssetDoc> = db.collection('assets');
  await Promise.all([assets.createIndex({ userId: 1, createdAt: -1 }, { name: 'assets_by_user' })]);
  return {
    async create({ id, ...rest }) {
      await assets.insertOne({ _id: id, ...rest });
    },
    async find(userId, id) {
      const doc = await assets.findOne({ _id: id, userId });
      return doc ? toAsset(doc) : undefined;
    },
    async list(userId, kinds) {
      const docs = await assets
        .find({ userId, kind: { $in: [...kinds] } })
        .sort({ createdAt: -1, _id: -1 })
        .toArray();
      return docs.map(toAsset);
    },
    async delete(userId, id) {
      // As images.delete: only the delete that removed it answers the record.
      const doc = await assets.findOne({ _id: id, userId });
      if (!doc || (await assets.deleteOne({ _id: id, userId })).deletedCount !== 1) return undefined;
      return toAsset(doc);
    },
    async deleteAllForUser(userId) {
      const docs = await assets.find({ userId }).toArray();
      await assets.deleteMany({ _id: { $in: docs.map((d) => d._id) } });
      return docs.map(toAsset);
    },
  };
}
