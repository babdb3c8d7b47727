/** API tokens: only the SHA-256 of each secret; the per-account limit held by numbered token slots. */
import type { Collection, Db } from 'mongodb';
import { ServiceBusyError } from '../../../domain/kernel/errors.js';
import type { ApiToken } from '../../../domain/kernel/records.js';
import type { RecordStore } from '../../../domain/kernel/ports.js';
import { toToken, isDuplicateKey, CHARGE_ATTEMPTS, type TokenDoc, type TokenSlotDoc } from './documents.js';

/** The `tokens` repository of the {@link RecordStore} on MongoDB; creates its indexes first. */
export async function mongoTokens(db: Db): Promise<RecordStore['tokens']> {
  const tokens: Collection<TokenDoc> = db.collection('tokens');
  const tokenSlots: Collection<TokenSlotDoc> = db.collection('token_slots');
  await Promise.all([
    tokens.createIndex({ tokenHash: 1 }, { unique: true, name: 'token_hash_unique' }),
    tokens.createIndex({ userId: 1, createdAt: -1 }, { name: 'tokens_by_user' }),
    tokenSlots.createIndex({ tokenId: 1 }, { name: 'token_slots_by_token' }),
  ]);
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
        if (!(await claimTokenSlot(token, free[Math.floor(Math.random() * free.length)] as number))) continue;
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
      return (await tokens.find({ userId, revokedAt: null }).sort({ createdAt: -1, _id: -1 }).toArray()).map(
        toToken,
      );
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
  };
}
