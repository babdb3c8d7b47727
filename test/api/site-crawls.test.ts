/**
 * Which crawler has which card (docs/previews.md#which-crawler-has-which-card): a site link fetched
 * with the platforms' user agents, per page and platform the version each got, a changed card at a
 * new URL, and the changed page sent to a local stand-in of Facebook's Graph API for a re-scrape
 * (FACEBOOK_APP_TOKEN set).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer, type TestServer } from '../support/server.js';
import { html, siteAccount, testSite, verifiedSite } from '../support/site.js';

/** A stand-in of Facebook's Graph API: records each re-scrape POST's form, answers as Facebook does. */
function graphStandIn() {
  const posts: URLSearchParams[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      posts.push(form);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ url: form.get('id'), type: 'website', title: 'Scraped' }));
    });
  });
  return { posts, server };
}
const FACEBOOK_TOKEN = '1234567890|test-app-secret';

describe('crawler fetches of site links', () => {
  let srv: TestServer;
  const site = testSite();
  const graph = graphStandIn();
  let origin = '';
  let now = new Date('2026-11-10T12:00:00.000Z');

  beforeAll(async () => {
    await new Promise<void>((resolve) => site.server.listen(0, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => graph.server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(site.server.address() as AddressInfo).port}`;
    srv = await startTestServer({
      clock: { now: () => now },
      fetcher: { allowAddresses: ['127.0.0.1'] },
      env: {
        FACEBOOK_APP_TOKEN: FACEBOOK_TOKEN,
        FACEBOOK_GRAPH_URL: `http://127.0.0.1:${(graph.server.address() as AddressInfo).port}`,
      },
    });
  });
  afterAll(async () => {
    await srv?.close();
    await new Promise((resolve) => site.server.close(resolve));
    await new Promise((resolve) => graph.server.close(resolve));
  });

  const account = () => siteAccount(srv);
  const linkOf = (s: { link: string }, page: string) => `${s.link}${encodeURIComponent(`${origin}${page}`)}`;

  it('records which crawler has which card: per page and platform, the version it fetched; a changed card has a new URL and is sent to Facebook for a re-scrape', async () => {
    const { token, presetId } = await account();
    const s = await verifiedSite(srv, site, origin, token, presetId);
    site.pages.set('/posts/crawled', {
      type: 'text/html',
      body: html('<meta property="og:title" content="First title">'),
    });
    const link = linkOf(s, '/posts/crawled');
    const as = (userAgent: string) =>
      fetch(link, { redirect: 'manual', headers: { 'user-agent': userAgent } });
    const first = await as('Twitterbot/1.0');
    expect(first.status).toBe(302);
    const firstUrl = first.headers.get('location');
    expect(firstUrl).toMatch(/^\/c\/[0-9a-f]{64}\.png$/);
    const card = await fetch(new URL(firstUrl as string, link));
    expect(card.status).toBe(200);
    expect(card.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await sharp(Buffer.from(await card.arrayBuffer())).metadata()).width).toBe(1200);
    await as('LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)');
    await as('Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0'); // a person: not recorded

    // The title changes: a new card, at a new URL, after the re-check interval.
    site.pages.set('/posts/crawled', {
      type: 'text/html',
      body: html('<meta property="og:title" content="Second title">'),
    });
    now = new Date(now.getTime() + 3601_000);
    const second = await as('Twitterbot/1.0');
    expect(second.headers.get('location')).not.toBe(firstUrl);
    await as('facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)');

    const pages = (await call(srv.base, 'GET', `/sites/${s.id}/fetches`, { token })).body.data.pages as {
      url: string;
      currentVersion: number;
      platforms: { platform: string; version: number; current: boolean }[];
    }[];
    const crawled = pages.find((p) => p.url === `${origin}/posts/crawled`);
    expect(crawled?.currentVersion).toBe(2);
    const byPlatform = Object.fromEntries((crawled?.platforms ?? []).map((p) => [p.platform, p]));
    expect(Object.keys(byPlatform).sort()).toEqual(['facebook', 'linkedin', 'x']);
    expect(byPlatform.x).toMatchObject({ version: 2, current: true });
    expect(byPlatform.facebook).toMatchObject({ version: 2, current: true });
    expect(byPlatform.linkedin).toMatchObject({ version: 1, current: false });

    const other = await srv.createUser('free');
    expect((await call(srv.base, 'GET', `/sites/${s.id}/fetches`, { token: other.token })).status).toBe(404);

    // FACEBOOK_APP_TOKEN is set: the changed page was sent to the Graph API's re-scrape.
    await expect.poll(() => graph.posts.map((p) => p.get('id'))).toContain(`${origin}/posts/crawled`);
    const post = graph.posts.find((p) => p.get('id') === `${origin}/posts/crawled`);
    expect(post?.get('scrape')).toBe('true');
    expect(post?.get('access_token')).toBe(FACEBOOK_TOKEN);
  });
});
