/**
 * Templates through real HTTP: `/templates` CRUD beside the read-only built-ins, templates in
 * `POST /generate` and `POST /layout` with `fields`, errors that name the path, presets that use a
 * template (409 on its deletion), and a render link that renders anew after the template's PUT.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { ROOT, runCli } from '../support/process.js';
import { solid } from '../support/images.js';
import { call, generate, startTestServer, upload, type TestServer } from '../support/server.js';

const PHOTO = readFileSync(path.join(ROOT, 'src/web/static/samples/dragonfly.jpg'));
const BLOG = JSON.parse(readFileSync(path.join(ROOT, 'examples/templates/blog.json'), 'utf8')) as {
  layers: Record<string, unknown>[];
  [key: string]: unknown;
};

let srv: TestServer;
let token: string;
beforeAll(async () => {
  srv = await startTestServer();
  ({ token } = await srv.createUser('pro'));
});
afterAll(() => srv.close());

const used = async () =>
  (await call(srv.base, 'GET', '/usage', { token })).body.data.usage.generated as number;

describe('templates', () => {
  it('lists the four built-ins, read-only, each a document to copy', async () => {
    const list = await call(srv.base, 'GET', '/templates', { token });
    expect(list.status).toBe(200);
    const ids = (list.body.data.templates as { id: string; builtIn: boolean }[]).map((t) => t.id);
    expect(ids.slice(0, 4)).toEqual(['bottom-left', 'left', 'right', 'split']);
    const bottomLeft = await call(srv.base, 'GET', '/templates/bottom-left', { token });
    expect(bottomLeft.body.data).toMatchObject({ id: 'bottom-left', builtIn: true, version: 1 });
    expect(bottomLeft.body.data.document.layers.map((l: { type: string }) => l.type)).toEqual([
      'image',
      'gradient',
      'text',
      'logo',
    ]);
    // A copy of a built-in is a valid template of one's own.
    const copy = await call(srv.base, 'POST', '/templates', {
      token,
      json: { ...bottomLeft.body.data.document, name: 'My bottom left' },
    });
    expect(copy.status).toBe(201);
    const put = await call(srv.base, 'PUT', '/templates/left', {
      token,
      json: bottomLeft.body.data.document,
    });
    expect([put.status, put.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const del = await call(srv.base, 'DELETE', '/templates/split', { token });
    expect([del.status, del.body.error.code]).toEqual([403, 'FORBIDDEN']);
    expect((await call(srv.base, 'GET', '/templates/nope', { token })).status).toBe(404);
  });

  it('refuses a bad layer, naming its path and the constraint, and stores nothing', async () => {
    const before = (await call(srv.base, 'GET', '/templates', { token })).body.data.templates
      .length as number;
    const layers = structuredClone(BLOG.layers);
    (layers[3] as { box: { w: number } }).box.w = 0.99;
    const bad = await call(srv.base, 'POST', '/templates', { token, json: { ...BLOG, layers } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    expect(bad.body.error.details).toEqual({ field: 'layers[3].box.w', constraint: 'max' });
    expect(bad.body.error.message).toContain('layers[3].box.w');

    const unknownKind = await call(srv.base, 'POST', '/templates', {
      token,
      json: { ...BLOG, layers: [...BLOG.layers, { type: 'circle' }] },
    });
    expect(unknownKind.status).toBe(400);
    expect(unknownKind.body.error.details.field).toBe('layers[7].type');

    // An unknown variable in content is refused when the template is saved, not when it is used.
    const typo = structuredClone(BLOG.layers);
    (typo[6] as { content: string }).content = '{{autor}}';
    const refused = await call(srv.base, 'POST', '/templates', { token, json: { ...BLOG, layers: typo } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.field).toBe('layers[6].content');
    expect(refused.body.error.message).toContain('{{autor}}');
    expect((await call(srv.base, 'GET', '/templates', { token })).body.data.templates).toHaveLength(before);
  });

  it('renders through /generate with fields; a missing required variable is a 400 on fields.author, not charged', async () => {
    const created = await call(srv.base, 'POST', '/templates', { token, json: BLOG });
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    expect(id).toMatch(/^tpl_[0-9A-Za-z]{22}$/);
    expect(created.body.data.version).toBe(1);

    const before = await used();
    const missing = await generate(srv.base, token, { title: 'Cards in git', template: id }, { data: PHOTO });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details).toEqual({ field: 'fields.author', constraint: 'required' });
    const unknown = await generate(
      srv.base,
      token,
      { title: 'Cards in git', template: id, fields: JSON.stringify({ author: 'Ada', nickname: 'A' }) },
      { data: PHOTO },
    );
    expect(unknown.body.error.details.field).toBe('fields.nickname');
    expect(await used()).toBe(before);

    const avatar = await upload(
      srv,
      token,
      '/assets',
      'image',
      await solid([200, 30, 30], 'png', 200, 200),
      'a.png',
    );
    const made = await generate(
      srv.base,
      token,
      {
        title: 'Cards in git',
        template: id,
        fields: JSON.stringify({ author: 'Ada Lovelace', avatar: avatar.body.data.id }),
      },
      { data: PHOTO },
    );
    expect(made.status).toBe(201);
    expect(await used()).toBe(before + 1);
    const report = JSON.parse(made.headers.get('titlecard-render-report') as string);
    expect(report.template).toBe(id);
    expect(report.layers.map((l: { lines: string[] }) => l.lines.join(' '))).toEqual([
      'Engineering',
      'Cards in git',
      'Ada Lovelace',
    ]);
    // The avatar is drawn: its red in the middle of its box (x 0.05 to 0.12, y 0.74 to 0.87).
    const file = Buffer.from(await (await fetch(made.body.data.url as string)).arrayBuffer());
    const { data, info } = await sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const i = (Math.round(0.805 * info.height) * info.width + Math.round(0.085 * info.width)) * 3;
    expect([data[i], data[i + 1], data[i + 2]].map((v) => Math.round((v as number) / 20))).toEqual([
      10, 2, 2,
    ]);

    // Fields without a template id are refused.
    const stray = await generate(srv.base, token, { title: 'x', fields: '{"a":"b"}' }, { data: PHOTO });
    expect(stray.body.error.details.field).toBe('fields');
  });

  it('POST /layout reports each text layer: size, lines, truncation, fallback fonts', async () => {
    const created = await call(srv.base, 'POST', '/templates', { token, json: BLOG });
    const id = created.body.data.id as string;
    const res = await call(srv.base, 'POST', '/layout', {
      token,
      json: { title: 'مرحبا بالعالم: كيف نكتب عناوين جميلة', template: id, fields: { author: 'Ada' } },
    });
    expect(res.status).toBe(200);
    const layers = res.body.data.layers as {
      layer: number;
      fontSize: number;
      fallbackFonts: string[];
      truncated: boolean;
      contrast: null;
    }[];
    expect(layers.map((l) => l.layer)).toEqual([3, 4, 6]);
    expect(layers[1]?.fallbackFonts).toContain('Noto Sans Arabic');
    expect(layers[1]?.fontSize).toBeGreaterThanOrEqual(28);
    expect(layers.every((l) => l.contrast === null && l.truncated === false)).toBe(true);
  });

  it('a preset that uses a template keeps it from deletion (409); PUT raises the version and a render link renders anew', async () => {
    const simple = {
      name: 'Panel',
      variables: { label: { type: 'text', default: 'News' } },
      layers: [
        { type: 'image', source: 'background' },
        { type: 'rect', box: { x: 0, y: 0, w: 0.5, h: 1 }, fill: '#003366' },
        { type: 'text', content: '{{title}}', box: { x: 0.05, y: 0.1, w: 0.4, h: 0.6 } },
        { type: 'text', content: '{{label}}', box: { x: 0.05, y: 0.8, w: 0.4, h: 0.1 }, weight: 'regular' },
      ],
    };
    const created = await call(srv.base, 'POST', '/templates', { token, json: simple });
    const id = created.body.data.id as string;
    const background = await upload(srv, token, '/assets', 'image', PHOTO, 'bg.jpg', { kind: 'background' });
    const preset = await call(srv.base, 'POST', '/presets', {
      token,
      json: { name: 'With panel', template: id, background: background.body.data.id },
    });
    expect(preset.status).toBe(201);
    const conflict = await call(srv.base, 'DELETE', `/templates/${id}`, { token });
    expect([conflict.status, conflict.body.error.code]).toEqual([409, 'CONFLICT']);

    await call(srv.base, 'POST', '/signing-keys', { token, json: { name: 'Links' } });
    const link = await call(srv.base, 'POST', '/render-urls', {
      token,
      json: { preset: preset.body.data.id, title: 'Panels', fields: { label: 'Weekly' } },
    });
    expect(link.status).toBe(200);
    expect(link.body.data.url).toContain('f.label=Weekly');
    const first = await fetch(link.body.data.url as string);
    expect(first.status).toBe(200);
    const firstBytes = Buffer.from(await first.arrayBuffer());
    const again = await fetch(link.body.data.url as string);
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));

    // The panel turns red: the link's next fetch renders the new version.
    simple.layers[1] = { ...simple.layers[1], fill: '#CC0000' } as (typeof simple.layers)[number];
    const put = await call(srv.base, 'PUT', `/templates/${id}`, { token, json: simple });
    expect(put.body.data.version).toBe(2);
    const after = await fetch(link.body.data.url as string);
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(first.headers.get('etag'));
    const afterBytes = Buffer.from(await after.arrayBuffer());
    const pixel = async (bytes: Buffer) => {
      const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      const i = (Math.round(info.height * 0.5) * info.width + 5) * 3;
      return [data[i], data[i + 1], data[i + 2]];
    };
    expect(await pixel(firstBytes)).toEqual([0, 51, 102]);
    expect(await pixel(afterBytes)).toEqual([204, 0, 0]);

    await call(srv.base, 'DELETE', `/presets/${preset.body.data.id as string}`, { token });
    expect((await call(srv.base, 'DELETE', `/templates/${id}`, { token })).body).toEqual({
      success: true,
      message: `Template ${id} deleted`,
    });
    expect((await call(srv.base, 'GET', `/templates/${id}`, { token })).status).toBe(404);
  });

  it("render links that differ only in an image field render apart (the field is part of the card's hash)", async () => {
    const stamp = async (rgb: [number, number, number]) =>
      (
        await upload(srv, token, '/assets', 'image', await solid(rgb, 'png', 80, 80), 's.png', {
          kind: 'logo',
        })
      ).body.data.id as string;
    const [red, blue] = [await stamp([220, 0, 0]), await stamp([0, 0, 220])];
    const created = await call(srv.base, 'POST', '/templates', {
      token,
      json: {
        name: 'Stamped',
        variables: { stamp: { type: 'image', required: true } },
        layers: [
          { type: 'image', source: 'background' },
          { type: 'image', source: '{{stamp}}', box: { x: 0.8, y: 0.05, w: 0.15, h: 0.25 }, fit: 'contain' },
          { type: 'text', content: '{{title}}', box: { x: 0.05, y: 0.3, w: 0.7, h: 0.5 } },
        ],
      },
    });
    const background = await upload(srv, token, '/assets', 'image', PHOTO, 'bg.jpg', { kind: 'background' });
    const preset = await call(srv.base, 'POST', '/presets', {
      token,
      json: { name: 'Stamped', template: created.body.data.id, background: background.body.data.id },
    });
    await call(srv.base, 'POST', '/signing-keys', { token, json: { name: 'Stamps' } });
    const etagOf = async (id: string) => {
      const link = await call(srv.base, 'POST', '/render-urls', {
        token,
        json: { preset: preset.body.data.id, title: 'Same title', fields: { stamp: id } },
      });
      const res = await fetch(link.body.data.url as string);
      expect(res.status).toBe(200);
      return res.headers.get('etag');
    };
    expect(await etagOf(red)).not.toBe(await etagOf(blue));
  });

  it('an upload a template draws cannot be deleted (409) until the template lets it go', async () => {
    const logo = await upload(
      srv,
      token,
      '/assets',
      'image',
      await solid([0, 0, 200], 'png', 100, 100),
      'l.png',
      {
        kind: 'logo',
      },
    );
    const assetId = logo.body.data.id as string;
    const created = await call(srv.base, 'POST', '/templates', {
      token,
      json: {
        name: 'With a stamp',
        layers: [
          { type: 'image', source: 'background' },
          { type: 'image', source: assetId, box: { x: 0.8, y: 0.05, w: 0.15, h: 0.2 }, fit: 'contain' },
          { type: 'text', content: '{{title}}', box: { x: 0.05, y: 0.3, w: 0.7, h: 0.5 } },
        ],
      },
    });
    expect(created.status).toBe(201);
    const refused = await call(srv.base, 'DELETE', `/assets/${assetId}`, { token });
    expect([refused.status, refused.body.error.code]).toEqual([409, 'CONFLICT']);
    expect(refused.body.error.message).toContain('1 template');
    await call(srv.base, 'DELETE', `/templates/${created.body.data.id as string}`, { token });
    expect((await call(srv.base, 'DELETE', `/assets/${assetId}`, { token })).status).toBe(200);
  });

  it("a template's own size is its canvas unless the request names an aspect; a size past 4 megapixels is refused", async () => {
    const wide = {
      name: 'Banner',
      size: { width: 1600, height: 900 },
      layers: [
        { type: 'image', source: 'background' },
        { type: 'text', content: '{{title}}', box: { x: 0.05, y: 0.05, w: 0.9, h: 0.9 }, safeZone: true },
      ],
    };
    const created = await call(srv.base, 'POST', '/templates', { token, json: wide });
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    const own = await generate(srv.base, token, { title: 'A banner', template: id }, { data: PHOTO });
    expect(own.status).toBe(201);
    expect([own.body.data.width, own.body.data.height]).toEqual([1600, 900]);
    const thumb = await sharp(
      Buffer.from(await (await fetch(own.body.data.thumbnailUrl as string)).arrayBuffer()),
    ).metadata();
    expect([thumb.width, thumb.height]).toEqual([400, 225]);
    const square = await generate(
      srv.base,
      token,
      { title: 'A banner', template: id, aspect: 'square' },
      { data: PHOTO },
    );
    expect([square.body.data.width, square.body.data.height]).toEqual([1080, 1080]);
    const huge = await call(srv.base, 'POST', '/templates', {
      token,
      json: { ...wide, size: { width: 2400, height: 2400 } },
    });
    expect(huge.status).toBe(400);
    expect(huge.body.error.details).toEqual({ field: 'size.height', constraint: 'max' });
  });

  it("another account's template is not found, and not usable", async () => {
    const created = await call(srv.base, 'POST', '/templates', { token, json: BLOG });
    const other = await srv.createUser('pro');
    expect(
      (await call(srv.base, 'GET', `/templates/${created.body.data.id as string}`, { token: other.token }))
        .status,
    ).toBe(404);
    const res = await generate(
      srv.base,
      other.token,
      { title: 'x', template: created.body.data.id as string, fields: '{"author":"A"}' },
      { data: PHOTO },
    );
    expect(res.status).toBe(400);
    expect(res.body.error.details.field).toBe('template');
  });

  it('titlecard templates push creates, then updates the template of the same name; pull writes its document back', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'titlecard-templates-'));
    const file = path.join(dir, 'blog.json');
    await writeFile(file, JSON.stringify({ ...BLOG, name: 'Blog from git' }));
    const env = { TITLECARD_TOKEN: token, TITLECARD_API_URL: srv.base };
    const first = await runCli(['templates', 'push', file, '--json'], env);
    expect(first.code, first.stderr).toBe(0);
    const pushed = JSON.parse(first.stdout) as { id: string; version: number; created: boolean };
    expect(pushed).toMatchObject({ version: 1, created: true });
    const again = await runCli(['templates', 'push', file, '--json'], env);
    expect(JSON.parse(again.stdout)).toMatchObject({ id: pushed.id, version: 2, created: false });

    const out = path.join(dir, 'pulled.json');
    const pulled = await runCli(['templates', 'pull', pushed.id, '--out', out], env);
    expect(pulled.code, pulled.stderr).toBe(0);
    const document = JSON.parse(await readFile(out, 'utf8')) as { name: string; layers: unknown[] };
    expect(document.name).toBe('Blog from git');
    expect(document.layers).toHaveLength(BLOG.layers.length);

    // An invalid document is refused with the path named, exit code 1.
    await writeFile(
      file,
      JSON.stringify({
        ...BLOG,
        name: 'Blog from git',
        layers: [{ type: 'text', content: '{{nope}}', box: { x: 0, y: 0, w: 1, h: 1 } }],
      }),
    );
    const refused = await runCli(['templates', 'push', file], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('layers[0].content');
  });
});
