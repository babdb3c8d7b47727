/**
 * Where the limits are counted (sign-in guesses, password-reset requests, previews, and the OAuth
 * endpoints' request limits): this process's memory by default, or Redis when REDIS_URL is set, so
 * that N processes behind a load balancer give no more tries than one (docs/operations.md). ioredis
 * and rate-limit-redis are optional dependencies, imported only then. A Redis server that cannot be
 * reached at start-up stops it with a message that names it; one lost later is counted around in
 * each process's memory until it is back (throttle.ts).
 */
import type { Store } from 'express-rate-limit';
import type { Logger } from 'pino';
import { ConfigError } from '../../config.js';
import { redactUri } from './index.js';
import { type Limiters, memoryLimiters, redisLimiters } from './throttle.js';

/** How long start-up waits for the Redis server, ms. */
const CONNECT_TIMEOUT_MS = 5000;

export interface SharedLimits {
  /** The limiters of the throttles (throttle.ts). */
  limiters: Limiters;
  /**
   * An express-rate-limit store for the limit named `name` (the MCP SDK's OAuth endpoints), or
   * undefined to keep express-rate-limit's own, in this process's memory.
   */
  expressStore(name: string): Store | undefined;
  close(): Promise<void>;
}

/** Counts in each process's memory. */
export const processLimits: SharedLimits = {
  limiters: memoryLimiters,
  expressStore: () => undefined,
  close: async () => undefined,
};

/**
 * The limits of `redisUrl` (REDIS_URL), or of this process when it is undefined. Throws ConfigError
 * when the server cannot be reached. Later losses of the server and its return are logged once each.
 */
export async function openLimits(redisUrl: string | undefined, logger?: Logger): Promise<SharedLimits> {
  if (!redisUrl) return processLimits;
  const modules = await Promise.all([import('ioredis'), import('rate-limit-redis')]).catch((err: unknown) => {
    if ((err as { code?: string }).code === 'ERR_MODULE_NOT_FOUND')
      throw new ConfigError(
        'REDIS_URL is set but the optional packages ioredis and rate-limit-redis are not installed: npm install ioredis rate-limit-redis',
      );
    throw err;
  });
  const [{ Redis }, { RedisStore }] = modules;
  // No offline queue: while the server is away a command fails at once, and the insurance
  // limiter counts it, rather than a request waiting for Redis.
  const client = new Redis(redisUrl, {
    lazyConnect: true,
    enableOfflineQueue: false,
    connectTimeout: CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: 1,
  });
  let reachable = true;
  client.on('error', (err: Error) => {
    if (!reachable) return;
    reachable = false;
    logger?.warn(
      { err: err.message },
      'Redis (REDIS_URL) unreachable: limits are counted in each process meanwhile',
    );
  });
  client.on('ready', () => {
    if (reachable) return;
    reachable = true;
    logger?.info('Redis (REDIS_URL) reachable again: limits are shared again');
  });
  try {
    await client.connect();
  } catch (err) {
    client.disconnect();
    throw new ConfigError(
      `Redis at ${redactUri(redisUrl)} (REDIS_URL) cannot be reached: ${(err as Error).message}`,
    );
  }
  return {
    limiters: redisLimiters(client),
    expressStore: (name) =>
      new RedisStore({
        prefix: `titlecard:${name}:`,
        sendCommand: (command: string, ...args: string[]) =>
          client.call(command, ...args) as Promise<number | string>,
      }),
    async close() {
      await client.quit().catch(() => client.disconnect());
    },
  };
}
