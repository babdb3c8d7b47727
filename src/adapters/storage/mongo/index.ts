/**
 * The scale-out record store: MongoDB (or a server speaking its wire protocol, such as FerretDB).
 *
 * Indexes are created at open: unique token hash, unique email (stored lower-cased), images by user
 * and createdAt and by user and title, so listing, sorting and counting are served by indexes.
 *
 * The monthly quota is a set of numbered slots, one document per charged generation with the unique
 * `_id` `user:month:slot`, slot 0 to limit − 1. A charge is one insert of a free slot: the unique `_id`
 * makes it atomic, so no transaction is needed and any number of processes stay exact, and at most
 * `limit` charges can exist. We first used one conditional update (`count < limit` → `$inc`), which
 * real MongoDB performs atomically, but FerretDB 1.24 (SQLite) reads and then writes: 20 concurrent
 * charges with 2 units left gave 11 successes (test/storage/contract/). A unique key holds on
 * every server that speaks the protocol. A refund deletes exactly the slot its charge claimed.
 * Title sorting uses a lower-cased copy of the title rather than a collation, which not every
 * MongoDB-compatible server supports.
 */
import type { Db, MongoClient } from 'mongodb';
import type { RecordStore } from '../../../domain/kernel/ports.js';
import { mongoUsers } from './users.js';
import { mongoTokens } from './tokens.js';
import { mongoAudit, mongoInvitations, mongoWorkspaces } from './workspaces.js';
import { mongoBilling } from './billing.js';
import { mongoImages } from './images.js';
import { mongoSessions } from './sessions.js';
import { mongoLinks } from './email-links.js';
import { mongoUsage } from './usage.js';
import { mongoIdempotency } from './idempotency.js';
import { mongoOauth } from './oauth.js';
import { mongoAssets } from './assets.js';
import { mongoPresets } from './presets.js';
import { mongoTemplates } from './templates.js';
import { mongoSigningKeys } from './signing-keys.js';
import { mongoRenders } from './renders.js';
import { mongoSites } from './sites.js';
import { mongoBatches } from './batches.js';
import { mongoWebhooks } from './webhooks.js';

export interface MongoStoreOptions {
  uri: string;
  /** Database name; default `titlecard`. */
  dbName?: string;
  /** How long to wait for the server at start-up, ms; default 5000. */
  serverSelectionTimeoutMS?: number;
}

/** Awaits every promise of `pending`, keeping its key; rejects as soon as one rejects. */
async function awaitEach<T extends Record<string, Promise<unknown>>>(
  pending: T,
): Promise<{ [K in keyof T]: Awaited<T[K]> }> {
  const entries = await Promise.all(Object.entries(pending).map(async ([key, p]) => [key, await p] as const));
  return Object.fromEntries(entries) as { [K in keyof T]: Awaited<T[K]> };
}

/** Connects, checks the server answers, creates indexes. Throws if the server cannot be reached. */
export async function openMongoStore(options: MongoStoreOptions): Promise<RecordStore> {
  const { MongoClient: Client } = await import('mongodb');
  const client: MongoClient = new Client(options.uri, {
    serverSelectionTimeoutMS: options.serverSelectionTimeoutMS ?? 5000,
    appName: 'titlecard',
  });
  await client.connect();
  const db: Db = client.db(options.dbName ?? 'titlecard');
  await db.command({ ping: 1 });
  // Each repository creates its indexes; all of them at once.
  const repositories = await awaitEach({
    users: mongoUsers(db),
    tokens: mongoTokens(db),
    workspaces: mongoWorkspaces(db),
    invitations: mongoInvitations(db),
    audit: mongoAudit(db),
    billing: mongoBilling(db),
    images: mongoImages(db),
    sessions: mongoSessions(db),
    links: mongoLinks(db),
    usage: mongoUsage(db),
    idempotency: mongoIdempotency(db),
    oauth: mongoOauth(db),
    assets: mongoAssets(db),
    presets: mongoPresets(db),
    templates: mongoTemplates(db),
    signingKeys: mongoSigningKeys(db),
    renders: mongoRenders(db),
    sites: mongoSites(db),
    batches: mongoBatches(db),
    webhooks: mongoWebhooks(db),
  });
  return {
    ...repositories,
    async close() {
      await client.close();
    },
  };
}
