/** Signing keys of render links, their secrets sealed (src/domain/kernel/secrets.ts). */
import type Database from 'better-sqlite3';
import type { RecordStore } from '../../../domain/kernel/ports.js';
import { toSigningKey, type SigningKeyRow } from './rows.js';

/** The `signingKeys` repository of the {@link RecordStore} on SQLite. */
export function sqliteSigningKeys(db: Database.Database): RecordStore['signingKeys'] {
  const q = {
    insertKey: db.prepare(
      `INSERT INTO signing_keys (id, user_id, name, sealed_secret, created_at, revoked_at)
       VALUES (@id, @userId, @name, @sealedSecret, @createdAt, NULL)`,
    ),
    key: db.prepare<[string], SigningKeyRow>('SELECT * FROM signing_keys WHERE id = ?'),
    activeKeys: db.prepare<[string], SigningKeyRow>(
      'SELECT * FROM signing_keys WHERE user_id = ? AND revoked_at IS NULL ORDER BY created_at DESC, id DESC',
    ),
    revokeKey: db.prepare(
      'UPDATE signing_keys SET revoked_at = ? WHERE id = ? AND user_id = ? AND revoked_at IS NULL',
    ),
    deleteKeys: db.prepare('DELETE FROM signing_keys WHERE user_id = ?'),
  };
  return {
    async create(k) {
      q.insertKey.run({
        id: k.id,
        userId: k.userId,
        name: k.name,
        sealedSecret: k.sealedSecret,
        createdAt: k.createdAt.toISOString(),
      });
    },
    async find(id) {
      const r = q.key.get(id);
      return r && toSigningKey(r);
    },
    async listActive(userId) {
      return q.activeKeys.all(userId).map(toSigningKey);
    },
    async revoke(userId, id, at) {
      return q.revokeKey.run(at.toISOString(), id, userId).changes === 1;
    },
    async deleteAllForUser(userId) {
      q.deleteKeys.run(userId);
    },
  };
}
