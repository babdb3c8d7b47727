/**
 * Upgrading to workspaces loses nothing (issue 51): a SQLite file and a MongoDB dump written by the
 * release before workspaces (test/fixtures/upgrade, made as its README says) are opened by this
 * release. Every account becomes its personal workspace with its tier, every token still works
 * (the revoked one still does not) with every scope of its owner, and the images, the usage, the
 * template and the webhook endpoint are where they were.
 */
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { SCOPES } from '../../src/domain/design.js';
import type { RecordStore } from '../../src/domain/kernel/ports.js';
import { UnauthorizedError } from '../../src/domain/kernel/errors.js';
import { openSqliteStore } from '../../src/adapters/storage/sqlite/index.js';
import { fakeClock } from '../support/domain.js';
import { createMemoryBlobStore } from '../support/memory-blobs.js';
import { ROOT } from '../support/process.js';
import { testServices } from '../support/server.js';

const FIXTURES = path.join(ROOT, 'test/fixtures/upgrade');

interface Account {
  id: string;
  tokens: Record<string, string>;
  images: string[];
}
type Facts = Record<'sqlite' | 'mongo', { ada: Account; bob: Account }>;

const facts = async () =>
  JSON.parse(await readFile(path.join(FIXTURES, 'release-before.facts.json'), 'utf8')) as Facts;

/** The checks of the module comment, on a store opened by this release over the old records. */
async function everythingKept(store: RecordStore, { ada, bob }: Facts['sqlite']) {
  const s = testServices({
    store,
    blobs: createMemoryBlobStore(),
    clock: fakeClock('2026-11-20T12:00:00.000Z'),
  });
  const principal = (secret: string) => s.accounts.authenticate(`Bearer ${secret}`);

  for (const [who, tier, made] of [
    [ada, 'pro', 3],
    [bob, 'free', 1],
  ] as const) {
    for (const [name, secret] of Object.entries(who.tokens)) {
      if (name === 'revoked') {
        await expect(principal(secret)).rejects.toBeInstanceOf(UnauthorizedError);
        continue;
      }
      const p = await principal(secret);
      expect(p.user.id).toBe(who.id);
      expect(p.workspace).toMatchObject({ id: who.id, tier, personalOf: who.id });
      expect(p.role).toBe('owner');
      expect([...p.scopes]).toEqual([...SCOPES]);
    }
    const p = await principal(who.tokens.default ?? '');
    expect((await s.quota.usage(p.workspace)).usage).toMatchObject({ generated: made });
    const listed = await s.images.list(p, { limit: 100 });
    expect(listed.images.map((i) => i.id).sort()).toEqual([...who.images].sort());
    expect((await s.workspaces.members(p, who.id)).map((m) => [m.userId, m.role])).toEqual([
      [who.id, 'owner'],
    ]);
    expect(
      (await s.accounts.listTokens(p))
        .filter((t) => t.name !== 'after the upgrade')
        .map((t) => t.name)
        .sort(),
    ).toEqual(who === ada ? ['ci', 'default'] : ['default']);
  }
  const adaP = await principal(ada.tokens.default ?? '');
  expect((await s.templates.list(adaP)).filter((t) => t.id.startsWith('tpl_')).map((t) => t.name)).toEqual([
    'Blog',
  ]);
  expect((await s.webhooks.list(adaP)).map((w) => w.url)).toEqual(['https://hooks.example.com/ada']);
  expect((await s.images.list(adaP, { sort: 'title', order: 'asc' })).images.map((i) => i.title)).toEqual([
    'Alpha',
    'Beta',
    'Gamma',
  ]);
  // After the upgrade, the accounts work as any: a token made now, in the personal workspace.
  const made = await s.accounts.createToken(adaP, { name: 'after the upgrade' });
  expect((await principal(made.token)).workspace.id).toBe(ada.id);
}

describe('upgrading a database of the release before workspaces (issue 51)', () => {
  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  it('SQLite: every record, token and count is kept', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'titlecard-upgrade-'));
    dirs.push(dir);
    const file = path.join(dir, 'titlecard.db');
    await copyFile(path.join(FIXTURES, 'release-before.db'), file);
    const store = openSqliteStore(file);
    try {
      await everythingKept(store, (await facts()).sqlite);
    } finally {
      await store.close();
    }
    // Opened again: the migration is not run twice, nothing doubles.
    const again = openSqliteStore(file);
    try {
      await everythingKept(again, (await facts()).sqlite);
    } finally {
      await again.close();
    }
  });

  const mongoUri = inject('mongoUri');
  it.skipIf(!mongoUri)('MongoDB: every record, token and count is kept', async () => {
    const { BSON, MongoClient } = await import('mongodb');
    const { openMongoStore } = await import('../../src/adapters/storage/mongo/index.js');
    const dbName = `upgrade_${process.pid}_${Date.now()}`;
    const client = await MongoClient.connect(mongoUri ?? '');
    try {
      const dump = BSON.EJSON.parse(
        await readFile(path.join(FIXTURES, 'release-before.mongo.json'), 'utf8'),
        {
          relaxed: false,
        },
      ) as Record<string, Record<string, unknown>[]>;
      for (const [name, docs] of Object.entries(dump))
        if (docs.length > 0) await client.db(dbName).collection(name).insertMany(docs);
      // Twice, as two processes starting on the old records would: the second finds it done.
      for (let open = 0; open < 2; open++) {
        const store = await openMongoStore({ uri: mongoUri ?? '', dbName });
        try {
          await everythingKept(store, (await facts()).mongo);
        } finally {
          await store.close();
        }
      }
      expect(await client.db(dbName).collection('workspaces').countDocuments()).toBe(2);
    } finally {
      await client.db(dbName).dropDatabase();
      await client.close();
    }
  });
});
