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
 * With GENERATE_ON_WORKERS, `/generate` hands its render over too: the serving process charges and
 * reads the request, puts the upload in the blob store, and waits for a worker's answer (a job per
 * request, id the image id, so a retried job finds the record its first try wrote).
 */
import type { Logger } from 'pino';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { ServiceBusyError } from './domain/kernel/errors.js';
import type {
  GenerationQueue,
  ItemQueue,
  QueuedGeneration,
  QueuedGenerationResult,
} from './domain/kernel/ports.js';

/** The queues' names in Redis: batch items, and generations handed over (GENERATE_ON_WORKERS). */
export const ITEM_QUEUE = 'titlecard-batch-items';
export const GENERATION_QUEUE = 'titlecard-generations';
/** How long `/generate` waits for a worker to finish its render, ms (then 503). */
const GENERATION_TIMEOUT_MS = 120_000;

interface ItemJob {
  batchId: string;
  index: number;
}

export interface OpenItemQueue extends ItemQueue {
  /** With `generations`: the queue `/generate` hands its renders to. */
  generations: GenerationQueue | undefined;
  close(): Promise<void>;
}

/** Opens the ioredis connection BullMQ needs (blocking commands retry for ever while Redis is away). */
async function connectionOf(redisUrl: string) {
  const { Redis } = await import('ioredis');
  return new Redis(redisUrl, { maxRetriesPerRequest: null, lazyConnect: false });
}

/**
 * The producer side, for serving processes; with `registry`, the queue's depth by state as the
 * gauge `titlecard_queue_jobs{state}`, read at each scrape.
 */
export async function openItemQueue(
  redisUrl: string,
  registry?: Registry,
  { generations = false }: { generations?: boolean } = {},
): Promise<OpenItemQueue> {
  const { Queue, QueueEvents } = await import('bullmq');
  const connection = await connectionOf(redisUrl);
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
        const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed');
        for (const [state, n] of Object.entries(counts)) this.set({ state }, n);
      },
    });
  // QueueEvents blocks on its own connection, which BullMQ does not close (it was given it).
  const eventsConnection = generations ? connection.duplicate() : undefined;
  // Generations: one job per request (id: its image id), awaited through the queue's events.
  const generationQueue = generations
    ? new Queue<QueuedGeneration>(GENERATION_QUEUE, { connection })
    : undefined;
  const events = eventsConnection
    ? new QueueEvents(GENERATION_QUEUE, { connection: eventsConnection })
    : undefined;
  if (events) await events.waitUntilReady();
  return {
    generations:
      generationQueue && events
        ? {
            async run(job) {
              const added = await generationQueue.add('generate', job, {
                jobId: job.imageId,
                attempts: 3,
                backoff: { type: 'exponential', delay: 1000 },
                removeOnComplete: { age: 600 },
                removeOnFail: { age: 3600 },
              });
              try {
                return (await added.waitUntilFinished(
                  events,
                  GENERATION_TIMEOUT_MS,
                )) as QueuedGenerationResult;
              } catch (err) {
                if (/timed out/i.test((err as Error).message))
                  throw new ServiceBusyError(
                    `No worker finished this image within ${GENERATION_TIMEOUT_MS / 1000} s: try again later`,
                  );
                throw err;
              }
            },
          }
        : undefined,
    async add(items) {
      await queue.addBulk(
        items.map((item) => ({ name: 'item', data: item, opts: { jobId: `${item.batchId}-${item.index}` } })),
      );
    },
    async close() {
      await Promise.all([queue.close(), generationQueue?.close(), events?.close()]);
      await connection.quit().catch(() => undefined);
      await eventsConnection?.quit().catch(() => undefined);
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
  /** Renders a generation handed over (services.processQueuedGeneration). */
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
  const generator = new Worker<QueuedGeneration, QueuedGenerationResult>(
    GENERATION_QUEUE,
    async (job) => {
      if (job.processedOn) waits.observe(Math.max(0, job.processedOn - job.timestamp) / 1000);
      const result = await options.generate(job.data);
      renders.inc({ worker: workerId });
      return result;
    },
    { connection, concurrency: options.concurrency, lockDuration: options.lockSeconds * 1000 },
  );
  generator.on('error', (err) => options.logger.error({ err }, 'generation worker error'));
  worker.on('error', (err) => options.logger.error({ err }, 'queue worker error'));
  worker.on('failed', (job, err) => options.logger.warn({ err, job: job?.id }, 'batch item job failed'));
  await Promise.all([worker.waitUntilReady(), generator.waitUntilReady()]);
  options.logger.info({ worker: workerId, concurrency: options.concurrency }, 'titlecard worker ready');
  return {
    async close() {
      await Promise.all([worker.close(), generator.close()]);
      await connection.quit().catch(() => undefined);
    },
  };
}
