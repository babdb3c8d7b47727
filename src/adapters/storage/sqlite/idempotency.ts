/** Idempotency-Key records: the first answer of a request, kept for its retries. */
import type Database from 'better-sqlite3';
import type { IdempotencyStart, RecordStore, StoredResponse } from '../../../domain/kernel/ports.js';

/** The `idempotency` repository of the {@link RecordStore} on SQLite. */
export function sqliteIdempotency(db: Database.Database): RecordStore['idempotency'] {
  const q = {
    idempotencyGet: db.prepare<
      [string, string],
      {
        fingerprint: string;
        created_at: string;
        expires_at: string;
        lease_until: string | null;
        response: string | null;
      }
    >(
      'SELECT fingerprint, created_at, expires_at, lease_until, response FROM idempotency WHERE user_id = ? AND key = ?',
    ),
    idempotencyPut: db.prepare(
      `INSERT OR REPLACE INTO idempotency (user_id, key, fingerprint, created_at, expires_at, lease_until, response)
       VALUES (@userId, @key, @fingerprint, @createdAt, @expiresAt, @leaseUntil, NULL)`,
    ),
    lease: db.prepare(
      'UPDATE idempotency SET lease_until = ? WHERE user_id = ? AND key = ? AND response IS NULL',
    ),
    idempotencyComplete: db.prepare('UPDATE idempotency SET response = ? WHERE user_id = ? AND key = ?'),
  };
  return {
    async begin(userId, key, fingerprint, at, expiresAt, leaseUntil) {
      // One IMMEDIATE transaction: it holds the write lock from the read to the insert, so two
      // processes cannot both find the key free.
      return db
        .transaction((): IdempotencyStart => {
          const row = q.idempotencyGet.get(userId, key);
          const free =
            row?.response === null && (row.lease_until === null || row.lease_until <= at.toISOString());
          // Free for another request: none, expired, or a failed or dead one with other fields.
          if (!row || row.expires_at <= at.toISOString() || (free && row.fingerprint !== fingerprint)) {
            q.idempotencyPut.run({
              userId,
              key,
              fingerprint,
              createdAt: at.toISOString(),
              expiresAt: expiresAt.toISOString(),
              leaseUntil: leaseUntil.toISOString(),
            });
            return { state: 'started', startedAt: at };
          }
          if (row.fingerprint !== fingerprint) return { state: 'mismatch' };
          if (free) {
            // Taken over: the same request, whose holder failed or died, under its first start.
            q.lease.run(leaseUntil.toISOString(), userId, key);
            return { state: 'started', startedAt: new Date(row.created_at) };
          }
          if (row.response === null) return { state: 'in-flight' };
          return { state: 'done', response: JSON.parse(row.response) as StoredResponse };
        })
        .immediate();
    },
    async renew(userId, key, leaseUntil) {
      q.lease.run(leaseUntil.toISOString(), userId, key);
    },
    async complete(userId, key, response) {
      q.idempotencyComplete.run(JSON.stringify(response), userId, key);
    },
    async abandon(userId, key) {
      // The lease ends now; the row stays, so that a retry takes it over with its first start.
      q.lease.run(new Date(0).toISOString(), userId, key);
    },
  };
}
