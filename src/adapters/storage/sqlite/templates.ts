/** Templates (src/domain/templates), with a version that every update raises. */
import type Database from 'better-sqlite3';
import type { RecordStore } from '../../../domain/kernel/ports.js';
import type { TemplateRecord } from '../../../domain/kernel/records.js';

interface TemplateRow {
  id: string;
  user_id: string;
  name: string;
  version: number;
  document: string;
  created_at: string;
  updated_at: string;
}

function toTemplate(r: TemplateRow): TemplateRecord {
  return {
    id: r.id,
    userId: r.user_id,
    name: r.name,
    version: r.version,
    document: JSON.parse(r.document) as Record<string, unknown>,
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  };
}

/** The `templates` repository of the {@link RecordStore} on SQLite. */
export function sqliteTemplates(db: Database.Database): RecordStore['templates'] {
  const q = {
    insert: db.prepare(
      `INSERT INTO templates (id, user_id, name, version, document, created_at, updated_at)
       VALUES (@id, @userId, @name, @version, @document, @createdAt, @updatedAt)`,
    ),
    find: db.prepare<[string, string], TemplateRow>('SELECT * FROM templates WHERE id = ? AND user_id = ?'),
    list: db.prepare<[string], TemplateRow>(
      'SELECT * FROM templates WHERE user_id = ? ORDER BY created_at DESC, id DESC',
    ),
    count: db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM templates WHERE user_id = ?'),
    update: db.prepare<Record<string, unknown>, TemplateRow>(
      `UPDATE templates SET name = @name, document = @document, updated_at = @updatedAt, version = version + 1
       WHERE id = @id AND user_id = @userId RETURNING *`,
    ),
    delete: db.prepare('DELETE FROM templates WHERE id = ? AND user_id = ?'),
    deleteAll: db.prepare('DELETE FROM templates WHERE user_id = ?'),
    // An id is 22 random base62 characters after its prefix: found in the JSON text, it is that id.
    using: db.prepare<[string, string], { n: number }>(
      'SELECT count(*) AS n FROM templates WHERE user_id = ? AND instr(document, ?) > 0',
    ),
  };
  return {
    async create(t) {
      q.insert.run({
        id: t.id,
        userId: t.userId,
        name: t.name,
        version: t.version,
        document: JSON.stringify(t.document),
        createdAt: t.createdAt.toISOString(),
        updatedAt: t.updatedAt.toISOString(),
      });
    },
    async find(userId, id) {
      const r = q.find.get(id, userId);
      return r && toTemplate(r);
    },
    async list(userId) {
      return q.list.all(userId).map(toTemplate);
    },
    async count(userId) {
      return q.count.get(userId)?.n ?? 0;
    },
    async update(userId, id, changes) {
      const r = q.update.get({
        id,
        userId,
        name: changes.name,
        document: JSON.stringify(changes.document),
        updatedAt: changes.updatedAt.toISOString(),
      });
      return r && toTemplate(r);
    },
    async delete(userId, id) {
      return q.delete.run(id, userId).changes === 1;
    },
    async countUsing(userId, id) {
      return q.using.get(userId, `"${id}"`)?.n ?? 0;
    },
    async deleteAllForUser(userId) {
      q.deleteAll.run(userId);
    },
  };
}
