/**
 * The MCP connector's authorization server state on MongoDB: one collection of entries (see
 * OAuthRepository), `_id` `<model> <key>`. Answers check the expiry themselves; expired entries are
 * deleted on one upsert in {@link SWEEP_EVERY} (no TTL index: FerretDB has none).
 */
import type { Collection, Db } from 'mongodb';
import type { RecordStore } from '../../../domain/kernel/ports.js';
import type { OAuthEntry } from '../../../domain/kernel/records.js';
import { isDuplicateKey } from './documents.js';

type OAuthEntryDoc = Omit<OAuthEntry, 'key'> & { _id: string; model: string; key: string };

const idOf = (model: string, key: string) => `${model} ${key}`;
const toEntry = ({ _id: _i, model: _m, ...rest }: OAuthEntryDoc): OAuthEntry => rest;
/** Expired entries are deleted on one upsert in this many. */
const SWEEP_EVERY = 200;

const live = (now: Date) => ({ $or: [{ expiresAt: null }, { expiresAt: { $gt: now } }] });

/** The `oauth` repository of the {@link RecordStore} on MongoDB; creates its indexes first. */
export async function mongoOauth(db: Db): Promise<RecordStore['oauth']> {
  const entries: Collection<OAuthEntryDoc> = db.collection('oauth_entries');
  await Promise.all([
    entries.createIndex({ grantId: 1 }, { name: 'oauth_entries_by_grant' }),
    entries.createIndex({ accountId: 1, model: 1 }, { name: 'oauth_entries_by_account' }),
    entries.createIndex({ model: 1, uid: 1 }, { name: 'oauth_entries_by_uid' }),
    entries.createIndex({ expiresAt: 1 }, { name: 'oauth_entries_by_expiry' }),
  ]);
  let upserts = 0;
  return {
    async upsert(model, e) {
      const doc: OAuthEntryDoc = { _id: idOf(model, e.key), model, ...e, consumedAt: null, lastUsedAt: null };
      await entries.replaceOne({ _id: doc._id }, doc, { upsert: true });
      if (++upserts % SWEEP_EVERY === 0) await entries.deleteMany({ expiresAt: { $lte: new Date() } });
    },
    async find(model, key, now) {
      const doc = await entries.findOne({ _id: idOf(model, key), ...live(now) });
      return doc ? toEntry(doc) : undefined;
    },
    async findByUid(model, uid, now) {
      const doc = await entries.findOne({ model, uid, ...live(now) });
      return doc ? toEntry(doc) : undefined;
    },
    async consume(model, key, at) {
      // The one use is the insert of a unique _id (a conditional update is not atomic on FerretDB,
      // documents.ts); it belongs to the entry's grant, so a revocation takes it too.
      const entry = await entries.findOne({ _id: idOf(model, key) });
      if (!entry) return false;
      try {
        await entries.insertOne({
          _id: `${idOf(model, key)} consumed`,
          model: 'Consumption',
          key,
          payload: {},
          grantId: entry.grantId,
          uid: null,
          accountId: null,
          clientId: null,
          expiresAt: entry.expiresAt,
          consumedAt: at,
          lastUsedAt: null,
        });
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
      await entries.updateOne({ _id: idOf(model, key) }, { $set: { consumedAt: at } });
      return true;
    },
    async destroy(model, key) {
      await entries.deleteMany({ _id: { $in: [idOf(model, key), `${idOf(model, key)} consumed`] } });
    },
    async revokeByGrantId(grantId) {
      await entries.deleteMany({ grantId });
    },
    async grantsOf(accountId, now) {
      const docs = await entries
        .find({ model: 'Grant', accountId, ...live(now) })
        .sort({ 'payload.iat': -1, key: 1 })
        .toArray();
      return docs.map(toEntry);
    },
    async touchGrant(key, at) {
      await entries.updateOne(
        { _id: idOf('Grant', key), $or: [{ lastUsedAt: null }, { lastUsedAt: { $lt: at } }] },
        { $set: { lastUsedAt: at } },
      );
    },
    async endGrants(accountId, clientId) {
      const grants = await entries
        .find({ model: 'Grant', accountId, ...(clientId !== undefined ? { clientId } : {}) })
        .project<{ grantId: string | null }>({ grantId: 1 })
        .toArray();
      const ids = grants.map((g) => g.grantId).filter((id): id is string => id !== null);
      if (ids.length > 0) await entries.deleteMany({ grantId: { $in: ids } });
      if (clientId === undefined) await entries.deleteMany({ model: 'Session', accountId });
      return ids.length;
    },
  };
}
