/** The RecordStore contract, image records: one image, per-day counts, pages in every order, the total. */
import { expect, it } from 'vitest';
import { user, image, type ContractContext } from './fixtures.js';

export function imagesContract({ open, email }: ContractContext): void {
  it("finds and deletes one image of its owner only, and counts a user's images per UTC day", async () => {
    const store = await open();
    const u = user(email());
    const other = user(email());
    await store.users.create(u);
    await store.users.create(other);
    const a = image(u.id, 'a', '2026-11-01T00:00:00.000Z');
    const b = image(u.id, 'b', '2026-11-01T23:59:59.999Z');
    const c = image(u.id, 'c', '2026-11-03T12:00:00.000Z');
    const outside = image(u.id, 'd', '2026-12-01T00:00:00.000Z');
    for (const i of [a, b, c, outside, image(other.id, 'e', '2026-11-02T00:00:00Z')])
      await store.images.insert(i);
    expect(await store.images.findById(u.id, a.id)).toEqual(a);
    expect(await store.images.findById(other.id, a.id)).toBeUndefined();
    expect(
      await store.images.countByDay(u.id, new Date('2026-11-01T00:00:00Z'), new Date('2026-12-01T00:00:00Z')),
    ).toEqual({ '2026-11-01': 2, '2026-11-03': 1 });
    expect(await store.images.delete(other.id, a.id)).toBeUndefined();
    expect(await store.images.delete(u.id, a.id)).toEqual(a);
    expect(await store.images.delete(u.id, a.id)).toBeUndefined();
    expect(await store.images.findById(u.id, a.id)).toBeUndefined();
    await store.close();
  });

  it("lists a user's images by page, sorted by createdAt or title (case-insensitive), ties by id", async () => {
    const store = await open();
    const u = user(email());
    const other = user(email());
    await store.users.create(u);
    await store.users.create(other);
    const imgs = [
      image(u.id, 'beta', '2026-01-03T00:00:00Z'),
      image(u.id, 'Alpha', '2026-01-01T00:00:00Z'),
      image(u.id, 'gamma', '2026-01-02T00:00:00Z'),
    ];
    for (const i of imgs) await store.images.insert(i);
    await store.images.insert(image(other.id, 'zzz', '2026-01-05T00:00:00Z'));
    const page = await store.images.list(u.id, { limit: 2, offset: 0, sort: 'createdAt', order: 'desc' });
    expect(page.total).toBe(3);
    expect(page.items.map((i) => i.title)).toEqual(['beta', 'gamma']);
    expect(page.items[0]).toEqual(imgs[0]);
    expect(
      (await store.images.list(u.id, { limit: 2, offset: 2, sort: 'createdAt', order: 'desc' })).items.map(
        (i) => i.title,
      ),
    ).toEqual(['Alpha']);
    expect(
      (await store.images.list(u.id, { limit: 10, offset: 0, sort: 'title', order: 'asc' })).items.map(
        (i) => i.title,
      ),
    ).toEqual(['Alpha', 'beta', 'gamma']);
    expect(
      (await store.images.list(u.id, { limit: 10, offset: 0, sort: 'title', order: 'desc' })).items.map(
        (i) => i.title,
      ),
    ).toEqual(['gamma', 'beta', 'Alpha']);
    expect(
      (await store.images.list(u.id, { limit: 10, offset: 0, sort: 'createdAt', order: 'asc' })).items.map(
        (i) => i.title,
      ),
    ).toEqual(['Alpha', 'gamma', 'beta']);
    const keys: string[] = [];
    for await (const k of store.images.allBlobKeys()) keys.push(k);
    expect(keys).toEqual(expect.arrayContaining(imgs.flatMap((i) => [i.imageKey, i.thumbnailKey])));
    await store.close();
  });

  it('sorts titles in any script by one Unicode-aware key on every store: case and accents second, ties by id', async () => {
    const store = await open();
    const u = user(email());
    await store.users.create(u);
    // SQLite's NOCASE folded ASCII only, so Ärmel (capital Ä) came before ärger there and after
    // it on MongoDB; é sorted after z on both.
    const titles = [
      'ärger',
      'Zebra',
      'Émile',
      'Ärmel',
      'emile',
      'Éclair',
      'Ωmega',
      'Ärger',
      'zeppelin',
      'Äpfel',
    ];
    for (const [i, title] of titles.entries())
      await store.images.insert(image(u.id, title, `2026-03-${String(i + 1).padStart(2, '0')}T00:00:00Z`));
    const order = async (o: 'asc' | 'desc', limit = 20, offset = 0) =>
      (await store.images.list(u.id, { limit, offset, sort: 'title', order: o })).items.map((i) => i.title);
    // Letters first: Ä with a, É with e, Ω after Latin. Where the letters tie, the lower-cased
    // title decides (emile before émile); Ärger and ärger tie there too, and go by their ids.
    const ascending = [
      'Äpfel',
      'Ärger',
      'ärger',
      'Ärmel',
      'Éclair',
      'emile',
      'Émile',
      'Zebra',
      'zeppelin',
      'Ωmega',
    ];
    const asc = await order('asc');
    expect(asc.map((t) => t.toLowerCase())).toEqual(ascending.map((t) => t.toLowerCase()));
    expect(new Set(asc.slice(1, 3))).toEqual(new Set(['Ärger', 'ärger']));
    expect((await order('desc')).map((t) => t.toLowerCase())).toEqual(
      ascending.map((t) => t.toLowerCase()).reverse(),
    );
    // Paged, the pages meet without overlap or gap.
    expect([
      ...(await order('asc', 4, 0)),
      ...(await order('asc', 4, 4)),
      ...(await order('asc', 4, 8)),
    ]).toEqual(asc);
    await store.close();
  });

  it("keeps each account's total through inserts, deletes and the deletion of all its images", async () => {
    const store = await open();
    const u = user(email());
    const other = user(email());
    await store.users.create(u);
    await store.users.create(other);
    const total = async (userId: string) =>
      (await store.images.list(userId, { limit: 1, offset: 0, sort: 'createdAt', order: 'desc' })).total;
    expect(await total(u.id)).toBe(0);
    const mine = Array.from({ length: 5 }, (_, i) => image(u.id, `t${i}`, `2026-02-0${i + 1}T00:00:00Z`));
    for (const i of mine) await store.images.insert(i);
    await store.images.insert(image(other.id, 'theirs', '2026-02-01T00:00:00Z'));
    expect(await total(u.id)).toBe(5);
    expect(await total(other.id)).toBe(1);
    await store.images.delete(u.id, mine[0]!.id);
    await store.images.delete(u.id, mine[0]!.id); // already gone: not counted twice
    await store.images.delete(other.id, mine[1]!.id); // not theirs: not counted
    expect(await total(u.id)).toBe(4);
    expect(await total(other.id)).toBe(1);
    // An offset past the end: no items, the same total.
    expect(await store.images.list(u.id, { limit: 10, offset: 50, sort: 'title', order: 'asc' })).toEqual({
      items: [],
      total: 4,
    });
    await store.images.deleteAllForUser(u.id);
    expect(await total(u.id)).toBe(0);
    expect(await total(other.id)).toBe(1);
    await store.close();
  });

  it("counts an account's first images right when they are inserted at once", async () => {
    const store = await open();
    const u = user(email());
    await store.users.create(u);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store.images.insert(image(u.id, `at once ${i}`, '2026-03-01T00:00:00Z')),
      ),
    );
    expect((await store.images.list(u.id, { limit: 1, offset: 0, sort: 'title', order: 'asc' })).total).toBe(
      20,
    );
    await store.close();
  });
}
