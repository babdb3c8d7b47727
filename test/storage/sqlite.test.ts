/**
 * Runs the port contracts against the embedded adapters: SQLite (a file in WAL mode) and local disk,
 * and the in-memory blob store used by fast tests.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/kernel/ids.js';
import { openLocalDiskBlobStore } from '../../src/adapters/storage/local-disk.js';
import { createMemoryBlobStore } from '../support/memory-blobs.js';
import { openSqliteStore, openSqliteStoreRetrying } from '../../src/adapters/storage/sqlite/index.js';
import { OFFSET_SLICE } from '../../src/adapters/storage/sqlite/images.js';
import { MIGRATIONS } from '../../src/adapters/storage/sqlite/migrations.js';
import { blobStoreContract } from './contract/blob-store.js';
import { recordStoreContract } from './contract/record-store.js';
import { chargeFromProcesses } from '../support/concurrent-charges.js';
import { user } from './contract/records/fixtures.js';
import { titleSortKey } from '../../src/domain/kernel/records.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'titlecard-contract-'));
recordStoreContract(
  'SQLite',
  async () => openSqliteStore(path.join(dir, 'titlecard.db')),
  () => ({ dataDir: dir }),
);
blobStoreContract('local disk', async () => openLocalDiskBlobStore(path.join(dir, 'files')));
blobStoreContract('memory', async () => createMemoryBlobStore());

describe('SQLite specifics', () => {
  it('applies migrations once: a reopened database keeps its records and its schema version', async () => {
    const file = path.join(dir, 'reopen.db');
    const a = openSqliteStore(file);
    const userId = newId('usr');
    await a.users.create({
      id: userId,
      email: 'kept@example.com',
      displayName: 'Kept',
      createdAt: new Date('2026-01-01T00:00:00Z'),
      passwordHash: null,
      emailVerifiedAt: null,
    });
    expect(await a.usage.tryCharge(userId, '2026-01', 5)).toBeTypeOf('string');
    await a.close();
    const version = () => {
      const db = new Database(file, { readonly: true });
      const v = db.pragma('user_version', { simple: true }) as number;
      db.close();
      return v;
    };
    const before = version();
    expect(before).toBeGreaterThan(0);
    const b = openSqliteStore(file);
    expect((await b.users.findById(userId))?.email).toBe('kept@example.com');
    expect(await b.usage.get(userId, '2026-01')).toBe(1);
    await b.close();
    expect(version()).toBe(before);
  });

  it("the contract's concurrency check can fail: it catches a read-then-write charge", async () => {
    const racyDir = mkdtempSync(path.join(os.tmpdir(), 'titlecard-racy-'));
    await openSqliteStore(path.join(racyDir, 'titlecard.db')).close();
    const succeeded = await chargeFromProcesses({
      storage: { dataDir: racyDir },
      userId: newId('usr'),
      month: '2026-07',
      limit: 2,
      processes: 4,
      chargesEach: 5,
      racy: true,
    });
    expect(succeeded).toBeGreaterThan(2);
  }, 60_000);

  it('opens a new file that another connection is writing to once it commits: SQLITE_BUSY is retried', async () => {
    // Two processes starting at once on a new DATA_DIR: one turns the file to WAL while the other
    // writes. SQLite answers the first SQLITE_BUSY at once (no busy timeout: it would deadlock).
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'titlecard-busy-')), 'titlecard.db');
    const writer = new Database(file);
    writer.exec('CREATE TABLE held (a)');
    writer.exec('BEGIN IMMEDIATE');
    writer.exec('INSERT INTO held VALUES (1)');
    const started = performance.now();
    expect(() => openSqliteStore(file)).toThrow(expect.objectContaining({ code: 'SQLITE_BUSY' }));
    expect(performance.now() - started).toBeLessThan(1000);
    setTimeout(() => writer.exec('COMMIT'), 150);
    const store = await openSqliteStoreRetrying(file);
    expect(await store.users.findById(newId('usr'))).toBeUndefined();
    await store.close();
    writer.close();
    const db = new Database(file, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });

  it('throws any other error of the open at once, without retrying it', async () => {
    const started = performance.now();
    await expect(openSqliteStoreRetrying(path.join(dir, 'no-such-dir', 'titlecard.db'))).rejects.toThrow();
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('uses WAL mode so that several processes can share the file', async () => {
    const file = path.join(dir, 'wal.db');
    await openSqliteStore(file).close();
    const db = new Database(file, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });

  it('pages past several offset slices exactly as one ORDER BY … OFFSET does, in all four orders', async () => {
    const file = path.join(dir, 'deep.db');
    const store = openSqliteStore(file);
    const owner = user('deep@example.com');
    await store.users.create(owner);
    const userId = owner.id;
    // 2.5 slices of images, bulk-inserted; titles repeat in other cases and timestamps repeat, so
    // that the ties (broken by id) fall across slice boundaries.
    const count = Math.floor(OFFSET_SLICE * 2.5);
    const db = new Database(file);
    const insert = db.prepare(
      `INSERT INTO images (id, user_id, title, title_key, subtitle, width, height, format, image_key, thumbnail_key, created_at)
       VALUES (?, ?, ?, ?, NULL, 1200, 630, 'png', 'k', 't', ?)`,
    );
    db.transaction(() => {
      for (let i = 0; i < count; i++) {
        const title = `${i % 3 === 0 ? 'Title' : 'title'} ${(i * 7919) % 1000}`;
        insert.run(
          `img_${String(i).padStart(8, '0')}`,
          userId,
          title,
          titleSortKey(title),
          new Date(1.7e12 + Math.floor(i / 3) * 1000).toISOString(),
        );
      }
    })();
    const orders = {
      'createdAt:asc': 'created_at ASC, id ASC',
      'createdAt:desc': 'created_at DESC, id DESC',
      'title:asc': 'title_key ASC, id ASC',
      'title:desc': 'title_key DESC, id DESC',
    } as const;
    for (const [k, by] of Object.entries(orders)) {
      const [sort, order] = k.split(':') as ['createdAt' | 'title', 'asc' | 'desc'];
      const naive = db.prepare<[string, number, number], { id: string }>(
        `SELECT id FROM images WHERE user_id = ? ORDER BY ${by} LIMIT ? OFFSET ?`,
      );
      for (const offset of [
        0,
        OFFSET_SLICE - 1,
        OFFSET_SLICE,
        OFFSET_SLICE + 1,
        2 * OFFSET_SLICE + 7,
        count - 3,
      ]) {
        const page = await store.images.list(userId, { limit: 5, offset, sort, order });
        expect(page.total).toBe(count);
        expect(
          page.items.map((i) => i.id),
          `${k} at offset ${offset}`,
        ).toEqual(naive.all(userId, 5, offset).map((r) => r.id));
      }
    }
    db.close();
    await store.close();
  }, 60_000);

  it("gives an older database's images their title keys when it first opens with them, and sorts by them", async () => {
    const file = path.join(dir, 'before-title-keys.db');
    const db = new Database(file);
    const keysAt = MIGRATIONS.findIndex((m) => m.includes('ADD COLUMN title_key'));
    for (const m of MIGRATIONS.slice(0, keysAt)) db.exec(m);
    db.pragma(`user_version = ${keysAt}`);
    db.exec(
      `INSERT INTO users (id, email, display_name, tier, created_at) VALUES ('usr_keys', 'keys@example.com', 'Keys', 'pro', '2026-01-01')`,
    );
    for (const [i, title] of ['Ärmel', 'ärger', 'Zebra', 'Émile'].entries())
      db.prepare(
        `INSERT INTO images (id, user_id, title, width, height, format, image_key, thumbnail_key, created_at)
         VALUES (?, 'usr_keys', ?, 1, 1, 'png', 'k', 't', '2026-01-01')`,
      ).run(`img_keys${i}`, title);
    db.close();
    const store = openSqliteStore(file);
    const page = await store.images.list('usr_keys', { limit: 10, offset: 0, sort: 'title', order: 'asc' });
    expect(page.items.map((i) => i.title)).toEqual(['ärger', 'Ärmel', 'Émile', 'Zebra']);
    await store.close();
  });

  it("counts an older database's images when it first opens with the count table", async () => {
    const file = path.join(dir, 'before-counts.db');
    const db = new Database(file);
    const countsAt = MIGRATIONS.findIndex((m) => m.includes('CREATE TABLE image_counts'));
    for (const m of MIGRATIONS.slice(0, countsAt)) db.exec(m);
    db.pragma(`user_version = ${countsAt}`);
    db.exec(
      `INSERT INTO users (id, email, display_name, tier, created_at) VALUES ('usr_old', 'old@example.com', 'Old', 'pro', '2026-01-01')`,
    );
    for (let i = 0; i < 3; i++)
      db.prepare(
        `INSERT INTO images (id, user_id, title, width, height, format, image_key, thumbnail_key, created_at)
         VALUES (?, 'usr_old', 't', 1, 1, 'png', 'k', 't', '2026-01-01')`,
      ).run(`img_old${i}`);
    db.close();
    const store = openSqliteStore(file);
    expect(
      (await store.images.list('usr_old', { limit: 1, offset: 0, sort: 'title', order: 'asc' })).total,
    ).toBe(3);
    await store.close();
  });
});
