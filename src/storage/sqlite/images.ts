/** Image records: a page of an account's images in any of the four orders, and the total. */
import type Database from 'better-sqlite3';
import type { ImagePageQuery } from '../../domain/kernel/records.js';
import type { RecordStore } from '../../domain/kernel/ports.js';
import { toImage, type ImageRow } from './rows.js';

/** The `images` repository of the {@link RecordStore} on SQLite. */
export function sqliteImages(db: Database.Database): RecordStore['images'] {
  const q = {
    imageById: db.prepare<[string, string], ImageRow>('SELECT * FROM images WHERE id = ? AND user_id = ?'),
    deleteImage: db.prepare<[string, string], ImageRow>(
      'DELETE FROM images WHERE id = ? AND user_id = ? RETURNING *',
    ),
    deleteImages: db.prepare<[string], ImageRow>('DELETE FROM images WHERE user_id = ? RETURNING *'),
    countByDay: db.prepare<[string, string, string], { day: string; n: number }>(
      `SELECT substr(created_at, 1, 10) AS day, count(*) AS n FROM images
       WHERE user_id = ? AND created_at >= ? AND created_at < ? GROUP BY day`,
    ),
    insertImage: db.prepare(
      `INSERT INTO images (id, user_id, title, subtitle, width, height, format, image_key, thumbnail_key, created_at)
       VALUES (@id, @userId, @title, @subtitle, @width, @height, @format, @imageKey, @thumbnailKey, @createdAt)`,
    ),
    countImages: db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM images WHERE user_id = ?'),
    blobKeys: db.prepare<[], { image_key: string; thumbnail_key: string }>(
      'SELECT image_key, thumbnail_key FROM images',
    ),
  };
  const pages = {
    'createdAt:asc': 'created_at ASC, id ASC',
    'createdAt:desc': 'created_at DESC, id DESC',
    'title:asc': 'title COLLATE NOCASE ASC, id ASC',
    'title:desc': 'title COLLATE NOCASE DESC, id DESC',
  } as const;
  const listImages = Object.fromEntries(
    Object.entries(pages).map(([k, order]) => [
      k,
      db.prepare<[string, number, number], ImageRow>(
        `SELECT * FROM images WHERE user_id = ? ORDER BY ${order} LIMIT ? OFFSET ?`,
      ),
    ]),
  ) as Record<keyof typeof pages, Database.Statement<[string, number, number], ImageRow>>;

  return {
    async insert(r) {
      q.insertImage.run({ ...r, createdAt: r.createdAt.toISOString() });
    },
    async list(userId, query: ImagePageQuery) {
      const stmt = listImages[`${query.sort}:${query.order}`];
      const items = stmt.all(userId, query.limit, query.offset).map(toImage);
      return { items, total: q.countImages.get(userId)?.n ?? 0 };
    },
    async *allBlobKeys() {
      for (const r of q.blobKeys.iterate()) {
        yield r.image_key;
        yield r.thumbnail_key;
      }
    },
    async findById(userId, id) {
      const r = q.imageById.get(id, userId);
      return r && toImage(r);
    },
    async delete(userId, id) {
      const r = q.deleteImage.get(id, userId);
      return r && toImage(r);
    },
    async deleteAllForUser(userId) {
      return q.deleteImages.all(userId).map(toImage);
    },
    async countByDay(userId, from, to) {
      const rows = q.countByDay.all(userId, from.toISOString(), to.toISOString());
      return Object.fromEntries(rows.map((r) => [r.day, r.n]));
    },
  };
}
