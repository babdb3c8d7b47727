/**
 * Which crawler has which card (docs/previews.md#which-crawler-has-which-card): each fetch of a
 * site link by a known crawler (the user agents of link-previews/platforms.ts) is recorded with the
 * card it got, as a version of the page's card (1 for its first, one more for each card of new
 * content); `GET /sites/{id}/fetches` and the site's dashboard page show, per page and platform,
 * the last fetch and whether it has the current card. When a page's card changes, the page is sent
 * to Facebook's re-scrape endpoint where `FACEBOOK_APP_TOKEN` is set (src/adapters/facebook.ts), so
 * that Facebook fetches the new card without waiting its 30 days.
 */
import type { Logger } from 'pino';
import type { Clock, RecordStore } from '../kernel/ports.js';
import type { Site, SitePage } from '../kernel/records.js';
import { PLATFORMS, type PlatformRules } from '../link-previews/platforms.js';

/** Tells a platform that a page changed (Facebook's re-scrape); rejects when it refuses. */
export type Rescrape = (pageUrl: string) => Promise<void>;

/** A page's crawler fetches, as `GET /sites/{id}/fetches` answers them. */
export interface PageFetchesView {
  url: string;
  title: string | null;
  /** The version of the page's current card; null while it has none. */
  currentVersion: number | null;
  platforms: {
    platform: string;
    name: string;
    version: number;
    fetchedAt: string;
    /** Whether the platform has the page's current card. */
    current: boolean;
  }[];
}

/** Crawler fetches read for a site's view (the last per page and platform). */
const FETCHES_LISTED = 500;

export function createCrawlLog(deps: {
  store: RecordStore;
  clock: Clock;
  logger: Logger;
  rescrape?: Rescrape | undefined;
}) {
  const { store, clock, logger } = deps;
  return {
    /**
     * Records `platform`'s crawler fetching page `url`'s card `hash` (platforms.ts `crawlerOf` tells
     * it from its user agent). Never throws: a failure is logged (the card is served all the same).
     */
    async record(site: Site, url: string, hash: string, platform: PlatformRules): Promise<void> {
      try {
        const now = clock.now();
        // With `at`, a version is always answered.
        const version = (await store.sites.cardVersion(site.id, url, hash, now)) ?? 0;
        await store.sites.recordFetch({
          siteId: site.id,
          url,
          platform: platform.id,
          hash,
          version,
          fetchedAt: now,
        });
      } catch (err) {
        logger.error({ err, siteId: site.id, url }, 'a crawler fetch was not recorded');
      }
    },

    /**
     * A page's card is `hash` from now on (a new render, or the first): numbered as a version; if
     * it replaces an earlier card, the page is sent to the re-scrape endpoint (in the background).
     */
    async changed(site: Site, url: string, hash: string, before: string | null | undefined): Promise<void> {
      try {
        await store.sites.cardVersion(site.id, url, hash, clock.now());
      } catch (err) {
        logger.error({ err, siteId: site.id, url }, 'a card version was not recorded');
      }
      if (!before || before === hash || !deps.rescrape) return;
      deps.rescrape(url).then(
        () => logger.info({ siteId: site.id, url }, 'sent to Facebook for a re-scrape'),
        (err: unknown) => logger.warn({ err, siteId: site.id, url }, 'the Facebook re-scrape failed'),
      );
    },

    /** The crawler fetches of `pages` (the site's recent pages), newest page first. */
    async view(site: Site, pages: SitePage[]): Promise<PageFetchesView[]> {
      const fetches = await store.sites.listFetches(site.id, FETCHES_LISTED);
      const urls = [...new Set([...pages.map((p) => p.url), ...fetches.map((f) => f.url)])];
      return Promise.all(
        urls.map(async (url) => {
          const page = pages.find((p) => p.url === url) ?? (await store.sites.findPage(site.id, url));
          const current = page?.renderHash
            ? ((await store.sites.cardVersion(site.id, url, page.renderHash)) ?? null)
            : null;
          return {
            url,
            title: page?.title ?? null,
            currentVersion: current,
            platforms: fetches
              .filter((f) => f.url === url)
              .map((f) => ({
                platform: f.platform,
                name: PLATFORMS.find((p) => p.id === f.platform)?.name ?? f.platform,
                version: f.version,
                fetchedAt: f.fetchedAt.toISOString(),
                current: current !== null && f.version === current,
              })),
          };
        }),
      );
    },
  };
}

export type CrawlLog = ReturnType<typeof createCrawlLog>;
