/** Presets (saved designs), with a version that every update raises. */
import type { Collection, Db } from 'mongodb';
import type { RecordStore } from '../../../domain/kernel/ports.js';
import { toPreset, type PresetDoc } from './documents.js';

/** The `presets` repository of the {@link RecordStore} on MongoDB; creates its indexes first. */
export async function mongoPresets(db: Db): Promise<RecordStore['presets']> {
  const presets: Collection<PresetDoc> = db.collection('presets');
  await presets.createIndex({ userId: 1, createdAt: -1 }, { name: 'presets_by_user' });
  return {
    async create({ id, ...rest }) {
      await presets.insertOne({ _id: id, ...rest, logoAssetId: rest.logo?.assetId ?? null });
    },
    async find(userId, id) {
      const doc = await presets.findOne({ _id: id, userId });
      return doc ? toPreset(doc) : undefined;
    },
    async list(userId) {
      return (await presets.find({ userId }).sort({ createdAt: -1, _id: -1 }).toArray()).map(toPreset);
    },
    async update(userId, id, changes) {
      const updated = await presets.updateOne(
        { _id: id, userId },
        {
          $set: {
            name: changes.name,
            options: changes.options,
            backgroundAssetId: changes.backgroundAssetId,
            logo: changes.logo,
            logoAssetId: changes.logo?.assetId ?? null,
            fontId: changes.fontId,
            updatedAt: changes.updatedAt,
          },
          $inc: { version: 1 },
        },
      );
      if (updated.matchedCount !== 1) return undefined;
      const doc = await presets.findOne({ _id: id, userId });
      return doc ? toPreset(doc) : undefined;
    },
    async delete(userId, id) {
      return (await presets.deleteOne({ _id: id, userId })).deletedCount === 1;
    },
    async countUsing(userId, id) {
      return presets.countDocuments({
        userId,
        $or: [{ backgroundAssetId: id }, { logoAssetId: id }, { fontId: id }, { 'options.template': id }],
      });
    },
    async deleteAllForUser(userId) {
      await presets.deleteMany({ userId });
    },
  };
}
