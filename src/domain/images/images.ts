/**
 * The image use cases (docs/api.md#generate-options, #endpoints), one service per job, composed
 * here: every edge (REST, MCP, the dashboard) calls these and repeats none of their rules.
 * generation.ts (with handoff.ts for workers), previews.ts, records.ts (the records as the caller
 * sees them), published.ts (public files and the orphan sweep), all making their cards through the
 * one card pipeline (pipeline.ts: admission.ts → request.ts → the renderer), and charging through
 * the charge ledger (accounts/ledger.ts). files.ts names the files.
 *
 * Order of a generation, chosen so that nothing is lost or charged wrongly:
 *   reserve one unit of quota atomically (429 when none is left, before the upload is read or the
 *   image URL fetched) → admission (503 when the expected wait for a render is past
 *   RENDER_MAX_WAIT; the unit refunded) → read the request → validate the options → render (a bad
 *   image is a 400 here) → write the files → write the record last. Any failure after the reservation refunds it,
 *   and files already written are deleted. A crash between the files and the record leaves only
 *   files no record points to, never a record without its files; {@link PublishedFiles.sweepOrphans}
 *   (`titlecard sweep`) removes those. A crash after the reservation leaves a charge without its
 *   image, which {@link Generation.sweepCharges} refunds after an hour (generation.ts).
 */
import type { Ledger } from '../accounts/ledger.js';
import type { Assets } from '../assets/assets.js';
import type {
  BlobStore,
  Clock,
  GenerationQueue,
  ImageFetcher,
  RecordStore,
  Throttle,
} from '../kernel/ports.js';
import type { Presets } from '../presets/presets.js';
import type { Renderer } from '../render/index.js';
import type { Templates } from '../templates/templates.js';
import { createAdmission } from './admission.js';
import { createGeneration, type Generation } from './generation.js';
import { createCardPipeline, type CardPipeline } from './pipeline.js';
import { createPreviews, type Previews } from './previews.js';
import { createPublishedFiles, type PublishedFiles } from './published.js';
import { createImageRecords, createViews, type ImageRecords } from './records.js';
import { createRequestResolver, type RequestResolver } from './request.js';
import type { ImageSource, ImageView } from './types.js';

export type {
  Generated,
  GenerateRequestReader,
  ImageDetail,
  ImagePage,
  ImageSource,
  ImageView,
  PreparedRender,
} from './types.js';
export type { CardPipeline, Generation, ImageRecords, Previews, PublishedFiles, RequestResolver };
export { PREVIEW_LIMIT, PREVIEW_WIDTH, VIEW_QUALITY } from './previews.js';
export { resultOfError } from './handoff.js';

export interface ImagesDeps {
  store: RecordStore;
  blobs: BlobStore;
  renderer: Renderer;
  ledger: Ledger;
  clock: Clock;
  /** Base of file URLs when the blob store has no public URL of its own, e.g. `https://cards.example.com`. */
  publicUrl: string;
  /** Counts previews per account ({@link PREVIEW_LIMIT}). */
  previewThrottle: Throttle;
  /** Uploads (backgrounds, logos, fonts) and presets, which a generation may name. */
  assets: Assets;
  presets: Presets;
  /** Templates of the user's, which `template` may name (tpl_…). */
  templates: Templates;
  /** Fetches an `imageUrl` SSRF-safely (src/adapters/safe-fetch.ts); without it, imageUrl is refused. */
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
   * generation's quota unit refunded (RENDER_CONCURRENCY + RENDER_QUEUE).
   */
  maxInFlight: number;
  /**
   * Longest expected wait for a render a new generation or preview is admitted to, ms: the ones
   * ahead of it × the renderer's recent mean render time ÷ its concurrency. Past it the answer is
   * ServiceBusyError with that wait as its Retry-After (RENDER_MAX_WAIT).
   */
  maxWaitMs: number;
}

/** The image services, each with its own interface. */
export interface ImageServices {
  generation: Generation;
  previews: Previews;
  /** The image records. */
  images: ImageRecords;
  /** The published files. */
  files: PublishedFiles;
  /** A request resolved for the renderer (render links and sites prepare theirs here). */
  requests: RequestResolver;
  /** The one card pipeline (render links and sites make their cards through it). */
  pipeline: CardPipeline;
}

/**
 * The image services over the stores and the renderer (see {@link ImagesDeps}): one admission and
 * one card pipeline for the whole process, shared by every service and by render links and sites.
 */
export function createImageServices({
  store,
  blobs,
  renderer,
  ledger,
  clock,
  publicUrl,
  previewThrottle,
  assets,
  presets,
  templates,
  fetchImage,
  fetchThrottle,
  maxInFlight,
  maxWaitMs,
  onCreated,
  generationQueue,
}: ImagesDeps): ImageServices {
  const requests = createRequestResolver({ assets, presets, templates, fetchImage, fetchThrottle });
  const admission = createAdmission({ renderer, maxInFlight, maxWaitMs });
  const pipeline = createCardPipeline({ renderer, admission, queue: generationQueue });
  const { urlOf, viewOf } = createViews(blobs, publicUrl);
  return {
    generation: createGeneration({
      store,
      blobs,
      pipeline,
      ledger,
      clock,
      admission,
      resolver: requests,
      viewOf,
      onCreated,
    }),
    previews: createPreviews({ store, blobs, pipeline, templates, previewThrottle, resolver: requests }),
    images: createImageRecords({ store, blobs, clock, urlOf }),
    files: createPublishedFiles({ store, blobs }),
    requests,
    pipeline,
  };
}
