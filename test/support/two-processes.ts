/**
 * The checks every multi-process set-up must pass, whatever its storage: two `titlecard serve`
 * processes over the same stores (one SQLite DATA_DIR, or one MongoDB and one S3).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { BlobStore } from '../../src/domain/kernel/ports.js';
import type { Services } from '../../src/domain/services.js';
import { openStorage, type StorageConfig } from '../../src/adapters/storage/index.js';
import { solid } from './images.js';
import { spawnServer, type ServerProcess } from './process.js';
import { call, download, generate, memoryMailer, testServices } from './server.js';

export interface TwoProcesses {
  a: ServerProcess;
  b: ServerProcess;
  /** The same stores, opened in the test process: the services, and the blob store itself. */
  local: Services;
  blobs: BlobStore;
  /** Environment of the two servers (for CLI commands on the same stores). */
  env: Record<string, string>;
}

/**
 * Registers, in the current describe block, the two-process checks: exact quota under concurrent
 * requests split across both, revocation seen by the other process, an image made by one listed and
 * served by the other. Returns a getter for the running processes, for further tests.
 */
export function twoProcessChecks(
  storage: (dataDir: string) => { config: Omit<StorageConfig, 'dataDir'>; env: Record<string, string> },
): () => TwoProcesses {
  let ctx: TwoProcesses;
  let dataDir: string;
  let small: Buffer;
  const mailer = memoryMailer();
  const run = randomBytes(3).toString('hex');
  const email = (what: string) => `${what}-${run}@example.com`;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'titlecard-2proc-'));
    const { config, env } = storage(dataDir);
    const stores = await openStorage({ dataDir, ...config });
    // One SECRETS_KEY for both processes and this one: each must open the others' signing keys.
    const secretsKey = randomBytes(32);
    const local = testServices({ ...stores, publicUrl: 'http://unused', secretsKey, mailer });
    const fullEnv = { ...env, DATA_DIR: dataDir, SECRETS_KEY: secretsKey.toString('base64') };
    const [a, b] = await Promise.all([spawnServer(fullEnv), spawnServer(fullEnv)]);
    ctx = { a, b, local, blobs: stores.blobs, env: fullEnv };
    small = await solid([200, 120, 40], 'jpeg', 480, 300);
  });
  afterAll(async () => {
    await Promise.all([ctx?.a.stop(), ctx?.b.stop()]);
    await ctx?.local.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('the quota is exact under concurrent requests split across both processes', async () => {
    const { a, b, local } = ctx;
    const { workspace, token } = await local.accounts.createUser({
      email: email('race'),
      displayName: 'Race',
      tier: 'free',
    });
    for (let i = 0; i < 6; i++) await local.ledger.charge(workspace);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        generate((i % 2 ? a : b).base, token.token, { title: `Split ${i}` }, { data: small }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(4);
    expect(results.filter((r) => r.status === 429)).toHaveLength(8);
    expect((await local.quota.usage(workspace)).usage.generated).toBe(10);
  });

  it('a token revoked through one process is refused by the other on the next request', async () => {
    const { a, b, local } = ctx;
    const { token } = await local.accounts.createUser({
      email: email('revoke'),
      displayName: 'Rev',
      tier: 'pro',
    });
    const second = await call(a.base, 'POST', '/tokens', { token: token.token, json: { name: 'second' } });
    const secret = second.body.data.token as string;
    expect((await call(b.base, 'GET', '/usage', { token: secret })).status).toBe(200);
    expect(
      (await call(a.base, 'DELETE', `/tokens/${second.body.data.id as string}`, { token: token.token }))
        .status,
    ).toBe(200);
    expect((await call(b.base, 'GET', '/usage', { token: secret })).status).toBe(401);
  });

  it("a member's lower role and removal are seen at once by both processes: the token they hold loses images:write, then answers 401 (issue 51)", async () => {
    const { a, b, local } = ctx;
    const owner = await local.accounts.createUser({
      email: email('ws-owner'),
      displayName: 'Owner',
      tier: 'agency',
    });
    const member = await local.accounts.createUser({
      email: email('ws-member'),
      displayName: 'Member',
      tier: 'free',
    });
    const ownerAsOwner = await local.accounts.actAs(owner.user.email);
    const workspace = owner.workspace.id;
    await local.workspaces.invite(ownerAsOwner, workspace, { email: member.user.email, role: 'editor' });
    const secret = /token=(inv_\w+)/.exec(mailer.sent.at(-1)?.text ?? '')?.[1] ?? '';
    await local.workspaces.accept(member.user, secret);
    const { token } = await local.accounts.createToken(
      await local.accounts.actAs(member.user.email, workspace),
      {
        name: 'editor laptop',
      },
    );
    for (const p of [a, b])
      expect(
        (await generate(p.base, token, { title: `By the editor on ${p.base}` }, { data: small })).status,
      ).toBe(201);
    await local.workspaces.setRole(ownerAsOwner, workspace, member.user.id, { role: 'viewer' });
    for (const p of [a, b]) {
      const refused = await generate(p.base, token, { title: 'No longer' }, { data: small });
      expect(refused.status).toBe(403);
      expect(refused.body.error.message).toContain('images:write');
      expect((await call(p.base, 'GET', '/images', { token })).body.data.pagination.total).toBe(2);
    }
    // Two cards, on the owner's quota; the refused ones spent nothing.
    expect(
      (await call(a.base, 'GET', '/usage', { token: owner.token.token })).body.data.usage.generated,
    ).toBe(2);
    await local.workspaces.removeMember(ownerAsOwner, workspace, member.user.id);
    for (const p of [a, b]) expect((await call(p.base, 'GET', '/images', { token })).status).toBe(401);
  });

  it('an image generated through one is listed and served through the other, bytes intact', async () => {
    const { a, b, local } = ctx;
    const { token } = await local.accounts.createUser({
      email: email('share'),
      displayName: 'Share',
      tier: 'pro',
    });
    const made = await generate(
      a.base,
      token.token,
      { title: 'Made on A', fileFormat: 'jpeg' },
      { data: small },
    );
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const listed = await call(b.base, 'GET', '/images', { token: token.token });
    expect(listed.body.data.images[0].id).toBe(made.body.data.id);
    const fromA = await download(made.body.data.url as string);
    const fromB = await download(`${b.url}${new URL(made.body.data.url as string).pathname}`);
    expect(fromB.status).toBe(200);
    expect(fromB.headers.get('content-type')).toBe('image/jpeg');
    expect(fromB.data.equals(fromA.data)).toBe(true);
  });

  it('8 concurrent first fetches of one render link, split across both processes, render once and charge one unit', async () => {
    const { a, b, local } = ctx;
    const { user, workspace, token } = await local.accounts.createUser({
      email: email('link'),
      displayName: 'Link',
      tier: 'pro',
    });
    const principal = await local.accounts.actAs(user.email);
    const asset = await local.assets.uploadImage(principal, small, { kind: 'background' });
    const preset = await local.presets.create(principal, { name: 'Shared', background: asset.id });
    await local.renderUrls.createKey(principal, { name: 'site' });
    const { url } = await local.renderUrls.createUrl(principal, {
      preset: preset.id,
      title: 'Once across two',
    });
    const pathAndQuery = url.slice('http://unused'.length);
    const fetched = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const res = await fetch(`${(i % 2 ? a : b).url}${pathAndQuery}`);
        return {
          status: res.status,
          etag: res.headers.get('etag'),
          body: Buffer.from(await res.arrayBuffer()),
        };
      }),
    );
    expect(fetched.map((f) => f.status)).toEqual(Array(8).fill(200));
    expect(new Set(fetched.map((f) => f.etag)).size).toBe(1);
    expect(fetched.every((f) => f.body.equals(fetched[0]?.body ?? Buffer.alloc(0)))).toBe(true);
    expect((await local.quota.usage(workspace)).usage.generated).toBe(1);
    expect((await call(a.base, 'GET', '/usage', { token: token.token })).body.data.usage.generated).toBe(1);
  });

  return () => ctx;
}
