/** Accounts, with a lower-cased copy of the email under a unique index. */
import type { Collection, Db } from 'mongodb';
import { emailTakenError } from '../../../domain/kernel/errors.js';
import type { RecordStore } from '../../../domain/kernel/ports.js';
import { toUser, isDuplicateKey, type UserDoc } from './documents.js';

/** The `users` repository of the {@link RecordStore} on MongoDB; creates its indexes first. */
export async function mongoUsers(db: Db): Promise<RecordStore['users']> {
  const users: Collection<UserDoc> = db.collection('users');
  await users.createIndex({ emailLower: 1 }, { unique: true, name: 'email_unique' });
  return {
    async create(user) {
      const { id, ...rest } = user;
      try {
        await users.insertOne({ _id: id, ...rest, emailLower: user.email.toLowerCase() });
      } catch (err) {
        if (isDuplicateKey(err)) throw emailTakenError(user.email);
        throw err;
      }
    },
    async findById(id) {
      const doc = await users.findOne({ _id: id });
      return doc ? toUser(doc) : undefined;
    },
    async findByEmail(email) {
      const doc = await users.findOne({ emailLower: email.toLowerCase() });
      return doc ? toUser(doc) : undefined;
    },
    async update(id, changes) {
      const set: Partial<UserDoc> = Object.fromEntries(
        Object.entries(changes).filter(([, v]) => v !== undefined),
      );
      if (changes.email !== undefined) set.emailLower = changes.email.toLowerCase();
      try {
        return (await users.updateOne({ _id: id }, { $set: set })).matchedCount === 1;
      } catch (err) {
        if (isDuplicateKey(err)) throw emailTakenError(changes.email ?? '');
        throw err;
      }
    },
    async delete(id) {
      await users.deleteOne({ _id: id });
    },
  };
}
