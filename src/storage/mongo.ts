/**
 * The scale-out record store: MongoDB (or a server speaking its wire protocol, such as FerretDB).
 *
 * Indexes are created at open: unique token hash, unique email (stored lower-cased), images by user
 * and createdAt and by user and title, so listing, sorting and counting are served by indexes.
 *
 * The monthly quota is a set of numbered slots, one document per charged generation with the unique
 * `_id` `user:month:slot`, slot 0 to limit − 1. A charge is one insert of a free slot: the unique `_id`
 * makes it atomic, so no transaction is needed and any number of processes stay exact, and at most
 * `limit` charges can exist. We first used one conditional update (`count < limit` → `$inc`), which
 * real MongoDB performs atomically, but FerretDB 1.24 (SQLite) reads and then writes: 20 concurrent
 * charges with 2 units left gave 11 successes (test/storage/contract/). A unique key holds on
 * every server that speaks the protocol. A refund deletes exactly the slot its charge claimed.
 * Title sorting uses a lower-cased copy of the title rather than a collation, which not every
 * MongoDB-compatible server supports.
 */
import type { Collection, Db, MongoClient, MongoServerError, Sort, SortDirection } from 'mongodb';
import { emailTakenError, ServiceBusyError } from '../domain/kernel/errors.js';
import type {
  AccountLink,
  ApiToken,
  ImageRecord,
  OAuthClient,
  OAuthCode,
  OAuthGrant,
  OAuthToken,
  Asset,
  Preset,
  RenderEntry,
  Session,
  SigningKey,
  User,
} from '../domain/kernel/records.js';
import type { RecordStore, StoredResponse } from '../domain/kernel/ports.js';

interface UserDoc extends Omit<User, 'id'> {
  _id: string;
  emailLower: string;
}
interface TokenDoc extends Omit<ApiToken, 'id'> {
  _id: string;
}
interface ImageDoc extends Omit<ImageRecord, 'id'> {
  _id: string;
  titleLower: string;
}
interface SessionDoc extends Omit<Session, 'idHash'> {
  _id: string;
}
interface LinkDoc extends Omit<AccountLink, 'idHash'> {
  _id: string;
}
interface IdempotencyDoc {
  /** `${userId}:${key}` */
  _id: string;
  fingerprint: string;
  createdAt: Date;
  expiresAt: Date;
  response: StoredResponse | null;
}
/** One claimed place among a user's `max` active tokens: `${userId}:${slot}`, freed on revocation. */
interface TokenSlotDoc {
  _id: string;
  userId: string;
  slot: number;
  tokenId: string;
}
interface UsageSlotDoc {
  /** `${userId}:${month}:${slot}` */
  _id: string;
  userId: string;
  month: string;
  slot: number;
  chargedAt: Date;
}

interface OAuthClientDoc extends Omit<OAuthClient, 'id'> {
  _id: string;
}
interface OAuthGrantDoc extends Omit<OAuthGrant, 'id'> {
  _id: string;
}
interface OAuthCodeDoc extends Omit<OAuthCode, 'codeHash'> {
  _id: string;
}
interface OAuthTokenDoc extends Omit<OAuthToken, 'tokenHash'> {
  _id: string;
}
/**
 * The one use of a code or the end of a token: `code:<hash>` or `token:<hash>`. Inserting it is the
 * atomic step (a unique _id), as for the quota's slots; a conditional update is not atomic on FerretDB.
 */
interface OAuthUseDoc {
  _id: string;
  userId: string;
  at: Date;
}

interface AssetDoc extends Omit<Asset, 'id'> {
  _id: string;
}
interface PresetDoc extends Omit<Preset, 'id'> {
  _id: string;
  /** The logo's asset id, for the in-use count. */
  logoAssetId: string | null;
}
interface SigningKeyDoc extends Omit<SigningKey, 'id'> {
  _id: string;
}
interface RenderDoc extends Omit<RenderEntry, 'hash'> {
  _id: string;
}
const toAsset = ({ _id, ...rest }: AssetDoc): Asset => ({ id: _id, ...rest });
const toPreset = ({ _id, logoAssetId: _l, ...rest }: PresetDoc): Preset => ({ id: _id, ...rest });
const toSigningKey = ({ _id, ...rest }: SigningKeyDoc): SigningKey => ({ id: _id, ...rest });
const toRender = ({ _id, ...rest }: RenderDoc): RenderEntry => ({ hash: _id, ...rest });

/** Attempts at claiming a slot before giving up under extreme contention (each re-reads the taken slots). */
const CHARGE_ATTEMPTS = 25;

/**
 * A unique-index violation: code 11000 on MongoDB. FerretDB 1.24 reports one from an update as an
 * InternalError (code 1) whose message carries SQLite's "UNIQUE constraint failed" (seen in the
 * contract suite), so that message counts too.
 */
const isDuplicateKey = (err: unknown) => {
  const e = err as MongoServerError | undefined;
  return e?.code === 11000 || (e?.code === 1 && /UNIQUE constraint failed/.test(e.message));
};

// Users stored before the dashboard existed have no password or verification fields.
const toUser = ({ _id, emailLower: _e, ...rest }: UserDoc): User => ({
  id: _id,
  ...rest,
  passwordHash: rest.passwordHash ?? null,
  emailVerifiedAt: rest.emailVerifiedAt ?? null,
});
const toSession = ({ _id, ...rest }: SessionDoc): Session => ({ idHash: _id, ...rest });
const toLink = ({ _id, ...rest }: LinkDoc): AccountLink => ({ idHash: _id, ...rest });
const toToken = ({ _id, ...rest }: TokenDoc): ApiToken => ({ id: _id, ...rest });
const toGrant = ({ _id, ...rest }: OAuthGrantDoc): OAuthGrant => ({ id: _id, ...rest });
const toImage = ({ _id, titleLower: _t, ...rest }: ImageDoc): ImageRecord => ({ id: _id, ...rest });

export interface MongoStoreOptions {
  uri: string;
  /** Database name; default `titlecard`. */
  dbName?: string;
  /** How long to wait for the server at start-up, ms; default 5000. */
  serverSelectionTimeoutMS?: number;
}

/** Connects, checks the server answers, creates indexes. Throws if the server cannot be reached. */
export async function openMongoStore(options: MongoStoreOptions): Promise<RecordStore> {
  const { MongoClient: Client } = await import('mongodb');
  const client: MongoClient = new Client(options.uri, {
    serverSelectionTimeoutMS: options.serverSelectionTimeoutMS ?? 5000,
    appName: 'titlecard',
  });
  await client.connect();
  const db: Db = client.db(options.dbName ?? 'titlecard');
  await db.command({ ping: 1 });
  const users: Collection<UserDoc> = db.collection('users');
  const tokens: Collection<TokenDoc> = db.collection('tokens');
  const images: Collection<ImageDoc> = db.collection('images');
  const slots: Collection<UsageSlotDoc> = db.collection('usage_slots');
  const sessions: Collection<SessionDoc> = db.collection('sessions');
  const links: Collection<LinkDoc> = db.collection('account_links');
  const idempotency: Collection<IdempotencyDoc> = db.collection('idempotency');
  const tokenSlots: Collection<TokenSlotDoc> = db.collection('token_slots');
  const oauthClients: Collection<OAuthClientDoc> = db.collection('oauth_clients');
  const oauthGrants: Collection<OAuthGrantDoc> = db.collection('oauth_grants');
  const oauthCodes: Collection<OAuthCodeDoc> = db.collection('oauth_codes');
  const oauthTokens: Collection<OAuthTokenDoc> = db.collection('oauth_tokens');
  const oauthUses: Collection<OAuthUseDoc> = db.collection('oauth_uses');
  const assets: Collection<AssetDoc> = db.collection('assets');
  const presets: Collection<PresetDoc> = db.collection('presets');
  const signingKeys: Collection<SigningKeyDoc> = db.collection('signing_keys');
  const renders: Collection<RenderDoc> = db.collection('renders');
  await Promise.all([
    users.createIndex({ emailLower: 1 }, { unique: true, name: 'email_unique' }),
    tokens.createIndex({ tokenHash: 1 }, { unique: true, name: 'token_hash_unique' }),
    tokens.createIndex({ userId: 1, createdAt: -1 }, { name: 'tokens_by_user' }),
    images.createIndex({ userId: 1, createdAt: -1, _id: -1 }, { name: 'images_by_user_created' }),
    images.createIndex({ userId: 1, titleLower: 1, _id: 1 }, { name: 'images_by_user_title' }),
    slots.createIndex({ userId: 1, month: 1, slot: 1 }, { name: 'usage_by_user_month' }),
    sessions.createIndex({ userId: 1 }, { name: 'sessions_by_user' }),
    tokenSlots.createIndex({ tokenId: 1 }, { name: 'token_slots_by_token' }),
    links.createIndex({ userId: 1, purpose: 1 }, { name: 'links_by_user' }),
    oauthGrants.createIndex({ userId: 1, createdAt: -1 }, { name: 'oauth_grants_by_user' }),
    oauthCodes.createIndex({ userId: 1 }, { name: 'oauth_codes_by_user' }),
    oauthTokens.createIndex({ userId: 1 }, { name: 'oauth_tokens_by_user' }),
    oauthUses.createIndex({ userId: 1 }, { name: 'oauth_uses_by_user' }),
    assets.createIndex({ userId: 1, createdAt: -1 }, { name: 'assets_by_user' }),
    presets.createIndex({ userId: 1, createdAt: -1 }, { name: 'presets_by_user' }),
    signingKeys.createIndex({ userId: 1 }, { name: 'signing_keys_by_user' }),
    renders.createIndex({ userId: 1 }, { name: 'renders_by_user' }),
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

  /** The token slots a user holds. */
  const takenTokenSlots = async (userId: string) =>
    new Set((await tokenSlots.find({ userId }, { projection: { slot: 1 } }).toArray()).map((d) => d.slot));
  /** Claims `slot` for the token; false when another token holds it. */
  const claimTokenSlot = async (token: ApiToken, slot: number): Promise<boolean> => {
    try {
      await tokenSlots.insertOne({
        _id: `${token.userId}:${slot}`,
        userId: token.userId,
        slot,
        tokenId: token.id,
      });
      return true;
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
  };

  return {
    users: {
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
      async setTier(id, tier) {
        return (await users.updateOne({ _id: id }, { $set: { tier } })).matchedCount === 1;
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
    },
    tokens: {
      async create(token) {
        // Without a cap, but still in a slot (the lowest free), so that createWithinLimit counts it.
        for (;;) {
          const taken = await takenTokenSlots(token.userId);
          let slot = 0;
          while (taken.has(slot)) slot++;
          if (await claimTokenSlot(token, slot)) break;
        }
        const { id, ...rest } = token;
        await tokens.insertOne({ _id: id, ...rest });
      },
      async createWithinLimit(token, max) {
        // The cap as slots, like the quota (see the module comment): a unique _id per place, so
        // concurrent creations on any server never exceed `max`. Tokens stored before slots existed
        // have none: the active count is checked first, so they count, though not atomically.
        if ((await tokens.countDocuments({ userId: token.userId, revokedAt: null })) >= max) return false;
        for (let attempt = 0; attempt < CHARGE_ATTEMPTS; attempt++) {
          const taken = await takenTokenSlots(token.userId);
          const free: number[] = [];
          for (let i = 0; i < max && free.length < 16; i++) if (!taken.has(i)) free.push(i);
          if (free.length === 0) return false;
          // A random free slot, so that concurrent creations rarely collide; a collision re-reads.
          if (!(await claimTokenSlot(token, free[Math.floor(Math.random() * free.length)] as number)))
            continue;
          const { id, ...rest } = token;
          await tokens.insertOne({ _id: id, ...rest });
          return true;
        }
        throw new ServiceBusyError('The token store is busy: try again in a moment');
      },
      async findActiveByHash(tokenHash) {
        const doc = await tokens.findOne({ tokenHash, revokedAt: null });
        return doc ? toToken(doc) : undefined;
      },
      async listActive(userId) {
        return (
          await tokens.find({ userId, revokedAt: null }).sort({ createdAt: -1, _id: -1 }).toArray()
        ).map(toToken);
      },
      async countActive(userId) {
        return tokens.countDocuments({ userId, revokedAt: null });
      },
      async revoke(userId, id, at) {
        const revoked =
          (await tokens.updateOne({ _id: id, userId, revokedAt: null }, { $set: { revokedAt: at } }))
            .modifiedCount === 1;
        if (revoked) await tokenSlots.deleteOne({ tokenId: id });
        return revoked;
      },
      async touch(id, at) {
        await tokens.updateOne(
          { _id: id, $or: [{ lastUsedAt: null }, { lastUsedAt: { $lt: at } }] },
          { $set: { lastUsedAt: at } },
        );
      },
      async deleteAllForUser(userId) {
        await tokens.deleteMany({ userId });
        await tokenSlots.deleteMany({ userId });
      },
    },
    images: {
      async insert(image) {
        const { id, ...rest } = image;
        await images.insertOne({ _id: id, ...rest, titleLower: image.title.toLowerCase() });
      },
      async list(userId, q) {
        const dir: SortDirection = q.order === 'asc' ? 1 : -1;
        const sort: Sort = q.sort === 'title' ? { titleLower: dir, _id: dir } : { createdAt: dir, _id: dir };
        const [docs, total] = await Promise.all([
          images.find({ userId }).sort(sort).skip(q.offset).limit(q.limit).toArray(),
          images.countDocuments({ userId }),
        ]);
        return { items: docs.map(toImage), total };
      },
      async *allBlobKeys() {
        for await (const doc of images.find({}, { projection: { imageKey: 1, thumbnailKey: 1 } })) {
          yield doc.imageKey;
          yield doc.thumbnailKey;
        }
      },
      async findById(userId, id) {
        const doc = await images.findOne({ _id: id, userId });
        return doc ? toImage(doc) : undefined;
      },
      async delete(userId, id) {
        // Read, then delete: only the delete that removed it answers the record (findOneAndDelete
        // is a read then a delete on FerretDB, so two callers would both get it).
        const doc = await images.findOne({ _id: id, userId });
        if (!doc || (await images.deleteOne({ _id: id, userId })).deletedCount !== 1) return undefined;
        return toImage(doc);
      },
      async deleteAllForUser(userId) {
        const docs = await images.find({ userId }).toArray();
        await images.deleteMany({ _id: { $in: docs.map((d) => d._id) } });
        return docs.map(toImage);
      },
      async countByDay(userId, from, to) {
        // Bucketed here rather than with $dateToString, which not every compatible server supports.
        const counts: Record<string, number> = {};
        const cursor = images.find(
          { userId, createdAt: { $gte: from, $lt: to } },
          { projection: { createdAt: 1 } },
        );
        for await (const doc of cursor) {
          const day = doc.createdAt.toISOString().slice(0, 10);
          counts[day] = (counts[day] ?? 0) + 1;
        }
        return counts;
      },
    },
    sessions: {
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
    },
    links: {
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
    },
    usage: {
      async get(userId, month) {
        return slots.countDocuments({ userId, month });
      },
      async tryCharge(userId, month, limit) {
        const claim = async (slot: number) => {
          const _id = `${userId}:${month}:${slot}`;
          try {
            await slots.insertOne({ _id, userId, month, slot, chargedAt: new Date() });
            return _id;
          } catch (err) {
            if (isDuplicateKey(err)) return undefined;
            throw err;
          }
        };
        for (let attempt = 0; attempt < CHARGE_ATTEMPTS; attempt++) {
          const taken = new Set(
            (await slots.find({ userId, month }, { projection: { slot: 1 } }).toArray()).map((d) => d.slot),
          );
          if (taken.size >= limit) return undefined;
          const free: number[] = [];
          for (let i = 0; i < limit && free.length < 64; i++) if (!taken.has(i)) free.push(i);
          // A random free slot, so that concurrent chargers rarely collide; a collision re-reads.
          const receipt = await claim(free[Math.floor(Math.random() * free.length)] as number);
          if (receipt) return receipt;
        }
        throw new ServiceBusyError(
          `The quota store is busy (no free slot claimed after ${CHARGE_ATTEMPTS} attempts): try again in a moment`,
        );
      },
      async refund(_userId, _month, receipt) {
        await slots.deleteOne({ _id: receipt });
      },
    },
    idempotency: {
      async begin(userId, key, fingerprint, at, expiresAt) {
        const _id = `${userId}:${key}`;
        // The unique _id makes the claim atomic on any server: one insert wins. An expired record
        // is deleted (only if still expired) and the claim tried once more.
        for (let attempt = 0; attempt < 2; attempt++) {
          try {
            await idempotency.insertOne({ _id, fingerprint, createdAt: at, expiresAt, response: null });
            return { state: 'started' } as const;
          } catch (err) {
            if (!isDuplicateKey(err)) throw err;
          }
          const doc = await idempotency.findOne({ _id });
          if (!doc) continue;
          if (doc.expiresAt <= at) {
            await idempotency.deleteOne({ _id, expiresAt: { $lte: at } });
            continue;
          }
          if (doc.fingerprint !== fingerprint) return { state: 'mismatch' } as const;
          if (!doc.response) return { state: 'in-flight' } as const;
          return { state: 'done', response: doc.response } as const;
        }
        return { state: 'in-flight' } as const;
      },
      async complete(userId, key, response) {
        await idempotency.updateOne({ _id: `${userId}:${key}` }, { $set: { response } });
      },
      async abandon(userId, key) {
        await idempotency.deleteOne({ _id: `${userId}:${key}` });
      },
    },
    oauth: {
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
    },
    assets: {
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
    },
    presets: {
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
          $or: [{ backgroundAssetId: id }, { logoAssetId: id }, { fontId: id }],
        });
      },
      async deleteAllForUser(userId) {
        await presets.deleteMany({ userId });
      },
    },
    signingKeys: {
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
    },
    renders: {
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
      async deleteAllForUser(userId) {
        const docs = await renders.find({ userId }).toArray();
        await renders.deleteMany({ userId });
        return docs.map(toRender);
      },
    },
    async close() {
      await client.close();
    },
  };
}
