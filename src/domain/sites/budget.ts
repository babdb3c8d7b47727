/**
 * A site's budget of new cards (issue 41): anyone may fetch a site link, so a crawler asking for
 * new page URLs (a `keepQuery` site's `?q=…`, WordPress's `/search/<term>/`) would otherwise spend
 * a unit of the owner's quota per URL, a Pro month in minutes. The owner sets how many new cards
 * the link may make per clock hour and per calendar month (UTC); past either, a page gets its
 * earlier card or the fallback card, free, until the hour or month turns (docs/sites.md).
 *
 * Counted in the charge ledger (accounts/ledger.ts `spendSite`), under the subject `site:<id>`
 * (atomic and shared by every process, like the quota), a period per hour (`YYYY-MM-DDTHH`) and per
 * month (`YYYY-MM`).
 * A card already made (the same page, texts and design) is served from the render store and spends
 * nothing; a render that fails gives its units back.
 */
import type { SiteBudget } from '../kernel/records.js';

/** A new site's budget (ours): a blog's new posts in an hour, and a busy month of them. */
export const SITE_BUDGET_DEFAULT: Readonly<SiteBudget> = { cardsPerHour: 30, cardsPerMonth: 300 };
/** The most an owner may set (ours): the agency tier's month is 2,000 cards. */
export const SITE_BUDGET_MAX: Readonly<SiteBudget> = { cardsPerHour: 10_000, cardsPerMonth: 100_000 };

/** Renders one client address may cause through site links (ours; see the sites module comment). */
export const SITE_RENDERS_PER_ADDRESS = { points: 20, windowSeconds: 600 } as const;
