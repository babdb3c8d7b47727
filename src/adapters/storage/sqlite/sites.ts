/** Sites and what was last seen of their pages (src/domain/sites). */
import type Database from 'better-sqlite3';
import type { RecordStore } from '../../../domain/kernel/ports.js';
import type { Site, SitePage } from '../../../domain/kernel/records.js';

interface SiteRow {
  id: string;
  user_id: string;
  origin: string;
  name: string;
  preset_id: string;
  keep_query: number;
  description: number;
  cards_per_hour: number;
  cards_per_month: number;
  verification_token: string;
  verified_at: string | null;
  created_at: string;
}

interface SitePageRow {
  site_id: string;
  url: string;
  title: string | null;
  subtitle: string | null;
  render_hash: string | null;
  problem: string | null;
  checked_at: string;
}

/** A crawler's fetch of the card it fetched last is written again after this long, ms. */
const FETCH_REWRITE_MS = 10 * 60_000;

interface CrawlerFetchRow {
  site_id: string;
  url: string;
  platform: string;
  hash: string;
  version: number;
  fetched_at: string;
}

const toSite = (r: SiteRow): Site => ({
  id: r.id,
  userId: r.user_id,
  origin: r.origin,
  name: r.name,
  presetId: r.preset_id,
  keepQuery: r.keep_query === 1,
  description: r.description === 1,
  budget: { cardsPerHour: r.cards_per_hour, cardsPerMonth: r.cards_per_month },
  verificationToken: r.verification_token,
  verifiedAt: r.verified_at === null ? null : new Date(r.verified_at),
  createdAt: new Date(r.created_at),
});

const toPage = (r: SitePageRow): SitePage => ({
  siteId: r.site_id,
  url: r.url,
  title: r.title,
  subtitle: r.subtitle,
  renderHash: r.render_hash,
  problem: r.problem,
  checkedAt: new Date(r.checked_at),
});

/** The `sites` repository of the {@link RecordStore} on SQLite. */
export function sqliteSites(db: Database.Database): RecordStore['sites'] {
  const q = {
    insert: db.prepare(
      `INSERT INTO sites (id, user_id, origin, name, preset_id, keep_query, description, cards_per_hour, cards_per_month, verification_token, verified_at, created_at)
       VALUES (@id, @userId, @origin, @name, @presetId, @keepQuery, @description, @cardsPerHour, @cardsPerMonth, @verificationToken, @verifiedAt, @createdAt)`,
    ),
    find: db.prepare<[string], SiteRow>('SELECT * FROM sites WHERE id = ?'),
    list: db.prepare<[string], SiteRow>(
      'SELECT * FROM sites WHERE user_id = ? ORDER BY created_at DESC, id DESC',
    ),
    verify: db.prepare('UPDATE sites SET verified_at = ? WHERE id = ? AND user_id = ?'),
    budget: db.prepare(
      'UPDATE sites SET cards_per_hour = @cardsPerHour, cards_per_month = @cardsPerMonth WHERE id = @id AND user_id = @userId',
    ),
    delete: db.prepare('DELETE FROM sites WHERE id = ? AND user_id = ?'),
    deletePages: db.prepare('DELETE FROM site_pages WHERE site_id = ?'),
    userSites: db.prepare<[string], { id: string }>('SELECT id FROM sites WHERE user_id = ?'),
    savePage: db.prepare(
      `INSERT OR REPLACE INTO site_pages (site_id, url, title, subtitle, render_hash, problem, checked_at)
       VALUES (@siteId, @url, @title, @subtitle, @renderHash, @problem, @checkedAt)`,
    ),
    page: db.prepare<[string, string], SitePageRow>('SELECT * FROM site_pages WHERE site_id = ? AND url = ?'),
    pages: db.prepare<[string, number], SitePageRow>(
      'SELECT * FROM site_pages WHERE site_id = ? ORDER BY checked_at DESC, url LIMIT ?',
    ),
  };
  const crawl = {
    version: db.prepare<[string, string, string], { version: number }>(
      'SELECT version FROM site_card_versions WHERE site_id = ? AND url = ? AND hash = ?',
    ),
    addVersion: db.prepare(
      `INSERT INTO site_card_versions (site_id, url, hash, version, first_seen_at)
       SELECT @siteId, @url, @hash, COALESCE(MAX(version), 0) + 1, @at FROM site_card_versions
       WHERE site_id = @siteId AND url = @url`,
    ),
    // The same card fetched again within 10 minutes is not written again (a client that calls
    // itself a crawler on every fetch writes at most once per page, platform and 10 minutes).
    saveFetch: db.prepare(
      `INSERT INTO site_fetches (site_id, url, platform, hash, version, fetched_at)
       VALUES (@siteId, @url, @platform, @hash, @version, @fetchedAt)
       ON CONFLICT (site_id, url, platform) DO UPDATE SET
         hash = excluded.hash, version = excluded.version, fetched_at = excluded.fetched_at
       WHERE site_fetches.hash != excluded.hash OR site_fetches.fetched_at < @staleBefore`,
    ),
    fetches: db.prepare<[string, number], CrawlerFetchRow>(
      'SELECT * FROM site_fetches WHERE site_id = ? ORDER BY fetched_at DESC, url, platform LIMIT ?',
    ),
    deleteVersions: db.prepare('DELETE FROM site_card_versions WHERE site_id = ?'),
    deleteFetches: db.prepare('DELETE FROM site_fetches WHERE site_id = ?'),
  };
  /** A card's version, numbered in one immediate transaction (no two processes number at once). */
  const cardVersion = db.transaction((siteId: string, url: string, hash: string, at: string) => {
    const known = crawl.version.get(siteId, url, hash);
    if (known) return known.version;
    crawl.addVersion.run({ siteId, url, hash, at });
    return (crawl.version.get(siteId, url, hash) as { version: number }).version;
  });
  const deleteSite = db.transaction((userId: string, id: string) => {
    if (q.delete.run(id, userId).changes !== 1) return false;
    q.deletePages.run(id);
    crawl.deleteVersions.run(id);
    crawl.deleteFetches.run(id);
    return true;
  });
  return {
    async create({ budget, ...s }) {
      q.insert.run({
        ...s,
        ...budget,
        keepQuery: s.keepQuery ? 1 : 0,
        description: s.description ? 1 : 0,
        verifiedAt: s.verifiedAt?.toISOString() ?? null,
        createdAt: s.createdAt.toISOString(),
      });
    },
    async find(id) {
      const r = q.find.get(id);
      return r && toSite(r);
    },
    async list(userId) {
      return q.list.all(userId).map(toSite);
    },
    async setVerified(userId, id, at) {
      return q.verify.run(at.toISOString(), id, userId).changes === 1;
    },
    async setBudget(userId, id, budget) {
      return q.budget.run({ ...budget, id, userId }).changes === 1;
    },
    async delete(userId, id) {
      return deleteSite(userId, id);
    },
    async deleteAllForUser(userId) {
      for (const { id } of q.userSites.all(userId)) deleteSite(userId, id);
    },
    async savePage(p) {
      q.savePage.run({ ...p, checkedAt: p.checkedAt.toISOString() });
    },
    async findPage(siteId, url) {
      const r = q.page.get(siteId, url);
      return r && toPage(r);
    },
    async listPages(siteId, limit) {
      return q.pages.all(siteId, limit).map(toPage);
    },
    async cardVersion(siteId, url, hash, at) {
      // A plain read first: the write lock only for a card not numbered yet.
      const known = crawl.version.get(siteId, url, hash);
      if (known || !at) return known?.version;
      return cardVersion.immediate(siteId, url, hash, at.toISOString());
    },
    async recordFetch(f) {
      const staleBefore = new Date(f.fetchedAt.getTime() - FETCH_REWRITE_MS).toISOString();
      crawl.saveFetch.run({ ...f, fetchedAt: f.fetchedAt.toISOString(), staleBefore });
    },
    async listFetches(siteId, limit) {
      return crawl.fetches.all(siteId, limit).map((r) => ({
        siteId: r.site_id,
        url: r.url,
        platform: r.platform,
        hash: r.hash,
        version: r.version,
        fetchedAt: new Date(r.fetched_at),
      }));
    },
  };
}
