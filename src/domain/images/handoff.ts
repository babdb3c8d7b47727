/**
 * Generations handed to workers (`GENERATE_ON_WORKERS`, src/adapters/queue.ts): the serving process's side
 * ({@link Handoff.generateOnWorker}: the charge, the request read, the upload put in the blob store,
 * the worker awaited) and the worker's ({@link Handoff.renderQueued}: the render, the files and the
 * record, under the image id the serving process chose, so a retried job finds it).
 *
 * Both sides charge the same key (generation.ts {@link chargeKeyOf}), so the unit is one. The
 * serving process answers 201 once the record exists, whether or not the queue's completion event
 * arrived; it answers an error only when no worker will make the image (the job withdrawn from the
 * queue, or failed), or when it cannot tell (the queue unreachable past the wait): then it refunds,
 * and a worker that writes the record later charges it again (generation.ts's first rule).
 */
import { readFile } from 'node:fs/promises';
import type { Principal } from '../accounts/accounts.js';
import type { Charge, Ledger } from '../accounts/ledger.js';
import { NotFoundError, TitlecardError, ValidationError } from '../kernel/errors.js';
import { ID_BODY, newBlobStem } from '../kernel/ids.js';
import type { BlobStore, QueuedGeneration, QueuedGenerationResult, RecordStore } from '../kernel/ports.js';
import type { CardPipeline } from './pipeline.js';
import type { Generated, GenerateRequestReader, ImageSource } from './types.js';

/**
 * One charged generation (generation.ts): read → validate → render → files → record, under `id`,
 * its unit charged once under `chargeKey` (default generation.ts `chargeKeyOf(id)`). When a record
 * with `id` exists (a retry; another process's take-over) it answers that record (`report` null)
 * without rendering. Throws the domain's errors (QuotaExceededError; a bad option or image:
 * ValidationError); leaves no file and no charge when it fails.
 */
export type GenerateOne = (
  principal: Pick<Principal, 'workspace'>,
  read: GenerateRequestReader,
  id: string,
  options?: { source?: ImageSource; chargeKey?: string },
) => Promise<Generated>;

/** An upload on its way to a worker: deleted once rendered, else by the orphan sweep (published.ts). */
export const HANDOFF_KEY_PATTERN = new RegExp(`^${ID_BODY}_upload\\.bin$`);

/** A domain error a worker threw, as the result the serving process reads back (kernel/errors.ts `errorOf`). */
export function resultOfError(err: TitlecardError): QueuedGenerationResult {
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

export interface Handoff {
  /**
   * Charges `imageId`'s key and renders the generation on a worker; deletes the upload when it
   * fails. Throws as generation.ts `generate`, and ServiceBusyError or ServiceUnavailableError from the
   * queue (src/adapters/queue.ts), refunded.
   */
  generateOnWorker(principal: Principal, read: GenerateRequestReader, imageId: string): Promise<Generated>;
  /** The worker's side: the domain error it throws comes back as a result. */
  renderQueued(job: QueuedGeneration): Promise<QueuedGenerationResult>;
}

export interface HandoffDeps {
  store: RecordStore;
  blobs: BlobStore;
  ledger: Ledger;
  /** The card pipeline, whose workers render the generation (`onWorker`). */
  pipeline: Pick<CardPipeline, 'onWorker'>;
  /** generation.ts's charged generation (read → validate → render → files → record). */
  generateOne: GenerateOne;
  /** The answer for a record already written; undefined when there is none. */
  existing: (userId: string, id: string) => Promise<Generated | undefined>;
  /** generation.ts's second rule: refund, then answer a record another process wrote, or rethrow. */
  afterFailure: (
    principal: Pick<Principal, 'workspace'>,
    id: string,
    chargeKey: string,
    charge: Charge,
    err: unknown,
  ) => Promise<Generated>;
  chargeKeyOf: (imageId: string) => string;
}

export function createHandoff({
  store,
  blobs,
  ledger,
  pipeline,
  generateOne,
  existing,
  afterFailure,
  chargeKeyOf,
}: HandoffDeps): Handoff {
  async function generateOnWorker(
    principal: Principal,
    read: GenerateRequestReader,
    imageId: string,
  ): Promise<Generated> {
    const userId = principal.workspace.id;
    const found = await existing(userId, imageId);
    if (found) return found;
    const key = chargeKeyOf(imageId);
    const charge = await ledger.charge(principal.workspace, key);
    let uploadKey: string | null = null;
    try {
      const { image, imageField, options } = await read();
      if (image !== undefined) {
        uploadKey = `${newBlobStem()}_upload.bin`;
        const bytes = Buffer.isBuffer(image) ? image : await readFile(image.path);
        await blobs.put(uploadKey, bytes, 'application/octet-stream');
      }
      const report = await pipeline.onWorker(
        {
          userId,
          options: (options ?? {}) as Record<string, unknown>,
          uploadKey,
          imageField: imageField ?? 'image',
          imageId,
        },
        // The record is the answer, even when the queue lost the worker's completion event.
        async () => (await store.images.findById(userId, imageId)) !== undefined,
      );
      const made = await existing(userId, imageId);
      if (!made) throw new Error(`the worker's image ${imageId} has no record or thumbnail`);
      // The worker's report, as it sent it through the queue (null when answered by the record).
      return { ...made, report: (report ?? null) as Generated['report'] };
    } catch (err) {
      if (uploadKey) await blobs.delete(uploadKey).catch(() => undefined);
      return afterFailure(principal, imageId, key, charge, err);
    }
  }

  async function renderQueued(job: QueuedGeneration): Promise<QueuedGenerationResult> {
    if (await store.images.findById(job.userId, job.imageId)) return { ok: true, report: null };
    const workspace = await store.workspaces.find(job.userId);
    try {
      if (!workspace) throw new NotFoundError('The workspace of this generation no longer exists');
      const upload = job.uploadKey ? await blobs.get(job.uploadKey) : undefined;
      if (job.uploadKey && !upload) throw new Error(`the upload ${job.uploadKey} is missing`);
      // The serving process's key: charged already unless it gave up meanwhile; refunded on failure.
      const generated = await generateOne(
        { workspace },
        async () => ({ image: upload?.body, imageField: job.imageField, options: job.options }),
        job.imageId,
      );
      if (job.uploadKey) await blobs.delete(job.uploadKey);
      return { ok: true, report: generated.report };
    } catch (err) {
      if (!(err instanceof TitlecardError)) throw err;
      if (job.uploadKey) await blobs.delete(job.uploadKey).catch(() => undefined);
      return resultOfError(err);
    }
  }

  return { generateOnWorker, renderQueued };
}
