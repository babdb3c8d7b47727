/** Presets (saved designs), with a version that every update raises. */
import type Database from 'better-sqlite3';
import type { RecordStore } from '../../../domain/kernel/ports.js';
import { toPreset, presetColumns, type PresetRow } from './rows.js';

/** The `presets` repository of the {@link RecordStore} on SQLite. */
export function sqlitePresets(db: Database.Database): RecordStore['presets'] {
  const q = {
    insertPreset: db.prepare(
      `INSERT INTO presets (id, user_id, name, version, options, background_asset_id, logo, logo_asset_id,
         font_id, created_at, updated_at)
       VALUES (@id, @userId, @name, 1, @options, @backgroundAssetId, @logo, @logoAssetId, @fontId,
         @createdAt, @updatedAt)`,
    ),
    preset: db.prepare<[string, string], PresetRow>('SELECT * FROM presets WHERE id = ? AND user_id = ?'),
    presets: db.prepare<[string], PresetRow>(
      'SELECT * FROM presets WHERE user_id = ? ORDER BY created_at DESC, id DESC',
    ),
    updatePreset: db.prepare<Record<string, unknown>, PresetRow>(
      `UPDATE presets SET name = @name, options = @options, background_asset_id = @backgroundAssetId,
         logo = @logo, logo_asset_id = @logoAssetId, font_id = @fontId, updated_at = @updatedAt,
         version = version + 1
       WHERE id = @id AND user_id = @userId RETURNING *`,
    ),
    deletePreset: db.prepare('DELETE FROM presets WHERE id = ? AND user_id = ?'),
    deletePresets: db.prepare('DELETE FROM presets WHERE user_id = ?'),
    presetsUsing: db.prepare<Record<string, string>, { n: number }>(
      `SELECT count(*) AS n FROM presets WHERE user_id = @userId
       AND (background_asset_id = @id OR logo_asset_id = @id OR font_id = @id
         OR json_extract(options, '$.template') = @id)`,
    ),
  };
  return {
    async create(p) {
      q.insertPreset.run({
        id: p.id,
        userId: p.userId,
        ...presetColumns(p),
        createdAt: p.createdAt.toISOString(),
      });
    },
    async find(userId, id) {
      const r = q.preset.get(id, userId);
      return r && toPreset(r);
    },
    async list(userId) {
      return q.presets.all(userId).map(toPreset);
    },
    async update(userId, id, changes) {
      const r = q.updatePreset.get({ id, userId, ...presetColumns(changes) });
      return r && toPreset(r);
    },
    async delete(userId, id) {
      return q.deletePreset.run(id, userId).changes === 1;
    },
    async countUsing(userId, id) {
      return q.presetsUsing.get({ userId, id })?.n ?? 0;
    },
    async deleteAllForUser(userId) {
      q.deletePresets.run(userId);
    },
  };
}
