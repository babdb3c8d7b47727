/**
 * The image records as the caller sees them: the creation record and the list entry with their
 * files' public URLs, one page of the list, one image, deletion, and the month's activity.
 */
import { NotFoundError } from '../kernel/errors.js';
import { monthStart, nextMonthStart } from '../kernel/period.js';
import type { BlobStore, Clock, RecordStore } from '../kernel/ports.js';
import type { ImageRecord } from '../kernel/records.js';
import { parseOrThrow } from '../kernel/validate.js';
import { listImagesQuerySchema } from './schemas.js';
import type { Principal } from '../accounts/accounts.js';
import type { ImageDetail, ImagePage, ImageView } from './types.js';

/** The public URL of a file: the blob store's own, or `publicUrl`/files/<key>. */
export type UrlOf = (key: string) => string;

/** The URL of each file and the creation record's view (docs/api.md#endpoints). */
export function createViews(blobs: BlobStore, publicUrl: string) {
  const urlOf: UrlOf = (key) => blobs.publicUrl(key) ?? `${publicUrl}/files/${key}`;
  const viewOf = (record: ImageRecord): ImageView => ({
    id: record.id,
    url: urlOf(record.imageKey),
    thumbnailUrl: urlOf(record.thumbnailKey),
    width: record.width,
    height: record.height,
    createdAt: record.createdAt.toISOString(),
  });
  return { urlOf, viewOf };
}

/** The image records' use cases. Every method throws the domain's errors only; anything else is a fault. */
export interface ImageRecords {
  /** docs/api.md#endpoints: one page of the caller's images. `query` holds typed values; throws ValidationError. */
  list(principal: Principal, query: unknown): Promise<ImagePage>;
  /** One of the caller's images, with its title and subtitle. Throws NotFoundError (unknown, or another user's). */
  get(principal: Principal, id: string): Promise<ImageDetail>;
  /**
   * Deletes one of the caller's images: the record, then both files (a crash between leaves files
   * no record points to, for the sweep). The quota unit it used stays used: the month's
   * generations are counted, not the images kept. Throws NotFoundError.
   */
  delete(principal: Principal, id: string): Promise<void>;
  /** Deletes every image of a user, records then files (account deletion). */
  deleteAllOf(userId: string): Promise<void>;
  /** The caller's generations per UTC day of the current month, day 1 to today, for the dashboard's chart. */
  activity(principal: Principal): Promise<{ date: string; count: number }[]>;
}

export function createImageRecords({
  store,
  blobs,
  clock,
  urlOf,
}: {
  store: RecordStore;
  blobs: BlobStore;
  clock: Clock;
  urlOf: UrlOf;
}): ImageRecords {
  return {
    async list(principal, query) {
      const q = parseOrThrow(listImagesQuerySchema, query);
      const { items, total } = await store.images.list(principal.workspace.id, q);
      return {
        images: items.map((r) => ({
          id: r.id,
          title: r.title,
          url: urlOf(r.imageKey),
          thumbnailUrl: urlOf(r.thumbnailKey),
          createdAt: r.createdAt.toISOString(),
        })),
        pagination: { total, limit: q.limit, offset: q.offset, hasMore: q.offset + items.length < total },
      };
    },

    async get(principal, id) {
      const r = await store.images.findById(principal.workspace.id, id);
      if (!r) throw new NotFoundError(`No image with id ${id} on this account`);
      return {
        id: r.id,
        title: r.title,
        subtitle: r.subtitle,
        url: urlOf(r.imageKey),
        thumbnailUrl: urlOf(r.thumbnailKey),
        width: r.width,
        height: r.height,
        format: r.format,
        createdAt: r.createdAt.toISOString(),
      };
    },

    async delete(principal, id) {
      const r = await store.images.delete(principal.workspace.id, id);
      if (!r) throw new NotFoundError(`No image with id ${id} on this account`);
      await Promise.all([blobs.delete(r.imageKey), blobs.delete(r.thumbnailKey)]);
    },

    async deleteAllOf(userId) {
      const records = await store.images.deleteAllForUser(userId);
      for (const r of records) await Promise.all([blobs.delete(r.imageKey), blobs.delete(r.thumbnailKey)]);
    },

    async activity(principal) {
      const now = clock.now();
      const from = monthStart(now);
      const counts = await store.images.countByDay(principal.workspace.id, from, nextMonthStart(now));
      const days: { date: string; count: number }[] = [];
      for (let d = new Date(from); d <= now; d = new Date(d.getTime() + 86_400_000)) {
        const date = d.toISOString().slice(0, 10);
        days.push({ date, count: counts[date] ?? 0 });
      }
      return days;
    },
  };
}
