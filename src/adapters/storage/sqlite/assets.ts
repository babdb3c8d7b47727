/** Uploads kept for reuse: backgrounds, logos and fonts. */
import type Database from 'better-sqlite3';
import type { RecordStore } from '../../../domain/kernel/ports.js';
import { toAsset, type AssetRow } from './rows.js';

/** The `assets` repository of the {@link RecordStore} on SQLite. */
export function sqliteAssets(db: Database.Database): RecordStore['assets'] {
  const q = {
    insertAsset: db.prepare(
      `INSERT INTO assets (id, user_id, kind, name, format, width, height, bytes, sha256, blob_key, created_at)
       VALUES (@id, @userId, @kind, @name, @format, @width, @height, @bytes, @sha256, @blobKey, @createdAt)`,
    ),
    asset: db.prepare<[string, string], AssetRow>('SELECT * FROM assets WHERE id = ? AND user_id = ?'),
    deleteAsset: db.prepare<[string, string], AssetRow>(
      'DELETE FROM assets WHERE id = ? AND user_id = ? RETURNING *',
    ),
    deleteAssets: db.prepare<[string], AssetRow>('DELETE FROM assets WHERE user_id = ? RETURNING *'),
  };
  return {
    async create(a) {
      q.insertAsset.run({ ...a, createdAt: a.createdAt.toISOString() });
    },
    async find(userId, id) {
      const r = q.asset.get(id, userId);
      return r && toAsset(r);
    },
    async list(userId, kinds) {
      const marks = kinds.map(() => '?').join(', ');
      return db
        .prepare<string[], AssetRow>(
          `SELECT * FROM assets WHERE user_id = ? AND kind IN (${marks}) ORDER BY created_at DESC, id DESC`,
        )
        .all(userId, ...kinds)
        .map(toAsset);
    },
    async delete(userId, id) {
      const r = q.deleteAsset.get(id, userId);
      return r && toAsset(r);
    },
    async deleteAllForUser(userId) {
      return q.deleteAssets.all(userId).map(toAsset);
    },
  };
}
