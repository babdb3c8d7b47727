/** Render links rendered so far, by content hash; a claim is one insert of the hash as `_id`. */
import type { Collection, Db } from 'mongodb';
import type { RecordStore } from '../../../domain/kernel/ports.js';
import { toRender, isDuplicateKey, type RenderDoc } from './documents.js';

/** The `renders` repository of the {@link RecordStore} on MongoDB; creates its indexes first. */
export async function mongoRenders(db: Db): Promise<RecordStore['renders']> {
  const renders: Collection<RenderDoc> = db.collection('renders');
  const latest: Collection<{ _id: string; userId: string; hash: string }> = db.collection('render_latest');
  await Promise.all([
    renders.createIndex({ userId: 1 }, { name: 'renders_by_user' }),
    latest.createIndex({ userId: 1 }, { name: 'render_latest_by_user' }),
  ]);
  return {
    async find(hash) {
      const doc = await renders.findOne({ _id: hash });
      return doc ? toRender(doc) : undefined;
    },
    async claim(hash, userId, at, staleBefore) {
      // The unique _id makes the claim one insert that wins on any server; a stale claim is
      // deleted (only while still stale) and the insert tried once more.
      for (let attempt = 0; attempt < 2; attempt++) {
        try {
          await renders.insertOne({
            _id: hash,
            userId,
            state: 'rendering',
            blobKey: null,
            contentType: null,
            claimedAt: at,
          });
          return { state: 'claimed' } as const;
        } catch (err) {
          if (!isDuplicateKey(err)) throw err;
        }
        const doc = await renders.findOne({ _id: hash });
        if (!doc) continue;
        if (doc.state === 'done') return { state: 'done', entry: toRender(doc) } as const;
        if (doc.claimedAt >= staleBefore) return { state: 'rendering' } as const;
        await renders.deleteOne({ _id: hash, state: 'rendering', claimedAt: { $lt: staleBefore } });
      }
      return { state: 'rendering' } as const;
    },
    async complete(hash, blobKey, contentType) {
      await renders.updateOne({ _id: hash }, { $set: { state: 'done', blobKey, contentType } });
    },
    async release(hash) {
      await renders.deleteOne({ _id: hash, state: 'rendering' });
    },
    async setLatest(link, userId, hash) {
      await latest.replaceOne({ _id: link }, { userId, hash }, { upsert: true });
    },
    async latest(link) {
      return (await latest.findOne({ _id: link }))?.hash;
    },
    async deleteAllForUser(userId) {
      await latest.deleteMany({ userId });
      const docs = await renders.find({ userId }).toArray();
      await renders.deleteMany({ userId });
      return docs.map(toRender);
    },
  };
}
