/**
 * Generating, listing and serving images (docs/api.md#generate-options, 4.2), one use case per action: every edge (REST,
 * MCP, and later the dashboard) calls these and repeats none of their rules.
 *
 * Order of a generation, chosen so that nothing is lost or charged wrongly:
 *   reserve one unit of quota atomically (429 when none is left, before the upload is read or the
 *   image URL fetched) → admission (503 when the expected wait for a render is past
 *   RENDER_MAX_WAIT; the unit refunded) → read the request → validate the options → render (a bad
 *   image is a 400 here) → write the files → write the record last. Any failure after the reservation refunds it,
 *   and files already written are deleted. A crash between the files and the record leaves only
 *   files no record points to, never a record without its files; {@link Images.sweepOrphans}
 *   (`titlecard sweep`) removes those. A crash after the reservation costs the caller that unit for
 *   the month (the store cannot tell a crashed generation from one in flight).
 */
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Principal } from '../accounts/accounts.js';
import sharp from 'sharp';
import { NotFoundError, ServiceBusyError, TooManyAttemptsError } from '../kernel/errors.js';
import { BLOB_KEY_PATTERN, blobKeysOf } from './files.js';
import { newBlobStem, newId } from '../kernel/ids.js';
import { createHandoff, HANDOFF_KEY_PATTERN } from './handoff.js';
import type { ImageRecord } from '../kernel/records.js';
import type { Readable } from 'node:stream';
import type {
  Blob,
  BlobStore,
  ByteRange,
  Clock,
  GenerationQueue,
  ImageFetcher,
  QueuedGeneration,
  QueuedGenerationResult,
  RecordStore,
  Throttle,
} from '../kernel/ports.js';
import type { Quota } from '../accounts/quota.js';
import type { ImageInput } from '../render/decode.js';
import type { Assets } from '../assets/assets.js';
import type { Templates } from '../templates/templates.js';
import { createRequestResolver, onTemplateCanvas } from './request.js';
import type { Presets } from '../presets/presets.js';
import type { Renderer, RenderOptions } from '../render/index.js';
import {
  listImagesQuerySchema,
  type imageDetailSchema,
  type LayoutReport,
  type RenderReport,
  type imagePageSchema,
  type imageRecordSchema,
} from '../schemas.js';
import { monthStart, nextMonthStart } from '../kernel/period.js';
import { parseOrThrow } from '../kernel/validate.js';

export type ImageView = z.infer<typeof imageRecordSchema>;
/** A reserved unit of quota (quota.ts `charge`), to refund if the generation fails. */
type Charge = Awaited<ReturnType<Quota['charge']>>;
export type ImagePage = z.infer<typeof imagePageSchema>;
export type ImageDetail = z.infer<typeof imageDetailSchema>;

/**
 * What an edge reads from its request for a generation: the background image and the options as
 * typed values (see `generateOptionsSchema`; not yet validated). Called once, after the quota unit
 * is reserved; what it throws (ValidationError, FileTooLargeError) refunds that unit. `imageField`
 * is the edge's name for the image's bytes (default `image`, docs/api.md#generate-options; `imageBase64` or `imagePath`
 * in the MCP tool), used in the refusals' `field` and messages.
 */
export type GenerateRequestReader = () => Promise<{
  image?: ImageInput | undefined;
  imageField?: string;
  options: unknown;
}>;

/** A generation's inputs resolved: the background, and what to draw (font loaded, logo decoded). */
export interface PreparedRender {
  input: ImageInput;
  options: RenderOptions;
}

/** A generated image: its record as the API returns it, its thumbnail's bytes (MCP shows it inline), and the render report. */
export interface Generated {
  image: ImageView;
  thumbnail: Blob;
  report: RenderReport;
}

/** The image use cases. Every method throws the domain's errors only; anything else is a fault. */
export interface Images {
  /**
   * docs/api.md#generate-options: one generation, in the order of this module's header. Throws QuotaExceededError
   * (nothing left this month, however busy the process), ServiceBusyError (the expected wait for a
   * render too long; nothing charged), ValidationError (bad option or image, field named),
   * FileTooLargeError (image over 10 MB); a fault leaves no record, no file and no charge.
   */
  generate(principal: Principal, read: GenerateRequestReader): Promise<Generated>;
  /**
   * A batch item's generation (src/domain/batches): `options` as `/generate` takes them without
   * the upload, the image recorded under `imageId` (derived from the item, so a retry finds it),
   * the unit charged once per `chargeKey`. Answers the record's view; when a record with that id
   * exists already (a retry after a crash), answers it without charging or rendering. Throws as
   * {@link generate}; a failure refunds the unit.
   */
  generateItem(
    user: Principal['user'],
    options: Record<string, unknown>,
    ids: { imageId: string; chargeKey: string; source: { batchId: string; index: number } },
  ): Promise<ImageView>;
  /**
   * A worker's side of a generation handed over (`GENERATE_ON_WORKERS`): renders it, writes its
   * files and its record under `job.imageId`, deletes the upload; the domain error it throws comes
   * back as a result. A retry after a crash finds the record and answers it.
   */
  renderQueued(job: QueuedGeneration): Promise<QueuedGenerationResult>;
  /** docs/api.md#endpoints: one page of the caller's images. `query` holds typed values; throws ValidationError. */
  list(principal: Principal, query: unknown): Promise<ImagePage>;
  /**
   * A small preview of a generation (the dashboard's playground): rendered exactly as `generate`
   * would, then scaled to {@link PREVIEW_WIDTH} px wide as JPEG. Not stored, uses no quota, and
   * limited to {@link PREVIEW_LIMIT} per account. Throws TooManyAttemptsError, ValidationError,
   * FileTooLargeError.
   */
  preview(principal: Principal, read: GenerateRequestReader): Promise<Blob>;
  /**
   * A preview of an unsaved template `document` (the dashboard's editor), filled from the request's
   * `title`, `subtitle` and `fields`: as {@link preview}, free and limited alike. ValidationError
   * names the document's path (`layers[3].box.w`) or the field.
   */
  previewTemplate(principal: Principal, document: unknown, read: GenerateRequestReader): Promise<Blob>;
  /**
   * The free fit check (`POST /layout`): the report of how the texts and options would be set, with
   * no photo, no quota and nothing stored; limited to {@link PREVIEW_LIMIT} per account. Throws
   * ValidationError, TooManyAttemptsError.
   */
  checkLayout(principal: Principal, options: unknown): Promise<LayoutReport>;
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
  /**
   * A published file (image or thumbnail) by its key, for anyone: files are public, their keys
   * unguessable (see `BLOB_KEY_PATTERN`). Its size (bytes) and Content-Type; throws NotFoundError
   * for an unknown or malformed key.
   */
  fileInfo(key: string): Promise<{ size: number; contentType: string }>;
  /** The bytes of a published file, all or `range` (inclusive offsets), streamed. Throws NotFoundError. */
  openFile(key: string, range?: ByteRange): Promise<Readable>;
  /**
   * Where a published file (by its key) is on this computer, when the blob store is local disk
   * (the embedded default); undefined otherwise, or for a key that is not a published file's.
   */
  localFile(key: string): string | undefined;
  /**
   * Deletes files that no record points to and that were written before `olderThan` (younger
   * files may belong to a generation still in flight: files are written before their record).
   * Holds the set of referenced keys in memory: about 100 bytes per image. Returns the keys
   * deleted, or that would be with `dryRun`.
   */
  sweepOrphans(options: { olderThan: Date; dryRun?: boolean }): Promise<string[]>;
  /**
   * Resolves a generation's request for the renderer: the preset's options under the request's own,
   * validated; the background from exactly one of `image`, `asset` or `imageUrl`, else the preset's;
   * an uploaded font loaded; the preset's logo decoded. ValidationError on the field at fault.
   */
  prepare(
    userId: string,
    image: ImageInput | undefined,
    options: unknown,
    imageField?: string,
    /** A stand-in (a fallback card): a template's required variables may be missing. */
    standIn?: boolean,
  ): Promise<PreparedRender>;
}

/** Width of a playground preview in px (JPEG, quality 70). */
export const PREVIEW_WIDTH = 600;
/** Previews per account per minute: a debounced live preview asks at most about one a second. */
export const PREVIEW_LIMIT = { points: 60, windowSeconds: 60 } as const;

export interface ImagesDeps {
  store: RecordStore;
  blobs: BlobStore;
  renderer: Renderer;
  quota: Quota;
  clock: Clock;
  /** Base of file URLs when the blob store has no public URL of its own, e.g. `https://cards.example.com`. */
  publicUrl: string;
  logger: Logger;
  /** Counts previews per account ({@link PREVIEW_LIMIT}). */
  previewThrottle: Throttle;
  /** Uploads (backgrounds, logos, fonts) and presets, which a generation may name. */
  assets: Assets;
  presets: Presets;
  /** Templates of the user's, which `template` may name (tpl_…). */
  templates: Templates;
  /** Fetches an `imageUrl` SSRF-safely (src/safe-fetch.ts); without it, imageUrl is refused. */
  fetchImage?: ImageFetcher | undefined;
  /**
   * Called once an image record is written, from any edge (the `image.created` webhook event);
   * `source` names the batch item that made it. Must not throw.
   */
  onCreated?: (
    userId: string,
    image: ImageView,
    source?: { batchId: string; index: number },
  ) => Promise<void>;
  /**
   * With `GENERATE_ON_WORKERS`: where a generation's render goes (workers on BullMQ); this process
   * then charges, reads the request and answers, and a worker renders and records.
   */
  generationQueue?: GenerationQueue | undefined;
  /**
   * Most generations and previews under way at once in this process (reading, waiting for the
   * renderer, rendering, writing): a bound on the memory they hold while they wait (an imageUrl's
   * or an asset's bytes; uploads wait on disk). Past it they are refused with ServiceBusyError, a
   * generation's quota unit refunded. Default {@link DEFAULT_MAX_IN_FLIGHT}.
   */
  maxInFlight?: number;
  /**
   * Longest expected wait for a render a new generation or preview is admitted to, ms: the ones
   * ahead of it × the renderer's recent mean render time ÷ its concurrency. Past it the answer is
   * ServiceBusyError with that wait as its Retry-After. Default {@link DEFAULT_MAX_WAIT_MS}.
   */
  maxWaitMs?: number;
}

/** Default of `maxInFlight`: 2 renders (the cores of this project's machine) plus 64 waiting (RENDER_QUEUE). */
export const DEFAULT_MAX_IN_FLIGHT = 66;
/** Default of `maxWaitMs` (RENDER_MAX_WAIT, 30 s): a burst queues rather than being turned away (issue 27). */
export const DEFAULT_MAX_WAIT_MS = 30_000;

export function createImages({
  store,
  blobs,
  renderer,
  quota,
  clock,
  publicUrl,
  logger,
  previewThrottle,
  assets,
  presets,
  templates,
  fetchImage,
  maxInFlight = DEFAULT_MAX_IN_FLIGHT,
  maxWaitMs = DEFAULT_MAX_WAIT_MS,
  onCreated,
  generationQueue,
}: ImagesDeps): Images {
  const { merged, renderOptions, prepare } = createRequestResolver({
    assets,
    presets,
    templates,
    fetchImage,
  });
  /**
   * A preview ({@link Images.preview}): limited per account ({@link PREVIEW_LIMIT}) and admitted as a
   * generation is; the render `prepared` resolves, drawn as JPEG and scaled to {@link PREVIEW_WIDTH}.
   */
  async function previewed(principal: Principal, prepared: () => Promise<PreparedRender>): Promise<Blob> {
    const wait = await previewThrottle.hit(`preview:${principal.user.id}`);
    if (wait > 0) throw new TooManyAttemptsError(wait, 'previews');
    return admitted(async () => {
      const { input, options } = await prepared();
      const rendered = await renderer.render(input, { ...options, fileFormat: 'jpeg' });
      const body = await sharp(rendered.image).resize(PREVIEW_WIDTH).jpeg({ quality: 70 }).toBuffer();
      return { body, contentType: 'image/jpeg' };
    });
  }

  let inFlight = 0;
  /**
   * Runs `work` as one of the generations and previews under way, or refuses it with
   * ServiceBusyError: past `maxInFlight` of them, or when its expected wait for a render is past
   * `maxWaitMs` (Retry-After: the time until it would not be, at least a second).
   */
  async function admitted<T>(work: () => Promise<T>): Promise<T> {
    const { concurrency, meanRenderMs } = renderer.load();
    const ahead = Math.max(0, inFlight + 1 - concurrency);
    const waitMs = (ahead * meanRenderMs) / concurrency;
    if (inFlight >= maxInFlight || waitMs > maxWaitMs)
      throw new ServiceBusyError(
        `Titlecard has ${inFlight} images under way, about ${Math.ceil(waitMs / 1000)} s of rendering: try again after Retry-After`,
        Math.max(1, Math.ceil((Math.max(waitMs - maxWaitMs, meanRenderMs / concurrency) || 0) / 1000)),
      );
    inFlight++;
    try {
      return await work();
    } finally {
      inFlight--;
    }
  }
  const urlOf = (key: string) => blobs.publicUrl(key) ?? `${publicUrl}/files/${key}`;
  const viewOf = (record: ImageRecord): ImageView => ({
    id: record.id,
    url: urlOf(record.imageKey),
    thumbnailUrl: urlOf(record.thumbnailKey),
    width: record.width,
    height: record.height,
    createdAt: record.createdAt.toISOString(),
  });

  /** One generation, in the order of this module's header (see {@link Images.generate}), charged `charge`. */
  async function generateOne(
    principal: Principal,
    read: GenerateRequestReader,
    /** The unit to refund if it fails; undefined on a worker (the serving process charged). */
    charge: Charge | undefined,
    id = newId('img'),
    source?: { batchId: string; index: number },
  ): Promise<Generated> {
    let keys: { imageKey: string; thumbnailKey: string } | undefined;
    try {
      const { image, imageField, options } = await read();
      const prepared = await prepare(principal.user.id, image, options, imageField);
      const parsed = prepared.options;
      const rendered = await renderer.render(prepared.input, parsed);
      keys = blobKeysOf(newBlobStem(), rendered.format);
      const record: ImageRecord = {
        id,
        userId: principal.user.id,
        title: parsed.title,
        subtitle: parsed.subtitle ?? null,
        width: rendered.width,
        height: rendered.height,
        format: rendered.format,
        ...keys,
        createdAt: clock.now(),
      };
      await Promise.all([
        blobs.put(record.imageKey, rendered.image, rendered.contentType),
        blobs.put(record.thumbnailKey, rendered.thumbnail, rendered.contentType),
      ]);
      await store.images.insert(record);
      await onCreated?.(record.userId, viewOf(record), source);
      return {
        image: viewOf(record),
        thumbnail: { body: rendered.thumbnail, contentType: rendered.contentType },
        report: rendered.report,
      };
    } catch (err) {
      if (keys) await Promise.allSettled([blobs.delete(keys.imageKey), blobs.delete(keys.thumbnailKey)]);
      if (charge) await refund(charge);
      throw err;
    }
  }
  const refund = (charge: Charge) =>
    quota.refund(charge).catch((e: unknown) => logger.error({ err: e, charge }, 'quota refund failed'));

  const handoff = createHandoff({ store, blobs, generateOne, viewOf, refund });

  return {
    // The quota before the capacity: a caller with no quota left gets the contract's 429 however
    // busy the process is; a unit charged and then refused for capacity is refunded.
    async generate(principal, read) {
      const charge = await quota.charge(principal.user);
      // Rendered on a worker: its capacity is the workers', so no admission here.
      if (generationQueue) return handoff.generateOnWorker(principal, read, charge, generationQueue);
      let started = false;
      try {
        return await admitted(() => {
          started = true;
          return generateOne(principal, read, charge);
        });
      } catch (err) {
        if (!started) await refund(charge);
        throw err;
      }
    },

    async generateItem(user, options, { imageId, chargeKey, source }) {
      const existing = await store.images.findById(user.id, imageId);
      if (existing) return viewOf(existing);
      const charge = await quota.chargeOnce(user, chargeKey);
      const generated = await generateOne({ user }, async () => ({ options }), charge, imageId, source);
      return generated.image;
    },

    renderQueued: (job) => handoff.renderQueued(job),

    preview: (principal, read) =>
      previewed(principal, async () => {
        const { image, imageField, options } = await read();
        return prepare(principal.user.id, image, options, imageField);
      }),

    previewTemplate: (principal, document, read) =>
      previewed(principal, async () => {
        const { image, imageField, options } = await read();
        const { fields, template: _template, ...rest } = (options ?? {}) as Record<string, unknown>;
        const prepared = await prepare(principal.user.id, image, rest, imageField);
        const design = await templates.draft(principal.user.id, document, {
          title: prepared.options.title,
          subtitle: prepared.options.subtitle,
          fields: fields as Record<string, unknown> | undefined,
        });
        return { ...prepared, options: { ...prepared.options, ...onTemplateCanvas(design, rest.aspect) } };
      }),

    async list(principal, query) {
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

    async checkLayout(principal, options) {
      const { preset, raw } = await merged(principal.user.id, options);
      const parsed = await renderOptions(principal.user.id, raw, preset, false);
      const wait = await previewThrottle.hit(`layout:${principal.user.id}`);
      if (wait > 0) throw new TooManyAttemptsError(wait, 'layout checks');
      return renderer.layout(parsed);
    },

    async get(principal, id) {
      const r = await store.images.findById(principal.user.id, id);
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
      const r = await store.images.delete(principal.user.id, id);
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
      const counts = await store.images.countByDay(principal.user.id, from, nextMonthStart(now));
      const days: { date: string; count: number }[] = [];
      for (let d = new Date(from); d <= now; d = new Date(d.getTime() + 86_400_000)) {
        const date = d.toISOString().slice(0, 10);
        days.push({ date, count: counts[date] ?? 0 });
      }
      return days;
    },

    async fileInfo(key) {
      const info = BLOB_KEY_PATTERN.test(key) ? await blobs.stat(key) : undefined;
      if (!info) throw new NotFoundError(`No file ${key}`);
      return info;
    },

    async openFile(key, range) {
      const stream = BLOB_KEY_PATTERN.test(key) ? await blobs.open(key, range) : undefined;
      if (!stream) throw new NotFoundError(`No file ${key}`);
      return stream;
    },

    localFile(key) {
      return BLOB_KEY_PATTERN.test(key) ? blobs.localPath(key) : undefined;
    },

    prepare,

    async sweepOrphans({ olderThan, dryRun = false }) {
      const referenced = new Set<string>();
      for await (const key of store.images.allBlobKeys()) referenced.add(key);
      const orphans: string[] = [];
      for await (const { key, modifiedAt } of blobs.list()) {
        // Published image files no record points to, and uploads left on their way to a worker
        // (handoff.ts; a crash of both ends): other uploads and rendered links have records of their own.
        const orphan = BLOB_KEY_PATTERN.test(key) ? !referenced.has(key) : HANDOFF_KEY_PATTERN.test(key);
        if (!orphan || modifiedAt >= olderThan) continue;
        if (!dryRun) await blobs.delete(key);
        orphans.push(key);
      }
      return orphans;
    },
  };
}
