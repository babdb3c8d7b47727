/**
 * The embedded record store: SQLite through better-sqlite3, in WAL mode so readers never wait for the
 * writer, with a 5 s busy timeout so that several processes can share one database file. Schema
 * migrations are applied at open, under an immediate transaction, so concurrent starts are safe.
 */
import { chmodSync, closeSync, openSync } from 'node:fs';
import Database from 'better-sqlite3';
import pRetry from 'p-retry';
import type { RecordStore } from '../../../domain/kernel/ports.js';
import { migrate } from './migrations.js';
import { sqliteUsers } from './users.js';
import { sqliteTokens } from './tokens.js';
import { sqliteAudit, sqliteInvitations, sqliteWorkspaces } from './workspaces.js';
import { sqliteBilling } from './billing.js';
import { sqliteImages } from './images.js';
import { sqliteSessions } from './sessions.js';
import { sqliteLinks } from './email-links.js';
import { sqliteUsage } from './usage.js';
import { sqliteIdempotency } from './idempotency.js';
import { sqliteOauth } from './oauth.js';
import { sqliteAssets } from './assets.js';
import { sqlitePresets } from './presets.js';
import { sqliteTemplates } from './templates.js';
import { sqliteSigningKeys } from './signing-keys.js';
import { sqliteRenders } from './renders.js';
import { sqliteSites } from './sites.js';
import { sqliteBatches } from './batches.js';
import { sqliteWebhooks } from './webhooks.js';

/**
 * Opens (creating if needed, owner-only) the database at `file` (`:memory:` for a private in-memory
 * one) and applies pending migrations. Throws better-sqlite3's SqliteError, code `SQLITE_BUSY`,
 * when another process holds a lock that SQLite will not wait for: two processes opening a new
 * file at once, one turning it to WAL while the other migrates (SQLite answers busy at once rather
 * than deadlock). The connection is closed then; {@link openSqliteStoreRetrying} opens again.
 */
export function openSqliteStore(file: string): RecordStore {
  // Owner-only (0600), also when an older install made it readable by others; SQLite gives its -wal
  // and -shm files the database file's permissions.
  if (file !== ':memory:') {
    closeSync(openSync(file, 'a', 0o600));
    chmodSync(file, 0o600);
  }
  const db = new Database(file);
  try {
    db.pragma('busy_timeout = 5000');
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    migrate(db);
  } catch (err) {
    // A connection left open would keep its lock and hold up the next attempt.
    db.close();
    throw err;
  }

  return {
    users: sqliteUsers(db),
    tokens: sqliteTokens(db),
    workspaces: sqliteWorkspaces(db),
    invitations: sqliteInvitations(db),
    audit: sqliteAudit(db),
    billing: sqliteBilling(db),
    images: sqliteImages(db),
    sessions: sqliteSessions(db),
    links: sqliteLinks(db),
    usage: sqliteUsage(db),
    idempotency: sqliteIdempotency(db),
    oauth: sqliteOauth(db),
    assets: sqliteAssets(db),
    presets: sqlitePresets(db),
    templates: sqliteTemplates(db),
    signingKeys: sqliteSigningKeys(db),
    renders: sqliteRenders(db),
    sites: sqliteSites(db),
    batches: sqliteBatches(db),
    webhooks: sqliteWebhooks(db),
    async close() {
      db.close();
    },
  };
}

/**
 * {@link openSqliteStore}, opened again after `SQLITE_BUSY` (p-retry: up to 8 more times, 20 ms
 * doubling to 1 s apart, about 3 s in all); any other error is thrown at once. Several processes
 * started at once on one DATA_DIR all open the store: without it, processes started together on a
 * new file failed with "database is locked" about once in ninety (a scratch run of three at once,
 * thirty times), and once in CI.
 */
export function openSqliteStoreRetrying(file: string): Promise<RecordStore> {
  return pRetry(() => openSqliteStore(file), {
    retries: 8,
    minTimeout: 20,
    maxTimeout: 1000,
    factor: 2,
    shouldRetry: ({ error }) => (error as { code?: string }).code === 'SQLITE_BUSY',
  });
}
