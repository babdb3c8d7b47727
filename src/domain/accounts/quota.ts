/**
 * The monthly quota (docs/api.md#limits): successful generations per user per UTC calendar month,
 * against the tier's limit. Charging is atomic in the store (`UsageRepository.tryCharge`), so with
 * k units left exactly k of any number of concurrent requests succeed, across processes.
 */
import type { z } from 'zod';
import { profileOf } from './accounts.js';
import { QuotaExceededError } from '../kernel/errors.js';
import type { User } from '../kernel/records.js';
import { TIER_QUOTAS } from '../design.js';
import { monthOf, monthStart, nextMonthStart, secondsUntilReset } from '../kernel/period.js';
import type { Logger } from 'pino';
import type { Clock, RecordStore } from '../kernel/ports.js';
import type { tokenValidationSchema, usageSchema } from './schemas.js';

export type UsageView = z.infer<typeof usageSchema>;
export type TokenValidation = z.infer<typeof tokenValidationSchema>;

/** A unit of quota held by one generation, to be given back if the generation fails. */
export interface Charge {
  userId: string;
  month: string;
  /** The store's receipt, to refund exactly this unit. */
  receipt: string;
  /** The key it was charged under ({@link Quota.chargeOnce}), if any. */
  key?: string;
}

/** The quota use cases. */
export interface Quota {
  /** Reserves one generation atomically; throws QuotaExceededError when the tier's units are used up. */
  charge(user: User): Promise<Charge>;
  /**
   * As {@link charge}, once per `key`: a second call with the same key answers the first charge (a
   * batch item retried after a crash is charged once). QuotaExceededError.
   */
  chargeOnce(user: User, key: string): Promise<Charge>;
  /**
   * A generation under `key` was recorded: its unit is held (charged again if a process that gave
   * up on it refunded it meanwhile, past the tier's limit if need be: the unit was held when the
   * generation began) and marked made good, so that the charge sweep leaves it alone.
   */
  settle(user: User, key: string): Promise<void>;
  /** Gives a reserved unit back (its generation failed). Refunding twice is a no-op where the store can tell. */
  refund(charge: Charge): Promise<void>;
  /**
   * Charge → work → refund, the one way a use case spends quota: one unit of `user`'s month is
   * charged (once per `key` when given, as {@link chargeOnce}), then `work` runs with it; when
   * `work` throws, the unit is refunded and the error rethrown. QuotaExceededError, before `work`
   * runs, when none is left. A refund that fails is logged, never thrown over the work's error.
   */
  withCharge<T>(user: User, work: (charge: Charge) => Promise<T>, options?: { key?: string }): Promise<T>;
  /** docs/api.md#endpoints. `period.end` is the first instant of the next UTC month; `percentUsed` has two decimals. */
  usage(user: User): Promise<UsageView>;
  /** docs/api.md#endpoints: the caller's profile and this month's usage. */
  validation(user: User): Promise<TokenValidation>;
}

export function createQuota(store: RecordStore, clock: Clock, logger?: Logger): Quota {
  const exceeded = (user: User, now: Date) =>
    new QuotaExceededError(TIER_QUOTAS[user.tier], user.tier, nextMonthStart(now), secondsUntilReset(now));

  /** One unit of this month, once per `key` when given; QuotaExceededError when none is left. */
  async function chargeThisMonth(
    user: User,
    key?: string,
    limit: number = TIER_QUOTAS[user.tier],
  ): Promise<Charge> {
    const now = clock.now();
    const month = monthOf(now);
    const receipt =
      key === undefined
        ? await store.usage.tryCharge(user.id, month, limit)
        : await store.usage.tryChargeOnce(user.id, month, limit, key);
    if (receipt === undefined) throw exceeded(user, now);
    return { userId: user.id, month, receipt, ...(key === undefined ? {} : { key }) };
  }

  const refund = (charge: Charge) =>
    store.usage.refund(charge.userId, charge.month, charge.receipt, charge.key);

  async function counts(user: User) {
    const now = clock.now();
    const month = monthOf(now);
    const limit = TIER_QUOTAS[user.tier];
    const generated = await store.usage.get(user.id, month);
    return { now, month, limit, generated, remaining: Math.max(0, limit - generated) };
  }

  return {
    charge: (user) => chargeThisMonth(user),

    chargeOnce: (user, key) => chargeThisMonth(user, key),

    async settle(user, key) {
      await chargeThisMonth(user, key, Number.MAX_SAFE_INTEGER);
      await store.usage.settle(key);
    },

    refund,

    async withCharge(user, work, { key } = {}) {
      const charge = await chargeThisMonth(user, key);
      try {
        return await work(charge);
      } catch (err) {
        await refund(charge).catch((e: unknown) => logger?.error({ err: e, charge }, 'quota refund failed'));
        throw err;
      }
    },

    async usage(user) {
      const c = await counts(user);
      return {
        period: { start: monthStart(c.now).toISOString(), end: nextMonthStart(c.now).toISOString() },
        usage: {
          generated: c.generated,
          limit: c.limit,
          remaining: c.remaining,
          percentUsed: Math.round((c.generated / c.limit) * 10_000) / 100,
        },
        tier: user.tier,
      };
    },

    async validation(user) {
      const c = await counts(user);
      return {
        user: profileOf(user),
        usage: { month: c.month, quota: c.limit, count: c.generated, remaining: c.remaining },
      };
    },
  };
}
