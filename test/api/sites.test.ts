/**
 * Sites (docs/sites.md) against a site served on 127.0.0.1 by this test (the fetcher allows that
 * address, as FETCH_ALLOW_ADDRESSES does): verification by meta tag and by file, the site link of a
 * page, a title change after the re-check interval, the fallback card for pages that cannot be
 * read, the answer with the quota used up, the cache, and a real Open Graph parser reading a page
 * whose og:image is a site link.
 */
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import ogs from 'open-graph-scraper';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchLink } from '../support/docs-examples.js';
import { ROOT } from '../support/process.js';
import { call, startTestServer, upload, type TestServer } from '../support/server.js';
import { html, siteAccount, testSite, verifiedSite as verifiedSiteOf } from '../support/site.js';

const PHOTO = path.join(ROOT, 'src/web/static/samples/dragonfly.jpg');

describe('sites', () => {
  let srv: TestServer;
  const site = testSite();
  let origin = '';
  let now = new Date('2026-11-10T12:00:00.000Z');

  beforeAll(async () => {
    await new Promise<void>((resolve) => site.server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(site.server.address() as AddressInfo).port}`;
    // TRUST_PROXY: a test names the client address a request comes from (X-Forwarded-For).
    srv = await startTestServer({
      clock: { now: () => now },
      fetcher: { allowAddresses: ['127.0.0.1'] },
      env: { TRUST_PROXY: 'loopback' },
    });
  });
  afterAll(async () => {
    await srv?.close();
    await new Promise((resolve) => site.server.close(resolve));
  });

  const account = (tier: 'free' | 'pro' = 'pro') => siteAccount(srv, tier);
  const verifiedSite = (token: string, presetId: string, extra: Record<string, unknown> = {}) =>
    verifiedSiteOf(srv, site, origin, token, presetId, extra);

  it('refuses proof from another origin: a home page or verification file that redirects to a host carrying the token (issue 41)', async () => {
    const { token, presetId } = await account();
    const created = await call(srv.base, 'POST', '/sites', { token, json: { origin, preset: presetId } });
    const s = created.body.data;
    const other = testSite();
    await new Promise<void>((resolve) => other.server.listen(0, '127.0.0.1', resolve));
    const elsewhere = `http://127.0.0.1:${(other.server.address() as AddressInfo).port}`;
    try {
      other.pages.set('/', { type: 'text/html', body: html(s.verification.meta as string) });
      other.pages.set('/.well-known/titlecard-site-verification', {
        type: 'text/plain',
        body: s.verification.token as string,
      });
      site.pages.set('/', { type: 'text/html', body: '', status: 302, location: `${elsewhere}/` });
      site.pages.set('/.well-known/titlecard-site-verification', {
        type: 'text/plain',
        body: '',
        status: 302,
        location: `${elsewhere}/.well-known/titlecard-site-verification`,
      });
      const refused = await call(srv.base, 'POST', `/sites/${s.id as string}/verify`, { token });
      expect(refused.status).toBe(400);
      expect(refused.body.error.details).toEqual({ field: 'origin', constraint: 'format' });
      expect(refused.body.error.message).toContain(
        `${origin}/ redirects to another origin, ${elsewhere}: the proof must come from ${origin} itself`,
      );
      expect(refused.body.error.message).toContain(
        `${origin}/.well-known/titlecard-site-verification redirects to another origin, ${elsewhere}`,
      );
      expect((await call(srv.base, 'GET', `/sites/${s.id as string}`, { token })).body.data.verified).toBe(
        false,
      );
    } finally {
      site.pages.delete('/');
      site.pages.delete('/.well-known/titlecard-site-verification');
      await new Promise((resolve) => other.server.close(resolve));
    }
  });

  const linkOf = (s: { link: string }, page: string) => `${s.link}${encodeURIComponent(`${origin}${page}`)}`;

  it('adds a site, refuses its link until verified, verifies by the meta tag on the home page or by the file under /.well-known/, and says what it found when neither holds the token', async () => {
    const { token, presetId } = await account();
    const created = await call(srv.base, 'POST', '/sites', {
      token,
      json: { origin: `${origin}/`, preset: presetId },
    });
    expect(created.status).toBe(201);
    const s = created.body.data;
    expect(s).toMatchObject({ origin, verified: false, verifiedAt: null, name: new URL(origin).host });
    expect(s.verification.token).toMatch(/^tcv_[0-9A-Za-z]{32}$/);
    expect(s.verification.meta).toBe(
      `<meta name="titlecard-site-verification" content="${s.verification.token}">`,
    );
    expect(s.snippet).toBe(`<meta property="og:image" content="${srv.url}/s/${s.id}.png?url=PAGE_URL">`);

    const early = await fetchLink(`${s.link}${encodeURIComponent(`${origin}/posts/a`)}`);
    expect(early.status).toBe(403);

    site.pages.set('/', {
      type: 'text/html',
      body: html('<meta name="titlecard-site-verification" content="tcv_wrong">'),
    });
    site.pages.delete('/.well-known/titlecard-site-verification');
    const refused = await call(srv.base, 'POST', `/sites/${s.id as string}/verify`, { token });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.field).toBe('origin');
    // Another page's token is not echoed: it may be anybody's.
    expect(refused.body.error.message).toContain(`${origin}/ has another token`);
    expect(refused.body.error.message).not.toContain('tcv_wrong');
    expect(refused.body.error.message).toContain(
      '/.well-known/titlecard-site-verification: the server answered 404',
    );

    // By file.
    site.pages.set('/.well-known/titlecard-site-verification', {
      type: 'text/plain',
      body: `${s.verification.token as string}\n`,
    });
    const byFile = await call(srv.base, 'POST', `/sites/${s.id as string}/verify`, { token });
    expect(byFile.status).toBe(200);
    expect(byFile.body.data.verified).toBe(true);
    site.pages.delete('/.well-known/titlecard-site-verification');

    // By meta tag, on a second site.
    const second = await verifiedSite(token, presetId);
    expect((await call(srv.base, 'GET', `/sites/${second.id}`, { token })).body.data.verified).toBe(true);
    // A host the URL parser refuses is a 400 on origin, not a fault (schemathesis found a 500).
    for (const origin of ['https://\u00d7\u009d\u000f2z/', 'https://user:pass@example.com'])
      expect(
        (await call(srv.base, 'POST', '/sites', { token, json: { origin, preset: presetId } })).body.error
          ?.details.field,
      ).toBe('origin');
    // An origin without its scheme is refused in words (it read "Expected regex for origin").
    expect(
      (
        await call(srv.base, 'POST', '/sites', {
          token,
          json: { origin: 'blog.example.com', preset: presetId },
        })
      ).body.error.message,
    ).toBe(
      'Expected an http or https origin such as https://blog.example.com for origin but received "blog.example.com"',
    );
    // The fetcher's refusals hold: a private origin cannot be verified.
    const privateSite = await call(srv.base, 'POST', '/sites', {
      token,
      json: { origin: 'http://10.0.0.7', preset: presetId },
    });
    const privateVerify = await call(
      srv.base,
      'POST',
      `/sites/${privateSite.body.data.id as string}/verify`,
      { token },
    );
    expect(privateVerify.status).toBe(400);
    expect(privateVerify.body.error.message).toContain(
      '10.0.0.7 is a private, loopback, link-local or reserved address',
    );
    // Another account sees neither.
    const other = await account();
    expect((await call(srv.base, 'GET', `/sites/${second.id}`, { token: other.token })).status).toBe(404);
    expect(
      (
        await call(srv.base, 'POST', '/sites', {
          token,
          json: { origin: `${origin}/blog`, preset: presetId },
        })
      ).body.error.details.field,
    ).toBe('origin');
  });

  it("renders a page's card from its og:title once, serves it again free with its ETag (304), and renders anew after the re-check interval only when the title changed", async () => {
    const { token, presetId, used } = await account();
    const s = await verifiedSite(token, presetId, { description: true });
    site.pages.set('/posts/hello', {
      type: 'text/html; charset=utf-8',
      body: html(
        '<title>Hello | Blog</title><meta property="og:title" content="Hello, world"><meta property="og:description" content="A first post">',
      ),
    });
    const link = linkOf(s, '/posts/hello#comments');
    const first = await fetchLink(link);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('image/png');
    // Followed from the link's redirect: the card's content-hashed URL, kept a year.
    expect(first.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(first.headers.get('titlecard-fallback')).toBeNull();
    expect(await sharp(first.body).metadata()).toMatchObject({ width: 1200, height: 630 });
    expect(await used()).toBe(1);

    const fetchesBefore = site.fetched.length;
    const again = await fetchLink(linkOf(s, '/posts/hello?utm_source=feed'));
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(site.fetched.length).toBe(fetchesBefore); // within the interval, the page is not fetched
    expect((await fetchLink(link, { 'if-none-match': first.headers.get('etag')! })).status).toBe(304);
    expect(await used()).toBe(1);

    const pages = (await call(srv.base, 'GET', `/sites/${s.id}/pages`, { token })).body.data.pages;
    expect(pages).toEqual([
      expect.objectContaining({
        url: `${origin}/posts/hello`,
        title: 'Hello, world',
        subtitle: 'A first post',
        problem: null,
      }),
    ]);

    // A new title shows after the re-check interval, for one more unit.
    site.pages.set('/posts/hello', {
      type: 'text/html',
      body: html('<meta property="og:title" content="Hello again">'),
    });
    expect((await fetchLink(link)).headers.get('etag')).toBe(first.headers.get('etag'));
    now = new Date(now.getTime() + 3601_000);
    const changed = await fetchLink(link);
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(first.headers.get('etag'));
    expect(await used()).toBe(2);
    // An unchanged page is fetched again after the interval, and not charged again.
    now = new Date(now.getTime() + 3601_000);
    expect((await fetchLink(link)).headers.get('etag')).toBe(changed.headers.get('etag'));
    expect(await used()).toBe(2);
  });

  it("fills the preset's template from a page's titlecard:field: tags; a page without a required one gets the fallback card, drawn with the template", async () => {
    const { token, used } = await account();
    const template = await call(srv.base, 'POST', '/templates', {
      token,
      json: {
        name: 'Byline',
        variables: { authorName: { type: 'text', required: true } },
        layers: [
          { type: 'image', source: 'background' },
          { type: 'text', content: '{{title}}', box: { x: 0.05, y: 0.1, w: 0.7, h: 0.5 } },
          {
            type: 'text',
            content: 'by {{authorName}}',
            box: { x: 0.05, y: 0.62, w: 0.7, h: 0.08 },
            weight: 'regular',
          },
        ],
      },
    });
    const asset = await upload(srv, token, '/assets', 'image', await readFile(PHOTO), 'dragonfly.jpg');
    const preset = await call(srv.base, 'POST', '/presets', {
      token,
      json: { name: 'Bylines', template: template.body.data.id, background: asset.body.data.id },
    });
    const s = await verifiedSite(token, preset.body.data.id as string);
    site.pages.set('/posts/byline', {
      type: 'text/html',
      body: html(
        '<meta property="og:title" content="With a byline"><meta name="titlecard:field:authorName" content="Ada Lovelace">',
      ),
    });
    const card = await fetchLink(linkOf(s, '/posts/byline'));
    expect(card.status).toBe(200);
    expect(card.headers.get('titlecard-fallback')).toBeNull();
    expect(await used()).toBe(1);

    site.pages.set('/posts/no-byline', {
      type: 'text/html',
      body: html('<meta property="og:title" content="No byline">'),
    });
    const stand = await fetchLink(linkOf(s, '/posts/no-byline'));
    expect(stand.status).toBe(200);
    expect(stand.headers.get('titlecard-fallback')).toBe('page');
    expect(await sharp(stand.body).metadata()).toMatchObject({ width: 1200, height: 630 });
    const pages = (await call(srv.base, 'GET', `/sites/${s.id}/pages`, { token })).body.data.pages as {
      url: string;
      problem: string | null;
    }[];
    expect(pages.find((p) => p.url.endsWith('/posts/no-byline'))?.problem).toContain('fields.authorName');
    expect(await used()).toBe(1);
  });

  it('gives the fallback card, free and briefly cached, to a page of another origin, a 404, a page that is not HTML or has no title, and lists each problem', async () => {
    const { token, presetId, used } = await account();
    const s = await verifiedSite(token, presetId, { name: 'My Blog' });
    site.pages.set('/data.json', { type: 'application/json', body: '{"title":"no"}' });
    site.pages.set('/untitled', { type: 'text/html', body: html('') });
    const answers = await Promise.all([
      fetchLink(`${s.link}${encodeURIComponent('https://elsewhere.example.com/post')}`),
      fetchLink(linkOf(s, '/gone')),
      fetchLink(linkOf(s, '/data.json')),
      fetchLink(linkOf(s, '/untitled')),
    ]);
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.headers.get('titlecard-fallback')).toBe('page');
      expect(a.headers.get('cache-control')).toBe('public, max-age=300');
      // One fallback card per design and name.
      expect(a.headers.get('etag')).toBe(answers[0].headers.get('etag'));
    }
    expect(await sharp(answers[0].body).metadata()).toMatchObject({ width: 1200, height: 630 });
    expect(await used()).toBe(0);
    const problems = Object.fromEntries(
      (
        (await call(srv.base, 'GET', `/sites/${s.id}/pages`, { token })).body.data.pages as {
          url: string;
          problem: string;
        }[]
      ).map((p) => [p.url, p.problem]),
    );
    expect(problems['https://elsewhere.example.com/post']).toContain(`is not this site's origin ${origin}`);
    expect(problems[`${origin}/gone`]).toBe('the server answered 404');
    expect(problems[`${origin}/data.json`]).toBe('the page is application/json, not HTML');
    expect(problems[`${origin}/untitled`]).toBe('the page has no og:title, titlecard:title or <title>');
    // A link without url is the caller's mistake; an unknown site is a 404.
    expect((await fetchLink(s.link.replace(/\?url=$/, ''))).status).toBe(400);
    expect((await fetchLink(`${srv.url}/s/sit_0000000000000000000000.png?url=x`)).status).toBe(404);
  });

  it('fetches at most 60 pages a minute per site: past that, a page answers the fallback card without being fetched', async () => {
    const { token, presetId } = await account();
    const s = await verifiedSite(token, presetId);
    const before = site.fetched.length;
    // From three addresses: one address causes at most 20 (PAGE_FETCHES_PER_ADDRESS).
    const from = (i: number) => ({ 'x-forwarded-for': `198.51.100.${1 + (i % 3)}` });
    for (let i = 0; i < 60; i++) await fetchLink(linkOf(s, `/missing-${i}`), from(i));
    expect(site.fetched.length - before).toBe(60);
    const over = await fetchLink(linkOf(s, '/missing-60'), { 'x-forwarded-for': '198.51.100.9' });
    expect(over.status).toBe(200);
    expect(over.headers.get('titlecard-fallback')).toBe('page');
    expect(site.fetched.length - before).toBe(60);
  });

  it("1,000 anonymous requests for made-up URLs from one address leave a site's real new page its own card (issue 55, item 4)", async () => {
    const { token, presetId, used } = await account();
    const s = await verifiedSite(token, presetId);
    const before = site.fetched.length;
    const attacker = { 'x-forwarded-for': '203.0.113.66' };
    const answers = new Map<string | null, number>();
    const started = Date.now();
    for (let i = 0; i < 1000; i++) {
      const a = await fetchLink(linkOf(s, `/made-up-${i}`), attacker);
      const why = a.headers.get('titlecard-fallback');
      answers.set(why, (answers.get(why) ?? 0) + 1);
    }
    // The address's share of each minute is fetched (one minute on a quiet machine; the limits
    // count in real minutes, so a slow machine may see two or three); the rest is refused without
    // a fetch.
    const minutes = Math.ceil((Date.now() - started) / 60_000) + 1;
    const fetched = site.fetched.length - before;
    expect(fetched).toBeGreaterThanOrEqual(20);
    expect(fetched).toBeLessThanOrEqual(20 * minutes);
    expect(Object.fromEntries(answers)).toEqual({ page: fetched, address: 1000 - fetched });
    site.pages.set('/published-now', { type: 'text/html', body: html('<title>Published now</title>') });
    const crawler = await fetchLink(linkOf(s, '/published-now'), { 'x-forwarded-for': '192.0.2.10' });
    expect(crawler.status).toBe(200);
    expect(crawler.headers.get('titlecard-fallback')).toBeNull();
    expect(await used()).toBe(1);
  });

  it('one address counts once however it asks: 100 requests at once, or the addresses of one IPv6 /64 (issue 55, item 4)', async () => {
    const { token, presetId } = await account();
    const s = await verifiedSite(token, presetId);
    const before = site.fetched.length;
    await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        fetchLink(linkOf(s, `/at-once-${i}`), { 'x-forwarded-for': '203.0.113.77' }),
      ),
    );
    expect(site.fetched.length - before).toBeLessThanOrEqual(20);
    const v6 = [];
    for (let i = 0; i < 21; i++)
      v6.push(
        await fetchLink(linkOf(s, `/v6-${i}`), {
          'x-forwarded-for': `2001:db8:1:2::${(i + 1).toString(16)}`,
        }),
      );
    expect(v6.at(-1)?.headers.get('titlecard-fallback')).toBe('address');
  });

  it('a page asked for before it is published gets its own card a minute after it goes live, not an hour (issue 55, item 5)', async () => {
    const { token, presetId, used } = await account();
    const s = await verifiedSite(token, presetId);
    const early = await fetchLink(linkOf(s, '/tomorrow'));
    expect(early.headers.get('titlecard-fallback')).toBe('page');
    site.pages.set('/tomorrow', { type: 'text/html', body: html('<title>Out today</title>') });
    // Within the minute, the problem stands (no fetch per request).
    now = new Date(now.getTime() + 30_000);
    expect((await fetchLink(linkOf(s, '/tomorrow'))).headers.get('titlecard-fallback')).toBe('page');
    now = new Date(now.getTime() + 31_000);
    const live = await fetchLink(linkOf(s, '/tomorrow'));
    expect(live.headers.get('titlecard-fallback')).toBeNull();
    expect(await used()).toBe(1);
  });

  /** Pages `/search/<term>/` whose title is their term, as WordPress's search pages are. */
  function searchPages(from: number, count: number): string[] {
    return Array.from({ length: count }, (_, i) => {
      const path = `/search/term-${from + i}/`;
      site.pages.set(path, {
        type: 'text/html',
        body: html(`<title>You searched for term ${from + i}</title>`),
      });
      return path;
    });
  }

  it("a crawler asking for new pages spends the site's budget of new cards, per hour and per month, not the owner's month (issue 41)", async () => {
    const { token, presetId, used } = await account();
    const s = await verifiedSite(token, presetId);
    const shown = await call(srv.base, 'GET', `/sites/${s.id}`, { token });
    expect(shown.body.data.budget).toEqual({
      cardsPerHour: 30,
      cardsPerMonth: 300,
      thisHour: 0,
      thisMonth: 0,
    });

    // The owner's settings: refused with the field named, then set.
    const other = await account();
    for (const [body, field] of [
      [{ cardsPerHour: 0 }, 'cardsPerHour'],
      [{ cardsPerMonth: 100_001 }, 'cardsPerMonth'],
      [{ cardsPerHour: 2.5 }, 'cardsPerHour'],
      [{}, 'cardsPerHour'],
      [{ cardsPerHour: 5, origin: 'https://elsewhere.example' }, 'body'],
    ] as const) {
      const refused = await call(srv.base, 'PATCH', `/sites/${s.id}`, { token, json: body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error.details.field, JSON.stringify(body)).toBe(field);
    }
    expect(
      (await call(srv.base, 'PATCH', `/sites/${s.id}`, { token: other.token, json: { cardsPerHour: 5 } }))
        .status,
    ).toBe(404);
    const set = await call(srv.base, 'PATCH', `/sites/${s.id}`, {
      token,
      json: { cardsPerHour: 5, cardsPerMonth: 7 },
    });
    expect(set.status).toBe(200);
    expect(set.body.data.budget).toMatchObject({ cardsPerHour: 5, cardsPerMonth: 7 });

    // Eight new pages in one hour: five cards, then stand-ins (the fallback card), charged nothing.
    const answers = [];
    for (const path of searchPages(0, 8)) answers.push(await fetchLink(linkOf(s, path)));
    expect(answers.map((a) => a.headers.get('titlecard-fallback'))).toEqual([
      null,
      null,
      null,
      null,
      null,
      'budget',
      'budget',
      'budget',
    ]);
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(answers[7]!.headers.get('cache-control')).toBe('public, max-age=300');
    expect(await used()).toBe(5);
    // A card already made is served whatever the budget.
    const again = await fetchLink(linkOf(s, '/search/term-0/'));
    expect(again.headers.get('titlecard-fallback')).toBeNull();
    expect(again.headers.get('etag')).toBe(answers[0]!.headers.get('etag'));

    // The next hour: two more, then the month's seven are made.
    now = new Date(now.getTime() + 3600_000);
    const later = [];
    for (const path of searchPages(8, 3)) later.push(await fetchLink(linkOf(s, path)));
    expect(later.map((a) => a.headers.get('titlecard-fallback'))).toEqual([null, null, 'budget']);
    expect(await used()).toBe(7);
    const after = await call(srv.base, 'GET', `/sites/${s.id}`, { token });
    expect(after.body.data.budget).toMatchObject({ thisHour: 2, thisMonth: 7 });
  });

  it('one client address causes at most 20 new cards of a site in 10 minutes; past that its new pages get stand-ins (issue 41)', async () => {
    const { token, presetId, used } = await account();
    const s = await verifiedSite(token, presetId, { cardsPerHour: 100 });
    const answers = [];
    for (const path of searchPages(100, 22)) answers.push(await fetchLink(linkOf(s, path)));
    const fallbacks = answers.map((a) => a.headers.get('titlecard-fallback'));
    expect(fallbacks.slice(0, 20)).toEqual(Array(20).fill(null));
    expect(fallbacks.slice(20)).toEqual(['address', 'address']);
    expect(await used()).toBe(20);
  });

  it("with the owner's quota used up, a page answers its earlier card, or the fallback card, charges nothing, and keeps a short Cache-Control", async () => {
    const { user, token, presetId, used } = await account('free');
    const s = await verifiedSite(token, presetId);
    site.pages.set('/posts/early', {
      type: 'text/html',
      body: html('<meta property="og:title" content="Early post">'),
    });
    const early = await fetchLink(linkOf(s, '/posts/early'));
    expect(early.headers.get('titlecard-fallback')).toBeNull();
    while ((await used()) < 10)
      await srv.services.ledger.charge((await srv.services.accounts.actAs(user.email)).workspace);

    site.pages.set('/posts/early', {
      type: 'text/html',
      body: html('<meta property="og:title" content="Early post, renamed">'),
    });
    now = new Date(now.getTime() + 3601_000);
    const earlier = await fetchLink(linkOf(s, '/posts/early'));
    expect(earlier.status).toBe(200);
    expect(earlier.headers.get('titlecard-fallback')).toBe('quota');
    expect(earlier.headers.get('cache-control')).toBe('public, max-age=300');
    expect(earlier.headers.get('etag')).toBe(early.headers.get('etag'));

    site.pages.set('/posts/late', {
      type: 'text/html',
      body: html('<meta property="og:title" content="Late post">'),
    });
    const late = await fetchLink(linkOf(s, '/posts/late'));
    expect(late.status).toBe(200);
    expect(late.headers.get('titlecard-fallback')).toBe('quota');
    expect(await sharp(late.body).metadata()).toMatchObject({ width: 1200, height: 630 });
    expect(await used()).toBe(10);
  });

  it("a page whose og:image is a site link, read by open-graph-scraper as a social network's crawler does, gives a 1200×630 image", async () => {
    const { token, presetId } = await account();
    const s = await verifiedSite(token, presetId);
    const pageUrl = `${origin}/posts/shared`;
    site.pages.set('/posts/shared', {
      type: 'text/html',
      body: html(
        `<meta property="og:title" content="Shared on a social network"><meta property="og:image" content="${s.link}${encodeURIComponent(pageUrl)}">`,
      ),
    });
    const { result, error } = await ogs({ url: pageUrl });
    expect(error).toBe(false);
    expect(result.ogTitle).toBe('Shared on a social network');
    const image = result.ogImage?.[0]?.url;
    expect(image).toBe(`${s.link}${encodeURIComponent(pageUrl)}`);
    const card = await fetchLink(image!);
    expect(card.status).toBe(200);
    expect(await sharp(card.body).metadata()).toMatchObject({ width: 1200, height: 630, format: 'png' });
  });
});
