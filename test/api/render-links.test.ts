/**
 * Open Graph images by URL, through real HTTP: uploads (backgrounds, logos, fonts),
 * presets, signing keys, and signed render links that render on their first fetch and are served
 * from the store after; `POST /generate` with a preset, an asset or an image URL.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeZoneOf } from '../../src/domain/render/geometry.js';
import { docsJavaScriptLink, fetchLink } from '../support/docs-examples.js';
import { ROOT, runCli, spawnServer } from '../support/process.js';
import { call, generate, startTestServer, upload, type TestServer } from '../support/server.js';

const PHOTO = path.join(ROOT, 'src/web/static/samples/dragonfly.jpg');
const FONT = path.join(ROOT, 'fonts/playfair-display/PlayfairDisplay_700Bold.ttf');

/** Fetches a link; the body's bytes and the headers. */
/** How many renders this server has done (its Prometheus decode-stage count). */
async function renders(srv: TestServer): Promise<number> {
  const text = await (await fetch(`${srv.url}/metrics`)).text();
  const match = /titlecard_render_stage_duration_seconds_count\{stage="decode"\} (\d+)/.exec(text);
  return Number(match?.[1] ?? 0);
}

async function used(srv: TestServer, token: string): Promise<number> {
  return (await call(srv.base, 'GET', '/usage', { token })).body.data.usage.generated as number;
}

/** Pixels of `rgb` (within `tolerance` per channel) in a decoded image, with their bounding box. */
async function pixelsOf(image: Buffer, rgb: [number, number, number], tolerance = 40) {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let count = 0;
  const box = { left: Infinity, top: Infinity, right: -1, bottom: -1 };
  const points: [number, number][] = [];
  for (let i = 0; i < info.width * info.height; i++) {
    const [r, g, b] = [data[i * 3] as number, data[i * 3 + 1] as number, data[i * 3 + 2] as number];
    if (
      Math.abs(r - rgb[0]) <= tolerance &&
      Math.abs(g - rgb[1]) <= tolerance &&
      Math.abs(b - rgb[2]) <= tolerance
    ) {
      count++;
      const x = i % info.width;
      const y = Math.floor(i / info.width);
      points.push([x, y]);
      box.left = Math.min(box.left, x);
      box.right = Math.max(box.right, x);
      box.top = Math.min(box.top, y);
      box.bottom = Math.max(box.bottom, y);
    }
  }
  return { count, box, points, width: info.width, height: info.height };
}

describe('render links, presets and uploads', () => {
  let srv: TestServer;
  let token: string;
  let userId: string;
  let photoId: string;
  let presetId: string;
  let key: { id: string; secret: string };
  const photo = () => readFile(PHOTO);

  beforeAll(async () => {
    srv = await startTestServer({ fetcher: { allowAddresses: ['127.0.0.1'] } });
    const created0 = await srv.createUser('pro');
    token = created0.token;
    userId = created0.user.id;
    const asset = await upload(srv, token, '/assets', 'image', await photo(), 'dragonfly.jpg');
    expect(asset.status, JSON.stringify(asset.body)).toBe(201);
    photoId = asset.body.data.id as string;
    const preset = await call(srv.base, 'POST', '/presets', {
      token,
      json: { name: 'Blog', template: 'left', aspect: 'og', background: photoId, textShadow: false },
    });
    expect(preset.status, JSON.stringify(preset.body)).toBe(201);
    presetId = preset.body.data.id as string;
    const created = await call(srv.base, 'POST', '/signing-keys', { token, json: { name: 'Site' } });
    expect(created.status).toBe(201);
    key = created.body.data as { id: string; secret: string };
  });
  afterAll(async () => {
    await srv?.close();
  });

  it('stores an upload without its metadata and lists it; a file that is not an image is a 400 on image', async () => {
    const tagged = await sharp(await photo())
      .withMetadata({ exif: { IFD0: { Copyright: 'Secret Camera Owner' } } })
      .jpeg()
      .toBuffer();
    const res = await upload(srv, token, '/assets', 'image', tagged, 'tagged.jpg', { kind: 'background' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ kind: 'background', name: 'tagged.jpg', format: 'jpeg' });
    const listed = await call(srv.base, 'GET', '/assets', { token });
    expect(listed.body.data.assets.map((a: { id: string }) => a.id)).toContain(res.body.data.id);
    const stored = await srv.services.assets.imageOf(userId, res.body.data.id as string, 'asset');
    expect((await sharp(stored.bytes).metadata()).exif).toBeUndefined();
    expect(stored.bytes.includes(Buffer.from('Secret Camera Owner'))).toBe(false);

    const bad = await upload(srv, token, '/assets', 'image', Buffer.from('not an image at all'), 'x.jpg');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { field: 'image', constraint: 'format' },
    });
  });

  it('a link built by the docs JavaScript example and one from POST /render-urls both render, from the preset background', async () => {
    const fromReadme = await docsJavaScriptLink({
      baseUrl: srv.url,
      preset: presetId,
      title: 'Signed by the docs',
      subtitle: 'Ünïcödé & spaces + symbols',
      keyId: key.id,
      secret: key.secret,
    });
    const first = await fetchLink(fromReadme);
    expect(first.status, first.body.toString()).toBe(200);
    expect(first.headers.get('content-type')).toBe('image/png');
    expect(await sharp(first.body).metadata()).toMatchObject({ width: 1200, height: 630 });

    const made = await call(srv.base, 'POST', '/render-urls', {
      token,
      json: { preset: presetId, title: 'Made by the API', format: 'jpeg' },
    });
    expect(made.status).toBe(200);
    const url = made.body.data.url as string;
    expect(url.startsWith(`${srv.url}/r/${presetId}.jpg?`)).toBe(true);
    const second = await fetchLink(url);
    expect(second.status).toBe(200);
    expect(second.headers.get('content-type')).toBe('image/jpeg');
  });

  it('`titlecard url sign` prints a link that renders (secret from the environment); a bad format is a usage error', async () => {
    const r = await runCli(
      [
        'url',
        'sign',
        '--preset',
        presetId,
        '--title',
        'From the command line',
        '--key',
        key.id,
        '--base-url',
        srv.url,
        '--format',
        'webp',
      ],
      { TITLECARD_SIGNING_SECRET: key.secret },
    );
    expect(r.code, r.stderr).toBe(0);
    const res = await fetchLink(r.stdout.trim());
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    const bad = await runCli(
      [
        'url',
        'sign',
        '--preset',
        presetId,
        '--title',
        't',
        '--key',
        key.id,
        '--secret',
        's',
        '--format',
        'gif',
      ],
      {},
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Allowed choices are png, jpeg, webp/);
    // What the link would only fail on when fetched is refused before signing (on main each of
    // these printed a link and exited 0, one of them with exp=NaN).
    const sign = (extra: string[]) => runCli(['url', 'sign', '--key', key.id, '--secret', 's', ...extra], {});
    for (const [args, code, message] of [
      [
        ['--preset', 'pre_x', '--title', 't'],
        1,
        'Expected an id such as pre_3SJQtzQudCCNw7msvpESdd for preset but received "pre_x"',
      ],
      [['--preset', presetId, '--title', ''], 1, 'Expected at least 1 character for title but received ""'],
      [
        ['--preset', presetId, '--title', 't', '--expires', 'soon'],
        2,
        'expected Unix seconds, such as 1798761600',
      ],
      [
        ['--preset', presetId, '--title', 't', '--expires', '1700000000'],
        2,
        'expected a time to come, not one past',
      ],
    ] as const) {
      const refused = await sign([...args]);
      expect(refused.code, args.join(' ')).toBe(code);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toContain(message);
    }
  });

  it('one changed character of the query, the signature or the key is a 403; so is a revoked key and an expired link', async () => {
    const made = await call(srv.base, 'POST', '/render-urls', {
      token,
      json: { preset: presetId, title: 'Tamper with me' },
    });
    const url = new URL(made.body.data.url as string);
    expect((await fetchLink(url.href)).status).toBe(200);
    const altered = (param: string, change: (v: string) => string) => {
      const copy = new URL(url.href);
      copy.searchParams.set(param, change(copy.searchParams.get(param) ?? ''));
      return copy.href;
    };
    const flip = (v: string) => `${v.slice(0, -1)}${v.endsWith('A') ? 'B' : 'A'}`;
    for (const tampered of [
      altered('title', (v) => v.replace('Tamper', 'Tamped')),
      altered('sig', flip),
      altered('key', flip),
      url.href.replace(/&sig=[^&]+/, ''),
    ]) {
      const res = await fetchLink(tampered);
      expect(res.status, tampered).toBe(403);
      expect(JSON.parse(res.body.toString())).toMatchObject({
        success: false,
        error: { code: 'INVALID_SIGNATURE' },
      });
    }

    const expiring = await call(srv.base, 'POST', '/render-urls', {
      token,
      json: { preset: presetId, title: 'Soon gone', expiresIn: 60 },
    });
    const expiredUrl = await docsJavaScriptLink({
      baseUrl: srv.url,
      preset: presetId,
      title: 'Already gone',
      expires: Math.floor(Date.now() / 1000) - 10,
      keyId: key.id,
      secret: key.secret,
    });
    expect((await fetchLink(expiring.body.data.url as string)).status).toBe(200);
    expect((await fetchLink(expiredUrl)).status).toBe(403);

    const other = await call(srv.base, 'POST', '/signing-keys', { token, json: { name: 'Rotated' } });
    const signed = await call(srv.base, 'POST', '/render-urls', {
      token,
      json: { preset: presetId, title: 'Signed with a key that goes', key: other.body.data.id },
    });
    expect((await fetchLink(signed.body.data.url as string)).status).toBe(200);
    expect(
      (await call(srv.base, 'DELETE', `/signing-keys/${other.body.data.id as string}`, { token })).status,
    ).toBe(200);
    expect((await fetchLink(signed.body.data.url as string)).status).toBe(403);
  });

  it('a server with another SECRETS_KEY cannot open the signing keys: links are refused (403) and new ones too (400), never a 500', async () => {
    const made = await call(srv.base, 'POST', '/render-urls', {
      token,
      json: { preset: presetId, title: 'Sealed elsewhere' },
    });
    // Another process on the same DATA_DIR, started with another key.
    const other = await spawnServer({
      DATA_DIR: srv.dataDir,
      SECRETS_KEY: Buffer.alloc(32, 9).toString('base64'),
    });
    try {
      const local = other.url;
      const link = new URL(made.body.data.url as string);
      const refused = await fetchLink(`${local}${link.pathname}${link.search}`);
      expect(refused.status).toBe(403);
      const again = await call(`${local}/api`, 'POST', '/render-urls', {
        token,
        json: { preset: presetId, title: 'Cannot sign' },
      });
      expect(again.status).toBe(400);
      expect(again.body.error.details).toMatchObject({ field: 'key' });
    } finally {
      await other.stop();
    }
  });

  it('the second fetch is served from the store: no render, no quota, the same ETag; If-None-Match gets a 304', async () => {
    const made = await call(srv.base, 'POST', '/render-urls', {
      token,
      json: { preset: presetId, title: 'Cached once' },
    });
    const url = made.body.data.url as string;
    const [rendersBefore, usedBefore] = [await renders(srv), await used(srv, token)];
    const first = await fetchLink(url);
    expect(first.status).toBe(200);
    expect(await renders(srv)).toBe(rendersBefore + 1);
    expect(await used(srv, token)).toBe(usedBefore + 1);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    // The link redirects, for an hour, to the card's content-hashed URL, kept a year.
    expect(first.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const link = await fetch(url, { redirect: 'manual' });
    expect(link.status).toBe(302);
    expect(link.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(link.headers.get('location')).toBe(`/c/${(etag ?? '').replaceAll('"', '')}.png`);

    const again = await fetchLink(url);
    expect(again.status).toBe(200);
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.body.equals(first.body)).toBe(true);
    expect(await renders(srv)).toBe(rendersBefore + 1);
    expect(await used(srv, token)).toBe(usedBefore + 1);

    const revalidated = await fetchLink(url, { 'if-none-match': etag ?? '' });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body.length).toBe(0);
  });

  it('8 concurrent first fetches of one link render once and charge one unit', async () => {
    const made = await call(srv.base, 'POST', '/render-urls', {
      token,
      json: { preset: presetId, title: 'Eight at once' },
    });
    const url = made.body.data.url as string;
    const [rendersBefore, usedBefore] = [await renders(srv), await used(srv, token)];
    const all = await Promise.all(Array.from({ length: 8 }, () => fetchLink(url)));
    expect(all.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(new Set(all.map((r) => r.headers.get('etag'))).size).toBe(1);
    expect(await renders(srv)).toBe(rendersBefore + 1);
    expect(await used(srv, token)).toBe(usedBefore + 1);
  });

  it('a preset edit changes the image of the same link, and raises its version', async () => {
    const made = await call(srv.base, 'POST', '/render-urls', {
      token,
      json: { preset: presetId, title: 'Edited design' },
    });
    const url = made.body.data.url as string;
    const before = await fetchLink(url);
    const edited = await call(srv.base, 'PUT', `/presets/${presetId}`, {
      token,
      json: {
        name: 'Blog',
        template: 'left',
        aspect: 'og',
        background: photoId,
        textShadow: false,
        colorMode: 'custom',
        colorHex: '#ff0000',
      },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.data.version).toBe(2);
    const after = await fetchLink(url);
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    expect(after.body.equals(before.body)).toBe(false);
    expect((await pixelsOf(after.body, [255, 0, 0], 30)).count).toBeGreaterThan(500);
    expect((await pixelsOf(before.body, [255, 0, 0], 30)).count).toBeLessThan(50);
  });

  it('a custom font draws the title (its ink differs from the default font, and matches the same family bundled); a file that is not a font is a 400 on font', async () => {
    const font = await upload(srv, token, '/fonts', 'font', await readFile(FONT), 'Playfair-Bold.ttf');
    expect(font.status, JSON.stringify(font.body)).toBe(201);
    const fontId = font.body.data.id as string;
    const base = {
      title: 'Quiet Harbour',
      gradient: 'false',
      textShadow: 'false',
      colorMode: 'custom',
      colorHex: '#00ff00',
      asset: photoId,
    };
    const draw = async (font: string) => {
      const res = await generate(srv.base, token, { ...base, font });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return (await fetchLink(res.body.data.url as string)).body;
    };
    const custom = await pixelsOf(await draw(JSON.stringify({ custom: fontId })), [0, 255, 0], 60);
    const arial = await pixelsOf(await draw('arial'), [0, 255, 0], 60);
    const bundled = await pixelsOf(await draw('playfair-display'), [0, 255, 0], 60);
    // Where the ink is: the share of inked pixels two images do not share (0 same, 1 disjoint).
    const apart = (a: typeof custom, b: typeof custom) => {
      const inA = new Set(a.points.map(([x, y]) => y * a.width + x));
      const inB = new Set(b.points.map(([x, y]) => y * b.width + x));
      const shared = [...inA].filter((p) => inB.has(p)).length;
      return 1 - shared / (inA.size + inB.size - shared);
    };
    expect(custom.count).toBeGreaterThan(1000);
    expect(apart(custom, arial)).toBeGreaterThan(0.3);
    expect(apart(custom, bundled)).toBeLessThan(0.05);

    const notFont = await upload(srv, token, '/fonts', 'font', await photo(), 'photo.ttf');
    expect(notFont.status).toBe(400);
    expect(notFont.body.error).toMatchObject({ details: { field: 'font', constraint: 'format' } });
    expect(notFont.body.error.message).toMatch(/font/);
    const garbage = await upload(
      srv,
      token,
      '/fonts',
      'font',
      Buffer.concat([Buffer.from([0, 1, 0, 0]), Buffer.alloc(200, 7)]),
      'broken.ttf',
    );
    expect(garbage.status).toBe(400);
  });

  it('the logo sits in its corner inside the safe zone, and the text keeps away from it', async () => {
    const logo = await sharp({
      create: { width: 300, height: 150, channels: 4, background: { r: 255, g: 0, b: 255, alpha: 1 } },
    })
      .png()
      .toBuffer();
    const logoAsset = await upload(srv, token, '/assets', 'image', logo, 'logo.png', { kind: 'logo' });
    expect(logoAsset.body.data).toMatchObject({ kind: 'logo', format: 'png' });
    const preset = await call(srv.base, 'POST', '/presets', {
      token,
      json: {
        name: 'With logo',
        template: 'left',
        background: photoId,
        gradient: false,
        textShadow: false,
        colorMode: 'custom',
        colorHex: '#00ff00',
        logo: { asset: logoAsset.body.data.id, corner: 'top-left', size: 0.2 },
      },
    });
    expect(preset.status, JSON.stringify(preset.body)).toBe(201);
    const res = await generate(srv.base, token, {
      preset: preset.body.data.id as string,
      title: 'A long title that fills the left column from top to bottom of the card',
      subtitle: 'And a subtitle that adds a few more lines below it',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const image = (await fetchLink(res.body.data.url as string)).body;
    const magenta = await pixelsOf(image, [255, 0, 255], 30);
    const safe = safeZoneOf('og');
    expect(magenta.count).toBeGreaterThan(0.9 * 240 * 120);
    expect(magenta.box.left).toBeGreaterThanOrEqual(Math.floor(safe.x));
    expect(magenta.box.top).toBeGreaterThanOrEqual(Math.floor(safe.y));
    expect(magenta.box.right).toBeLessThanOrEqual(Math.ceil(safe.x) + 240 + 1);
    const text = await pixelsOf(image, [0, 255, 0], 60);
    expect(text.count).toBeGreaterThan(1000);
    const gap = 1200 * 0.02;
    const inLogoZone = text.points.filter(
      ([x, y]) => x <= magenta.box.right + gap && y <= magenta.box.bottom + gap,
    );
    expect(inLogoZone).toEqual([]);
  });

  it('an upload a preset uses cannot be deleted (409); POST /generate takes a preset, an asset or an imageUrl, one at a time', async () => {
    const conflict = await call(srv.base, 'DELETE', `/assets/${photoId}`, { token });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.code).toBe('CONFLICT');

    const both = await generate(
      srv.base,
      token,
      { title: 'Two backgrounds', asset: photoId },
      { data: await photo() },
    );
    expect(both.status).toBe(400);
    expect(both.body.error.details).toMatchObject({ field: 'asset', constraint: 'type' });

    const served = await photo();
    const host: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/jpeg' }).end(served);
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    try {
      const imageUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}/photo.jpg`;
      const fromUrl = await generate(srv.base, token, { title: 'From a URL', preset: presetId, imageUrl });
      expect(fromUrl.status, JSON.stringify(fromUrl.body)).toBe(201);
    } finally {
      host.close();
    }
    const fromPreset = await generate(srv.base, token, {
      title: 'Preset only',
      preset: presetId,
      aspect: 'square',
    });
    expect(fromPreset.status).toBe(201);
    expect(fromPreset.body.data).toMatchObject({ width: 1080, height: 1080 });
    const nothing = await generate(srv.base, token, { title: 'No background' });
    expect(nothing.status).toBe(400);
    expect(nothing.body.error.details).toMatchObject({ field: 'image', constraint: 'required' });
  });

  it('over MCP: list_presets lists them, create_render_url makes a link that renders, generate_image takes a preset', async () => {
    const client = new Client({ name: 'links-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    try {
      const listed = await client.callTool({ name: 'list_presets', arguments: {} });
      expect(listed.isError).toBeFalsy();
      const ids = (listed.structuredContent as { presets: { id: string }[] }).presets.map((p) => p.id);
      expect(ids).toContain(presetId);
      const link = await client.callTool({
        name: 'create_render_url',
        arguments: { preset: presetId, title: 'Asked by an assistant', format: 'webp' },
      });
      expect(link.isError).toBeFalsy();
      const url = (link.structuredContent as { url: string }).url;
      const res = await fetchLink(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/webp');
      const made = await client.callTool({
        name: 'generate_image',
        arguments: { title: 'From the preset, by MCP', preset: presetId },
      });
      expect(made.isError, JSON.stringify(made.content)).toBeFalsy();
      expect(made.structuredContent).toMatchObject({ width: 1200, height: 630 });
    } finally {
      await client.close();
    }
  });

  it("with the quota used up a link answers its earlier card, else the preset's fallback card, free and briefly cached, and links already rendered keep working", async () => {
    const { user, token: freeToken } = await srv.createUser('free');
    const asset = await upload(srv, freeToken, '/assets', 'image', await photo(), 'p.jpg');
    const preset = await call(srv.base, 'POST', '/presets', {
      token: freeToken,
      json: { name: 'Free', background: asset.body.data.id },
    });
    const presetId = preset.body.data.id as string;
    await call(srv.base, 'POST', '/signing-keys', { token: freeToken, json: { name: 'k' } });
    const link = async (title: string) =>
      (await call(srv.base, 'POST', '/render-urls', { token: freeToken, json: { preset: presetId, title } }))
        .body.data.url as string;
    const early = await link('Rendered while there was quota');
    const first = await fetchLink(early);
    expect(first.status).toBe(200);
    expect(first.headers.get('titlecard-fallback')).toBeNull();
    // An edit makes the same link need a new card.
    const edit = await call(srv.base, 'PUT', `/presets/${presetId}`, {
      token: freeToken,
      json: { name: 'Free, edited', background: asset.body.data.id, template: 'split' },
    });
    expect(edit.status).toBe(200);
    while ((await used(srv, freeToken)) < 10)
      await srv.services.ledger.charge((await srv.services.accounts.actAs(user.email)).workspace);

    const again = await fetchLink(early);
    expect(again.status).toBe(200);
    expect(again.headers.get('titlecard-fallback')).toBe('quota');
    expect(again.headers.get('cache-control')).toBe('public, max-age=300');
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(again.body.equals(first.body)).toBe(true);

    const late = await fetchLink(await link('Too late this month'));
    expect(late.status).toBe(200);
    expect(late.headers.get('titlecard-fallback')).toBe('quota');
    expect(late.headers.get('cache-control')).toBe('public, max-age=300');
    expect(await sharp(late.body).metadata()).toMatchObject({ width: 1200, height: 630 });
    // The fallback card is one per design: a second new link gets the same bytes.
    const later = await fetchLink(await link('Another one too late'));
    expect(later.headers.get('etag')).toBe(late.headers.get('etag'));
    expect(await used(srv, freeToken)).toBe(10);
  });
});
