/** Emailed single-use links (verification, password reset): the one delete that removes a link wins. */
import type { Collection, Db } from 'mongodb';
import type { RecordStore } from '../../../domain/kernel/ports.js';
import { toLink, type LinkDoc } from './documents.js';

/** The `links` repository of the {@link RecordStore} on MongoDB; creates its indexes first. */
export async function mongoLinks(db: Db): Promise<RecordStore['links']> {
  const links: Collection<LinkDoc> = db.collection('account_links');
  await Promise.all([links.createIndex({ userId: 1, purpose: 1 }, { name: 'links_by_user' })]);
  return {
    async create({ idHash, ...rest }) {
      await links.insertOne({ _id: idHash, ...rest });
    },
    async consume(idHash, purpose, at) {
      // As images.delete: the one delete that removed the link wins (contract: one of two uses).
      const filter = { _id: idHash, purpose, expiresAt: { $gt: at } };
      const doc = await links.findOne(filter);
      if (!doc || (await links.deleteOne(filter)).deletedCount !== 1) return undefined;
      return toLink(doc);
    },
    async deleteAllForUser(userId, purpose) {
      await links.deleteMany(purpose ? { userId, purpose } : { userId });
    },
  };
}
