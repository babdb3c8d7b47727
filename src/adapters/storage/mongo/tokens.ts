/** API tokens: only the SHA-256 of each secret; the per-workspace limit held by numbered token slots. */
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
    tokens.createIndex({ workspaceId: 1, createdAt: -1 }, { name: 'tokens_by_workspace' }),
    tokenSlots.createIndex({ tokenId: 1 }, { name: 'token_slots_by_token' }),
  ]);
  /** The token slots a workspace holds. */
  const takenTokenSlots = async (workspaceId: string) =>
    new Set(
      (await tokenSlots.find({ userId: workspaceId }, { projection: { slot: 1 } }).toArray()).map(
        (d) => d.slot,
      ),
    );
  /** Claims `slot` for the token; false when another token holds it. */
  const claimTokenSlot = async (token: ApiToken, slot: number): Promise<boolean> => {
    try {
      await tokenSlots.insertOne({
        _id: `${token.workspaceId}:${slot}`,
        userId: token.workspaceId,
        slot,
        tokenId: token.id,
      });
      return true;
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
  };
  const revoke: RecordStore['tokens']['revoke'] = async (workspaceId, id, at, userId) => {
    const revoked =
      (
        await tokens.updateOne(
          { _id: id, workspaceId, revokedAt: null, ...(userId ? { userId } : {}) },
          { $set: { revokedAt: at } },
        )
      ).modifiedCount === 1;
    if (revoked) await tokenSlots.deleteOne({ tokenId: id });
    return revoked;
  };
  return {
    async create(token) {
      // Without a cap, but still in a slot (the lowest free), so that createWithinLimit counts it.
      for (;;) {
        const taken = await takenTokenSlots(token.workspaceId);
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
      if ((await tokens.countDocuments({ workspaceId: token.workspaceId, revokedAt: null })) >= max)
        return false;
      for (let attempt = 0; attempt < CHARGE_ATTEMPTS; attempt++) {
        const taken = await takenTokenSlots(token.workspaceId);
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
    async listActive(workspaceId, userId) {
      return (
        await tokens
          .find({ workspaceId, revokedAt: null, ...(userId ? { userId } : {}) })
          .sort({ createdAt: -1, _id: -1 })
          .toArray()
      ).map(toToken);
    },
    async countActive(workspaceId) {
      return tokens.countDocuments({ workspaceId, revokedAt: null });
    },
    revoke,
    async revokeMade(userId, at, workspaceId) {
      const active = await tokens
        .find({ userId, revokedAt: null, ...(workspaceId ? { workspaceId } : {}) })
        .toArray();
      let n = 0;
      for (const t of active) if (await revoke(t.workspaceId, t._id, at)) n++;
      return n;
    },
    async touch(id, at) {
      await tokens.updateOne(
        { _id: id, $or: [{ lastUsedAt: null }, { lastUsedAt: { $lt: at } }] },
        { $set: { lastUsedAt: at } },
      );
    },
    async deleteAllForWorkspace(workspaceId) {
      await tokens.deleteMany({ workspaceId });
      await tokenSlots.deleteMany({ userId: workspaceId });
    },
    async deleteAllForUser(userId) {
      const made = await tokens.find({ userId }, { projection: { _id: 1 } }).toArray();
      await tokenSlots.deleteMany({ tokenId: { $in: made.map((d) => d._id) } });
      await tokens.deleteMany({ userId });
    },
  };
}
