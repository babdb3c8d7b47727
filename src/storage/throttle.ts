/**
 * The Throttle port on rate-limiter-flexible's in-memory limiter: `points` attempts per key per
 * `windowSeconds`, then the key waits until the window ends.
 *
 * Per process: with several API processes behind a load balancer, each counts on its own, so the
 * effective limit is the process count times `points` (documented in docs/security.md). Still a
 * bound on guessing, and no extra server.
 */
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Throttle } from '../domain/kernel/ports.js';
import { RESET_REQUEST_KEYS, RESET_REQUEST_LIMITS } from '../domain/accounts/email-links.js';
import { PASSWORD_GUESS_KEYS, PASSWORD_GUESS_LIMITS } from '../domain/accounts/password-guard.js';

/** Whole seconds until `res`'s window ends, at least 1 (what `Retry-After` says). */
const seconds = (res: RateLimiterRes) => Math.max(1, Math.ceil(res.msBeforeNext / 1000));

export function createMemoryThrottle(limits: {
  points: (key: string) => number;
  windowSeconds: number;
}): Throttle {
  const limiters = new Map<number, RateLimiterMemory>();
  const limiterFor = (key: string) => {
    const points = limits.points(key);
    let limiter = limiters.get(points);
    if (!limiter) {
      limiter = new RateLimiterMemory({ points, duration: limits.windowSeconds });
      limiters.set(points, limiter);
    }
    return limiter;
  };
  return {
    async blockedFor(key) {
      const limiter = limiterFor(key);
      const res = await limiter.get(key);
      return res && res.consumedPoints >= limiter.points ? seconds(res) : 0;
    },
    async hit(key) {
      const limiter = limiterFor(key);
      try {
        const res = await limiter.consume(key);
        return res.remainingPoints > 0 ? 0 : seconds(res);
      } catch (res) {
        if (res instanceof RateLimiterRes) return seconds(res);
        throw res;
      }
    },
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
export function createPasswordGuessThrottle(): Throttle {
  const limits = PASSWORD_GUESS_LIMITS;
  const perClient = createMemoryThrottle({
    points: () => limits.perClient,
    windowSeconds: limits.windowSeconds,
  });
  const failures = new RateLimiterMemory({ points: Number.MAX_SAFE_INTEGER, duration: 24 * 3600 });
  // Holds the waits: `block` marks a key consumed for that many seconds.
  const waits = new RateLimiterMemory({ points: 1, duration: 1 });
  const isPair = (key: string) => key.startsWith(PASSWORD_GUESS_KEYS.pair);
  return {
    async blockedFor(key) {
      if (!isPair(key)) return perClient.blockedFor(key);
      const res = await waits.get(key);
      return res && res.consumedPoints > waits.points ? seconds(res) : 0;
    },
    async hit(key) {
      if (!isPair(key)) return perClient.hit(key);
      const failed = (await failures.consume(key)).consumedPoints;
      if (failed < limits.freePerPair) return 0;
      const delay = Math.min(
        limits.maxDelaySeconds,
        limits.firstDelaySeconds * 2 ** (failed - limits.freePerPair),
      );
      await waits.block(key, delay);
      return delay;
    },
    async reset(key) {
      if (!isPair(key)) return perClient.reset(key);
      await Promise.all([failures.delete(key), waits.delete(key)]);
    },
  };
}

/** The throttle of password-reset requests ({@link RESET_REQUEST_LIMITS}): per address and per client. */
export function createResetRequestThrottle(): Throttle {
  return createMemoryThrottle({
    points: (key) =>
      key.startsWith(RESET_REQUEST_KEYS.email)
        ? RESET_REQUEST_LIMITS.perEmail
        : RESET_REQUEST_LIMITS.perClient,
    windowSeconds: RESET_REQUEST_LIMITS.windowSeconds,
  });
}
