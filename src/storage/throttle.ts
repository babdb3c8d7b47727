/**
 * The Throttle port on rate-limiter-flexible's in-memory limiter: `points` attempts per key per
 * `windowSeconds`, then the key waits until the window ends.
 *
 * Per process: with several API processes behind a load balancer, each counts on its own, so the
 * effective limit is the process count times `points` (documented in docs/dashboard.md). Still a bound
 * on guessing, and no extra server.
 */
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Throttle } from '../domain/kernel/ports.js';
import { SIGN_IN_KEYS, SIGN_IN_LIMITS } from '../domain/accounts/sessions.js';

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
  const seconds = (res: RateLimiterRes) => Math.max(1, Math.ceil(res.msBeforeNext / 1000));
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

/** The sign-in throttle: per account and per address, with the domain's limits ({@link SIGN_IN_LIMITS}). */
export function createSignInThrottle(): Throttle {
  return createMemoryThrottle({
    points: (key) =>
      key.startsWith(SIGN_IN_KEYS.address) ? SIGN_IN_LIMITS.perAddress : SIGN_IN_LIMITS.perAccount,
    windowSeconds: SIGN_IN_LIMITS.windowSeconds,
  });
}
