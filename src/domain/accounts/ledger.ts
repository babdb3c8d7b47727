/**
 * The charge ledger: the one home of every usage counter (issue 50). A generation's unit of the
 * monthly quota (docs/api.md#limits) and a site's budget of new cards (sites/budget.ts) are
 * charged, settled and refunded here, and nowhere else; `test/system/architecture.test.ts` checks
 * that no other module of the domain touches the store's usage counters.
 *
 * Charging is atomic in the store (`UsageRepository.tryCharge`), so with k units left exactly k of
 * any number of concurrent requests succeed, across processes. A charge made under a key is made
 * once per key: any process may charge, settle or refund the same unit (images/generation.ts
 * states the rules that make a charge and its image one fact).
 */
import type { Logger } from 'pino';
import { TIER_QUOTAS } from '../design.js';
import { QuotaExceededError } from '../kernel/errors.js';
import { monthOf, nextMonthStart, secondsUntilReset } from '../kernel/period.js';
import type { Clock, RecordStore } from '../kernel/ports.js';
import type { SiteBudget, Workspace } from '../kernel/records.js';

/** What the ledger charges: a workspace, by its id and tier (docs/workspaces.md). */
export type Account = Pick<Workspace, 'id' | 'tier'>;

/** A unit of quota held by one generation, to be given back if the generation fails. */
export interface Charge {
  userId: string;
  month: string;
  /** The store's receipt, to refund exactly this unit. */
  receipt: string;
  /** The key it was charged under, if any. */
  key?: string;
}

/** A month's counts of one account: its tier's limit, the units used and left. */
export interface MonthUse {
  /** When it was counted (the clock's now). */
  now: Date;
  /** `YYYY-MM`, UTC. */
  month: string;
  limit: number;
  generated: number;
  /** `limit - generated`, never below zero (a settled unit may pass the limit). */
  remaining: number;
}

/** What a site spent of its budget in the current hour and month. */
export interface SiteBudgetUse {
  thisHour: number;
  thisMonth: number;
}

/** Charges the charge sweep looks at in one run (the oldest of its window first). */
export const CHARGE_SWEEP_BATCH = 5000;

/** The periods of `at`, UTC: its hour `YYYY-MM-DDTHH` and its month `YYYY-MM`. */
function budgetPeriods(at: Date): { hour: string; month: string } {
  const iso = at.toISOString();
  return { hour: iso.slice(0, 13), month: iso.slice(0, 7) };
}

export interface Ledger {
  /**
   * Reserves one unit of `account`'s month atomically, once per `key` when given (a second call with
   * the same key answers the first charge: a batch item retried after a crash is charged once).
   * Throws QuotaExceededError when the tier's units are used up.
   */
  charge(account: Account, key?: string): Promise<Charge>;
  /**
   * A generation under `key` was recorded: its unit is held (charged again if a process that gave
   * up on it refunded it meanwhile, past the tier's limit if need be: the unit was held when the
   * generation began) and marked made good, so that the charge sweep leaves it alone. Throws only
   * the store's own errors (an outage).
   */
  settle(account: Account, key: string): Promise<void>;
  /**
   * Gives a reserved unit back (its generation failed). Refunding twice is a no-op where the store
   * can tell. A refund that fails is logged and not thrown: the caller's own error matters more.
   */
  refund(charge: Charge): Promise<void>;
  /**
   * Charge → work → refund: one unit of `account`'s month is charged (once per `key` when given), then
   * `work` runs with it; when `work` throws, the unit is refunded and the error rethrown.
   * QuotaExceededError, before `work` runs, when none is left.
   */
  withCharge<T>(
    account: Account,
    work: (charge: Charge) => Promise<T>,
    options?: { key?: string },
  ): Promise<T>;
  /**
   * The charge sweep (issue 44): refunds the charges under keys starting with `prefix` made between
   * `since` and `olderThan` and not settled, whose work `made(charge)` says was never done (their
   * process died between the charge and the record). A charge made good meanwhile (`made` true
   * after the refund) takes its unit again. Returns the keys refunded, or that would be with
   * `dryRun`. Looks at {@link CHARGE_SWEEP_BATCH} charges at most.
   */
  sweep(
    options: { prefix: string; since: Date; olderThan: Date; dryRun?: boolean },
    made: (charge: { userId: string; key: string }) => Promise<boolean>,
  ): Promise<string[]>;
  /** `account`'s counts this month (usage views, rate-limit headers). */
  used(account: Account): Promise<MonthUse>;
  /**
   * Spends one new card of `siteId`'s budget (sites/budget.ts): a function that gives it back (the
   * render failed), or `'hour'` / `'month'` when that part of the budget is spent. Counted under
   * the subject `site:<id>`, a period per hour (`YYYY-MM-DDTHH`) and per month (`YYYY-MM`), UTC.
   */
  spendSite(siteId: string, budget: SiteBudget): Promise<(() => Promise<void>) | 'hour' | 'month'>;
  /** What the site spent this hour and this month. */
  siteUsed(siteId: string): Promise<SiteBudgetUse>;
}

/**
 * The ledger over `store`'s usage counters, its months and hours read from `clock`; a refund that
 * fails is logged to `logger`.
 */
/**
 * The ledger on `store`. `upgradeUrl` (billing on): named in the quota's refusal, where the owner
 * buys a larger plan.
 */
export function createLedger(store: RecordStore, clock: Clock, logger?: Logger, upgradeUrl?: string): Ledger {
  const usage = store.usage;
  const exceeded = (user: Account, now: Date) =>
    new QuotaExceededError(
      TIER_QUOTAS[user.tier],
      user.tier,
      nextMonthStart(now),
      secondsUntilReset(now),
      upgradeUrl,
    );

  /** One unit of this month, once per `key` when given; QuotaExceededError when none is left. */
  async function chargeThisMonth(
    user: Account,
    key?: string,
    limit: number = TIER_QUOTAS[user.tier],
  ): Promise<Charge> {
    const now = clock.now();
    const month = monthOf(now);
    const receipt =
      key === undefined
        ? await usage.tryCharge(user.id, month, limit)
        : await usage.tryChargeOnce(user.id, month, limit, key);
    if (receipt === undefined) throw exceeded(user, now);
    return { userId: user.id, month, receipt, ...(key === undefined ? {} : { key }) };
  }

  const refund = (charge: Charge) =>
    usage
      .refund(charge.userId, charge.month, charge.receipt, charge.key)
      .catch((err: unknown) => logger?.error({ err, charge }, 'quota refund failed'));

  async function settle(account: Account, key: string) {
    await chargeThisMonth(account, key, Number.MAX_SAFE_INTEGER);
    await usage.settle(key);
  }

  const siteSubject = (siteId: string) => `site:${siteId}`;

  return {
    charge: (user, key) => chargeThisMonth(user, key),

    settle,

    refund,

    async withCharge(user, work, { key } = {}) {
      const charge = await chargeThisMonth(user, key);
      try {
        return await work(charge);
      } catch (err) {
        await refund(charge);
        throw err;
      }
    },

    async sweep({ prefix, since, olderThan, dryRun = false }, made) {
      const refunded: string[] = [];
      for (const charge of await usage.keyedBetween(prefix, since, olderThan, CHARGE_SWEEP_BATCH)) {
        if (await made(charge)) continue;
        refunded.push(charge.key);
        if (dryRun) continue;
        await usage.refund(charge.userId, charge.month, charge.receipt, charge.key);
        // Made meanwhile: the work takes its unit again.
        if (!(await made(charge))) continue;
        refunded.pop();
        const account = await store.workspaces.find(charge.userId);
        if (account) await settle(account, charge.key);
      }
      return refunded;
    },

    async used(user) {
      const now = clock.now();
      const month = monthOf(now);
      const limit = TIER_QUOTAS[user.tier];
      const generated = await usage.get(user.id, month);
      return { now, month, limit, generated, remaining: Math.max(0, limit - generated) };
    },

    async spendSite(siteId, budget) {
      const who = siteSubject(siteId);
      const { hour, month } = budgetPeriods(clock.now());
      const monthly = await usage.tryCharge(who, month, budget.cardsPerMonth);
      if (!monthly) return 'month';
      const hourly = await usage.tryCharge(who, hour, budget.cardsPerHour);
      if (!hourly) {
        await usage.refund(who, month, monthly);
        return 'hour';
      }
      return async () => {
        await usage.refund(who, hour, hourly);
        await usage.refund(who, month, monthly);
      };
    },

    async siteUsed(siteId) {
      const { hour, month } = budgetPeriods(clock.now());
      const [thisHour, thisMonth] = await Promise.all([
        usage.get(siteSubject(siteId), hour),
        usage.get(siteSubject(siteId), month),
      ]);
      return { thisHour, thisMonth };
    },
  };
}
