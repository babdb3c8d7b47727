/** Dashboard sessions, by the SHA-256 of their secret. */
import type { Collection, Db } from 'mongodb';
import type { RecordStore } from '../../../domain/kernel/ports.js';
import { toSession, type SessionDoc } from './documents.js';

/** The `sessions` repository of the {@link RecordStore} on MongoDB; creates its indexes first. */
export async function mongoSessions(db: Db): Promise<RecordStore['sessions']> {
  const sessions: Collection<SessionDoc> = db.collection('sessions');
  await sessions.createIndex({ userId: 1 }, { name: 'sessions_by_user' });
  return {
    async create({ idHash, ...rest }) {
      await sessions.insertOne({ _id: idHash, ...rest });
    },
    async find(idHash) {
      const doc = await sessions.findOne({ _id: idHash });
      return doc ? toSession(doc) : undefined;
    },
    async touch(idHash, at) {
      await sessions.updateOne({ _id: idHash, lastSeenAt: { $lt: at } }, { $set: { lastSeenAt: at } });
    },
    async delete(idHash) {
      await sessions.deleteOne({ _id: idHash });
    },
    async deleteAllForUser(userId, keepIdHash) {
      await sessions.deleteMany(keepIdHash ? { userId, _id: { $ne: keepIdHash } } : { userId });
    },
  };
}
