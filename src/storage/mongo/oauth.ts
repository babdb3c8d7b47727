/** OAuth 2.1 records of the MCP connector: clients, grants, codes and tokens; single use by a unique `_id`. */
import type { Collection, Db } from 'mongodb';
import type { RecordStore } from '../../domain/kernel/ports.js';
import {
  toGrant,
  isDuplicateKey,
  type OAuthClientDoc,
  type OAuthGrantDoc,
  type OAuthCodeDoc,
  type OAuthTokenDoc,
  type OAuthUseDoc,
} from './documents.js';

/** The `oauth` repository of the {@link RecordStore} on MongoDB; creates its indexes first. */
export async function mongoOauth(db: Db): Promise<RecordStore['oauth']> {
  const oauthClients: Collection<OAuthClientDoc> = db.collection('oauth_clients');
  const oauthGrants: Collection<OAuthGrantDoc> = db.collection('oauth_grants');
  const oauthCodes: Collection<OAuthCodeDoc> = db.collection('oauth_codes');
  const oauthTokens: Collection<OAuthTokenDoc> = db.collection('oauth_tokens');
  const oauthUses: Collection<OAuthUseDoc> = db.collection('oauth_uses');
  await Promise.all([
    oauthGrants.createIndex({ userId: 1, createdAt: -1 }, { name: 'oauth_grants_by_user' }),
    oauthCodes.createIndex({ userId: 1 }, { name: 'oauth_codes_by_user' }),
    oauthTokens.createIndex({ userId: 1 }, { name: 'oauth_tokens_by_user' }),
    oauthUses.createIndex({ userId: 1 }, { name: 'oauth_uses_by_user' }),
  ]);
  /** Claims the one use `_id` (see OAuthUseDoc); false when it was already claimed. */
  const claimUse = async (_id: string, userId: string, at: Date): Promise<boolean> => {
    try {
      await oauthUses.insertOne({ _id, userId, at });
      return true;
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
  };
  return {
    async createClient({ id, ...rest }) {
      await oauthClients.insertOne({ _id: id, ...rest });
    },
    async findClient(id) {
      const doc = await oauthClients.findOne({ _id: id });
      return doc
        ? {
            id: doc._id,
            name: doc.name,
            redirectUris: doc.redirectUris,
            registration: doc.registration,
            createdAt: doc.createdAt,
          }
        : undefined;
    },
    async createGrant({ id, ...rest }) {
      await oauthGrants.insertOne({ _id: id, ...rest });
    },
    async findGrant(id) {
      const doc = await oauthGrants.findOne({ _id: id });
      return doc ? toGrant(doc) : undefined;
    },
    async listActiveGrants(userId) {
      const docs = await oauthGrants
        .find({ userId, revokedAt: null })
        .sort({ createdAt: -1, _id: -1 })
        .toArray();
      return docs.map(toGrant);
    },
    async touchGrant(id, at) {
      await oauthGrants.updateOne(
        { _id: id, $or: [{ lastUsedAt: null }, { lastUsedAt: { $lt: at } }] },
        { $set: { lastUsedAt: at } },
      );
    },
    async revokeGrants(userId, which, at) {
      const filter = {
        userId,
        revokedAt: null,
        ...(which.clientId ? { clientId: which.clientId } : {}),
        ...(which.grantId ? { _id: which.grantId } : {}),
      };
      return (await oauthGrants.updateMany(filter, { $set: { revokedAt: at } })).modifiedCount;
    },
    async createCode({ codeHash, ...rest }) {
      await oauthCodes.insertOne({ _id: codeHash, ...rest });
    },
    async findCode(codeHash) {
      const doc = await oauthCodes.findOne({ _id: codeHash });
      if (!doc) return undefined;
      const { _id, ...rest } = doc;
      return { codeHash: _id, ...rest };
    },
    async useCode(codeHash, at) {
      const code = await oauthCodes.findOne({ _id: codeHash }, { projection: { userId: 1 } });
      if (!code || !(await claimUse(`code:${codeHash}`, code.userId, at))) return false;
      await oauthCodes.updateOne({ _id: codeHash }, { $set: { usedAt: at } });
      return true;
    },
    async createToken({ tokenHash, ...rest }) {
      await oauthTokens.insertOne({ _id: tokenHash, ...rest });
    },
    async findToken(tokenHash) {
      const doc = await oauthTokens.findOne({ _id: tokenHash });
      if (!doc) return undefined;
      const { _id, ...rest } = doc;
      return { tokenHash: _id, ...rest };
    },
    async endToken(tokenHash, at) {
      const token = await oauthTokens.findOne({ _id: tokenHash }, { projection: { userId: 1 } });
      if (!token || !(await claimUse(`token:${tokenHash}`, token.userId, at))) return false;
      await oauthTokens.updateOne({ _id: tokenHash }, { $set: { endedAt: at } });
      return true;
    },
    async deleteAllForUser(userId) {
      await oauthTokens.deleteMany({ userId });
      await oauthCodes.deleteMany({ userId });
      await oauthGrants.deleteMany({ userId });
      await oauthUses.deleteMany({ userId });
    },
  };
}
