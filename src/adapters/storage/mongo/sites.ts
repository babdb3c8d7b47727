/** Sites and what was last seen of their pages (src/domain/sites); a page's `_id` is `siteId url`. */
import type { Collection, Db } from 'mongodb';
import type { RecordStore } from '../../../domain/kernel/ports.js';
import type { Site, SitePage } from '../../../domain/kernel/records.js';
import { SITE_BUDGET_DEFAULT } from '../../../domain/sites/budget.js';

type SiteDoc = Omit<Site, 'id' | 'budget'> & { _id: string; budget?: Site['budget'] };
type SitePageDoc = SitePage & { _id: string };

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
  await Promise.all([
    sites.createIndex({ userId: 1, createdAt: -1 }, { name: 'sites_by_user' }),
    pages.createIndex({ siteId: 1, checkedAt: -1 }, { name: 'site_pages_by_check' }),
  ]);
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
      return true;
    },
    async deleteAllForUser(userId) {
      const ids = (await sites.find({ userId }, { projection: { _id: 1 } }).toArray()).map((d) => d._id);
      await sites.deleteMany({ userId });
      await pages.deleteMany({ siteId: { $in: ids } });
    },
    async savePage(page) {
      const _id = pageId(page.siteId, page.url);
      await pages.replaceOne({ _id }, page, { upsert: true });
    },
    async findPage(siteId, url) {
      const doc = await pages.findOne({ _id: pageId(siteId, url) });
      return doc ? toPage(doc) : undefined;
    },
    async listPages(siteId, limit) {
      return (await pages.find({ siteId }).sort({ checkedAt: -1, url: 1 }).limit(limit).toArray()).map(
        toPage,
      );
    },
  };
}
