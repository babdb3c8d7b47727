/**
 * The batch runner: renders batch items in the background, in every process that serves (the
 * embedded default's queue is the record store itself, durable in SQLite; scaled out, processes
 * sharing MongoDB share the work).
 *
 * - It claims the oldest waiting item (batches.ts, `claimNext`), up to `concurrency` at once (the
 *   renderer's, so a batch keeps every core busy and synchronous requests queue beside it), at most
 *   half of them (at least one) for one account: an account whose items wait on slow image hosts
 *   leaves the other slots to the other accounts' items, whatever the age of its batch; and
 *   renews its claims every {@link RENEW_MS}; an item whose claim is older than CLAIM_STALE_MS is
 *   taken over, so a killed process loses nothing.
 * - An item's result: `done` with its image, or `failed` with the error `/generate` would answer
 *   (`QUOTA_EXCEEDED` past the quota). A fault that is not the item's (the store down) leaves it
 *   claimed, to be retried after the stale time.
 * - When a batch's last item finishes, `completed` is called once (the `batch.completed` event).
 */
import type { Logger } from 'pino';
import { TitlecardError, ValidationError } from '../kernel/errors.js';
import { derivedId } from '../kernel/ids.js';
import type { Clock, RecordStore } from '../kernel/ports.js';
import type { Batch, BatchItem } from '../kernel/records.js';
import type { Generation } from '../images/images.js';
import { createTally } from '../kernel/tally.js';
import { CLAIM_STALE_MS } from './batches.js';

/** How often a runner renews the claims of its items, ms (well under CLAIM_STALE_MS). */
export const RENEW_MS = 2000;
/** How long an idle runner waits before looking for work again, ms (a new batch wakes it at once). */
export const IDLE_MS = 500;

/**
 * Renders one claimed item and records how it ended (see the module comment). Answers false when
 * a fault that is not the item's left it claimed (to be retried), true otherwise.
 */
export type ItemProcessor = (item: BatchItem) => Promise<boolean>;

export interface BatchRunner {
  /** Starts looking for work; idempotent. */
  start(): void;
  /** Looks for work now (a batch was just made). */
  wake(): void;
  /** Stops claiming, waits for the items in hand to finish. */
  stop(): Promise<void>;
}

export interface ItemProcessorDeps {
  store: RecordStore;
  clock: Clock;
  logger: Logger;
  generation: Pick<Generation, 'generateItem'>;
  /** Called once when a batch's last item finished (the `batch.completed` event). */
  completed(batch: Batch): Promise<void>;
}

export interface BatchRunnerDeps {
  store: RecordStore;
  clock: Clock;
  logger: Logger;
  /** Renders a claimed item ({@link createItemProcessor}); a queue's workers use the same one. */
  process: ItemProcessor;
  /** Items rendered at once (the renderer's concurrency). */
  concurrency: number;
}

export function createItemProcessor(deps: ItemProcessorDeps): ItemProcessor {
  const { store, clock, logger, generation } = deps;
  return async (item) => {
    const key = `${item.batchId}:${item.index}`;
    try {
      const workspace = await store.workspaces.find(item.userId);
      if (!workspace)
        throw new ValidationError('batch', 'format', 'The workspace of this batch no longer exists');
      const { image, warnings } = await generation.generateItem(workspace, item.options, {
        imageId: derivedId('img', key),
        chargeKey: key,
        source: { batchId: item.batchId, index: item.index },
      });
      await store.batches.finishItem(item.batchId, item.index, {
        status: 'done',
        imageId: image.id,
        warnings,
      });
    } catch (err) {
      if (!(err instanceof TitlecardError)) {
        logger.error(
          { err, batchId: item.batchId, index: item.index },
          'batch item failed; it will be retried',
        );
        return false;
      }
      await store.batches.finishItem(item.batchId, item.index, {
        status: 'failed',
        error: {
          code: err.code,
          message: err.message,
          field: err instanceof ValidationError ? err.field : null,
        },
      });
    }
    if (await store.batches.complete(item.batchId, clock.now())) {
      const batch = await store.batches.find(item.userId, item.batchId);
      if (batch) await deps.completed(batch);
    }
    return true;
  };
}

export function createBatchRunner(deps: BatchRunnerDeps): BatchRunner {
  const { store, clock, logger, process: run } = deps;
  const inHand = new Map<string, BatchItem>();
  /** Items in hand per account, and the most one account may have: half the runner, at least one. */
  const perAccount = createTally();
  const perAccountMax = Math.max(1, Math.floor(deps.concurrency / 2));
  let running = false;
  let loop: Promise<void> | undefined;
  let wakeUp: (() => void) | undefined;
  let renewTimer: NodeJS.Timeout | undefined;

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      // Unref'd: an idle runner does not keep a process alive (stdio MCP exits when its client leaves).
      const timer = setTimeout(resolve, ms).unref();
      wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  async function work(): Promise<void> {
    while (running) {
      if (inHand.size >= deps.concurrency) {
        await pause(IDLE_MS);
        continue;
      }
      let item: BatchItem | undefined;
      try {
        const now = clock.now();
        const busy = perAccount.atLeast(perAccountMax);
        item = await store.batches.claimNext(now, new Date(now.getTime() - CLAIM_STALE_MS), busy);
      } catch (err) {
        logger.error({ err }, 'batch runner could not claim an item');
      }
      if (!item) {
        await pause(IDLE_MS);
        continue;
      }
      const key = `${item.batchId}:${item.index}`;
      inHand.set(key, item);
      const done = perAccount.start(item.userId);
      void run(item)
        .catch((err: unknown) => logger.error({ err, key }, 'batch item crashed'))
        .finally(() => {
          inHand.delete(key);
          done();
          wakeUp?.();
        });
    }
  }

  return {
    start() {
      if (running) return;
      running = true;
      loop = work();
      renewTimer = setInterval(() => {
        if (inHand.size === 0) return;
        store.batches
          .renew([...inHand.values()], clock.now())
          .catch((err: unknown) => logger.error({ err }, 'batch claims not renewed'));
      }, RENEW_MS);
      renewTimer.unref();
    },
    wake() {
      wakeUp?.();
    },
    async stop() {
      running = false;
      clearInterval(renewTimer);
      wakeUp?.();
      await loop;
      while (inHand.size > 0) await new Promise((resolve) => setTimeout(resolve, 50));
    },
  };
}
