/**
 * The client as a package of its own (clients/typescript, `@titlecard/client`): packed as npm
 * publishes it, installed into an empty project, and used there against a running server. Light is
 * the point: a site that signs render links or calls the API must not install the server (393 MB
 * and a native build, issue 29).
 */
import { execFile } from 'node:child_process';
import { copyFile, cp, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signRenderUrl } from '../../src/domain/render-links/canonical.js';
import { PHOTOS_DIR, solid } from '../support/images.js';
import { ROOT } from '../support/process.js';
import { call, startTestServer, type TestServer } from '../support/server.js';

const run = promisify(execFile);
const PACKAGE_DIR = path.join(ROOT, 'clients', 'typescript');
/** Most bytes an install of the client may put into node_modules (it and openapi-fetch: about 0.5 MB). */
const INSTALL_LIMIT = 2 * 2 ** 20;

/** Bytes of the files under `dir`. */
async function sizeOf(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) total += (await stat(path.join(entry.parentPath, entry.name))).size;
  return total;
}

let srv: TestServer;
let project: string;
beforeAll(async () => {
  srv = await startTestServer();
  project = await mkdtemp(path.join(os.tmpdir(), 'titlecard-client-site-'));
}, 30_000);
afterAll(async () => {
  await srv.close();
  await rm(project, { recursive: true, force: true });
});

describe('@titlecard/client, packed and installed on its own', () => {
  it('installs into an empty project with openapi-fetch alone, in well under 2 MB', async () => {
    const packed = await run('npm', ['pack', '--json', '--pack-destination', project], {
      cwd: PACKAGE_DIR,
    });
    const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];
    await writeFile(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'a-site', version: '1.0.0', private: true, type: 'module' }),
    );
    await run(
      'npm',
      ['install', path.join(project, filename), '--prefer-offline', '--no-audit', '--no-fund'],
      {
        cwd: project,
      },
    );
    const installed = (await readdir(path.join(project, 'node_modules')))
      .filter((name) => !name.startsWith('.'))
      .sort();
    expect(installed).toEqual(['@titlecard', 'openapi-fetch', 'openapi-typescript-helpers']);
    expect(await sizeOf(path.join(project, 'node_modules'))).toBeLessThan(INSTALL_LIMIT);
  }, 120_000);

  it('drives a running server from that project: generate with an upload, list, usage, an error body; and signs render links as the server does', async () => {
    const { token } = await srv.createUser('pro');
    const link = {
      baseUrl: 'https://cards.example.com',
      preset: 'pre_0000000000000000000001',
      title: 'Ünïcödé & spaces',
      subtitle: '日本語',
      format: 'webp' as const,
      expires: 1893456000,
      keyId: 'key_0000000000000000000001',
      secret: 'tcs_example',
    };
    await writeFile(
      path.join(project, 'use.mjs'),
      `
      import { createTitlecardClient, multipartBody, errorMessage, signRenderUrl } from '@titlecard/client';
      const api = createTitlecardClient({ baseUrl: process.env.BASE, token: process.env.TOKEN });
      const image = new Blob([Buffer.from(process.env.JPEG, 'base64')], { type: 'image/jpeg' });
      const made = await api.POST('/generate', {
        body: { image, title: 'From a site', fileFormat: 'jpeg' },
        bodySerializer: multipartBody,
      });
      const list = await api.GET('/images', { params: { query: { limit: 1 } } });
      const usage = await api.GET('/usage');
      const bad = await api.GET('/images', { params: { query: { offset: -1 } } });
      console.log(JSON.stringify({
        status: made.response.status,
        url: made.data.data.url,
        titles: list.data.data.images.map((i) => i.title),
        total: list.data.data.pagination.total,
        generated: usage.data.data.usage.generated,
        bad: { status: bad.response.status, field: bad.error.error.details.field, message: errorMessage(bad.response.status, bad.error) },
        link: signRenderUrl(JSON.parse(process.env.LINK)),
      }));
      `,
    );
    const jpeg = (await solid([200, 80, 40], 'jpeg', 640, 400)).toString('base64');
    const { stdout } = await run(process.execPath, ['use.mjs'], {
      cwd: project,
      env: { ...process.env, BASE: srv.base, TOKEN: token, JPEG: jpeg, LINK: JSON.stringify(link) },
    });
    const out = JSON.parse(stdout);
    expect(out.status).toBe(201);
    expect(out.url).toMatch(/\.jpg$/);
    expect(out.titles).toEqual(['From a site']);
    expect(out.total).toBe(1);
    expect(out.generated).toBe(1);
    expect(out.bad).toEqual({ status: 400, field: 'offset', message: expect.stringMatching(/offset/) });
    expect(out.link).toBe(signRenderUrl(link));
  }, 60_000);

  it("runs the TypeScript blocks of docs/clients.md and the package's README, as written, against a running server", async () => {
    const { token } = await srv.createUser('pro');
    await copyFile(path.join(PHOTOS_DIR, 'mate_RainDrops.jpg'), path.join(project, 'photo.jpg'));
    const blocks = async (file: string) =>
      [...(await readFile(path.join(ROOT, file), 'utf8')).matchAll(/```ts\n([\s\S]*?)```/g)].map(
        (m) => m[1] ?? '',
      );
    // The test server's address in place of the example's; TOKEN and TITLECARD_TOKEN hold the token.
    const program = (code: string[]) => code.join('\n').replaceAll('https://cards.example.com/api', srv.base);
    await writeFile(path.join(project, 'docs.ts'), program(await blocks('docs/clients.md')));
    await writeFile(path.join(project, 'readme.ts'), program(await blocks('clients/typescript/README.md')));
    const env = { ...process.env, TOKEN: token, TITLECARD_TOKEN: token };
    // Node 22.18+ runs TypeScript by stripping its types, as a reader's `node docs.ts` does.
    const docs = await run(process.execPath, ['docs.ts'], { cwd: project, env });
    expect(docs.stdout).toMatch(/https:\/\/cards\.example\.com\/r\/pre_0000000000000000000001\.png\?key=/);
    const readme = await run(process.execPath, ['readme.ts'], { cwd: project, env });
    expect(readme.stdout).toMatch(/\/files\/[0-9A-Za-z]{22}\.jpg/);
    const listed = await call(srv.base, 'GET', '/images', { token });
    // docs/clients.md made one image and deleted it; the README made one.
    expect(listed.body.data.pagination.total).toBe(1);
  }, 60_000);
});

describe('@titlecard/client packs on its own', () => {
  it('builds and packs from clients/typescript with its own dependencies, without the server installed', async () => {
    // The package's folder and the server files it builds from, in the same places, as in a plain
    // clone: no node_modules above it, so its TypeScript and types must be its own.
    const alone = await mkdtemp(path.join(os.tmpdir(), 'titlecard-client-alone-'));
    try {
      for (const file of [
        'package.json',
        'tsconfig.json',
        'src/client',
        'src/domain/render-links/canonical.ts',
      ])
        await cp(path.join(ROOT, file), path.join(alone, file), { recursive: true });
      const dir = path.join(alone, 'clients', 'typescript');
      await cp(PACKAGE_DIR, dir, {
        recursive: true,
        filter: (f) => !f.includes('node_modules') && !f.includes('/dist'),
      });
      await run('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: dir });
      const packed = await run('npm', ['pack', '--json'], { cwd: dir });
      const [{ files }] = JSON.parse(packed.stdout) as [{ files: { path: string }[] }];
      expect(files.map((f) => f.path)).toEqual(
        expect.arrayContaining([
          'README.md',
          'package.json',
          'dist/client/index.js',
          'dist/client/index.d.ts',
        ]),
      );
    } finally {
      await rm(alone, { recursive: true, force: true });
    }
  }, 180_000);
});
