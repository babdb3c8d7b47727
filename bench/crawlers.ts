/**
 * `npm run bench -- --crawlers`: how fast a card that exists answers a crawler (issue 54: 50 ms at
 * p95 on a warm server). `titlecard serve` in its own process (the embedded default) with a
 * verified site whose page this process serves on 127.0.0.1; its card made once; then crawler
 * fetches with the platforms' user agents (each recorded, src/domain/sites/crawls.ts): the site
 * link (its 302 to the content-hashed URL), the content-hashed URL (the card), and both as a
 * crawler follows them, one at a time and 8 in flight. Latency from the request to the last byte,
 * over keep-alive connections.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { PLATFORMS } from '../src/domain/link-previews/platforms.js';
import { percentile, runInFlight } from './stats.js';
import { startServer } from './http.js';

/** Requests per measurement. */
const FETCHES = 400;

export async function crawlerFigures(photo: Buffer, print: (line: string) => void): Promise<void> {
  let verification = '';
  const page = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(
      `<!doctype html><html><head>${verification}<title>A post</title><meta property="og:title" content="What the rain left on the leaves"></head><body></body></html>`,
    );
  });
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
  const { server, token, cleanup } = await startServer({ FETCH_ALLOW_ADDRESSES: '127.0.0.1' });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const api = async (method: string, route: string, body?: unknown) => {
    const res = await fetch(`${server.base}${route}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return ((await res.json()) as { data: Record<string, unknown> }).data;
  };
  try {
    const form = new FormData();
    form.set('image', new Blob([photo]), 'photo.jpg');
    const asset = (await (
      await fetch(`${server.base}/assets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      })
    ).json()) as { data: { id: string } };
    const preset = await api('POST', '/presets', { name: 'Blog', background: asset.data.id });
    const site = (await api('POST', '/sites', { origin, preset: preset.id })) as {
      id: string;
      link: string;
      verification: { meta: string };
    };
    verification = site.verification.meta;
    await api('POST', `/sites/${site.id}/verify`);
    const link = `${site.link}${encodeURIComponent(`${origin}/posts/rain`)}`;
    /** GETs `url` as `userAgent`; the status, the Location, and the milliseconds to the last byte. */
    const get = (url: string, userAgent: string) =>
      new Promise<{ status: number; location: string | undefined; ms: number }>((resolve, reject) => {
        const started = performance.now();
        http
          .get(url, { agent, headers: { 'user-agent': userAgent } }, (res) => {
            res.resume();
            res.on('end', () =>
              resolve({
                status: res.statusCode ?? 0,
                location: res.headers.location,
                ms: performance.now() - started,
              }),
            );
          })
          .on('error', reject);
      });
    const first = await get(link, 'Twitterbot/1.0');
    if (first.status !== 302 || !first.location) throw new Error(`the site link answered ${first.status}`);
    const card = new URL(first.location, link).href;
    const agents = PLATFORMS.map((p) => p.crawler.sample);
    let n = 0;
    const measure = async (what: (ua: string) => Promise<number>, inFlight: number) => {
      const times: number[] = [];
      for (let i = 0; i < 50; i++) await what(agents[n++ % agents.length] as string); // warm
      await runInFlight(
        async () => times.push(await what(agents[n++ % agents.length] as string)),
        inFlight,
        FETCHES,
      );
      return times;
    };
    const kinds: [string, (ua: string) => Promise<number>][] = [
      ['site link (302, recorded)', async (ua) => (await get(link, ua)).ms],
      ['content-hashed card (200)', async (ua) => (await get(card, ua)).ms],
      [
        'both, as a crawler follows them',
        async (ua) => {
          const hop = await get(link, ua);
          return hop.ms + (await get(new URL(hop.location as string, link).href, ua)).ms;
        },
      ],
    ];
    print(
      `\nA card that exists, fetched by crawlers (${FETCHES} fetches each, the ten platforms' user agents in turn), ms`,
    );
    print(
      `${'what'.padEnd(36)}${'in flight'.padStart(10)}${'p50'.padStart(8)}${'p95'.padStart(8)}${'p99'.padStart(8)}${'max'.padStart(8)}`,
    );
    for (const [name, what] of kinds)
      for (const inFlight of [1, 8]) {
        const t = await measure(what, inFlight);
        print(
          `${name.padEnd(36)}${String(inFlight).padStart(10)}${percentile(t, 50).toFixed(1).padStart(8)}${percentile(t, 95).toFixed(1).padStart(8)}${percentile(t, 99).toFixed(1).padStart(8)}${Math.max(
            ...t,
          )
            .toFixed(1)
            .padStart(8)}`,
        );
      }
    const fetches = (await api('GET', `/sites/${site.id}/fetches`)) as { pages: { platforms: unknown[] }[] };
    print(
      `  the site's crawler log: ${fetches.pages[0]?.platforms.length ?? 0} platforms recorded for the page`,
    );
  } finally {
    agent.destroy();
    await cleanup();
    page.close();
  }
}
