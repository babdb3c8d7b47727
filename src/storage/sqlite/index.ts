/**
 * The embedded record store: SQLite through better-sqlite3, in WAL mode so readers never wait for the
 * writer, with a 5 s busy timeout so that several processes can share one database file. Schema
 * migrations are applied at open, under an immediate transaction, so concurrent starts are safe.
 */
import { chmodSync, closeSync, openSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { RecordStore } from '../../domain/kernel/ports.js';
import { migrate } from './migrations.js';
import { sqliteUsers } from './users.js';
import { sqliteTokens } from './tokens.js';
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
 * one) and applies pending migrations.
 */
export function openSqliteStore(file: string): RecordStore {
  // Owner-only (0600), also when an older install made it readable by others; SQLite gives its -wal
  // and -shm files the database file's permissions.
  if (file !== ':memory:') {
    closeSync(openSync(file, 'a', 0o600));
    chmodSync(file, 0o600);
  }
  const db = new Database(file);
  db.pragma('busy_timeout = 5000');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  migrate(db);

  return {
    users: sqliteUsers(db),
    tokens: sqliteTokens(db),
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
