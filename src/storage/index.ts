/**
 * Picks the storage adapters from the configuration. The embedded default: SQLite at
 * `DATA_DIR/titlecard.db` and files under `DATA_DIR/files`.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.js';
import type { BlobStore, RecordStore } from '../domain/ports.js';
import { openLocalDiskBlobStore } from './local-disk.js';
import { openSqliteStore } from './sqlite.js';

export interface Storage {
  store: RecordStore;
  blobs: BlobStore;
}

export async function openStorage(config: Pick<Config, 'dataDir'>): Promise<Storage> {
  await mkdir(config.dataDir, { recursive: true });
  const store = openSqliteStore(path.join(config.dataDir, 'titlecard.db'));
  const blobs = await openLocalDiskBlobStore(path.join(config.dataDir, 'files'));
  return { store, blobs };
}
