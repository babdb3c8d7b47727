/** Emailed single-use links (verification, password reset): consumed by one DELETE … RETURNING. */
import type Database from 'better-sqlite3';
import type { RecordStore } from '../../../domain/kernel/ports.js';
import { toLink, type LinkRow } from './rows.js';

/** The `links` repository of the {@link RecordStore} on SQLite. */
export function sqliteLinks(db: Database.Database): RecordStore['links'] {
  const q = {
    insertLink: db.prepare(
      `INSERT INTO account_links (id_hash, user_id, purpose, email, created_at, expires_at)
       VALUES (@idHash, @userId, @purpose, @email, @createdAt, @expiresAt)`,
    ),
    consumeLink: db.prepare<[string, string, string], LinkRow>(
      'DELETE FROM account_links WHERE id_hash = ? AND purpose = ? AND expires_at > ? RETURNING *',
    ),
    deleteLinks: db.prepare('DELETE FROM account_links WHERE user_id = ? AND (? IS NULL OR purpose = ?)'),
  };
  return {
    async create(l) {
      q.insertLink.run({
        ...l,
        createdAt: l.createdAt.toISOString(),
        expiresAt: l.expiresAt.toISOString(),
      });
    },
    async consume(idHash, purpose, at) {
      const r = q.consumeLink.get(idHash, purpose, at.toISOString());
      return r && toLink(r);
    },
    async deleteAllForUser(userId, purpose) {
      q.deleteLinks.run(userId, purpose ?? null, purpose ?? null);
    },
  };
}
