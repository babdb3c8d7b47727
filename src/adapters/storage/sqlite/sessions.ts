/** Dashboard sessions, by the SHA-256 of their secret. */
import type Database from 'better-sqlite3';
import type { RecordStore } from '../../../domain/kernel/ports.js';
import { toSession, type SessionRow } from './rows.js';

/** The `sessions` repository of the {@link RecordStore} on SQLite. */
export function sqliteSessions(db: Database.Database): RecordStore['sessions'] {
  const q = {
    insertSession: db.prepare(
      `INSERT INTO sessions (id_hash, user_id, created_at, last_seen_at, expires_at)
       VALUES (@idHash, @userId, @createdAt, @lastSeenAt, @expiresAt)`,
    ),
    session: db.prepare<[string], SessionRow>('SELECT * FROM sessions WHERE id_hash = ?'),
    touchSession: db.prepare('UPDATE sessions SET last_seen_at = ? WHERE id_hash = ? AND last_seen_at < ?'),
    deleteSession: db.prepare('DELETE FROM sessions WHERE id_hash = ?'),
    deleteSessions: db.prepare('DELETE FROM sessions WHERE user_id = ? AND id_hash IS NOT ?'),
  };
  return {
    async create(s) {
      q.insertSession.run({
        idHash: s.idHash,
        userId: s.userId,
        createdAt: s.createdAt.toISOString(),
        lastSeenAt: s.lastSeenAt.toISOString(),
        expiresAt: s.expiresAt.toISOString(),
      });
    },
    async find(idHash) {
      const r = q.session.get(idHash);
      return r && toSession(r);
    },
    async touch(idHash, at) {
      q.touchSession.run(at.toISOString(), idHash, at.toISOString());
    },
    async delete(idHash) {
      q.deleteSession.run(idHash);
    },
    async deleteAllForUser(userId, keepIdHash) {
      q.deleteSessions.run(userId, keepIdHash ?? null);
    },
  };
}
