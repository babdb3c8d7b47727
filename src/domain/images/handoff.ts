/**
 * Generations handed to workers (`GENERATE_ON_WORKERS`, src/queue.ts): the serving process's side
 * ({@link Handoff.generateOnWorker}: charge already made, the request read, the upload put in the
 * blob store, the worker awaited) and the worker's ({@link Handoff.renderQueued}: the render, the
 * files and the record, under the image id the serving process chose, so a retried job finds it).
 */
import { readFile } from 'node:fs/promises';
import type { Principal } from '../accounts/accounts.js';
import { errorOf, NotFoundError, TitlecardError, ValidationError } from '../kernel/errors.js';
import { ID_BODY, newBlobStem, newId } from '../kernel/ids.js';
import type {
  BlobStore,
  GenerationQueue,
  QueuedGeneration,
  QueuedGenerationResult,
  RecordStore,
} from '../kernel/ports.js';
import type { ImageRecord } from '../kernel/records.js';
import type { RenderReport } from './schemas.js';
import type { GenerateOne } from './generation.js';
import type { Generated, GenerateRequestReader, ImageView } from './images.js';

/** An upload on its way to a worker: deleted once rendered, else by the orphan sweep (images.ts). */
export const HANDOFF_KEY_PATTERN = new RegExp(`^${ID_BODY}_upload\\.bin$`);

export interface Handoff {
  /**
   * Renders a generation on a worker (its charge is the caller's, quota.withCharge); deletes the
   * upload when it fails.
   */
  generateOnWorker(
    principal: Principal,
    read: GenerateRequestReader,
    queue: GenerationQueue,
  ): Promise<Generated>;
  /** The worker's side: the domain error it throws comes back as a result. */
  renderQueued(job: QueuedGeneration): Promise<QueuedGenerationResult>;
}

export interface HandoffDeps {
  store: RecordStore;
  blobs: BlobStore;
  /** generation.ts's generation after the charge (read → validate → render → files → record). */
  generateOne: GenerateOne;
  viewOf: (record: ImageRecord) => ImageView;
}

export function createHandoff({ store, blobs, generateOne, viewOf }: HandoffDeps): Handoff {
  async function generateOnWorker(
    principal: Principal,
    read: GenerateRequestReader,
    queue: GenerationQueue,
  ): Promise<Generated> {
    let uploadKey: string | null = null;
    try {
      const { image, imageField, options } = await read();
      if (image !== undefined) {
        uploadKey = `${newBlobStem()}_upload.bin`;
        const bytes = Buffer.isBuffer(image) ? image : await readFile(image.path);
        await blobs.put(uploadKey, bytes, 'application/octet-stream');
      }
      const imageId = newId('img');
      const result = await queue.run({
        userId: principal.user.id,
        options: (options ?? {}) as Record<string, unknown>,
        uploadKey,
        imageField: imageField ?? 'image',
        imageId,
      });
      if (!result.ok) throw errorOf(result.error);
      const record = await store.images.findById(principal.user.id, imageId);
      const thumbnail = record && (await blobs.get(record.thumbnailKey));
      if (!record || !thumbnail) throw new Error(`the worker's image ${imageId} has no record or thumbnail`);
      return { image: viewOf(record), thumbnail, report: result.report as RenderReport };
    } catch (err) {
      if (uploadKey) await blobs.delete(uploadKey).catch(() => undefined);
      throw err;
    }
  }

  async function renderQueued(job: QueuedGeneration): Promise<QueuedGenerationResult> {
    const existing = await store.images.findById(job.userId, job.imageId);
    if (existing) return { ok: true, report: null };
    const user = await store.users.findById(job.userId);
    try {
      if (!user) throw new NotFoundError('The account of this generation no longer exists');
      const upload = job.uploadKey ? await blobs.get(job.uploadKey) : undefined;
      if (job.uploadKey && !upload) throw new Error(`the upload ${job.uploadKey} is missing`);
      const generated = await generateOne(
        { user },
        // The serving process charged, and refunds if this fails.
        async () => ({ image: upload?.body, imageField: job.imageField, options: job.options }),
        job.imageId,
      );
      if (job.uploadKey) await blobs.delete(job.uploadKey);
      return { ok: true, report: generated.report };
    } catch (err) {
      if (!(err instanceof TitlecardError)) throw err;
      if (job.uploadKey) await blobs.delete(job.uploadKey).catch(() => undefined);
      return {
        ok: false,
        error: {
          code: err.code,
          message: err.message,
          field: err instanceof ValidationError ? err.field : null,
          constraint: err instanceof ValidationError ? err.constraint : null,
        },
      };
    }
  }

  return { generateOnWorker, renderQueued };
}
