/**
 * The link-preview check (docs/previews.md) against pages served on 127.0.0.1 by this test (the
 * fetcher allows that address, as FETCH_ALLOW_ADDRESSES does): a good page with no problem, and one
 * page per problem, each found with its code on the platforms it concerns; the mock-ups, looked at
 * as pixels; the report kept a day, then swept; refusals and limits.
 */
import { readFile } from 'node:fs/promises';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/process.js';
import { call, startTestServer, type TestServer } from '../support/server.js';
import { testCertificate } from '../support/tls.js';

const PHOTO = path.join(ROOT, 'test/fixtures/photos/mate_RainDrops.jpg');

interface Answer {
  status?: number;
  type: string;
  body: Buffer | string;
  delayMs?: number;
}

/** A site whose answers a test sets by path. */
function testSite(https = false) {
  const answers = new Map<string, Answer>();
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const answer = answers.get((req.url ?? '/').split('?')[0] as string);
    const send = () => {
      res.writeHead(answer?.status ?? (answer ? 200 : 404), { 'content-type': answer?.type ?? 'text/html' });
      res.end(answer?.body ?? 'Not found');
    };
    if (answer?.delayMs) setTimeout(send, answer.delayMs);
    else send();
  };
  const server = https ? createHttpsServer(testCertificate(), handler) : createHttpServer(handler);
  return {
    answers,
    server,
    origin: '',
    async listen() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      this.origin = `${https ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
  };
}

const page = (head: string) =>
  `<!doctype html><html><head><meta charset="utf-8">${head}</head><body>Text</body></html>`;

/** The head of a page with every tag right, with `image` as its image and `changes` over the tags. */
function head(image: string, changes: Record<string, string | null> = {}) {
  const tags: Record<string, string | null> = {
    'og:title': 'Rain on the mate leaves',
    'og:description': 'A short walk in the garden after the rain, and what the drops showed.',
    'og:image': image,
    'og:image:width': '1200',
    'og:image:height': '630',
    'og:image:alt': 'Rain drops on green leaves',
    'twitter:card': 'summary_large_image',
    ...changes,
  };
  const meta = Object.entries(tags)
    .filter(([, v]) => v !== null)
    .map(([k, v]) => `<meta ${k.startsWith('twitter:') ? 'name' : 'property'}="${k}" content="${v}">`)
    .join('');
  return `<title>${tags['og:title'] ?? 'Untitled'}</title>${meta}`;
}

describe('link-preview check', () => {
  let srv: TestServer;
  let token = '';
  const site = testSite();
  const secure = testSite(true);
  const blocked = testSite();

  beforeAll(async () => {
    await Promise.all([site.listen(), secure.listen(), blocked.listen()]);
    srv = await startTestServer({
      fetcher: { allowAddresses: ['127.0.0.1'], ca: testCertificate().cert },
    });
    ({ token } = await srv.createUser('pro'));
    const photo = await readFile(PHOTO);
    const card = await sharp(photo).resize(1200, 630).jpeg({ quality: 80 }).toBuffer();
    const o = site.origin;
    site.answers.set('/card.jpg', { type: 'image/jpeg', body: card });
    site.answers.set('/small.jpg', {
      type: 'image/jpeg',
      body: await sharp(photo).resize(100, 52).jpeg().toBuffer(),
    });
    site.answers.set('/square.jpg', {
      type: 'image/jpeg',
      body: await sharp(photo).resize(800, 800).jpeg().toBuffer(),
    });
    // Noise: a 1200×630 PNG of about 2 MB, over WhatsApp's 600 KB, Bluesky's 1 MB and Mastodon's 2 MB.
    const noise = Buffer.alloc(1200 * 630 * 3);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
    site.answers.set('/heavy.png', {
      type: 'image/png',
      body: await sharp(noise, { raw: { width: 1200, height: 630, channels: 3 } })
        .png({ compressionLevel: 0 })
        .toBuffer(),
    });
    site.answers.set('/slow.jpg', { type: 'image/jpeg', body: card, delayMs: 3300 });
    site.answers.set('/a-page.html', { type: 'text/html', body: page('<title>Not an image</title>') });
    site.answers.set('/good', { type: 'text/html', body: page(head(`${o}/card.jpg`)) });
    site.answers.set('/no-image', { type: 'text/html', body: page(head('', { 'og:image': null })) });
    site.answers.set('/relative', { type: 'text/html', body: page(head('/card.jpg')) });
    site.answers.set('/unreachable', { type: 'text/html', body: page(head(`${o}/missing.jpg`)) });
    site.answers.set('/not-image', { type: 'text/html', body: page(head(`${o}/a-page.html`)) });
    site.answers.set('/small', { type: 'text/html', body: page(head(`${o}/small.jpg`)) });
    site.answers.set('/heavy', { type: 'text/html', body: page(head(`${o}/heavy.png`)) });
    site.answers.set('/square', { type: 'text/html', body: page(head(`${o}/square.jpg`)) });
    site.answers.set('/undeclared', {
      type: 'text/html',
      body: page(head(`${o}/card.jpg`, { 'og:image:width': null, 'og:image:height': null })),
    });
    site.answers.set('/no-alt', {
      type: 'text/html',
      body: page(head(`${o}/card.jpg`, { 'og:image:alt': null })),
    });
    site.answers.set('/no-card', {
      type: 'text/html',
      body: page(head(`${o}/card.jpg`, { 'twitter:card': null })),
    });
    site.answers.set('/long-title', {
      type: 'text/html',
      body: page(
        head(`${o}/card.jpg`, {
          'og:title':
            'A title that goes on and on, far past what any platform shows in a card, because it must say everything',
        }),
      ),
    });
    site.answers.set('/slow', { type: 'text/html', body: page(head(`${o}/slow.jpg`)) });
    site.answers.set('/gone', { status: 404, type: 'text/html', body: 'Not here' });
    site.answers.set('/huge-title', {
      type: 'text/html',
      body: page(head(`${o}/card.jpg`, { 'og:title': 'a'.repeat(300_000) })),
    });
    site.answers.set('/not-a-url', { type: 'text/html', body: page(head('http://')) });
    secure.answers.set('/mixed', { type: 'text/html', body: page(head(`${o}/card.jpg`)) });
    blocked.answers.set('/robots.txt', {
      type: 'text/plain',
      body: 'User-agent: Twitterbot\nDisallow: /\n\nUser-agent: facebookexternalhit\nDisallow: /private/\n',
    });
    blocked.answers.set('/post', { type: 'text/html', body: page(head(`${o}/card.jpg`)) });
  });
  afterAll(async () => {
    await srv?.close();
    for (const s of [site, secure, blocked]) await new Promise((resolve) => s.server.close(resolve));
  });

  type Report = {
    id: string;
    problems: { code: string; severity: string; message: string; platforms: string[] }[];
    platforms: {
      platform: string;
      card: string;
      title: string | null;
      image: { crop: { width: number; height: number } } | null;
      mockupUrl: string;
      problems: string[];
    }[];
    images: { width: number | null; height: number | null; bytes: number | null; format: string | null }[];
  };
  const check = async (url: string) => {
    const answer = await call(srv.base, 'POST', '/previews', { token, json: { url } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body.data as Report;
  };
  const problem = (report: Report, code: string) => report.problems.find((p) => p.code === code);

  it('finds no problem on a good page; every platform shows the large card with the title and the image at its crop', async () => {
    const report = await check(`${site.origin}/good`);
    expect(report.problems).toEqual([]);
    expect(report.images[0]).toMatchObject({ width: 1200, height: 630, format: 'jpeg' });
    for (const p of report.platforms) {
      expect(p.card, p.platform).toBe('large');
      expect(p.title, p.platform).toBe('Rain on the mate leaves');
    }
    const x = report.platforms.find((p) => p.platform === 'x');
    expect(x?.image?.crop).toMatchObject({ width: 1200, height: 600 });
    const slack = report.platforms.find((p) => p.platform === 'slack');
    expect(slack?.image?.crop).toMatchObject({ width: 1200, height: 630 });
  });

  it.each([
    [
      '/no-image',
      'NO_IMAGE',
      [
        'x',
        'facebook',
        'linkedin',
        'slack',
        'discord',
        'imessage',
        'whatsapp',
        'telegram',
        'mastodon',
        'bluesky',
      ],
      [],
    ],
    ['/relative', 'IMAGE_RELATIVE_URL', ['facebook', 'x', 'bluesky'], []],
    ['/unreachable', 'IMAGE_UNREACHABLE', ['facebook', 'x'], []],
    ['/not-image', 'IMAGE_NOT_AN_IMAGE', ['facebook', 'whatsapp'], []],
    ['/small', 'IMAGE_TOO_SMALL', ['facebook', 'whatsapp', 'x'], []],
    ['/heavy', 'IMAGE_TOO_LARGE', ['whatsapp', 'bluesky'], ['x', 'facebook', 'linkedin', 'slack']],
    ['/square', 'IMAGE_ASPECT', ['facebook', 'x', 'linkedin', 'bluesky'], ['slack', 'discord']],
    ['/undeclared', 'IMAGE_SIZE_UNDECLARED', ['facebook', 'linkedin', 'discord'], ['x', 'slack']],
    ['/no-alt', 'NO_ALT', ['x', 'facebook'], []],
    ['/no-card', 'NO_TWITTER_CARD', ['x', 'discord'], ['facebook', 'linkedin']],
    ['/long-title', 'TITLE_TOO_LONG', ['x', 'facebook', 'imessage', 'whatsapp'], ['linkedin', 'slack']],
    ['/slow', 'SLOW_IMAGE', ['facebook', 'slack', 'whatsapp'], ['discord', 'mastodon', 'bluesky']],
    ['/gone', 'PAGE_UNREACHABLE', ['x', 'facebook', 'bluesky'], []],
  ])('%s: %s on the platforms it concerns', async (pathname, code, on, notOn) => {
    const report = await check(`${site.origin}${pathname}`);
    const found = problem(report, code);
    expect(found, JSON.stringify(report.problems)).toBeDefined();
    for (const platform of on) expect(found?.platforms, platform).toContain(platform);
    for (const platform of notOn) expect(found?.platforms, platform).not.toContain(platform);
    expect(found?.message.length).toBeGreaterThan(30);
    for (const p of report.platforms)
      expect(p.problems.includes(code), `${p.platform} lists ${code}`).toBe(
        found?.platforms.includes(p.platform),
      );
  });

  it('a page with a 300,000-character title, or an image URL that is no URL, gets its report, not an error', async () => {
    const huge = await check(`${site.origin}/huge-title`);
    expect(problem(huge, 'TITLE_TOO_LONG')?.platforms).toContain('x');
    expect(huge.platforms.find((p) => p.platform === 'x')?.title).toHaveLength(70);
    const bad = await check(`${site.origin}/not-a-url`);
    expect(problem(bad, 'IMAGE_UNREACHABLE')?.message).toContain('is not a URL');
  });

  it('IMAGE_NOT_HTTPS: an http image on an https page', async () => {
    const report = await check(`${secure.origin}/mixed`);
    expect(problem(report, 'IMAGE_NOT_HTTPS')?.platforms).toContain('facebook');
    expect(report.problems.map((p) => p.code)).toEqual(['IMAGE_NOT_HTTPS']);
  });

  it("CRAWLER_BLOCKED: robots.txt disallows X's crawler: X shows no preview; Facebook's rule is for another path", async () => {
    const report = await check(`${blocked.origin}/post`);
    const found = problem(report, 'CRAWLER_BLOCKED');
    expect(found?.platforms).toEqual(['x']);
    expect(found?.message).toContain('X (Twitterbot)');
    expect(report.platforms.find((p) => p.platform === 'x')?.card).toBe('none');
    expect(report.platforms.find((p) => p.platform === 'facebook')?.card).toBe('large');
  });

  it('draws a mock-up per platform: a PNG 560 px wide with the image at its crop', async () => {
    const report = await check(`${site.origin}/good`);
    const photo = await sharp(await readFile(PHOTO))
      .resize(8, 8, { fit: 'fill' })
      .removeAlpha()
      .raw()
      .toBuffer();
    for (const p of report.platforms) {
      const answer = await fetch(p.mockupUrl.replace(/^https?:\/\/[^/]+/, srv.base.replace(/\/api$/, '')), {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(answer.status, p.platform).toBe(200);
      expect(answer.headers.get('content-type')).toBe('image/png');
      const png = Buffer.from(await answer.arrayBuffer());
      const meta = await sharp(png).metadata();
      expect(meta.width).toBe(560);
      // The photo's colours are in the mock-up: a green leafy photo, so the mean green of the
      // mock-up's image area stands above its red.
      const { channels } = await sharp(png).extract({ left: 40, top: 60, width: 400, height: 100 }).stats();
      const [r, g] = channels.map((c) => c.mean) as [number, number];
      expect(g - r, p.platform).toBeGreaterThan(10);
    }
    expect(photo.length).toBe(192);
  });

  it('keeps the report a day for the workspace only; refuses private addresses and bad URLs', async () => {
    const report = await check(`${site.origin}/good`);
    const again = await call(srv.base, 'GET', `/previews/${report.id}`, { token });
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(report.id);
    const other = await srv.createUser('free');
    expect((await call(srv.base, 'GET', `/previews/${report.id}`, { token: other.token })).status).toBe(404);
    const bad = await call(srv.base, 'POST', '/previews', { token, json: { url: 'ftp://example.com/' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.field).toBe('url');
    const missing = await call(srv.base, 'POST', '/previews', { token, json: {} });
    expect(missing.status).toBe(400);
    const privateAddress = await call(srv.base, 'POST', '/previews', {
      token,
      json: { url: 'http://10.0.0.1/' },
    });
    expect(privateAddress.status).toBe(400);
    expect(privateAddress.body.error.message).toContain('not allowed');
    const unknownPlatform = await fetch(`${srv.base}/previews/${report.id}/myspace.png`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(unknownPlatform.status).toBe(404);

    // `titlecard sweep` leaves a check younger than a day, and deletes one older (and its mock-ups).
    const { files } = srv.services;
    expect(
      (await files.sweepOrphans({ olderThan: new Date() })).filter((k) => k.includes(report.id)),
    ).toEqual([]);
    const swept = await files.sweepOrphans({ olderThan: new Date(Date.now() + 24 * 3600_000 + 1000) });
    expect(swept).toEqual(expect.arrayContaining([`${report.id}_report.json`]));
    expect((await call(srv.base, 'GET', `/previews/${report.id}`, { token })).status).toBe(404);
  });
});
