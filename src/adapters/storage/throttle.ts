/**
 * The Throttle port on rate-limiter-flexible: `points` attempts per key per `windowSeconds`, then
 * the key waits until the window ends.
 *
 * Counted in this process's memory by default ({@link memoryLimiters}): with several API processes
 * each counts on its own, so N processes give N times the tries. With REDIS_URL every process
 * counts in Redis ({@link redisLimiters}), so N processes give no more tries than one; if Redis
 * cannot be reached, each process counts in its own memory meanwhile (rate-limiter-flexible's
 * insurance limiter) rather than refusing or letting everything through.
 */
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import type { Throttle } from '../../domain/kernel/ports.js';
import { RESET_REQUEST_KEYS, RESET_REQUEST_LIMITS } from '../../domain/accounts/email-links.js';
import { PASSWORD_GUESS_KEYS, PASSWORD_GUESS_LIMITS } from '../../domain/accounts/password-guard.js';
import { PREVIEW_LIMIT } from '../../domain/images/images.js';
import { PAGE_FETCHES, PAGE_FETCHES_PER_ADDRESS } from '../../domain/sites/sites.js';
import { FETCH_FAILURES } from '../../domain/images/request.js';
import { SITE_RENDERS_PER_ADDRESS } from '../../domain/sites/budget.js';

/** Whole seconds until `res`'s window ends, at least 1 (what `Retry-After` says). */
const seconds = (res: RateLimiterRes) => Math.max(1, Math.ceil(res.msBeforeNext / 1000));

/**
 * Makes the limiter of one rule: `points` per `duration` seconds, its keys apart from every other
 * rule's under `name` (a rule's name and its points: `sign-in-client:20`).
 */
export type Limiters = (rule: { name: string; points: number; duration: number }) => RateLimiterAbstract;

/** Limiters in this process's memory (the default). */
export const memoryLimiters: Limiters = ({ points, duration }) => new RateLimiterMemory({ points, duration });

/**
 * Limiters in Redis, shared by every process that uses the same server, under the key prefix
 * `titlecard:<name>`; each with an in-memory insurance limiter for while Redis is unreachable.
 * `client` is an ioredis client (what rate-limiter-flexible expects as `storeClient`).
 */
export function redisLimiters(client: unknown): Limiters {
  return ({ name, points, duration }) =>
    new RateLimiterRedis({
      storeClient: client,
      keyPrefix: `titlecard:${name}`,
      points,
      duration,
      insuranceLimiter: new RateLimiterMemory({ points, duration }),
    });
}

/** A throttle of one rule, named `name` (see {@link Limiters}), counting in `limiters`. */
export function createThrottle(
  limits: { name: string; points: (key: string) => number; windowSeconds: number },
  limiters: Limiters = memoryLimiters,
): Throttle {
  const byPoints = new Map<number, RateLimiterAbstract>();
  const limiterFor = (key: string) => {
    const points = limits.points(key);
    let limiter = byPoints.get(points);
    if (!limiter) {
      limiter = limiters({ name: `${limits.name}:${points}`, points, duration: limits.windowSeconds });
      byPoints.set(points, limiter);
    }
    return limiter;
  };
  /** One point of `key` consumed: whether it was within the limit, and the limiter's answer. */
  const consume = async (key: string): Promise<{ within: boolean; res: RateLimiterRes }> => {
    try {
      return { within: true, res: await limiterFor(key).consume(key) };
    } catch (res) {
      if (res instanceof RateLimiterRes) return { within: false, res };
      throw res;
    }
  };
  return {
    async blockedFor(key) {
      const limiter = limiterFor(key);
      const res = await limiter.get(key);
      return res && res.consumedPoints >= limiter.points ? seconds(res) : 0;
    },
    async hit(key) {
      const { within, res } = await consume(key);
      return within && res.remainingPoints > 0 ? 0 : seconds(res);
    },
    take: async (key) => (await consume(key)).within,
    async reset(key) {
      await limiterFor(key).delete(key);
    },
  };
}

/**
 * The throttle of password guesses ({@link PASSWORD_GUESS_LIMITS}): for an account-and-client key,
 * the failures are counted (for a day, until a success resets them) and, from the
 * `freePerPair`-th on, each sets a wait that doubles, up to `maxDelaySeconds`; a client key has a
 * plain window of `perClient` failures.
 */
export function createPasswordGuessThrottle(limiters: Limiters = memoryLimiters): Throttle {
  const limits = PASSWORD_GUESS_LIMITS;
  const perClient = createThrottle(
    { name: 'sign-in-client', points: () => limits.perClient, windowSeconds: limits.windowSeconds },
    limiters,
  );
  const failures = limiters({
    name: 'sign-in-failures',
    points: Number.MAX_SAFE_INTEGER,
    duration: 24 * 3600,
  });
  // Holds the waits: `block` marks a key consumed for that many seconds.
  const waits = limiters({ name: 'sign-in-waits', points: 1, duration: 1 });
  const isPair = (key: string) => key.startsWith(PASSWORD_GUESS_KEYS.pair);
  /** Counts a failed guess: for a pair, from the free ones on, a wait that doubles. */
  const hit = async (key: string): Promise<number> => {
    if (!isPair(key)) return perClient.hit(key);
    const failed = (await failures.consume(key)).consumedPoints;
    if (failed < limits.freePerPair) return 0;
    const delay = Math.min(
      limits.maxDelaySeconds,
      limits.firstDelaySeconds * 2 ** (failed - limits.freePerPair),
    );
    await waits.block(key, delay);
    return delay;
  };
  return {
    async blockedFor(key) {
      if (!isPair(key)) return perClient.blockedFor(key);
      const res = await waits.get(key);
      return res && res.consumedPoints > waits.points ? seconds(res) : 0;
    },
    hit,
    // A pair's guess is counted, not refused: the wait it sets holds the next one.
    async take(key) {
      if (!isPair(key)) return perClient.take(key);
      await hit(key);
      return true;
    },
    async reset(key) {
      if (!isPair(key)) return perClient.reset(key);
      await Promise.all([failures.delete(key), waits.delete(key)]);
    },
  };
}

/** The throttle of password-reset requests ({@link RESET_REQUEST_LIMITS}): per address and per client. */
export function createResetRequestThrottle(limiters: Limiters = memoryLimiters): Throttle {
  return createThrottle(
    {
      name: 'password-reset',
      points: (key) =>
        key.startsWith(RESET_REQUEST_KEYS.email)
          ? RESET_REQUEST_LIMITS.perEmail
          : RESET_REQUEST_LIMITS.perClient,
      windowSeconds: RESET_REQUEST_LIMITS.windowSeconds,
    },
    limiters,
  );
}

/**
 * Every throttle the services take, counted by `limiters` (this process's memory, or Redis shared
 * by every process): sign-in guesses, password-reset requests, previews and layout checks
 * ({@link PREVIEW_LIMIT}), a site's page fetches ({@link PAGE_FETCHES}, {@link PAGE_FETCHES_PER_ADDRESS}) and its new cards per
 * client address ({@link SITE_RENDERS_PER_ADDRESS}), and an account's failed `imageUrl` fetches
 * ({@link FETCH_FAILURES}).
 */
export function createServiceThrottles(limiters: Limiters = memoryLimiters) {
  return {
    throttle: createPasswordGuessThrottle(limiters),
    resetThrottle: createResetRequestThrottle(limiters),
    previewThrottle: createThrottle(
      { name: 'preview', points: () => PREVIEW_LIMIT.points, windowSeconds: PREVIEW_LIMIT.windowSeconds },
      limiters,
    ),
    pageThrottle: createThrottle(
      { name: 'site-pages', points: () => PAGE_FETCHES.points, windowSeconds: PAGE_FETCHES.windowSeconds },
      limiters,
    ),
    pageAddressThrottle: createThrottle(
      {
        name: 'site-pages-per-address',
        points: () => PAGE_FETCHES_PER_ADDRESS.points,
        windowSeconds: PAGE_FETCHES_PER_ADDRESS.windowSeconds,
      },
      limiters,
    ),
    siteAddressThrottle: createThrottle(
      {
        name: 'site-renders-per-address',
        points: () => SITE_RENDERS_PER_ADDRESS.points,
        windowSeconds: SITE_RENDERS_PER_ADDRESS.windowSeconds,
      },
      limiters,
    ),
    fetchThrottle: createThrottle(
      {
        name: 'image-fetch-failures',
        points: () => FETCH_FAILURES.points,
        windowSeconds: FETCH_FAILURES.windowSeconds,
      },
      limiters,
    ),
  };
}
