/**
 * Picks the storage adapters from the configuration. The embedded default: SQLite at
 * `DATA_DIR/titlecard.db` and files under `DATA_DIR/files`. `MONGODB_URI` selects MongoDB for
 * records and `S3_BUCKET` an S3 bucket for files, each on its own. Their SDKs are optional
 * dependencies, imported only when selected. A store that cannot be reached stops start-up with a
 * message that names it.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError, type Config } from '../../config.js';
import type { BlobStore, RecordStore } from '../../domain/kernel/ports.js';
import { openLocalDiskBlobStore } from './local-disk.js';
import { openSqliteStoreRetrying } from './sqlite/index.js';

/** Where to store: DATA_DIR always, MongoDB and S3 when configured. */
export type StorageConfig = { dataDir: string; mongo?: Config['mongo']; s3?: Config['s3'] };

export interface Storage {
  store: RecordStore;
  blobs: BlobStore;
}

/** A URI without its password, for messages. */
export function redactUri(uri: string): string {
  return uri.replace(/\/\/([^:/@]+):[^@/]*@/, '//$1:***@');
}

function missingSdk(err: unknown, pkg: string, variable: string): Error {
  if ((err as { code?: string }).code === 'ERR_MODULE_NOT_FOUND')
    return new ConfigError(
      `${variable} is set but the optional package ${pkg} is not installed: npm install ${pkg}`,
    );
  return err as Error;
}

/** The embedded default's record store, a file in DATA_DIR. */
const SQLITE_FILE = 'titlecard.db';

/** Where the embedded default keeps its records (undefined with MongoDB). */
export function sqliteFileOf(config: StorageConfig): string | undefined {
  return config.mongo ? undefined : path.join(config.dataDir, SQLITE_FILE);
}

async function openRecords(config: StorageConfig): Promise<RecordStore> {
  if (!config.mongo) return openSqliteStoreRetrying(path.join(config.dataDir, SQLITE_FILE));
  const { openMongoStore } = await import('./mongo/index.js');
  try {
    return await openMongoStore({ uri: config.mongo.uri, dbName: config.mongo.dbName });
  } catch (err) {
    const sdk = missingSdk(err, 'mongodb', 'MONGODB_URI');
    if (sdk instanceof ConfigError) throw sdk;
    throw new ConfigError(
      `MongoDB at ${redactUri(config.mongo.uri)} (MONGODB_URI) cannot be used: ${(err as Error).message}`,
    );
  }
}

async function openBlobs(config: StorageConfig): Promise<BlobStore> {
  if (!config.s3) return openLocalDiskBlobStore(path.join(config.dataDir, 'files'));
  const { openS3BlobStore } = await import('./s3.js');
  const s3 = config.s3;
  try {
    return await openS3BlobStore(s3);
  } catch (err) {
    const sdk = missingSdk(err, '@aws-sdk/client-s3', 'S3_BUCKET');
    if (sdk instanceof ConfigError) throw sdk;
    const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
    const why = e.$metadata?.httpStatusCode
      ? `HTTP ${e.$metadata.httpStatusCode} ${e.name ?? ''}`
      : (e.message ?? String(err));
    throw new ConfigError(
      `S3 bucket ${s3.bucket} at ${s3.endpoint ?? `AWS ${s3.region}`} (S3_BUCKET) cannot be used: ${why}`,
    );
  }
}

export async function openStorage(config: StorageConfig): Promise<Storage> {
  // Owner-only: the records, the files and secrets.key are nobody else's business (docs/security.md).
  if (!config.mongo || !config.s3) await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  const store = await openRecords(config);
  try {
    return { store, blobs: await openBlobs(config) };
  } catch (err) {
    await store.close();
    throw err;
  }
}
