/**
 * Batches: many generations from one request (`POST /batches`), rendered in the background by the
 * runner (runner.ts), with their progress, their images and a zip of them.
 *
 * - Every item is validated when the batch is made, as `/generate` would validate it (its preset,
 *   asset, font and options; an `imageUrl` is fetched only when rendered): a bad item refuses the
 *   whole batch with its index in `field` (`items[7].title`), before anything is stored or charged.
 * - Each item charges one unit when it is rendered, once (a keyed charge, the ledger's `charge`, accounts/ledger.ts),
 *   and records its image under an id derived from the batch and its index: a retry after a crash
 *   finds the record or the charge the first try made. An item past the quota fails on its own with
 *   `QUOTA_EXCEEDED`; the others go on.
 * - The batch's state is in the record store, so it survives a restart: a claim not renewed for
 *   {@link CLAIM_STALE_MS} is taken over by the next runner.
 */
import type { Readable } from 'node:stream';
import type { z } from 'zod';
import type { Principal } from '../accounts/accounts.js';
import { assertConfirmed } from '../accounts/confirmation.js';
import { FILE_TYPES } from '../design.js';
import type { ImageRecords } from '../images/images.js';
import { NotFoundError, TooManyAttemptsError, ValidationError } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import type { BlobStore, Clock, RecordStore } from '../kernel/ports.js';
import type { Batch, BatchItem, BatchItemStatus } from '../kernel/records.js';
import { parseOrThrow } from '../kernel/validate.js';
import { mergeFields } from '../render/index.js';
import type { Templates } from '../templates/templates.js';
import type { Assets } from '../assets/assets.js';
import type { Presets } from '../presets/presets.js';
import { generateOptionsSchema } from '../images/schemas.js';
import { isTemplateId } from '../schemas.js';
import type { batchSchema, batchDetailSchema } from './schemas.js';
import { BATCH_ITEM_FIELDS, batchBodySchema } from './schemas.js';

/** A running item's claim not renewed for this long is taken over (its runner died), ms. */
export const CLAIM_STALE_MS = 10_000;
/** Batches listed by `GET /batches`: the newest. */
export const BATCHES_LISTED = 100;
/**
 * Batches an account keeps (ours, issue 41): making one removes the oldest finished ones past this
 * (their items; the images stay in `GET /images`), so `GET /batches` lists all that are kept.
 */
export const BATCHES_KEPT = 100;
/**
 * Batches of one account not yet finished (ours, issue 41): one more is refused with 429
 * `RATE_LIMITED` until one finishes or is cancelled. Items render in turn, so more would only wait.
 */
export const BATCHES_UNFINISHED = 10;
/** The `Retry-After` of that refusal, seconds: about the time a batch of a few dozen items takes. */
const UNFINISHED_RETRY_SECONDS = 60;

export type BatchView = z.infer<typeof batchSchema>;
export type BatchDetail = z.infer<typeof batchDetailSchema>;

/** A file of the zip archive: its name in the archive and its bytes, streamed. */
export interface ArchiveEntry {
  name: string;
  open: () => Promise<Readable | undefined>;
}

export interface Batches {
  /**
   * `POST /batches`: validates every item (ValidationError with `items[i].field`), stores the
   * batch and wakes the runner. Nothing is charged until an item renders.
   */
  create(principal: Principal, body: unknown): Promise<BatchView & { webhookSecret?: string }>;
  /**
   * Whether `principal` may make batches at all (a confirmed email), checked before a CSV upload is
   * read: ForbiddenError (403) otherwise. `create` checks it too.
   */
  admit(principal: Principal): void;
  /** A batch as the API shows it (the `batch.completed` event's data). */
  viewOf(batch: Batch): Promise<BatchView>;
  /** `GET /batches`: the {@link BATCHES_LISTED} newest. */
  list(principal: Principal): Promise<BatchView[]>;
  /** `GET /batches/{id}`: progress and every item. NotFoundError. */
  get(principal: Principal, id: string): Promise<BatchDetail>;
  /** `DELETE /batches/{id}`: the items not started are cancelled (never charged). NotFoundError. */
  cancel(principal: Principal, id: string): Promise<BatchView>;
  /** `GET /batches/{id}/archive`: the finished images, named `0007-title.png`. NotFoundError. */
  archive(principal: Principal, id: string): Promise<ArchiveEntry[]>;
  /** Deletes a user's batches (account deletion; their images go with the images'). */
  deleteAllOf(userId: string): Promise<void>;
}

export interface BatchesDeps {
  store: RecordStore;
  blobs: BlobStore;
  clock: Clock;
  images: Pick<ImageRecords, 'get'>;
  assets: Pick<Assets, 'imageRecordOf' | 'fontRecordOf'>;
  presets: Pick<Presets, 'use'>;
  /** Checks an item's template of the user's and its fields, as a generation fills them. */
  templates: Pick<Templates, 'design'>;
  /** Called with a new batch's items once stored: the runner looks for work, or a queue takes them. */
  enqueue: (items: { batchId: string; index: number }[]) => Promise<void>;
  /** Called when a cancel completes a batch (its `batch.completed` event). */
  completed: (batch: Batch) => Promise<void>;
  /** The secret that signs a batch's own `webhookUrl` deliveries (webhooks.ts). */
  webhookSecret: (batchId: string) => string;
}

/** A batch's status from its record and item counts. */
export function statusOf(batch: Batch, counts: Record<BatchItemStatus, number>): BatchView['status'] {
  // A cancelled batch is `running` until the items it had started finish.
  if (batch.completedAt) return batch.cancelledAt ? 'cancelled' : 'completed';
  return counts.queued === batch.total ? 'queued' : 'running';
}

const slug = (title: string) =>
  title
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60)
    .toLowerCase() || 'image';

export function createBatches(deps: BatchesDeps): Batches {
  const { store, clock, images, assets, presets, templates } = deps;

  /** Checks one item as `/generate` would, without fetching or rendering; fields named from `items[i]`. */
  async function checkItem(userId: string, item: Record<string, unknown>, index: number): Promise<void> {
    const at = `items[${index}]`;
    try {
      const unknown = Object.keys(item).find((key) => !BATCH_ITEM_FIELDS.includes(key));
      if (unknown !== undefined)
        throw new ValidationError(
          unknown.slice(0, 60),
          'enum',
          `Unknown field ${JSON.stringify(unknown.slice(0, 60))}: expected the fields of POST /generate (${BATCH_ITEM_FIELDS.join(', ')})`,
        );
      const { preset: presetId, asset, imageUrl, ...own } = item;
      const preset = presetId === undefined ? undefined : await presets.use(userId, presetId, 'preset');
      const sources = [
        ...(asset !== undefined ? ['asset'] : []),
        ...(imageUrl !== undefined ? ['imageUrl'] : []),
      ];
      if (sources.length > 1)
        throw new ValidationError(
          'imageUrl',
          'type',
          'Expected one background: give only one of asset and imageUrl',
        );
      if (sources.length === 0 && !preset?.backgroundAssetId)
        throw new ValidationError(
          'asset',
          'required',
          'Expected asset or imageUrl, or a preset with a background (a batch item has no upload)',
        );
      if (asset !== undefined) {
        if (typeof asset !== 'string')
          throw new ValidationError('asset', 'type', 'Expected an asset id (ast_…) for asset');
        await assets.imageRecordOf(userId, asset, 'asset');
      }
      if (imageUrl !== undefined && (typeof imageUrl !== 'string' || !/^https?:\/\/\S+$/.test(imageUrl)))
        throw new ValidationError('imageUrl', 'format', 'Expected an http or https URL for imageUrl');
      const fields = mergeFields(preset?.options.fields, own.fields);
      const parsed = parseOrThrow(generateOptionsSchema, {
        ...(preset?.options ?? {}),
        ...own,
        ...(fields === undefined ? {} : { fields }),
      });
      if (typeof parsed.font === 'object') await assets.fontRecordOf(userId, parsed.font.custom);
      // A template of the user's, filled as the render will fill it (its images are read then).
      if (isTemplateId(parsed.template))
        await templates.design(
          userId,
          parsed.template,
          { title: parsed.title, subtitle: parsed.subtitle, fields: parsed.fields },
          { images: false },
        );
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      throw new ValidationError(`${at}.${err.field}`, err.constraint, `${at}: ${err.message}`);
    }
  }

  async function view(batch: Batch): Promise<BatchView> {
    const counts = await store.batches.counts(batch.id);
    return {
      id: batch.id,
      status: statusOf(batch, counts),
      total: batch.total,
      done: counts.done,
      failed: counts.failed,
      cancelled: counts.cancelled,
      webhookUrl: batch.webhookUrl,
      createdAt: batch.createdAt.toISOString(),
      completedAt: batch.completedAt?.toISOString() ?? null,
    };
  }

  async function owned(principal: Principal, id: string): Promise<Batch> {
    const batch = await store.batches.find(principal.workspace.id, id);
    if (!batch) throw new NotFoundError(`No batch with id ${id} on this account`);
    return batch;
  }

  return {
    admit(principal) {
      assertConfirmed(principal.user, 'make batches');
    },

    async create(principal, body) {
      const { items, webhookUrl } = parseOrThrow(batchBodySchema, body ?? {});
      assertConfirmed(principal.user, 'make batches');
      const userId = principal.workspace.id;
      const kept = await store.batches.list(userId, 2 * BATCHES_KEPT);
      if (kept.filter((b) => !b.completedAt).length >= BATCHES_UNFINISHED)
        throw new TooManyAttemptsError(
          UNFINISHED_RETRY_SECONDS,
          `batches under way (at most ${BATCHES_UNFINISHED}; cancel one with DELETE /batches/{id} or wait until one finishes)`,
        );
      for (const [i, item] of items.entries()) await checkItem(userId, item, i);
      const batch: Batch = {
        id: newId('bat'),
        userId,
        total: items.length,
        webhookUrl: webhookUrl ?? null,
        createdAt: clock.now(),
        completedAt: null,
        cancelledAt: null,
      };
      await store.batches.create(
        batch,
        items.map((options, index) => ({
          batchId: batch.id,
          userId,
          index,
          options,
          status: 'queued',
          imageId: null,
          error: null,
          claimedAt: null,
        })),
      );
      await deps.enqueue(Array.from({ length: batch.total }, (_, index) => ({ batchId: batch.id, index })));
      // The oldest finished batches past BATCHES_KEPT (the new one counted) go.
      const finished = kept.filter((b) => b.completedAt);
      const over = kept.length + 1 - BATCHES_KEPT;
      for (const old of over > 0 ? finished.slice(-over) : [])
        await store.batches.removeFinished(userId, old.id);
      return {
        ...(await view(batch)),
        ...(batch.webhookUrl ? { webhookSecret: deps.webhookSecret(batch.id) } : {}),
      };
    },

    viewOf: view,

    async list(principal) {
      return Promise.all((await store.batches.list(principal.workspace.id, BATCHES_LISTED)).map(view));
    },

    async get(principal, id) {
      const batch = await owned(principal, id);
      const items = await store.batches.items(batch.id);
      return {
        ...(await view(batch)),
        items: await Promise.all(
          items.map(async (item: BatchItem) => {
            const image = item.imageId
              ? await images.get(principal, item.imageId).catch(() => undefined)
              : undefined;
            return {
              index: item.index,
              status: item.status,
              image: image
                ? {
                    id: image.id,
                    url: image.url,
                    thumbnailUrl: image.thumbnailUrl,
                    width: image.width,
                    height: image.height,
                  }
                : null,
              error: item.error,
              warnings: item.warnings ?? [],
            };
          }),
        ),
      };
    },

    async cancel(principal, id) {
      await owned(principal, id);
      const at = clock.now();
      await store.batches.cancel(principal.workspace.id, id, at);
      // With nothing running, cancelling completes it now; else the last running item does.
      if (await store.batches.complete(id, at)) await deps.completed(await owned(principal, id));
      return view(await owned(principal, id));
    },

    async archive(principal, id) {
      const batch = await owned(principal, id);
      const entries: ArchiveEntry[] = [];
      for (const item of await store.batches.items(batch.id)) {
        if (item.status !== 'done' || !item.imageId) continue;
        const record = await store.images.findById(principal.workspace.id, item.imageId);
        if (!record) continue; // deleted since
        const name = `${String(item.index).padStart(4, '0')}-${slug(record.title)}.${FILE_TYPES[record.format].extension}`;
        entries.push({ name, open: () => deps.blobs.open(record.imageKey) });
      }
      return entries;
    },

    async deleteAllOf(userId) {
      await store.batches.deleteAllForUser(userId);
    },
  };
}
