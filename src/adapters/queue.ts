/**
 * Batch items on a real queue when one machine is not enough (`QUEUE=redis`): BullMQ on the Redis of
 * REDIS_URL. Serving processes enqueue a batch's items (one job per item, id `batchId-index`, so an
 * item is never enqueued twice); `titlecard worker` processes take them, claim the item in the record
 * store and render it (src/domain/batches/runner.ts), so render capacity scales apart from the API.
 *
 * A worker killed mid-render holds its jobs' locks no longer: after the lock's duration
 * (`QUEUE_LOCK_SECONDS`, default 30) BullMQ's stalled-job check puts them back, and another worker
 * finishes them, charged once (the keyed charge and the derived image id). A fault that is not the
 * item's (the store down) fails the job, which BullMQ retries 5 times with exponential backoff.
 *
 * A job that runs out of retries (the store away longer than its backoff) leaves its item claimed:
 * workers look now and then for items whose claim went stale and queue them again
 * ({@link ItemQueue.add} with `again`), so every item ends `done` or `failed` (issue 44).
 *
 * With GENERATE_ON_WORKERS, `/generate` hands its render over too: the serving process charges and
 * reads the request, puts the upload in the blob store, and waits for a worker's answer (a job per
 * request, id the image id, so a retried job finds the record its first try wrote). It answers as
 * soon as the record exists (a completion event lost with a Redis restart does not matter), queues
 * the job again when Redis lost it, and past {@link GENERATION_TIMEOUT_MS} withdraws a job no worker
 * took before answering 503: an error only when no image will be made.
 *
 * Serving processes' calls to Redis fail at once while it is away (`enableOfflineQueue: false`,
 * BullMQ's advice for producers), answered 503 `UNAVAILABLE`, instead of hanging until it is back.
 */
import type { Logger } from 'pino';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { type OutageRecognizer, ServiceBusyError, ServiceUnavailableError } from '../domain/kernel/errors.js';
import type {
  GenerationQueue,
  ItemQueue,
  QueuedGeneration,
  QueuedGenerationResult,
} from '../domain/kernel/ports.js';

/**
 * The queues' names in Redis: batch items, generations handed over (GENERATE_ON_WORKERS), and the
 * cards of render links and sites handed over. Cards have a queue of their own so that a worker of
 * an earlier release, which knows no `card` job, never takes one for an image during a rolling deploy.
 */
export const ITEM_QUEUE = 'titlecard-batch-items';
export const GENERATION_QUEUE = 'titlecard-generations';
export const CARD_QUEUE = 'titlecard-cards';
/** How long `/generate` waits for a worker to take its render by default, ms (GENERATE_WAIT_SECONDS; then the job is withdrawn: 503). */
export const GENERATION_TIMEOUT_MS = 120_000;
/** How much longer it waits for a render a worker has taken, ms (a render takes well under a second). */
const GENERATION_ACTIVE_GRACE_MS = 60_000;
/** How often the waiting serving process looks for the record and the job's state, ms. */
const GENERATION_POLL_MS = 1000;
/** The `Retry-After` of a generation no worker took: workers may all be down, seconds. */
const NO_WORKER_RETRY_SECONDS = 30;

interface ItemJob {
  batchId: string;
  index: number;
}

export interface OpenItemQueue extends ItemQueue {
  /** With `generations`: the queue `/generate` hands its renders to. */
  generations: GenerationQueue | undefined;
  close(): Promise<void>;
}

/**
 * Opens an ioredis connection: a worker's retries its commands for ever while Redis is away (BullMQ
 * needs that for its blocking commands); a producer's (`failFast`) fails them at once, once ready.
 */
async function connectionOf(redisUrl: string, { failFast = false } = {}) {
  const { Redis } = await import('ioredis');
  const connection = new Redis(redisUrl, {
    maxRetriesPerRequest: failFast ? 1 : null,
    enableOfflineQueue: !failFast,
    lazyConnect: failFast,
    // A Redis that holds a connection and answers nothing (frozen, a black hole) fails too.
    ...(failFast ? { commandTimeout: 5000 } : {}),
  });
  if (failFast) await connection.connect();
  return connection;
}

/** True for an error that says Redis cannot be reached (the producer's fail-fast errors). */
const isRedisAway = (err: unknown) =>
  /enableOfflineQueue|Connection is closed|ECONNREFUSED|MaxRetriesPerRequest|Reached the max retries|Command timed out/i.test(
    `${(err as Error)?.name ?? ''} ${(err as Error)?.message ?? ''}`,
  );

/** Redis's fail-fast errors as the 503 they mean; anything else as it is. */
const unreachable = (err: unknown) =>
  isRedisAway(err)
    ? new ServiceUnavailableError('The queue (Redis) does not answer: try again in a moment')
    : err;

/**
 * A queue of renders handed to workers, `name`, awaited through its events: one job per render (its
 * id `job.imageId`), answered by the worker's result, by `written()`, or by a refusal when no worker
 * takes it within `generationWaitMs` (see {@link GenerationQueue}).
 */
async function openChannel(
  name: string,
  redisUrl: string,
  connection: Awaited<ReturnType<typeof connectionOf>>,
  generationWaitMs: number,
): Promise<GenerationQueue & { close(): Promise<void> }> {
  const { Queue, QueueEvents, Job } = await import('bullmq');
  const q = new Queue<QueuedGeneration>(name, { connection });
  // QueueEvents blocks on its own connection (retrying while Redis is away), which BullMQ does not
  // close (it was given it).
  const eventsConnection = await connectionOf(redisUrl);
  const events = new QueueEvents(name, { connection: eventsConnection });
  await events.waitUntilReady();

  /**
   * Waiters for a generation's end, by job id, woken by the queue's `completed` and `failed`
   * events. Not BullMQ's `waitUntilFinished`: its check of the job runs in a promise nothing
   * awaits, so a Redis outage during a wait was an unhandled rejection that ended the process.
   */
  const waiters = new Map<string, (end: { result: QueuedGenerationResult } | { failed: string }) => void>();
  events.on('completed', ({ jobId, returnvalue }) =>
    waiters.get(jobId)?.({ result: returnvalue as unknown as QueuedGenerationResult }),
  );
  events.on('failed', ({ jobId, failedReason }) => waiters.get(jobId)?.({ failed: failedReason }));
  events.on('error', () => undefined); // reconnects by itself; the polling below covers the gap

  async function run(
    job: QueuedGeneration,
    written: () => Promise<boolean>,
  ): Promise<QueuedGenerationResult> {
    const id = job.imageId;
    const add = async () => {
      // A job of this id that failed for good (a take-over of a request whose first try failed)
      // would block the new one for its hour in the failed set.
      const existing = await Job.fromId(q, id);
      if (existing && (await existing.isFailed())) await existing.remove();
      await q.add('generate', job, {
        jobId: id,
        attempts: 3,
        backoff: { type: 'exponential', delay: 1000 },
        removeOnComplete: { age: 600 },
        removeOnFail: { age: 3600 },
      });
    };
    let end: { result: QueuedGenerationResult } | { failed: string } | undefined;
    let wake: () => void = () => undefined;
    waiters.set(id, (e) => {
      end = e;
      wake();
    });
    try {
      await add().catch((err: unknown) => {
        throw unreachable(err);
      });
      const started = Date.now();
      for (;;) {
        if (!end)
          await new Promise<void>((resolve) => {
            wake = resolve;
            setTimeout(resolve, GENERATION_POLL_MS).unref();
          });
        if (end && 'result' in end) return end.result;
        if (await written()) return { ok: true, report: null };
        const waited = Date.now() - started;
        let state: string;
        try {
          state = await q.getJobState(id);
          if (state === 'completed') {
            const done = await Job.fromId(q, id);
            if (done) return done.returnvalue as QueuedGenerationResult;
          }
          // Lost with a Redis restart (no persistence): queued again, under the same id.
          if (state === 'unknown') await add();
        } catch (err) {
          if (!isRedisAway(err)) throw err;
          if (waited < generationWaitMs) continue;
          throw new ServiceUnavailableError(
            `The queue (Redis) did not answer for ${generationWaitMs / 1000} s: try again later`,
            NO_WORKER_RETRY_SECONDS,
          );
        }
        // A job that failed for good (its 3 tries): the worker's stores were away.
        if (state === 'failed' || (end && 'failed' in end))
          throw new ServiceUnavailableError(
            `The worker could not finish this image${end && 'failed' in end ? ` (${end.failed})` : ''}: try again in a moment`,
          );
        if (waited < generationWaitMs) continue;
        if (state !== 'active' && state !== 'completed') {
          // No worker took it: withdrawn (a worker taking it at this moment makes remove throw).
          const removed = await Job.fromId(q, id)
            .then((j) => j?.remove())
            .then(
              () => true,
              () => false,
            );
          if (removed && !(await written()))
            throw new ServiceBusyError(
              `No worker took this image within ${generationWaitMs / 1000} s (are any running?): nothing was made or charged; try again later`,
              NO_WORKER_RETRY_SECONDS,
            );
        }
        if (waited > generationWaitMs + GENERATION_ACTIVE_GRACE_MS)
          throw new ServiceBusyError(
            `A worker took this image but has not finished it in ${(generationWaitMs + GENERATION_ACTIVE_GRACE_MS) / 1000} s: try again later`,
            NO_WORKER_RETRY_SECONDS,
          );
      }
    } finally {
      waiters.delete(id);
    }
  }

  return {
    run,
    async close() {
      await Promise.all([q.close(), events.close()]);
      await eventsConnection.quit().catch(() => undefined);
    },
  };
}

/**
 * The producer side, for serving processes; with `registry`, the queue's depth by state as the
 * gauge `titlecard_queue_jobs{state}`, read at each scrape.
 */
export async function openItemQueue(
  redisUrl: string,
  registry?: Registry,
  {
    generations = false,
    generationWaitMs = GENERATION_TIMEOUT_MS,
  }: { generations?: boolean; generationWaitMs?: number } = {},
): Promise<OpenItemQueue> {
  const { Queue } = await import('bullmq');
  const connection = await connectionOf(redisUrl, { failFast: true });
  const queue = new Queue<ItemJob>(ITEM_QUEUE, {
    connection,
    defaultJobOptions: {
      attempts: 5,
      backoff: { type: 'exponential', delay: 2000 },
      removeOnComplete: { age: 3600 },
      removeOnFail: { age: 24 * 3600 },
    },
  });
  if (registry)
    new Gauge({
      name: 'titlecard_queue_jobs',
      help: 'Batch items in the queue (QUEUE=redis), by state: waiting, active, delayed, failed.',
      labelNames: ['state'],
      registers: [registry],
      async collect() {
        // Redis away: the gauge keeps its last values rather than failing the whole scrape.
        const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed').catch(() => ({}));
        for (const [state, n] of Object.entries(counts)) this.set({ state }, n);
      },
    });
  // Generations and link cards: one job per render, awaited through each queue's events.
  const channels = generations
    ? await Promise.all([
        openChannel(GENERATION_QUEUE, redisUrl, connection, generationWaitMs),
        openChannel(CARD_QUEUE, redisUrl, connection, generationWaitMs),
      ])
    : undefined;
  return {
    generations: channels && {
      run: (job, written) => (job.card ? channels[1] : channels[0]).run(job, written),
    },
    async add(items, { again = false } = {}) {
      try {
        if (again) {
          // A job that ran out of retries keeps its id (and blocks a new one): retried instead.
          for (const item of items) {
            const jobId = `${item.batchId}-${item.index}`;
            const existing = await queue.getJob(jobId);
            // Removed and added anew rather than retried: a retried job keeps its spent attempts.
            // Another worker doing the same at this moment makes remove throw: then it has it.
            if (existing && ((await existing.isFailed()) || (await existing.isCompleted())))
              await existing.remove().catch(() => undefined);
            else if (existing) continue;
            await queue.add('item', item, { jobId });
          }
          return;
        }
        await queue.addBulk(
          items.map((item) => ({
            name: 'item',
            data: item,
            opts: { jobId: `${item.batchId}-${item.index}` },
          })),
        );
      } catch (err) {
        throw unreachable(err);
      }
    },
    async ping() {
      await connection.ping();
    },
    async close() {
      await Promise.all([queue.close(), ...(channels ?? []).map((c) => c.close())]);
      await connection.quit().catch(() => undefined);
    },
  };
}

export interface ItemWorkerOptions {
  redisUrl: string;
  /** Items rendered at once; default the renderer's concurrency. */
  concurrency: number;
  /** Seconds a job's lock lasts without renewal before the job counts as stalled (`QUEUE_LOCK_SECONDS`). */
  lockSeconds: number;
  /** Claims and renders the item; false when it must be retried (services.processQueuedItem). */
  process(batchId: string, index: number): Promise<boolean>;
  /** Renders a generation or a link's card handed over (services.processQueuedGeneration). */
  generate(job: QueuedGeneration): Promise<QueuedGenerationResult>;
  registry: Registry;
  logger: Logger;
}

/** The consumer side, `titlecard worker`: renders items, with its metrics in `registry`. */
export async function startItemWorker(options: ItemWorkerOptions): Promise<{ close(): Promise<void> }> {
  const { Worker } = await import('bullmq');
  const connection = await connectionOf(options.redisUrl);
  const workerId = `${(await import('node:os')).hostname()}-${process.pid}`;
  const renders = new Counter({
    name: 'titlecard_worker_items_total',
    help: 'Batch items and handed-over generations this worker finished, by worker (host-pid).',
    labelNames: ['worker'],
    registers: [options.registry],
  });
  const waits = new Histogram({
    name: 'titlecard_queue_wait_seconds',
    help: 'How long a batch item waited in the queue before a worker took it.',
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 1800],
    registers: [options.registry],
  });
  const worker = new Worker<ItemJob>(
    ITEM_QUEUE,
    async (job) => {
      if (job.processedOn) waits.observe(Math.max(0, job.processedOn - job.timestamp) / 1000);
      const finished = await options.process(job.data.batchId, job.data.index);
      if (!finished) throw new Error(`batch item ${job.id ?? ''} not finished: retried`);
      renders.inc({ worker: workerId });
    },
    {
      connection,
      concurrency: options.concurrency,
      lockDuration: options.lockSeconds * 1000,
      stalledInterval: Math.max(1000, (options.lockSeconds * 1000) / 2),
      maxStalledCount: 3,
    },
  );
  // Generations and link cards handed over, each from its own queue (services.processQueuedGeneration).
  const generators = [GENERATION_QUEUE, CARD_QUEUE].map(
    (name) =>
      new Worker<QueuedGeneration, QueuedGenerationResult>(
        name,
        async (job) => {
          if (job.processedOn) waits.observe(Math.max(0, job.processedOn - job.timestamp) / 1000);
          const result = await options.generate(job.data);
          renders.inc({ worker: workerId });
          return result;
        },
        { connection, concurrency: options.concurrency, lockDuration: options.lockSeconds * 1000 },
      ),
  );
  for (const generator of generators)
    generator.on('error', (err) => options.logger.error({ err }, 'generation worker error'));
  worker.on('error', (err) => options.logger.error({ err }, 'queue worker error'));
  worker.on('failed', (job, err) => options.logger.warn({ err, job: job?.id }, 'batch item job failed'));
  await Promise.all([worker.waitUntilReady(), ...generators.map((g) => g.waitUntilReady())]);
  options.logger.info({ worker: workerId, concurrency: options.concurrency }, 'titlecard worker ready');
  return {
    async close() {
      await Promise.all([worker.close(), ...generators.map((g) => g.close())]);
      await connection.quit().catch(() => undefined);
    },
  };
}

/**
 * An ioredis error as the queue's outage (for kernel/errors.ts `outageOf`): its retries used up, or
 * a command refused or timed out while it is not connected. The Redis of the shared limits
 * (storage/throttle.ts) answers with the same driver's errors.
 */
export const redisOutage: OutageRecognizer = (e) => {
  const message = typeof e.message === 'string' ? e.message : '';
  return e.name === 'MaxRetriesPerRequestError' ||
    /enableOfflineQueue|Connection is closed|Command timed out|Redis is (not )?connect/i.test(message)
    ? new ServiceUnavailableError('The queue does not answer: try again in a moment')
    : undefined;
};
