/**
 * A site's budget of new cards (issue 41): anyone may fetch a site link, so a crawler asking for
 * new page URLs (a `keepQuery` site's `?q=…`, WordPress's `/search/<term>/`) would otherwise spend
 * a unit of the owner's quota per URL, a Pro month in minutes. The owner sets how many new cards
 * the link may make per clock hour and per calendar month (UTC); past either, a page gets its
 * earlier card or the fallback card, free, until the hour or month turns (docs/sites.md).
 *
 * Counted in the record store's usage counters, under the subject `site:<id>` (atomic and shared
 * by every process, like the quota), a period per hour (`YYYY-MM-DDTHH`) and per month (`YYYY-MM`).
 * A card already made (the same page, texts and design) is served from the render store and spends
 * nothing; a render that fails gives its units back.
 */
import type { SiteBudget } from '../kernel/records.js';
import type { Clock, UsageRepository } from '../kernel/ports.js';

/** A new site's budget (ours): a blog's new posts in an hour, and a busy month of them. */
export const SITE_BUDGET_DEFAULT: Readonly<SiteBudget> = { cardsPerHour: 30, cardsPerMonth: 300 };
/** The most an owner may set (ours): the agency tier's month is 2,000 cards. */
export const SITE_BUDGET_MAX: Readonly<SiteBudget> = { cardsPerHour: 10_000, cardsPerMonth: 100_000 };

/** Renders one client address may cause through site links (ours; see the sites module comment). */
export const SITE_RENDERS_PER_ADDRESS = { points: 20, windowSeconds: 600 } as const;

/** What a site spent of its budget in the current hour and month. */
export interface SiteBudgetUse {
  thisHour: number;
  thisMonth: number;
}

/** The periods of `at`, UTC: its hour `YYYY-MM-DDTHH` and its month `YYYY-MM`. */
export function budgetPeriods(at: Date): { hour: string; month: string } {
  const iso = at.toISOString();
  return { hour: iso.slice(0, 13), month: iso.slice(0, 7) };
}

export interface SiteBudgets {
  /**
   * Spends one new card of `siteId`'s budget: a function that gives it back (the render failed),
   * or `'hour'` / `'month'` when that part of the budget is spent.
   */
  spend(siteId: string, budget: SiteBudget): Promise<(() => Promise<void>) | 'hour' | 'month'>;
  /** What the site spent this hour and this month. */
  used(siteId: string): Promise<SiteBudgetUse>;
}

export function createSiteBudgets({ usage, clock }: { usage: UsageRepository; clock: Clock }): SiteBudgets {
  const subject = (siteId: string) => `site:${siteId}`;
  return {
    async spend(siteId, budget) {
      const who = subject(siteId);
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
    async used(siteId) {
      const { hour, month } = budgetPeriods(clock.now());
      const [thisHour, thisMonth] = await Promise.all([
        usage.get(subject(siteId), hour),
        usage.get(subject(siteId), month),
      ]);
      return { thisHour, thisMonth };
    },
  };
}
