/**
 * The image use cases (docs/api.md#generate-options, #endpoints), one per action: every edge (REST,
 * MCP, the dashboard) calls these and repeats none of their rules. Each job has its module, composed
 * here: generation.ts (with handoff.ts for workers), admission.ts, previews.ts, records.ts (the
 * records as the caller sees them), published.ts (public files and the orphan sweep), request.ts
 * (a request resolved for the renderer), files.ts (file names and types).
 *
 * Order of a generation, chosen so that nothing is lost or charged wrongly:
 *   reserve one unit of quota atomically (429 when none is left, before the upload is read or the
 *   image URL fetched) → admission (503 when the expected wait for a render is past
 *   RENDER_MAX_WAIT; the unit refunded) → read the request → validate the options → render (a bad
 *   image is a 400 here) → write the files → write the record last. Any failure after the reservation refunds it,
 *   and files already written are deleted. A crash between the files and the record leaves only
 *   files no record points to, never a record without its files; {@link Images.sweepOrphans}
 *   (`titlecard sweep`) removes those. A crash after the reservation leaves a charge without its
 *   image, which {@link Images.sweepCharges} refunds after an hour (generation.ts).
 */
import type { Logger } from 'pino';
import type { Readable } from 'node:stream';
import type { z } from 'zod';
import type { Principal } from '../accounts/accounts.js';
import type { Quota } from '../accounts/quota.js';
import type { Assets } from '../assets/assets.js';
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
import type { Presets } from '../presets/presets.js';
import type { ImageInput } from '../render/index.js';
import type { Renderer, RenderOptions } from '../render/index.js';
import type {
  imageDetailSchema,
  imagePageSchema,
  imageRecordSchema,
  LayoutReport,
  RenderReport,
} from './schemas.js';
import type { Templates } from '../templates/templates.js';
import { createAdmission } from './admission.js';
import { createGeneration } from './generation.js';
import { createPreviews } from './previews.js';
import { createPublishedFiles } from './published.js';
import { createImageRecords, createViews } from './records.js';
import { createRequestResolver } from './request.js';

export type ImageView = z.infer<typeof imageRecordSchema>;
/** The batch item that made an image (the `image.created` event says which). */
export type ImageSource = { batchId: string; index: number };
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
  generate(
    principal: Principal,
    read: GenerateRequestReader,
    options?: {
      /**
       * The image's id (default a new one): an Idempotency-Key's retry gives its first request's
       * (http/idempotency.ts), and answers the image when that request made it.
       */
      imageId?: string;
    },
  ): Promise<Generated>;
  /**
   * A batch item's generation (src/domain/batches): `options` as `/generate` takes them without
   * the upload, the image recorded under `imageId` (derived from the item, so a retry finds it),
   * the unit charged once per `chargeKey`. Answers the record's view and the render report's
   * warnings; when a record with that id exists already (a retry after a crash), answers it without
   * charging or rendering (no warnings then). Throws as {@link generate}; a failure refunds the unit.
   */
  generateItem(
    user: Principal['user'],
    options: Record<string, unknown>,
    ids: { imageId: string; chargeKey: string; source: ImageSource },
  ): Promise<{ image: ImageView; warnings: string[] }>;
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
   * One of the caller's cards at its own size as a JPEG (quality {@link VIEW_QUALITY}, flattened on
   * white) for a page to show: the studio's large view. Limited to {@link PREVIEW_LIMIT} per account
   * (apart from previews), admitted as a generation is, and re-encoded in the account's render
   * turn. Throws NotFoundError (unknown, or another account's), TooManyAttemptsError,
   * ServiceBusyError.
   */
  view(principal: Principal, id: string): Promise<{ body: Buffer; width: number; height: number }>;
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
   * The charge sweep (issue 44): refunds the image charges made between `since` and `olderThan`
   * whose image does not exist (their process died between the charge and the record: a crash, a
   * kill, a deploy). A record written meanwhile takes its unit again (generation.ts's rules), so a
   * generation still under way loses nothing. Returns the keys refunded (`img:<id>`), or that would
   * be with `dryRun`. Looks at generation.ts's CHARGE_SWEEP_BATCH charges at most.
   */
  sweepCharges(options: { since: Date; olderThan: Date; dryRun?: boolean }): Promise<string[]>;
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

export { PREVIEW_LIMIT, PREVIEW_WIDTH, VIEW_QUALITY } from './previews.js';

export interface ImagesDeps {
  store: RecordStore;
  blobs: BlobStore;
  renderer: Renderer;
  quota: Quota;
  clock: Clock;
  /** Where a refund that failed is logged (generation.ts). */
  logger?: Logger;
  /** Base of file URLs when the blob store has no public URL of its own, e.g. `https://cards.example.com`. */
  publicUrl: string;
  /** Counts previews per account ({@link PREVIEW_LIMIT}). */
  previewThrottle: Throttle;
  /** Uploads (backgrounds, logos, fonts) and presets, which a generation may name. */
  assets: Assets;
  presets: Presets;
  /** Templates of the user's, which `template` may name (tpl_…). */
  templates: Templates;
  /** Fetches an `imageUrl` SSRF-safely (src/safe-fetch.ts); without it, imageUrl is refused. */
  fetchImage?: ImageFetcher | undefined;
  /** Counts an account's failed `imageUrl` fetches (`FETCH_FAILURES` in request.ts); without it, none are. */
  fetchThrottle?: Throttle | undefined;
  /**
   * Called once an image record is written, from any edge (the `image.created` webhook event);
   * `source` names the batch item that made it. Must not throw.
   */
  onCreated?: (userId: string, image: ImageView, source?: ImageSource) => Promise<void>;
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
  previewThrottle,
  assets,
  presets,
  templates,
  fetchImage,
  fetchThrottle,
  maxInFlight = DEFAULT_MAX_IN_FLIGHT,
  maxWaitMs = DEFAULT_MAX_WAIT_MS,
  onCreated,
  generationQueue,
  logger,
}: ImagesDeps): Images {
  const resolver = createRequestResolver({ assets, presets, templates, fetchImage, fetchThrottle });
  const admission = createAdmission({ renderer, maxInFlight, maxWaitMs });
  const { urlOf, viewOf } = createViews(blobs, publicUrl);
  return {
    ...createGeneration({
      store,
      blobs,
      renderer,
      quota,
      clock,
      admission,
      resolver,
      viewOf,
      onCreated,
      generationQueue,
      logger,
    }),
    ...createPreviews({ store, blobs, renderer, templates, previewThrottle, admission, resolver }),
    ...createImageRecords({ store, blobs, clock, urlOf }),
    ...createPublishedFiles({ store, blobs }),
    prepare: resolver.prepare,
  };
}
