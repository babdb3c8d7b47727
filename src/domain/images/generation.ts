/**
 * Generating images, in the order of images.ts's header: charge → admission (or a worker,
 * GENERATE_ON_WORKERS: handoff.ts) → read the request → validate → render → write the files → write
 * the record last. Files already written are deleted when a later step fails.
 *
 * A charge and its image are one fact, whichever process fails when (issue 44). Every charge is
 * keyed ({@link chargeKeyOf}: the image id; a batch item's own key), so any process may charge or
 * refund the same unit, once; and two rules close the races between processes that share a job (a
 * worker resuming after another took its job over, a serving process giving up while a worker
 * renders):
 *
 * - whoever writes a record settles its key just after: charged (again, past the limit if need be,
 *   when a process that gave up refunded it meanwhile) and marked made good;
 * - whoever fails looks for the record first and settles it when it is there (another process took
 *   the job over); else refunds, then looks again, and settles and answers a record that appeared.
 *
 * So the last step on a key after a record exists is always a settle, and an image is never left
 * uncharged; a charge with no record is refunded by whoever failed, or, when that process died, by
 * the hourly charge sweep (unsettled charges only, so an image deleted later keeps its unit).
 */
import type { Principal } from '../accounts/accounts.js';
import type { Charge, Ledger } from '../accounts/ledger.js';
import { newBlobStem, newId } from '../kernel/ids.js';
import type {
  BlobStore,
  Clock,
  QueuedGeneration,
  QueuedGenerationResult,
  RecordStore,
} from '../kernel/ports.js';
import type { ImageRecord } from '../kernel/records.js';
import type { Admission } from './admission.js';
import { blobKeysOf } from './files.js';
import { createHandoff, type GenerateOne } from './handoff.js';
import type { CardPipeline } from './pipeline.js';
import type { RequestResolver } from './request.js';
import type { Generated, GenerateRequestReader, ImageSource, ImageView } from './types.js';

/** The key an image's charge is made under (the ledger's `charge`): `img:<image id>`. */
export const chargeKeyOf = (imageId: string): string => `img:${imageId}`;

/** The generation use cases. Every method throws the domain's errors only; anything else is a fault. */
export interface Generation {
  /**
   * docs/api.md#generate-options: one generation, in the order of this module's header. Throws
   * QuotaExceededError (nothing left this month, however busy the process), ServiceBusyError (the
   * expected wait for a render too long; nothing charged), ValidationError (bad option or image,
   * field named), FileTooLargeError (image over 10 MB); a fault leaves no record, no file and no
   * charge.
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
    workspace: Principal['workspace'],
    options: Record<string, unknown>,
    ids: { imageId: string; chargeKey: string; source: ImageSource },
  ): Promise<{ image: ImageView; warnings: string[] }>;
  /**
   * A worker's side of a generation handed over (`GENERATE_ON_WORKERS`): renders it, writes its
   * files and its record under `job.imageId`, deletes the upload; the domain error it throws comes
   * back as a result. A retry after a crash finds the record and answers it.
   */
  renderQueued(job: QueuedGeneration): Promise<QueuedGenerationResult>;
  /**
   * The charge sweep (issue 44): refunds the image charges made between `since` and `olderThan`
   * whose image does not exist (their process died between the charge and the record: a crash, a
   * kill, a deploy). A record written meanwhile takes its unit again (this module's rules), so a
   * generation still under way loses nothing. Returns the keys refunded (`img:<id>`), or that would
   * be with `dryRun`. Looks at the ledger's CHARGE_SWEEP_BATCH charges at most.
   */
  sweepCharges(options: { since: Date; olderThan: Date; dryRun?: boolean }): Promise<string[]>;
}

export function createGeneration({
  store,
  blobs,
  pipeline,
  ledger,
  clock,
  admission,
  resolver,
  viewOf,
  onCreated,
}: {
  store: RecordStore;
  blobs: BlobStore;
  pipeline: CardPipeline;
  ledger: Ledger;
  clock: Clock;
  admission: Admission;
  resolver: RequestResolver;
  viewOf: (record: ImageRecord) => ImageView;
  /**
   * Called once an image record is written, from any edge (the `image.created` webhook event);
   * `source` names the batch item that made it. Must not throw.
   */
  onCreated?: ((userId: string, image: ImageView, source?: ImageSource) => Promise<void>) | undefined;
}): Generation {
  /** The answer for a record already written (a retry, a take-over): its view and thumbnail, no report. */
  async function existing(userId: string, id: string): Promise<Generated | undefined> {
    const record = await store.images.findById(userId, id);
    const thumbnail = record && (await blobs.get(record.thumbnailKey));
    if (!record || !thumbnail) return undefined;
    return { image: viewOf(record), thumbnail, report: null };
  }

  /** Render → files → record under `id` (no charge); deletes its files when it fails. */
  async function renderAndRecord(
    principal: Pick<Principal, 'workspace'>,
    read: GenerateRequestReader,
    id: string,
    chargeKey: string,
    source: ImageSource | undefined,
  ): Promise<Generated> {
    let keys: { imageKey: string; thumbnailKey: string } | undefined;
    let recorded: ImageRecord | undefined;
    try {
      // Admitted already (generate) or on a worker, whose capacity is its own.
      const rendered = await pipeline.render(
        principal.workspace.id,
        async () => {
          const { image, imageField, options } = await read();
          return resolver.prepare(principal.workspace.id, image, options, imageField);
        },
        { admitted: false },
      );
      const parsed = rendered.prepared.options;
      keys = blobKeysOf(newBlobStem(), rendered.format);
      const record: ImageRecord = {
        id,
        userId: principal.workspace.id,
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
      recorded = record;
      // The first rule: a process that refunded this key meanwhile (it gave up on the job) has
      // freed the unit; the record takes it again, and the charge is marked made good.
      await ledger.settle(principal.workspace, chargeKey);
      await onCreated?.(record.userId, viewOf(record), source);
      return {
        image: viewOf(record),
        thumbnail: { body: rendered.thumbnail, contentType: rendered.contentType },
        report: rendered.report,
      };
    } catch (err) {
      // A record written stands with its files (afterFailure answers it).
      if (keys && !recorded)
        await Promise.allSettled([blobs.delete(keys.imageKey), blobs.delete(keys.thumbnailKey)]);
      throw err;
    }
  }

  const generateOne: GenerateOne = async (
    principal,
    read,
    id,
    { source, chargeKey = chargeKeyOf(id) } = {},
  ) => {
    const userId = principal.workspace.id;
    const found = await existing(userId, id);
    if (found) return found;
    const charge = await ledger.charge(principal.workspace, chargeKey);
    try {
      return await renderAndRecord(principal, read, id, chargeKey, source);
    } catch (err) {
      return afterFailure(principal, id, chargeKey, charge, err);
    }
  };

  /**
   * After a failure: when the record exists (written by another process that took the job over, or
   * by this one before a later step failed), its charge is settled and it is the answer. Otherwise
   * the second rule: refund `charge`, then look for the record again, and settle and answer it when
   * it appeared meanwhile. Otherwise rethrows `err`.
   */
  async function afterFailure(
    principal: Pick<Principal, 'workspace'>,
    id: string,
    chargeKey: string,
    charge: Charge,
    err: unknown,
  ): Promise<Generated> {
    const userId = principal.workspace.id;
    if (!(await store.images.findById(userId, id))) {
      await ledger.refund(charge);
      if (!(await store.images.findById(userId, id))) throw err;
    }
    await ledger.settle(principal.workspace, chargeKey);
    const answer = await existing(userId, id);
    if (!answer) throw err;
    return answer;
  }

  const handoff = createHandoff({
    store,
    blobs,
    ledger,
    pipeline,
    generateOne,
    existing,
    afterFailure,
    chargeKeyOf,
  });

  return {
    // The quota before the capacity: a caller with no quota left gets the contract's 429 however
    // busy the process is; a unit charged and then refused for capacity is refunded.
    async generate(principal, read, { imageId = newId('img') } = {}) {
      // Rendered on a worker: its capacity is the workers', so no admission here.
      if (pipeline.workers) return handoff.generateOnWorker(principal, read, imageId);
      const found = await existing(principal.workspace.id, imageId);
      if (found) return found;
      const key = chargeKeyOf(imageId);
      const charge = await ledger.charge(principal.workspace, key);
      let admitted = false;
      try {
        return await admission.admitted(principal.workspace.id, () => {
          admitted = true;
          return generateOne(principal, read, imageId);
        });
      } catch (err) {
        // generateOne settled its own failure; a refusal for capacity is refunded here.
        if (admitted) throw err;
        return afterFailure(principal, imageId, key, charge, err);
      }
    },

    async generateItem(workspace, options, { imageId, chargeKey, source }) {
      const generated = await generateOne({ workspace }, async () => ({ options }), imageId, {
        source,
        chargeKey,
      });
      // No report: answered from its record.
      return { image: generated.image, warnings: generated.report?.warnings ?? [] };
    },

    renderQueued: (job) => handoff.renderQueued(job),

    sweepCharges: ({ since, olderThan, dryRun }) =>
      ledger.sweep(
        { prefix: 'img:', since, olderThan, dryRun },
        async ({ userId, key }) =>
          (await store.images.findById(userId, key.slice('img:'.length))) !== undefined,
      ),
  };
}
