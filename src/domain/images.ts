/**
 * Generating and listing images (spec 4.1, 4.2).
 *
 * Order of a generation, chosen so that nothing is lost or charged wrongly:
 *   validate options → render (a bad image is a 400 here, before any charge) → charge the quota
 *   atomically (429 if the last unit went to a concurrent request) → write the files → write the
 *   record last. If a write fails, the files are deleted and the charge is refunded; a crash between
 *   the files and the record leaves only files no record points to, never a record without its file;
 *   {@link sweepOrphans} (`titlecard sweep`) removes those.
 */
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Principal } from './accounts.js';
import { newBlobStem, newId } from './ids.js';
import type { ImageRecord } from './model.js';
import type { BlobStore, Clock, RecordStore } from './ports.js';
import type { Quota } from './quota.js';
import { EXTENSIONS, type Renderer } from './render/index.js';
import type { ImageInput } from './render/decode.js';
import {
  generateOptionsSchema,
  listImagesQuerySchema,
  type imagePageSchema,
  type imageRecordSchema,
} from './schemas.js';
import { parseOrThrow } from './validate.js';

export type ImageView = z.infer<typeof imageRecordSchema>;
export type ImagePage = z.infer<typeof imagePageSchema>;

export interface ImagesDeps {
  store: RecordStore;
  blobs: BlobStore;
  renderer: Renderer;
  quota: Quota;
  clock: Clock;
  /** Base of file URLs when the blob store has no public URL of its own, e.g. `https://cards.example.com`. */
  publicUrl: string;
  logger: Logger;
}

export function createImages({ store, blobs, renderer, quota, clock, publicUrl, logger }: ImagesDeps) {
  const urlOf = (key: string) => blobs.publicUrl(key) ?? `${publicUrl}/files/${key}`;

  return {
    /** Public URL of a stored file. */
    urlOf,

    /**
     * Spec 4.1. `options` are typed values (see `generateOptionsSchema`). Throws ValidationError
     * (bad option or image), QuotaExceededError; any other error is a fault and leaves no trace.
     */
    async generate(principal: Principal, image: ImageInput, options: unknown): Promise<ImageView> {
      const parsed = parseOrThrow(generateOptionsSchema, options);
      const rendered = await renderer.render(image, parsed);
      const charge = await quota.charge(principal.user);
      const stem = newBlobStem();
      const ext = EXTENSIONS[rendered.format];
      const record: ImageRecord = {
        id: newId('img'),
        userId: principal.user.id,
        title: parsed.title,
        subtitle: parsed.subtitle ?? null,
        width: rendered.width,
        height: rendered.height,
        format: rendered.format,
        imageKey: `${stem}.${ext}`,
        thumbnailKey: `${stem}_thumb.${ext}`,
        createdAt: clock.now(),
      };
      try {
        await Promise.all([
          blobs.put(record.imageKey, rendered.image, rendered.contentType),
          blobs.put(record.thumbnailKey, rendered.thumbnail, rendered.contentType),
        ]);
        await store.images.insert(record);
      } catch (err) {
        await Promise.allSettled([blobs.delete(record.imageKey), blobs.delete(record.thumbnailKey)]);
        await quota
          .refund(charge)
          .catch((e: unknown) => logger.error({ err: e, charge }, 'quota refund failed'));
        throw err;
      }
      return {
        id: record.id,
        url: urlOf(record.imageKey),
        thumbnailUrl: urlOf(record.thumbnailKey),
        width: record.width,
        height: record.height,
        createdAt: record.createdAt.toISOString(),
      };
    },

    /** Spec 4.2. `query` holds typed values; throws ValidationError naming the bad parameter. */
    async list(principal: Principal, query: unknown): Promise<ImagePage> {
      const q = parseOrThrow(listImagesQuerySchema, query);
      const { items, total } = await store.images.list(principal.user.id, q);
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

    /**
     * Deletes files that no record points to and that were written before `olderThan` (younger
     * files may belong to a generation still in flight: files are written before their record).
     * Holds the set of referenced keys in memory: about 100 bytes per image. Returns the keys
     * deleted, or that would be with `dryRun`.
     */
    async sweepOrphans({
      olderThan,
      dryRun = false,
    }: {
      olderThan: Date;
      dryRun?: boolean;
    }): Promise<string[]> {
      const referenced = new Set<string>();
      for await (const key of store.images.allBlobKeys()) referenced.add(key);
      const orphans: string[] = [];
      for await (const { key, modifiedAt } of blobs.list()) {
        if (referenced.has(key) || modifiedAt >= olderThan) continue;
        if (!dryRun) await blobs.delete(key);
        orphans.push(key);
      }
      return orphans;
    },
  };
}
