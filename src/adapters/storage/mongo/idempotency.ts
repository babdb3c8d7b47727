/** Idempotency-Key records: the first answer of a request, kept for its retries. */
import type { Collection, Db } from 'mongodb';
import type { RecordStore } from '../../../domain/kernel/ports.js';
import { isDuplicateKey, type IdempotencyDoc } from './documents.js';

/** The `idempotency` repository of the {@link RecordStore} on MongoDB; creates its indexes first. */
export async function mongoIdempotency(db: Db): Promise<RecordStore['idempotency']> {
  const idempotency: Collection<IdempotencyDoc> = db.collection('idempotency');
  return {
    async begin(userId, key, fingerprint, at, expiresAt, leaseUntil) {
      const _id = `${userId}:${key}`;
      // The unique _id makes the claim atomic on any server: one insert wins. An expired record
      // is deleted (only if still expired) and the claim tried once more.
      for (let attempt = 0; attempt < 2; attempt++) {
        try {
          await idempotency.insertOne({
            _id,
            fingerprint,
            createdAt: at,
            expiresAt,
            leaseUntil,
            response: null,
          });
          return { state: 'started', startedAt: at } as const;
        } catch (err) {
          if (!isDuplicateKey(err)) throw err;
        }
        const doc = await idempotency.findOne({ _id });
        if (!doc) continue;
        if (doc.expiresAt <= at) {
          await idempotency.deleteOne({ _id, expiresAt: { $lte: at } });
          continue;
        }
        const free = !doc.response && (!doc.leaseUntil || doc.leaseUntil <= at);
        if (!free && doc.fingerprint !== fingerprint) return { state: 'mismatch' } as const;
        if (!doc.response && !free) return { state: 'in-flight' } as const;
        if (free) {
          // Its holder failed or died: taken over if the lease is still the one read (two retries
          // at one moment on FerretDB may both take it: they then make the same image id, once);
          // the same request keeps its first start, another starts anew.
          const same = doc.fingerprint === fingerprint;
          const { modifiedCount } = await idempotency.updateOne(
            doc.leaseUntil
              ? { _id, response: null, leaseUntil: doc.leaseUntil }
              : { _id, response: null, leaseUntil: { $exists: false } },
            { $set: same ? { leaseUntil } : { leaseUntil, fingerprint, createdAt: at, expiresAt } },
          );
          if (modifiedCount === 1) return { state: 'started', startedAt: same ? doc.createdAt : at } as const;
          continue;
        }
        if (!doc.response) continue;
        return { state: 'done', response: doc.response } as const;
      }
      return { state: 'in-flight' } as const;
    },
    async renew(userId, key, leaseUntil) {
      await idempotency.updateOne({ _id: `${userId}:${key}`, response: null }, { $set: { leaseUntil } });
    },
    async complete(userId, key, response) {
      await idempotency.updateOne({ _id: `${userId}:${key}` }, { $set: { response } });
    },
    async abandon(userId, key) {
      // The lease ends now; the record stays, so that a retry takes it over with its first start.
      await idempotency.updateOne(
        { _id: `${userId}:${key}`, response: null },
        { $set: { leaseUntil: new Date(0) } },
      );
    },
  };
}
