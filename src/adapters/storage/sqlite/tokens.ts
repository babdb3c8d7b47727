/** API tokens: only the SHA-256 of each secret; the per-workspace limit is checked in the insert itself. */
import type Database from 'better-sqlite3';
import type { ApiToken } from '../../../domain/kernel/records.js';
import type { RecordStore } from '../../../domain/kernel/ports.js';
import { toToken, type TokenRow } from './rows.js';

const COLUMNS = 'id, workspace_id, user_id, scopes, name, token_hash, created_at, last_used_at, revoked_at';
const VALUES = '@id, @workspaceId, @userId, @scopes, @name, @tokenHash, @createdAt, NULL, NULL';

const params = (t: ApiToken) => ({
  id: t.id,
  workspaceId: t.workspaceId,
  userId: t.userId,
  scopes: t.scopes === null ? null : JSON.stringify(t.scopes),
  name: t.name,
  tokenHash: t.tokenHash,
  createdAt: t.createdAt.toISOString(),
});

/** The `tokens` repository of the {@link RecordStore} on SQLite. */
export function sqliteTokens(db: Database.Database): RecordStore['tokens'] {
  const q = {
    deleteForWorkspace: db.prepare('DELETE FROM tokens WHERE workspace_id = ?'),
    deleteForUser: db.prepare('DELETE FROM tokens WHERE user_id = ?'),
    insertToken: db.prepare(`INSERT INTO tokens (${COLUMNS}) VALUES (${VALUES})`),
    // One statement: the count and the insert are one atomic step, also across processes.
    insertTokenWithin: db.prepare(
      `INSERT INTO tokens (${COLUMNS})
       SELECT ${VALUES}
       WHERE (SELECT count(*) FROM tokens WHERE workspace_id = @workspaceId AND revoked_at IS NULL) < @max`,
    ),
    tokenByHash: db.prepare<[string], TokenRow>(
      'SELECT * FROM tokens WHERE token_hash = ? AND revoked_at IS NULL',
    ),
    activeTokens: db.prepare<{ workspaceId: string; userId: string | null }, TokenRow>(
      `SELECT * FROM tokens WHERE workspace_id = @workspaceId AND revoked_at IS NULL
         AND (@userId IS NULL OR user_id = @userId)
       ORDER BY created_at DESC, id DESC`,
    ),
    countActive: db.prepare<[string], { n: number }>(
      'SELECT count(*) AS n FROM tokens WHERE workspace_id = ? AND revoked_at IS NULL',
    ),
    revoke: db.prepare(
      `UPDATE tokens SET revoked_at = @at
       WHERE id = @id AND workspace_id = @workspaceId AND revoked_at IS NULL
         AND (@userId IS NULL OR user_id = @userId)`,
    ),
    revokeMade: db.prepare(
      `UPDATE tokens SET revoked_at = @at
       WHERE user_id = @userId AND revoked_at IS NULL AND (@workspaceId IS NULL OR workspace_id = @workspaceId)`,
    ),
    touch: db.prepare(
      'UPDATE tokens SET last_used_at = @at WHERE id = @id AND (last_used_at IS NULL OR last_used_at < @at)',
    ),
  };
  return {
    async create(t) {
      q.insertToken.run(params(t));
    },
    async createWithinLimit(t, max) {
      return q.insertTokenWithin.run({ ...params(t), max }).changes === 1;
    },
    async findActiveByHash(hash) {
      const r = q.tokenByHash.get(hash);
      return r && toToken(r);
    },
    async listActive(workspaceId, userId) {
      return q.activeTokens.all({ workspaceId, userId: userId ?? null }).map(toToken);
    },
    async countActive(workspaceId) {
      return q.countActive.get(workspaceId)?.n ?? 0;
    },
    async revoke(workspaceId, id, at, userId) {
      return q.revoke.run({ at: at.toISOString(), id, workspaceId, userId: userId ?? null }).changes === 1;
    },
    async revokeMade(userId, at, workspaceId) {
      return q.revokeMade.run({ at: at.toISOString(), workspaceId: workspaceId ?? null, userId }).changes;
    },
    async touch(id, at) {
      q.touch.run({ at: at.toISOString(), id });
    },
    async deleteAllForWorkspace(workspaceId) {
      q.deleteForWorkspace.run(workspaceId);
    },
    async deleteAllForUser(userId) {
      q.deleteForUser.run(userId);
    },
  };
}
