/**
 * Sites: every page of a verified site gets its card from one public link in the theme's `<head>`,
 * `PUBLIC_URL/s/<siteId>.<png|jpg|webp>?url=<page URL>` (docs/sites.md). No signature and no code
 * at build time: the link is trusted because only the verified origin's pages are read.
 *
 * - `POST /sites {origin, preset}` answers a site `sit_…` with a verification token. The owner
 *   proves the origin is theirs with `<meta name="titlecard-site-verification" content="tcv_…">` on
 *   its home page, or the file `/.well-known/titlecard-site-verification` holding the token;
 *   `POST /sites/{id}/verify` fetches them through the SSRF-safe fetcher (src/adapters/safe-fetch.ts).
 * - A fetch of a site link reads the page (its URL must be on the site's origin; the fragment, and
 *   the query unless the site keeps it, are dropped), takes its title, subtitle and fields
 *   (page.ts), and serves the card from the content-addressed store (render-cache.ts): a new card
 *   costs one unit of the owner's quota, the same card is never charged twice. A page is fetched
 *   again at most every {@link SiteOptions.recheckSeconds}; in between its card is served as is.
 * - Bounds: at most {@link PAGE_FETCHES} page fetches per site per minute, of which one client
 *   address may cause {@link PAGE_FETCHES_PER_ADDRESS} (both shared across processes with
 *   REDIS_URL); a page with a problem is fetched again after {@link PROBLEM_RECHECK_SECONDS}; a
 *   page is HTML of at most 1 MiB read within 5 s (safe-fetch.ts). Whatever fails
 *   (another origin, 404, timeout, not HTML, no title) gets the site's fallback card (its name on
 *   its design), free, and is recorded as the page's problem for the dashboard.
 * - With the owner's quota used up, a page that needs a new card answers its earlier card, else the
 *   fallback card, free (render-cache.ts's stand-in).
 * - A new card also spends the site's budget (budget.ts: per hour and per month, the owner's to
 *   set), and one client address may cause at most {@link SITE_RENDERS_PER_ADDRESS} of a site's new
 *   cards; past either, the earlier card or the fallback card, free (issue 41: an anonymous
 *   crawler of new URLs cannot spend the owner's month).
 */
import { isIPv6 } from 'node:net';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Principal } from '../accounts/accounts.js';
import { assertConfirmed } from '../accounts/confirmation.js';
import { FILE_FORMATS, FILE_TYPES, type FileFormat } from '../design.js';
import {
  ForbiddenError,
  NotFoundError,
  QuotaExceededError,
  TitlecardError,
  ValidationError,
} from '../kernel/errors.js';
import { idPattern, newId, randomBase62 } from '../kernel/ids.js';
import type { Clock, PageFetcher, RecordStore, Throttle } from '../kernel/ports.js';
import type { Site, SitePage } from '../kernel/records.js';
import { parseOrThrow } from '../kernel/validate.js';
import type { Presets } from '../presets/presets.js';
import type { RenderCache, ServedRender, StandIn } from '../render-links/render-cache.js';
import { isTemplateId } from '../schemas.js';
import { siteBodySchema, siteBudgetBodySchema, type sitePageSchema, type siteSchema } from './schemas.js';
import { SITE_BUDGET_DEFAULT, SITE_RENDERS_PER_ADDRESS } from './budget.js';
import type { Ledger } from '../accounts/ledger.js';
import { decodePage, readPage, VERIFICATION_NAME } from './page.js';
import { createCrawlLog, type PageFetchesView, type Rescrape } from './crawls.js';
import { crawlerOf } from '../link-previews/platforms.js';

/** Sites per account (ours). */
export const SITES_MAX = 20;
/** Page fetches per site per minute (ours): a busy blog's new posts, not a crawl of every URL. */
export const PAGE_FETCHES = { points: 60, windowSeconds: 60 };
/**
 * Page fetches (and pages recorded as problems) one client address may cause per site per minute,
 * counted before {@link PAGE_FETCHES} (ours; issue 55, item 4): one address asking for made-up
 * URLs used up the site's minute in 8 s and kept every new page on the fallback card. A third of
 * the site's minute: a platform's crawler unfurls a few new pages of a site at a time, and it takes
 * three addresses at once to spend a site's minute (a real page's fetch then waits for the next).
 */
export const PAGE_FETCHES_PER_ADDRESS = { points: 20, windowSeconds: 60 };
/**
 * Seconds before a page that had a problem (a 404, no title, not HTML) is fetched again, at most
 * (ours; issue 55, item 5): a page asked for before it is published goes live within a minute,
 * not after `SITE_RECHECK`. Bounded by the fetch limits above like any fetch.
 */
export const PROBLEM_RECHECK_SECONDS = 60;
/**
 * The key a client address is counted under by the per-address limits: an IPv4 address as it is
 * (an IPv4-mapped IPv6 one as its IPv4); an IPv6 address by its /64, the network one subscriber is
 * given (RFC 6177), so that the 2^64 addresses of one network are one client.
 */
export function addressKeyOf(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1] as string;
  if (!isIPv6(address)) return address;
  const [head = '', tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::')
    ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/** Pages listed by `GET /sites/{id}/pages`: the most recently checked. */
export const RECENT_PAGES = 50;

export type SiteView = z.infer<typeof siteSchema>;
export type SitePageView = z.infer<typeof sitePageSchema>;

export interface Sites {
  /** `POST /sites`. ValidationError on a field (named), on a preset that is not the caller's, or past {@link SITES_MAX}. */
  create(principal: Principal, body: unknown): Promise<SiteView>;
  /** `GET /sites`: newest first. */
  list(principal: Principal): Promise<SiteView[]>;
  /** `GET /sites/{id}`. NotFoundError. */
  get(principal: Principal, id: string): Promise<SiteView>;
  /**
   * `PATCH /sites/{id}`: sets the site's budget of new cards (`cardsPerHour`, `cardsPerMonth`; the
   * other keeps its value). ValidationError on a field; NotFoundError.
   */
  setBudget(principal: Principal, id: string, body: unknown): Promise<SiteView>;
  /**
   * `POST /sites/{id}/verify`: looks for the token in the home page's meta tag, then in the file.
   * ValidationError on `origin` saying what was found instead; NotFoundError.
   */
  verify(principal: Principal, id: string): Promise<SiteView>;
  /** `DELETE /sites/{id}`: its link answers 404 from then on. NotFoundError. */
  delete(principal: Principal, id: string): Promise<void>;
  /** `GET /sites/{id}/pages`: the {@link RECENT_PAGES} most recently checked pages, problems included. */
  pages(principal: Principal, id: string): Promise<SitePageView[]>;
  /**
   * `GET /s/…`: `path` from `/s/`, `url` the page, `client` the caller's address (for
   * {@link SITE_RENDERS_PER_ADDRESS}; none: not counted), `userAgent` its User-Agent (a known
   * crawler's fetch is recorded, crawls.ts). NotFoundError (no such site, or its
   * preset deleted), ForbiddenError (not verified yet), ValidationError (no `url`). Anything wrong
   * with the page itself answers the fallback card.
   */
  fetch(
    path: string,
    url: unknown,
    ifNoneMatch?: string,
    client?: string,
    userAgent?: string,
  ): Promise<ServedRender>;
  /**
   * `GET /sites/{id}/fetches`: which crawler has which card (crawls.ts), per recent page and
   * platform. NotFoundError.
   */
  fetches(principal: Principal, id: string): Promise<PageFetchesView[]>;
  /** Deletes a user's sites (account deletion; their cards go with the render store's). */
  deleteAllOf(userId: string): Promise<void>;
}

export interface SiteOptions {
  /** Seconds before a page is fetched again (`SITE_RECHECK`; its default is the configuration table's). */
  recheckSeconds: number;
}

export interface SitesDeps {
  store: RecordStore;
  clock: Clock;
  logger: Logger;
  publicUrl: string;
  cache: RenderCache;
  presets: Pick<Presets, 'use'>;
  fetchPage: PageFetcher;
  /** Counts page fetches per site ({@link PAGE_FETCHES}). */
  pageThrottle: Throttle;
  /** Counts page fetches per site and client address ({@link PAGE_FETCHES_PER_ADDRESS}). */
  pageAddressThrottle: Throttle;
  /** Counts a site's new cards per client address ({@link SITE_RENDERS_PER_ADDRESS}). */
  addressThrottle: Throttle;
  /** Where the sites' budgets of new cards are counted (budget.ts). */
  ledger: Pick<Ledger, 'spendSite' | 'siteUsed'>;
  options: SiteOptions;
  /** Facebook's re-scrape of a changed page (`FACEBOOK_APP_TOKEN`); none: not sent. */
  rescrape?: Rescrape | undefined;
}

const LINK = new RegExp(`^/s/(${idPattern('sit', { anchored: false }).source})\\.(png|jpg|webp)$`);
const HTML = /^\s*(text\/html|application\/xhtml\+xml)\s*(;|$)/i;

/** The path of the verification file under the origin (RFC 8615 well-known URI). */
export const VERIFICATION_FILE = `/.well-known/${VERIFICATION_NAME}`;

/** Why the page fetcher refused: its message without the field's prefix (safe-fetch.ts). */
const reasonOf = (err: Error) => err.message.replace(/^Could not fetch url: /, '');

/** A page that gets the fallback card, and why (the dashboard shows the reason). */
class PageProblem extends Error {}

export function createSites(deps: SitesDeps): Sites {
  const { store, clock, cache, presets, fetchPage, ledger, logger } = deps;
  const crawls = createCrawlLog({ store, clock, logger, rescrape: deps.rescrape });
  const { pageThrottle, pageAddressThrottle, addressThrottle } = deps;

  /**
   * Spends one page fetch (or problem write) of `site` for `client`: true, or the stand-in's reason
   * when the client address's share ({@link PAGE_FETCHES_PER_ADDRESS}, counted first: `address`) or
   * the site's minute ({@link PAGE_FETCHES}: `page`) is spent. Each is counted in one step, so
   * parallel requests cannot all pass a check before any is counted; an address past its share
   * spends nothing of the site's. IPv6 clients count by their /64 ({@link addressKeyOf}).
   */
  async function spendPageFetch(site: Site, client: string | undefined): Promise<true | StandIn> {
    if (client !== undefined && !(await pageAddressThrottle.take(`${site.id}:${addressKeyOf(client)}`)))
      return 'address';
    if (!(await pageThrottle.take(site.id))) return 'page';
    return true;
  }

  const view = async (s: Site): Promise<SiteView> => ({
    id: s.id,
    origin: s.origin,
    name: s.name,
    preset: s.presetId,
    keepQuery: s.keepQuery,
    description: s.description,
    budget: { ...s.budget, ...(await ledger.siteUsed(s.id)) },
    verified: s.verifiedAt !== null,
    verifiedAt: s.verifiedAt?.toISOString() ?? null,
    createdAt: s.createdAt.toISOString(),
    verification: {
      token: s.verificationToken,
      meta: `<meta name="${VERIFICATION_NAME}" content="${s.verificationToken}">`,
      fileUrl: `${s.origin}${VERIFICATION_FILE}`,
    },
    link: `${deps.publicUrl}/s/${s.id}.png?url=`,
    snippet: `<meta property="og:image" content="${deps.publicUrl}/s/${s.id}.png?url=PAGE_URL">`,
  });

  async function owned(principal: Principal, id: string): Promise<Site> {
    const site = await store.sites.find(id);
    if (!site || site.userId !== principal.workspace.id)
      throw new NotFoundError(`No site with id ${id} on this account`);
    return site;
  }

  /** The page URL as the site's page key: on the site's origin, without fragment (and query). */
  function pageKey(site: Site, raw: string): string {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new PageProblem(`${raw.slice(0, 200)} is not a URL`);
    }
    if (url.origin !== site.origin)
      throw new PageProblem(`${url.origin} is not this site's origin ${site.origin}`);
    url.hash = '';
    if (!site.keepQuery) url.search = '';
    return url.href;
  }

  /** Fetches and reads a page; PageProblem with the reason when it cannot give a card. */
  async function readSitePage(site: Site, url: string) {
    let page;
    try {
      page = await fetchPage(url);
    } catch (err) {
      if (err instanceof TitlecardError) throw new PageProblem(reasonOf(err));
      throw err;
    }
    if (new URL(page.url).origin !== site.origin)
      throw new PageProblem(`the page redirected to ${page.url}, which is not on ${site.origin}`);
    if (!HTML.test(page.contentType))
      throw new PageProblem(`the page is ${page.contentType || 'of no Content-Type'}, not HTML`);
    const facts = readPage(decodePage(page.body, page.contentType));
    if (!facts.title) throw new PageProblem('the page has no og:title, titlecard:title or <title>');
    return {
      title: facts.title,
      subtitle: facts.subtitle ?? (site.description ? facts.description : undefined),
      image: facts.image,
      fields: facts.fields,
    };
  }

  async function fallback(site: Site, userId: string, format: FileFormat, standIn: StandIn) {
    const user = await store.workspaces.find(userId);
    const preset = await store.presets.find(userId, site.presetId);
    if (!user || !preset) throw new NotFoundError(`The preset of site ${site.id} has been deleted`);
    return { ...(await cache.fallback(user, preset, site.name, format)), standIn };
  }

  /** Records a page's problem (within the fetch budget, so a flood of bad URLs writes little). */
  async function recordProblem(site: Site, url: string, problem: string) {
    logger.info({ siteId: site.id, url, problem }, 'site page gets the fallback card');
    await store.sites.savePage({
      siteId: site.id,
      url,
      title: null,
      subtitle: null,
      renderHash: null,
      problem,
      checkedAt: clock.now(),
    });
  }

  return {
    async create(principal, body) {
      const parsed = parseOrThrow(siteBodySchema, body ?? {});
      assertConfirmed(principal.user, 'add sites');
      const origin = new URL(parsed.origin).origin;
      await presets.use(principal.workspace.id, parsed.preset, 'preset');
      if ((await store.sites.list(principal.workspace.id)).length >= SITES_MAX)
        throw new ValidationError(
          'origin',
          'max',
          `Expected at most ${SITES_MAX} sites per account: delete one first`,
        );
      const site: Site = {
        id: newId('sit'),
        userId: principal.workspace.id,
        origin,
        name: parsed.name ?? new URL(origin).host,
        presetId: parsed.preset,
        keepQuery: parsed.keepQuery ?? false,
        description: parsed.description ?? false,
        budget: {
          cardsPerHour: parsed.cardsPerHour ?? SITE_BUDGET_DEFAULT.cardsPerHour,
          cardsPerMonth: parsed.cardsPerMonth ?? SITE_BUDGET_DEFAULT.cardsPerMonth,
        },
        verificationToken: `tcv_${randomBase62(32)}`,
        verifiedAt: null,
        createdAt: clock.now(),
      };
      await store.sites.create(site);
      return view(site);
    },

    async list(principal) {
      return Promise.all((await store.sites.list(principal.workspace.id)).map(view));
    },

    async get(principal, id) {
      return view(await owned(principal, id));
    },

    async setBudget(principal, id, body) {
      const parsed = parseOrThrow(siteBudgetBodySchema, body ?? {});
      const site = await owned(principal, id);
      const budget = {
        cardsPerHour: parsed.cardsPerHour ?? site.budget.cardsPerHour,
        cardsPerMonth: parsed.cardsPerMonth ?? site.budget.cardsPerMonth,
      };
      if (!(await store.sites.setBudget(principal.workspace.id, id, budget)))
        throw new NotFoundError(`No site with id ${id} on this account`);
      return view({ ...site, budget });
    },

    async verify(principal, id) {
      const site = await owned(principal, id);
      if (site.verifiedAt) return view(site);
      const token = site.verificationToken;
      const tried: string[] = [];
      // The proof must come from the site's own origin: a redirect elsewhere proves nothing (issue 41).
      const elsewhere = (fetched: { url: string }, asked: string) => {
        const landed = new URL(fetched.url).origin;
        if (landed === site.origin) return false;
        tried.push(
          `${asked} redirects to another origin, ${landed}: the proof must come from ${site.origin} itself`,
        );
        return true;
      };
      try {
        const home = await fetchPage(`${site.origin}/`);
        if (!elsewhere(home, `${site.origin}/`)) {
          const found = HTML.test(home.contentType)
            ? readPage(decodePage(home.body, home.contentType)).verification
            : undefined;
          if (found === token) return view(await markVerified(site));
          // Another page's token is not echoed: it may be anybody's.
          tried.push(`${site.origin}/ has ${found ? 'another token' : `no ${VERIFICATION_NAME} meta tag`}`);
        }
      } catch (err) {
        if (!(err instanceof TitlecardError)) throw err;
        tried.push(`${site.origin}/: ${reasonOf(err)}`);
      }
      try {
        const file = await fetchPage(`${site.origin}${VERIFICATION_FILE}`);
        if (!elsewhere(file, `${site.origin}${VERIFICATION_FILE}`)) {
          if (decodePage(file.body, file.contentType).trim() === token) return view(await markVerified(site));
          tried.push(`${site.origin}${VERIFICATION_FILE} does not hold the token`);
        }
      } catch (err) {
        if (!(err instanceof TitlecardError)) throw err;
        tried.push(`${site.origin}${VERIFICATION_FILE}: ${reasonOf(err)}`);
      }
      throw new ValidationError(
        'origin',
        'format',
        `Expected ${token} in the ${VERIFICATION_NAME} meta tag of the home page or in the file ${VERIFICATION_FILE}, but ${tried.join('; ')}`,
      );

      async function markVerified(s: Site): Promise<Site> {
        const at = clock.now();
        await store.sites.setVerified(principal.workspace.id, s.id, at);
        return { ...s, verifiedAt: at };
      }
    },

    async delete(principal, id) {
      if (!(await store.sites.delete(principal.workspace.id, id)))
        throw new NotFoundError(`No site with id ${id} on this account`);
    },

    async pages(principal, id) {
      const site = await owned(principal, id);
      return (await store.sites.listPages(site.id, RECENT_PAGES)).map((p: SitePage) => ({
        url: p.url,
        title: p.title,
        subtitle: p.subtitle,
        problem: p.problem,
        checkedAt: p.checkedAt.toISOString(),
      }));
    },

    async fetches(principal, id) {
      const site = await owned(principal, id);
      return crawls.view(site, await store.sites.listPages(site.id, RECENT_PAGES));
    },

    async fetch(path, rawUrl, ifNoneMatch, client, userAgent) {
      const served = await serveLink(path, rawUrl, ifNoneMatch, client);
      // A known crawler's fetch of the page's own card is recorded (crawls.ts); nothing more is
      // read for anyone else's.
      const platform = crawlerOf(userAgent);
      if (served.standIn || !platform) return served;
      const site = await store.sites.find(LINK.exec(path)?.[1] as string);
      if (site)
        await crawls.record(site, pageKey(site, rawUrl as string), served.etag.replaceAll('"', ''), platform);
      return served;
    },

    async deleteAllOf(userId) {
      await store.sites.deleteAllForUser(userId);
    },
  };

  /** `fetch` without the crawler log. */
  async function serveLink(
    path: string,
    rawUrl: unknown,
    ifNoneMatch?: string,
    client?: string,
  ): Promise<ServedRender> {
    const match = LINK.exec(path);
    const site = match ? await store.sites.find(match[1] as string) : undefined;
    if (!match || !site)
      throw new NotFoundError('No such site: its link may be mistyped, or the site deleted');
    if (!site.verifiedAt)
      throw new ForbiddenError(
        `Site ${site.id} is not verified yet: its owner must verify ${site.origin} first`,
      );
    if (typeof rawUrl !== 'string' || rawUrl === '')
      throw new ValidationError('url', 'required', 'Expected the page URL in the query parameter url');
    const format = FILE_FORMATS.find((f) => FILE_TYPES[f].extension === match[2]) as FileFormat;
    const now = clock.now();

    let url: string;
    try {
      url = pageKey(site, rawUrl);
    } catch (err) {
      if (!(err instanceof PageProblem)) throw err;
      // Counted against the fetch limits, so a flood of foreign URLs writes little.
      if ((await spendPageFetch(site, client)) === true)
        await recordProblem(site, rawUrl.slice(0, 2048), err.message);
      return fallback(site, site.userId, format, 'page');
    }
    const known = await store.sites.findPage(site.id, url);
    // A page with a problem is looked at again sooner: it may have been published since.
    const recheckSeconds = known?.problem
      ? Math.min(PROBLEM_RECHECK_SECONDS, deps.options.recheckSeconds)
      : deps.options.recheckSeconds;
    const fresh = known && now.getTime() - known.checkedAt.getTime() < recheckSeconds * 1000;
    const earlier = async () => (known?.renderHash ? cache.stored(known.renderHash) : undefined);
    if (fresh) {
      if (known.problem) return fallback(site, site.userId, format, 'page');
      if (known.renderHash && cache.matches(ifNoneMatch, known.renderHash))
        return cache.notModified(known.renderHash, format);
      const stored = await earlier();
      if (stored) return stored;
    }
    const spent = await spendPageFetch(site, client);
    if (spent !== true) {
      logger.info(
        { siteId: site.id, url, limit: spent },
        'site page fetches over their limit: the earlier card or the fallback',
      );
      return (await earlier()) ?? fallback(site, site.userId, format, spent);
    }

    const user = await store.workspaces.find(site.userId);
    const preset = await store.presets.find(site.userId, site.presetId);
    if (!user || !preset) throw new NotFoundError(`The preset of site ${site.id} has been deleted`);
    let texts;
    let card;
    try {
      texts = await readSitePage(site, url);
      // A page's fields fill the preset's template when it is one of the user's; else they are unused.
      const fields = isTemplateId(preset.options.template) ? texts.fields : undefined;
      card = await cache.plan(user, { preset, ...texts, fields, format });
    } catch (err) {
      if (!(err instanceof PageProblem) && !(err instanceof ValidationError)) throw err;
      await recordProblem(site, url, err.message);
      return fallback(site, site.userId, format, 'page');
    }
    const page: SitePage = {
      siteId: site.id,
      url,
      title: texts.title,
      subtitle: texts.subtitle ?? null,
      renderHash: card.hash,
      problem: null,
      checkedAt: now,
    };
    if (cache.matches(ifNoneMatch, card.hash)) {
      await store.sites.savePage(page);
      await crawls.changed(site, url, card.hash, known?.renderHash);
      return cache.notModified(card.hash, format);
    }
    // A new card spends the site's budget and the client address's share (budget.ts); a card
    // already made spends neither.
    let giveBack: (() => Promise<void>) | undefined;
    if (!(await cache.stored(card.hash))) {
      const standIn = async (why: StandIn, reason: string) => {
        logger.info({ siteId: site.id, url, reason }, 'site page needs a new card past a limit');
        const stand = (await earlier()) ?? (await fallback(site, site.userId, format, why));
        return { ...stand, standIn: why };
      };
      const addressKey = client === undefined ? undefined : `${site.id}:${addressKeyOf(client)}`;
      // Counted in one step, as the page fetches are (spendPageFetch).
      if (addressKey !== undefined && !(await addressThrottle.take(addressKey)))
        return standIn('address', `this address caused ${SITE_RENDERS_PER_ADDRESS.points} new cards`);
      const spent = await ledger.spendSite(site.id, site.budget);
      if (spent === 'hour' || spent === 'month')
        return standIn('budget', `the site's new cards for this ${spent} are spent`);
      giveBack = spent;
    }
    try {
      const served = await cache.serve(user, card, true);
      await store.sites.savePage(page);
      await crawls.changed(site, url, card.hash, known?.renderHash);
      return served;
    } catch (err) {
      await giveBack?.().catch((e: unknown) =>
        logger.error({ err: e, siteId: site.id }, 'site budget not given back'),
      );
      if (err instanceof QuotaExceededError) {
        const stand = (await earlier()) ?? (await fallback(site, site.userId, format, 'quota'));
        return { ...stand, standIn: 'quota' };
      }
      if (!(err instanceof ValidationError)) throw err;
      // The page named a background that cannot be read (titlecard:image).
      await recordProblem(site, url, err.message);
      return fallback(site, site.userId, format, 'page');
    }
  }
}
