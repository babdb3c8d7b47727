/** Sites and what was last seen of their pages (src/domain/sites); a page's `_id` is `siteId url`. */
import type { Collection, Db } from 'mongodb';
import type { RecordStore } from '../../../domain/kernel/ports.js';
import type { CrawlerFetch, Site, SitePage } from '../../../domain/kernel/records.js';
import { SITE_BUDGET_DEFAULT } from '../../../domain/sites/budget.js';

type SiteDoc = Omit<Site, 'id' | 'budget'> & { _id: string; budget?: Site['budget'] };
type SitePageDoc = SitePage & { _id: string };
type VersionDoc = {
  _id: string;
  siteId: string;
  url: string;
  hash: string;
  version: number;
  firstSeenAt: Date;
};
type FetchDoc = CrawlerFetch & { _id: string };

/** A site stored before budgets existed has the defaults (as SQLite's migration 12 gives). */
const toSite = ({ _id, budget, ...rest }: SiteDoc): Site => ({
  id: _id,
  ...rest,
  budget: budget ?? { ...SITE_BUDGET_DEFAULT },
});
const toPage = ({ _id: _i, ...rest }: SitePageDoc): SitePage => rest;
/** A page's `_id`: the site id, a space (in no URL), the URL. */
const pageId = (siteId: string, url: string) => `${siteId} ${url}`;

/** The `sites` repository of the {@link RecordStore} on MongoDB; creates its indexes first. */
export async function mongoSites(db: Db): Promise<RecordStore['sites']> {
  const sites: Collection<SiteDoc> = db.collection('sites');
  const pages: Collection<SitePageDoc> = db.collection('site_pages');
  const versions: Collection<VersionDoc> = db.collection('site_card_versions');
  const fetches: Collection<FetchDoc> = db.collection('site_fetches');
  await Promise.all([
    sites.createIndex({ userId: 1, createdAt: -1 }, { name: 'sites_by_user' }),
    pages.createIndex({ siteId: 1, checkedAt: -1 }, { name: 'site_pages_by_check' }),
    versions.createIndex(
      { siteId: 1, url: 1, version: 1 },
      { name: 'site_card_versions_unique', unique: true },
    ),
    fetches.createIndex({ siteId: 1, fetchedAt: -1 }, { name: 'site_fetches_by_time' }),
  ]);
  const dropCrawls = async (siteIds: string[]) => {
    await versions.deleteMany({ siteId: { $in: siteIds } });
    await fetches.deleteMany({ siteId: { $in: siteIds } });
  };
  return {
    async create({ id, ...rest }) {
      await sites.insertOne({ _id: id, ...rest });
    },
    async find(id) {
      const doc = await sites.findOne({ _id: id });
      return doc ? toSite(doc) : undefined;
    },
    async list(userId) {
      return (await sites.find({ userId }).sort({ createdAt: -1, _id: -1 }).toArray()).map(toSite);
    },
    async setVerified(userId, id, at) {
      return (await sites.updateOne({ _id: id, userId }, { $set: { verifiedAt: at } })).matchedCount === 1;
    },
    async setBudget(userId, id, budget) {
      return (await sites.updateOne({ _id: id, userId }, { $set: { budget } })).matchedCount === 1;
    },
    async delete(userId, id) {
      if ((await sites.deleteOne({ _id: id, userId })).deletedCount !== 1) return false;
      await pages.deleteMany({ siteId: id });
      await dropCrawls([id]);
      return true;
    },
    async deleteAllForUser(userId) {
      const ids = (await sites.find({ userId }, { projection: { _id: 1 } }).toArray()).map((d) => d._id);
      await sites.deleteMany({ userId });
      await pages.deleteMany({ siteId: { $in: ids } });
      await dropCrawls(ids);
    },
    async savePage(page) {
      const _id = pageId(page.siteId, page.url);
      await pages.replaceOne({ _id }, page, { upsert: true });
    },
    async findPage(siteId, url) {
      const doc = await pages.findOne({ _id: pageId(siteId, url) });
      return doc ? toPage(doc) : undefined;
    },
    async cardVersion(siteId, url, hash, at) {
      const _id = `${pageId(siteId, url)} ${hash}`;
      if (!at) return (await versions.findOne({ _id }))?.version;
      // The next number, taken by an insert that the unique (site, url, version) index refuses
      // when another process took it first: then read again and try the next.
      for (;;) {
        const known = await versions.findOne({ _id });
        if (known) return known.version;
        const last = await versions.find({ siteId, url }).sort({ version: -1 }).limit(1).next();
        try {
          await versions.insertOne({
            _id,
            siteId,
            url,
            hash,
            version: (last?.version ?? 0) + 1,
            firstSeenAt: at,
          });
        } catch (err) {
          if ((err as { code?: number }).code !== 11000) throw err;
        }
      }
    },
    async recordFetch(f) {
      // The same card fetched again within 10 minutes is not written again: the filter misses, the
      // upsert's insert finds the _id taken (11000), and that is the answer.
      const _id = `${pageId(f.siteId, f.url)} ${f.platform}`;
      const staleBefore = new Date(f.fetchedAt.getTime() - 10 * 60_000);
      try {
        await fetches.replaceOne(
          { _id, $or: [{ hash: { $ne: f.hash } }, { fetchedAt: { $lt: staleBefore } }] },
          f,
          {
            upsert: true,
          },
        );
      } catch (err) {
        if ((err as { code?: number }).code !== 11000) throw err;
      }
    },
    async listFetches(siteId, limit) {
      return (
        await fetches.find({ siteId }).sort({ fetchedAt: -1, url: 1, platform: 1 }).limit(limit).toArray()
      ).map(({ _id: _i, ...rest }) => rest);
    },
    async listPages(siteId, limit) {
      return (await pages.find({ siteId }).sort({ checkedAt: -1, url: 1 }).limit(limit).toArray()).map(
        toPage,
      );
    },
  };
}
