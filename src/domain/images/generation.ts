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
import type { Logger } from 'pino';
import type { Charge, Quota } from '../accounts/quota.js';
import { newBlobStem, newId } from '../kernel/ids.js';
import type { BlobStore, Clock, GenerationQueue, RecordStore } from '../kernel/ports.js';
import type { ImageRecord } from '../kernel/records.js';
import type { Renderer } from '../render/index.js';
import type { Admission } from './admission.js';
import { blobKeysOf } from './files.js';
import { createHandoff } from './handoff.js';
import type {
  Generated,
  GenerateRequestReader,
  Images,
  ImagesDeps,
  ImageSource,
  ImageView,
} from './images.js';
import type { RequestResolver } from './request.js';

/** Charges the charge sweep looks at in one run (the oldest of its window first). */
export const CHARGE_SWEEP_BATCH = 5000;

/** The key an image's charge is made under (quota.chargeOnce): `img:<image id>`. */
export const chargeKeyOf = (imageId: string): string => `img:${imageId}`;

/**
 * One charged generation: read → validate → render → files → record, under `id`, its unit charged
 * once under `chargeKey` (default {@link chargeKeyOf}`(id)`). When a record with `id` exists (a
 * retry; another process's take-over) it answers that record (`report` null) without rendering.
 * Throws the domain's errors (QuotaExceededError; a bad option or image: ValidationError); leaves no
 * file and no charge when it fails.
 */
export type GenerateOne = (
  principal: Principal,
  read: GenerateRequestReader,
  id: string,
  options?: { source?: ImageSource; chargeKey?: string },
) => Promise<Generated>;

export function createGeneration({
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
}: {
  store: RecordStore;
  blobs: BlobStore;
  renderer: Renderer;
  quota: Quota;
  clock: Clock;
  admission: Admission;
  resolver: RequestResolver;
  viewOf: (record: ImageRecord) => ImageView;
  onCreated: ImagesDeps['onCreated'];
  generationQueue: GenerationQueue | undefined;
  logger?: Logger;
}): Pick<Images, 'generate' | 'generateItem' | 'renderQueued' | 'sweepCharges'> {
  /** The answer for a record already written (a retry, a take-over): its view and thumbnail. */
  async function existing(userId: string, id: string): Promise<Generated | undefined> {
    const record = await store.images.findById(userId, id);
    const thumbnail = record && (await blobs.get(record.thumbnailKey));
    if (!record || !thumbnail) return undefined;
    return { image: viewOf(record), thumbnail, report: null as unknown as Generated['report'] };
  }

  /** Render → files → record under `id` (no charge); deletes its files when it fails. */
  async function renderAndRecord(
    principal: Principal,
    read: GenerateRequestReader,
    id: string,
    chargeKey: string,
    source: ImageSource | undefined,
  ): Promise<Generated> {
    let keys: { imageKey: string; thumbnailKey: string } | undefined;
    let recorded: ImageRecord | undefined;
    try {
      const { image, imageField, options } = await read();
      const prepared = await resolver.prepare(principal.user.id, image, options, imageField);
      const parsed = prepared.options;
      const rendered = await renderer.render(prepared.input, parsed, { account: principal.user.id });
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
      recorded = record;
      // The first rule: a process that refunded this key meanwhile (it gave up on the job) has
      // freed the unit; the record takes it again, and the charge is marked made good.
      await quota.settle(principal.user, chargeKey);
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
    const userId = principal.user.id;
    const found = await existing(userId, id);
    if (found) return found;
    const charge = await quota.chargeOnce(principal.user, chargeKey);
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
    principal: Principal,
    id: string,
    chargeKey: string,
    charge: Charge,
    err: unknown,
  ): Promise<Generated> {
    const userId = principal.user.id;
    if (!(await store.images.findById(userId, id))) {
      await quota
        .refund(charge)
        .catch((e: unknown) => logger?.error({ err: e, charge }, 'quota refund failed'));
      if (!(await store.images.findById(userId, id))) throw err;
    }
    await quota.settle(principal.user, chargeKey);
    const answer = await existing(userId, id);
    if (!answer) throw err;
    return answer;
  }

  const handoff = createHandoff({ store, blobs, quota, generateOne, existing, afterFailure, chargeKeyOf });

  return {
    // The quota before the capacity: a caller with no quota left gets the contract's 429 however
    // busy the process is; a unit charged and then refused for capacity is refunded.
    async generate(principal, read, { imageId = newId('img') } = {}) {
      // Rendered on a worker: its capacity is the workers', so no admission here.
      if (generationQueue) return handoff.generateOnWorker(principal, read, generationQueue, imageId);
      const found = await existing(principal.user.id, imageId);
      if (found) return found;
      const key = chargeKeyOf(imageId);
      const charge = await quota.chargeOnce(principal.user, key);
      let admitted = false;
      try {
        return await admission.admitted(principal.user.id, () => {
          admitted = true;
          return generateOne(principal, read, imageId);
        });
      } catch (err) {
        // generateOne settled its own failure; a refusal for capacity is refunded here.
        if (admitted) throw err;
        return afterFailure(principal, imageId, key, charge, err);
      }
    },

    async generateItem(user, options, { imageId, chargeKey, source }) {
      const generated = await generateOne({ user }, async () => ({ options }), imageId, {
        source,
        chargeKey,
      });
      const report = generated.report as Generated['report'] | null; // null: answered from its record
      return { image: generated.image, warnings: report?.warnings ?? [] };
    },

    renderQueued: (job) => handoff.renderQueued(job),

    async sweepCharges({ since, olderThan, dryRun = false }) {
      const refunded: string[] = [];
      for (const charge of await store.usage.keyedBetween('img:', since, olderThan, CHARGE_SWEEP_BATCH)) {
        const id = charge.key.slice('img:'.length);
        if (await store.images.findById(charge.userId, id)) continue;
        refunded.push(charge.key);
        if (dryRun) continue;
        await store.usage.refund(charge.userId, charge.month, charge.receipt, charge.key);
        // The second rule: a record written meanwhile takes its unit again.
        if (!(await store.images.findById(charge.userId, id))) continue;
        refunded.pop();
        const user = await store.users.findById(charge.userId);
        if (user) await quota.settle(user, charge.key);
      }
      return refunded;
    },
  };
}
