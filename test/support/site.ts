/**
 * A site served on 127.0.0.1 for the sites tests (the fetcher allows that address, as
 * FETCH_ALLOW_ADDRESSES does): pages whose HTML a test may change, the verification file, failing
 * pages; and an account with a preset and a verified site of it.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { expect } from 'vitest';
import { ROOT } from './process.js';
import { call, upload, type TestServer } from './server.js';

const PHOTO = path.join(ROOT, 'src/web/static/samples/dragonfly.jpg');

/** The test site: pages whose HTML a test may change, the verification file, and failing pages. */
export function testSite() {
  const pages = new Map<string, { type: string; body: string; status?: number; location?: string }>();
  const fetched: string[] = [];
  const server: Server = createServer((req, res) => {
    fetched.push(req.url ?? '');
    const page = pages.get((req.url ?? '/').split('?')[0] as string);
    res.writeHead(page?.status ?? (page ? 200 : 404), {
      'content-type': page?.type ?? 'text/html',
      ...(page?.location ? { location: page.location } : {}),
    });
    res.end(page?.body ?? '<!doctype html><title>Not found</title>');
  });
  return { pages, fetched, server };
}

/** A page whose `<head>` holds `head`. */
export const html = (head: string) =>
  `<!doctype html><html><head><meta charset="utf-8">${head}</head><body><p>Text</p></body></html>`;

/** An account of `tier` on `srv` with a preset whose background is a photo. */
export async function siteAccount(srv: TestServer, tier: 'free' | 'pro' = 'pro') {
  const { user, token } = await srv.createUser(tier);
  const asset = await upload(srv, token, '/assets', 'image', await readFile(PHOTO), 'dragonfly.jpg');
  const preset = await call(srv.base, 'POST', '/presets', {
    token,
    json: { name: 'Blog', background: asset.body.data.id },
  });
  const used = async () =>
    (await call(srv.base, 'GET', '/usage', { token })).body.data.usage.generated as number;
  return { user, token, presetId: preset.body.data.id as string, used };
}

/** A verified site of `origin` (served by `site`) for the account, verified by its meta tag. */
export async function verifiedSite(
  srv: TestServer,
  site: ReturnType<typeof testSite>,
  origin: string,
  token: string,
  presetId: string,
  extra: Record<string, unknown> = {},
) {
  const created = await call(srv.base, 'POST', '/sites', {
    token,
    json: { origin, preset: presetId, ...extra },
  });
  expect(created.status).toBe(201);
  site.pages.set('/', { type: 'text/html', body: html(created.body.data.verification.meta as string) });
  const verified = await call(srv.base, 'POST', `/sites/${created.body.data.id as string}/verify`, { token });
  expect(verified.status).toBe(200);
  return verified.body.data as { id: string; link: string; snippet: string; name: string };
}
