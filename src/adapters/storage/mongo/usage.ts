/**
 * The monthly quota as numbered slots: a charge is one insert of a free slot's unique `_id` (see
 * index.ts). A charge made once per key (a batch item's, an image's) is also one insert of the key's
 * unique `_id` in `usage_keys`, naming its slot: of two charges with one key at the same moment, on
 * any server (FerretDB's `findOneAndUpdate` is a read then a write), one insert wins and the other
 * gives its slot back, so a key is charged once (issue 44).
 */
import type { Collection, Db } from 'mongodb';
import { ServiceBusyError } from '../../../domain/kernel/errors.js';
import type { RecordStore } from '../../../domain/kernel/ports.js';
import { isDuplicateKey, CHARGE_ATTEMPTS, type UsageKeyDoc, type UsageSlotDoc } from './documents.js';

/** The `usage` repository of the {@link RecordStore} on MongoDB; creates its indexes first. */
export async function mongoUsage(db: Db): Promise<RecordStore['usage']> {
  const slots: Collection<UsageSlotDoc> = db.collection('usage_slots');
  const keys: Collection<UsageKeyDoc> = db.collection('usage_keys');
  await Promise.all([
    slots.createIndex({ userId: 1, month: 1, slot: 1 }, { name: 'usage_by_user_month' }),
    slots.createIndex({ key: 1 }, { name: 'usage_by_key' }),
    keys.createIndex({ receipt: 1 }, { name: 'usage_keys_by_receipt' }),
    keys.createIndex({ chargedAt: 1 }, { name: 'usage_keys_by_time' }),
  ]);
  /** Whether `receipt`'s slot is still `key`'s (slot ids are reused after a refund). */
  const slotExists = async (receipt: string, key: string) =>
    (await slots.findOne({ _id: receipt, key }, { projection: { _id: 1 } })) !== null;
  /** Claims a free slot, with `key` written in the same insert (so a crash leaves both or neither). */
  async function charge(userId: string, month: string, limit: number, key?: string) {
    const claim = async (slot: number) => {
      const _id = `${userId}:${month}:${slot}`;
      try {
        await slots.insertOne({ _id, userId, month, slot, chargedAt: new Date(), ...(key ? { key } : {}) });
        return _id;
      } catch (err) {
        if (isDuplicateKey(err)) return undefined;
        throw err;
      }
    };
    // First the slot after the month's count (one index-only count, one insert): free unless a
    // refund left a hole below it or another charge took it at the same moment. Only then are
    // the month's slots read to pick a free one at random (the FerretDB-safe path below), so a
    // charge reads them only under contention or after refunds, on any server.
    const used = await slots.countDocuments({ userId, month });
    if (used >= limit) return undefined;
    const first = await claim(used);
    if (first) return first;
    for (let attempt = 0; attempt < CHARGE_ATTEMPTS; attempt++) {
      const taken = new Set(
        (await slots.find({ userId, month }, { projection: { slot: 1, _id: 0 } }).toArray()).map(
          (d) => d.slot,
        ),
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
  }
  return {
    async get(userId, month) {
      return slots.countDocuments({ userId, month });
    },
    tryCharge: (userId, month, limit) => charge(userId, month, limit),
    async tryChargeOnce(userId, month, limit, key) {
      for (let attempt = 0; attempt < CHARGE_ATTEMPTS; attempt++) {
        const held = await keys.findOne({ _id: key });
        if (held) {
          if (await slotExists(held.receipt, key)) return held.receipt;
          // Its slot was refunded and the key not yet freed (or a crash between the two): free it.
          await keys.deleteOne({ _id: key, receipt: held.receipt });
          continue;
        }
        // A slot charged with this key before usage_keys existed (or by a charger that died
        // before claiming the key) is the key's charge.
        const earlier = await slots.findOne({ key, month }, { projection: { _id: 1 } });
        const receipt = earlier?._id ?? (await charge(userId, month, limit, key));
        if (receipt === undefined) return undefined;
        try {
          await keys.insertOne({ _id: key, receipt, userId, month, chargedAt: new Date() });
          return receipt;
        } catch (err) {
          if (!isDuplicateKey(err)) {
            if (!earlier) await slots.deleteOne({ _id: receipt }).catch(() => undefined);
            throw err;
          }
          // Another charge with this key won: give this slot back unless theirs is this slot (found
          // as `earlier` by them), then read theirs.
          const winner = await keys.findOne({ _id: key });
          if (!earlier && winner?.receipt !== receipt) await slots.deleteOne({ _id: receipt });
        }
      }
      throw new ServiceBusyError(
        `The quota store is busy (key ${key} not charged after ${CHARGE_ATTEMPTS} attempts): try again in a moment`,
      );
    },
    async keyedBetween(prefix, from, to, limit) {
      const docs = await keys
        .find({ chargedAt: { $gte: from, $lt: to }, _id: { $gte: prefix, $lt: `${prefix}\uffff` } })
        .sort({ chargedAt: 1 })
        .limit(limit)
        .toArray();
      return docs.map((d) => ({ userId: d.userId, month: d.month, key: d._id, receipt: d.receipt }));
    },
    async refund(_userId, _month, receipt, key) {
      // The slot first: a key naming a slot that is gone is freed by the next charge with it. With
      // a key, only the slot that is still that key's (slot ids are reused after a refund).
      await slots.deleteOne(key === undefined ? { _id: receipt } : { _id: receipt, key });
      await keys.deleteOne(key === undefined ? { receipt } : { _id: key, receipt });
    },
    async settle(key) {
      // No chargedAt: out of the sweep's time range.
      await keys.updateOne({ _id: key }, { $unset: { chargedAt: '' } });
    },
  };
}
