/** API tokens: only the SHA-256 of each secret; the per-account limit is checked in the insert itself. */
import type Database from 'better-sqlite3';
import type { RecordStore } from '../../../domain/kernel/ports.js';
import { toToken, type TokenRow } from './rows.js';

/** The `tokens` repository of the {@link RecordStore} on SQLite. */
export function sqliteTokens(db: Database.Database): RecordStore['tokens'] {
  const q = {
    deleteTokens: db.prepare('DELETE FROM tokens WHERE user_id = ?'),
    insertToken: db.prepare(
      `INSERT INTO tokens (id, user_id, name, token_hash, created_at, last_used_at, revoked_at)
       VALUES (@id, @userId, @name, @tokenHash, @createdAt, NULL, NULL)`,
    ),
    // One statement: the count and the insert are one atomic step, also across processes.
    insertTokenWithin: db.prepare(
      `INSERT INTO tokens (id, user_id, name, token_hash, created_at, last_used_at, revoked_at)
       SELECT @id, @userId, @name, @tokenHash, @createdAt, NULL, NULL
       WHERE (SELECT count(*) FROM tokens WHERE user_id = @userId AND revoked_at IS NULL) < @max`,
    ),
    tokenByHash: db.prepare<[string], TokenRow>(
      'SELECT * FROM tokens WHERE token_hash = ? AND revoked_at IS NULL',
    ),
    activeTokens: db.prepare<[string], TokenRow>(
      'SELECT * FROM tokens WHERE user_id = ? AND revoked_at IS NULL ORDER BY created_at DESC, id DESC',
    ),
    countActive: db.prepare<[string], { n: number }>(
      'SELECT count(*) AS n FROM tokens WHERE user_id = ? AND revoked_at IS NULL',
    ),
    revoke: db.prepare(
      'UPDATE tokens SET revoked_at = ? WHERE id = ? AND user_id = ? AND revoked_at IS NULL',
    ),
    touch: db.prepare(
      'UPDATE tokens SET last_used_at = @at WHERE id = @id AND (last_used_at IS NULL OR last_used_at < @at)',
    ),
  };
  return {
    async create(t) {
      q.insertToken.run({
        id: t.id,
        userId: t.userId,
        name: t.name,
        tokenHash: t.tokenHash,
        createdAt: t.createdAt.toISOString(),
      });
    },
    async createWithinLimit(t, max) {
      return (
        q.insertTokenWithin.run({
          id: t.id,
          userId: t.userId,
          name: t.name,
          tokenHash: t.tokenHash,
          createdAt: t.createdAt.toISOString(),
          max,
        }).changes === 1
      );
    },
    async findActiveByHash(hash) {
      const r = q.tokenByHash.get(hash);
      return r && toToken(r);
    },
    async listActive(userId) {
      return q.activeTokens.all(userId).map(toToken);
    },
    async countActive(userId) {
      return q.countActive.get(userId)?.n ?? 0;
    },
    async revoke(userId, id, at) {
      return q.revoke.run(at.toISOString(), id, userId).changes === 1;
    },
    async touch(id, at) {
      q.touch.run({ at: at.toISOString(), id });
    },
    async deleteAllForUser(userId) {
      q.deleteTokens.run(userId);
    },
  };
}
