/** The RecordStore contract, sites and their pages, and the newest render of a link. */
import { expect, it } from 'vitest';
import { newId } from '../../../../src/domain/kernel/ids.js';
import type { Site, SitePage } from '../../../../src/domain/kernel/records.js';
import type { ContractContext } from './fixtures.js';

export function sitesContract({ open }: ContractContext): void {
  it('keeps sites per user, newest first; verifies one; keeps one record per page, newest check first; deletes a site with its pages', async () => {
    const store = await open();
    const userId = newId('usr');
    const at = new Date('2026-11-01T10:00:00.000Z');
    const later = new Date('2026-11-01T11:00:00.000Z');
    const site = (createdAt: Date): Site => ({
      id: newId('sit'),
      userId,
      origin: 'https://blog.example.com',
      name: 'blog.example.com',
      presetId: newId('pre'),
      keepQuery: false,
      description: true,
      budget: { cardsPerHour: 30, cardsPerMonth: 300 },
      verificationToken: `tcv_${newId('key').slice(4)}`,
      verifiedAt: null,
      createdAt,
    });
    const first = site(at);
    const second = { ...site(later), keepQuery: true };
    await store.sites.create(first);
    await store.sites.create(second);
    expect(await store.sites.find(first.id)).toEqual(first);
    expect((await store.sites.list(userId)).map((s) => s.id)).toEqual([second.id, first.id]);
    expect(await store.sites.list(newId('usr'))).toEqual([]);
    expect(await store.sites.setVerified(newId('usr'), first.id, later)).toBe(false);
    expect(await store.sites.setVerified(userId, first.id, later)).toBe(true);
    expect((await store.sites.find(first.id))?.verifiedAt).toEqual(later);
    const budget = { cardsPerHour: 5, cardsPerMonth: 40 };
    expect(await store.sites.setBudget(newId('usr'), first.id, budget)).toBe(false);
    expect(await store.sites.setBudget(userId, first.id, budget)).toBe(true);
    expect((await store.sites.find(first.id))?.budget).toEqual(budget);
    expect((await store.sites.find(second.id))?.budget).toEqual({ cardsPerHour: 30, cardsPerMonth: 300 });

    const page = (url: string, checkedAt: Date): SitePage => ({
      siteId: first.id,
      url,
      title: 'A title',
      subtitle: null,
      renderHash: 'ab'.repeat(32),
      problem: null,
      checkedAt,
    });
    await store.sites.savePage(page('https://blog.example.com/a', at));
    await store.sites.savePage(page('https://blog.example.com/b', later));
    // Saving a page again replaces it.
    const failed = {
      ...page('https://blog.example.com/a', new Date(later.getTime() + 1000)),
      problem: 'the server answered 404',
      renderHash: null,
    };
    await store.sites.savePage(failed);
    expect(await store.sites.findPage(first.id, 'https://blog.example.com/a')).toEqual(failed);
    expect(await store.sites.findPage(second.id, 'https://blog.example.com/a')).toBeUndefined();
    expect((await store.sites.listPages(first.id, 10)).map((p) => p.url)).toEqual([
      'https://blog.example.com/a',
      'https://blog.example.com/b',
    ]);
    expect(await store.sites.listPages(first.id, 1)).toHaveLength(1);

    expect(await store.sites.delete(newId('usr'), first.id)).toBe(false);
    expect(await store.sites.delete(userId, first.id)).toBe(true);
    expect(await store.sites.find(first.id)).toBeUndefined();
    expect(await store.sites.listPages(first.id, 10)).toEqual([]);
    await store.sites.deleteAllForUser(userId);
    expect(await store.sites.list(userId)).toEqual([]);
    await store.close();
  });

  it("remembers a link's newest render, replaced by the next, deleted with the account", async () => {
    const store = await open();
    const userId = newId('usr');
    const link = newId('img');
    expect(await store.renders.latest(link)).toBeUndefined();
    await store.renders.setLatest(link, userId, 'a'.repeat(64));
    await store.renders.setLatest(link, userId, 'b'.repeat(64));
    expect(await store.renders.latest(link)).toBe('b'.repeat(64));
    await store.renders.deleteAllForUser(userId);
    expect(await store.renders.latest(link)).toBeUndefined();
    await store.close();
  });
}
