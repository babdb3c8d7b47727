/** Signing keys of render links, their secrets sealed (src/domain/kernel/secrets.ts). */
import type { Collection, Db } from 'mongodb';
import type { RecordStore } from '../../../domain/kernel/ports.js';
import { toSigningKey, type SigningKeyDoc } from './documents.js';

/** The `signingKeys` repository of the {@link RecordStore} on MongoDB; creates its indexes first. */
export async function mongoSigningKeys(db: Db): Promise<RecordStore['signingKeys']> {
  const signingKeys: Collection<SigningKeyDoc> = db.collection('signing_keys');
  await signingKeys.createIndex({ userId: 1 }, { name: 'signing_keys_by_user' });
  return {
    async create({ id, ...rest }) {
      await signingKeys.insertOne({ _id: id, ...rest });
    },
    async find(id) {
      const doc = await signingKeys.findOne({ _id: id });
      return doc ? toSigningKey(doc) : undefined;
    },
    async listActive(userId) {
      const docs = await signingKeys
        .find({ userId, revokedAt: null })
        .sort({ createdAt: -1, _id: -1 })
        .toArray();
      return docs.map(toSigningKey);
    },
    async revoke(userId, id, at) {
      return (
        (await signingKeys.updateOne({ _id: id, userId, revokedAt: null }, { $set: { revokedAt: at } }))
          .modifiedCount === 1
      );
    },
    async deleteAllForUser(userId) {
      await signingKeys.deleteMany({ userId });
    },
  };
}
