/**
 * Image records: a page of an account's images in any of the four orders, and the total.
 *
 * The total is the account's row of `image_counts`, kept by triggers (migration 6). A deep `offset`
 * is walked in slices of {@link OFFSET_SLICE} index entries, each slice starting after the last key
 * of the one before and the event loop served between slices: SQLite skips an offset one index
 * entry at a time on the calling thread, and the last page of 1M images held it for 55 ms in one
 * query; a slice of 20,000 takes 1 to 2 ms (docs/performance.md).
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type Database from 'better-sqlite3';
import { titleSortKey, type ImagePageQuery } from '../../../domain/kernel/records.js';
import type { RecordStore } from '../../../domain/kernel/ports.js';
import { toImage, type ImageRow } from './rows.js';

/** Index entries skipped in one step of a deep offset: 1 to 2 ms on 2 cores (docs/performance.md). */
export const OFFSET_SLICE = 20_000;

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
      `INSERT INTO images (id, user_id, title, title_key, subtitle, width, height, format, image_key, thumbnail_key, created_at)
       VALUES (@id, @userId, @title, @titleKey, @subtitle, @width, @height, @format, @imageKey, @thumbnailKey, @createdAt)`,
    ),
    countImages: db.prepare<[string], { n: number }>('SELECT n FROM image_counts WHERE user_id = ?'),
    blobKeys: db.prepare<[], { image_key: string; thumbnail_key: string }>(
      'SELECT image_key, thumbnail_key FROM images',
    ),
  };
  // Each order: its ORDER BY, its sort key column, and the condition "comes after (@key, @id)" in
  // that order, as a row value that SQLite seeks in the order's index. Titles order by the domain's
  // titleSortKey (column title_key), compared by code point (BINARY), as on MongoDB.
  const orders = {
    'createdAt:asc': {
      by: 'created_at ASC, id ASC',
      key: 'created_at',
      after: '(created_at, id) > (@key, @id)',
    },
    'createdAt:desc': {
      by: 'created_at DESC, id DESC',
      key: 'created_at',
      after: '(created_at, id) < (@key, @id)',
    },
    'title:asc': {
      by: 'title_key ASC, id ASC',
      key: 'title_key',
      after: '(title_key, id) > (@key, @id)',
    },
    'title:desc': {
      by: 'title_key DESC, id DESC',
      key: 'title_key',
      after: '(title_key, id) < (@key, @id)',
    },
  } as const;
  type Order = keyof typeof orders;
  interface Params {
    userId: string;
    key?: string;
    id?: string;
    limit: number;
    offset: number;
  }
  const statements = (o: (typeof orders)[Order]) => {
    const page = (after: string) =>
      db.prepare<[Params], ImageRow>(
        `SELECT * FROM images WHERE user_id = @userId ${after} ORDER BY ${o.by} LIMIT @limit OFFSET @offset`,
      );
    const keyAt = (after: string) =>
      db.prepare<[Params], { key: string; id: string }>(
        `SELECT ${o.key} AS key, id FROM images WHERE user_id = @userId ${after} ORDER BY ${o.by} LIMIT 1 OFFSET @offset`,
      );
    return {
      page: page(''),
      pageAfter: page(`AND ${o.after}`),
      keyAt: keyAt(''),
      keyAfter: keyAt(`AND ${o.after}`),
    };
  };
  const byOrder = Object.fromEntries(Object.entries(orders).map(([k, o]) => [k, statements(o)])) as Record<
    Order,
    ReturnType<typeof statements>
  >;

  return {
    async insert(r) {
      q.insertImage.run({ ...r, titleKey: titleSortKey(r.title), createdAt: r.createdAt.toISOString() });
    },
    async list(userId, query: ImagePageQuery) {
      const order = byOrder[`${query.sort}:${query.order}`];
      const total = q.countImages.get(userId)?.n ?? 0;
      let offset = Math.min(query.offset, total);
      let after: { key: string; id: string } | undefined;
      while (offset > OFFSET_SLICE) {
        // The entry OFFSET_SLICE places on; the next slice, or the page, starts after it.
        const params = { userId, ...after, limit: 1, offset: OFFSET_SLICE - 1 };
        after = after ? order.keyAfter.get(params) : order.keyAt.get(params);
        offset -= OFFSET_SLICE;
        if (!after) return { items: [], total };
        await yieldToEventLoop();
      }
      const params = { userId, ...after, limit: query.limit, offset };
      const rows = after ? order.pageAfter.all(params) : order.page.all(params);
      return { items: rows.map(toImage), total };
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
