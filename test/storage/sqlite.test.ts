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
import { openLocalDiskBlobStore } from '../../src/storage/local-disk.js';
import { createMemoryBlobStore } from '../../src/storage/memory.js';
import { openSqliteStore } from '../../src/storage/sqlite/index.js';
import { blobStoreContract } from './contract/blob-store.js';
import { recordStoreContract } from './contract/record-store.js';
import { chargeFromProcesses } from '../support/concurrent-charges.js';

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
      tier: 'pro',
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

  it('uses WAL mode so that several processes can share the file', async () => {
    const file = path.join(dir, 'wal.db');
    await openSqliteStore(file).close();
    const db = new Database(file, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });
});
