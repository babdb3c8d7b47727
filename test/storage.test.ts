/**
 * Runs the port contracts against the embedded adapters: SQLite (a file in WAL mode) and local disk,
 * and the in-memory blob store used by fast tests.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openLocalDiskBlobStore } from '../src/storage/local-disk.js';
import { createMemoryBlobStore } from '../src/storage/memory.js';
import { openSqliteStore } from '../src/storage/sqlite.js';
import { blobStoreContract } from './contract/blob-store.js';
import { recordStoreContract } from './contract/record-store.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'titlecard-contract-'));
recordStoreContract('SQLite', async () => openSqliteStore(path.join(dir, 'contract.db')));
blobStoreContract('local disk', async () => openLocalDiskBlobStore(path.join(dir, 'files')));
blobStoreContract('memory', async () => createMemoryBlobStore());

describe('SQLite specifics', () => {
  it('applies migrations once and reopens an existing database', async () => {
    const file = path.join(dir, 'reopen.db');
    const a = openSqliteStore(file);
    await a.close();
    const b = openSqliteStore(file);
    await b.close();
  });

  it('uses WAL mode so that several processes can share the file', async () => {
    const Database = (await import('better-sqlite3')).default;
    const file = path.join(dir, 'wal.db');
    (await Promise.resolve(openSqliteStore(file))).close();
    const db = new Database(file, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });
});
