/**
 * `titlecard worker`: renders batch items from the Redis queue (`QUEUE=redis`, src/adapters/queue.ts) on the
 * configured stores, and answers `GET /healthz` and `GET /metrics` on PORT (its items by worker, how
 * long they waited, its render stages) for probes and Prometheus. Serves no API.
 */
import { createServer, type Server } from 'node:http';
import { availableParallelism } from 'node:os';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { ConfigError, type Config } from './config.js';
import { startItemWorker } from './adapters/queue.js';
import { createRuntime } from './runtime.js';

/** How old a still-queued item must be before a worker enqueues it again, ms (and how often it looks, at most). */
export const REQUEUE_AFTER_MS = 60_000;

/**
 * How often a worker looks for items to queue again, and how stale a running item's claim must be
 * before it is (its job may have run out of retries: issue 44), from the lock's duration: every
 * 2 locks (4 s to 60 s), after 4 locks (at least 8 s). With the default 30 s lock: every 60 s,
 * after 120 s. A job still waiting or running is never queued twice (src/adapters/queue.ts).
 */
export function requeueTimes(lockSeconds: number): { everyMs: number; stalledAfterMs: number } {
  return {
    everyMs: Math.min(REQUEUE_AFTER_MS, Math.max(4000, lockSeconds * 2000)),
    stalledAfterMs: Math.max(8000, lockSeconds * 4000),
  };
}

export interface RunningWorker {
  /** e.g. http://127.0.0.1:41234: its /healthz and /metrics. */
  url: string;
  close(): Promise<void>;
}

export async function startWorker(config: Config, logger: Logger): Promise<RunningWorker> {
  if (config.queue !== 'redis' || !config.redisUrl)
    throw new ConfigError(
      'titlecard worker needs QUEUE=redis and REDIS_URL: with QUEUE=store, every serving process renders batch items itself.',
    );
  const runtime = await createRuntime(config, logger);
  const worker = await startItemWorker({
    redisUrl: config.redisUrl,
    concurrency: config.workerConcurrency ?? config.renderConcurrency ?? availableParallelism(),
    lockSeconds: config.queueLockSeconds,
    process: (batchId, index) => runtime.services.processQueuedItem(batchId, index),
    generate: (job) => runtime.services.processQueuedGeneration(job),
    registry: runtime.metrics.registry,
    logger,
  });
  // Items a batch stored while Redis was away never became jobs, and items whose job ran out of
  // retries stay claimed: look for them now and then.
  const { everyMs, stalledAfterMs } = requeueTimes(config.queueLockSeconds);
  const requeue = async () => {
    const now = Date.now();
    const n = await runtime.services.requeueWaiting(new Date(now - everyMs), new Date(now - stalledAfterMs));
    if (n > 0) logger.warn({ items: n }, 'batch items without a live job were queued again');
  };
  const requeueTimer = setInterval(() => {
    requeue().catch((err: unknown) => logger.error({ err }, 'requeueing waiting items failed'));
  }, everyMs);
  requeueTimer.unref();
  await requeue().catch((err: unknown) => logger.error({ err }, 'requeueing waiting items failed'));
  const server: Server = createServer((req, res) => {
    if (req.url === '/healthz') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
      return;
    }
    if (req.url === '/metrics') {
      if (config.metricsToken && req.headers.authorization !== `Bearer ${config.metricsToken}`) {
        res.writeHead(401).end();
        return;
      }
      runtime.metrics.registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': runtime.metrics.registry.contentType }).end(text),
        () => res.writeHead(500).end(),
      );
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  logger.info({ url }, 'titlecard worker listening');
  return {
    url,
    async close() {
      clearInterval(requeueTimer);
      await worker.close();
      await new Promise((resolve) => server.close(resolve));
      await runtime.close();
    },
  };
}
