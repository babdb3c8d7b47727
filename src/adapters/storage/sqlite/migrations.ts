/** The schema of the embedded record store, as ordered migrations. */
import type Database from 'better-sqlite3';
import { titleSortKey } from '../../../domain/kernel/records.js';

/** Ordered schema migrations; `PRAGMA user_version` holds how many have been applied. */
export const MIGRATIONS = [
  `CREATE TABLE users (
     id TEXT PRIMARY KEY,
     email TEXT NOT NULL UNIQUE COLLATE NOCASE,
     display_name TEXT NOT NULL,
     tier TEXT NOT NULL,
     created_at TEXT NOT NULL
   );
   CREATE TABLE tokens (
     id TEXT PRIMARY KEY,
     user_id TEXT NOT NULL REFERENCES users(id),
     name TEXT NOT NULL,
     token_hash TEXT NOT NULL UNIQUE,
     created_at TEXT NOT NULL,
     last_used_at TEXT,
     revoked_at TEXT
   );
   CREATE INDEX tokens_by_user ON tokens(user_id, created_at);
   CREATE TABLE images (
     id TEXT PRIMARY KEY,
     user_id TEXT NOT NULL REFERENCES users(id),
     title TEXT NOT NULL,
     subtitle TEXT,
     width INTEGER NOT NULL,
     height INTEGER NOT NULL,
     format TEXT NOT NULL,
     image_key TEXT NOT NULL,
     thumbnail_key TEXT NOT NULL,
     created_at TEXT NOT NULL
   );
   CREATE INDEX images_by_user_created ON images(user_id, created_at, id);
   CREATE INDEX images_by_user_title ON images(user_id, title COLLATE NOCASE, id);
   CREATE TABLE usage (
     user_id TEXT NOT NULL,
     month TEXT NOT NULL,
     count INTEGER NOT NULL,
     PRIMARY KEY (user_id, month)
   );`,
  // 2: dashboard accounts (passwords, verified emails), browser sessions, single-use email links.
  `ALTER TABLE users ADD COLUMN password_hash TEXT;
   ALTER TABLE users ADD COLUMN email_verified_at TEXT;
   CREATE TABLE sessions (
     id_hash TEXT PRIMARY KEY,
     user_id TEXT NOT NULL,
     created_at TEXT NOT NULL,
     last_seen_at TEXT NOT NULL,
     expires_at TEXT NOT NULL
   );
   CREATE INDEX sessions_by_user ON sessions(user_id);
   CREATE TABLE account_links (
     id_hash TEXT PRIMARY KEY,
     user_id TEXT NOT NULL,
     purpose TEXT NOT NULL,
     email TEXT NOT NULL,
     created_at TEXT NOT NULL,
     expires_at TEXT NOT NULL
   );
   CREATE INDEX account_links_by_user ON account_links(user_id, purpose);`,
  // 3: answers kept for Idempotency-Key retries.
  `CREATE TABLE idempotency (
     user_id TEXT NOT NULL,
     key TEXT NOT NULL,
     fingerprint TEXT NOT NULL,
     created_at TEXT NOT NULL,
     expires_at TEXT NOT NULL,
     response TEXT,
     PRIMARY KEY (user_id, key)
   );`,
  // 4: OAuth 2.1 for the MCP connector: registered clients, grants, codes and tokens (hashes only).
  `CREATE TABLE oauth_clients (
     id TEXT PRIMARY KEY,
     name TEXT,
     redirect_uris TEXT NOT NULL,
     registration TEXT NOT NULL,
     created_at TEXT NOT NULL
   );
   CREATE TABLE oauth_grants (
     id TEXT PRIMARY KEY,
     user_id TEXT NOT NULL,
     client_id TEXT NOT NULL,
     scopes TEXT NOT NULL,
     resource TEXT NOT NULL,
     created_at TEXT NOT NULL,
     last_used_at TEXT,
     revoked_at TEXT
   );
   CREATE INDEX oauth_grants_by_user ON oauth_grants(user_id, created_at);
   CREATE TABLE oauth_codes (
     code_hash TEXT PRIMARY KEY,
     grant_id TEXT NOT NULL,
     client_id TEXT NOT NULL,
     user_id TEXT NOT NULL,
     code_challenge TEXT NOT NULL,
     redirect_uri TEXT NOT NULL,
     resource TEXT NOT NULL,
     scopes TEXT NOT NULL,
     created_at TEXT NOT NULL,
     expires_at TEXT NOT NULL,
     used_at TEXT
   );
   CREATE INDEX oauth_codes_by_user ON oauth_codes(user_id);
   CREATE TABLE oauth_tokens (
     token_hash TEXT PRIMARY KEY,
     kind TEXT NOT NULL,
     grant_id TEXT NOT NULL,
     client_id TEXT NOT NULL,
     user_id TEXT NOT NULL,
     created_at TEXT NOT NULL,
     expires_at TEXT NOT NULL,
     ended_at TEXT
   );
   CREATE INDEX oauth_tokens_by_user ON oauth_tokens(user_id);`,
  // 5: render links: uploads (backgrounds, logos, fonts), presets, signing keys, rendered links.
  `CREATE TABLE assets (
     id TEXT PRIMARY KEY,
     user_id TEXT NOT NULL,
     kind TEXT NOT NULL,
     name TEXT NOT NULL,
     format TEXT NOT NULL,
     width INTEGER NOT NULL,
     height INTEGER NOT NULL,
     bytes INTEGER NOT NULL,
     sha256 TEXT NOT NULL,
     blob_key TEXT NOT NULL,
     created_at TEXT NOT NULL
   );
   CREATE INDEX assets_by_user ON assets(user_id, created_at);
   CREATE TABLE presets (
     id TEXT PRIMARY KEY,
     user_id TEXT NOT NULL,
     name TEXT NOT NULL,
     version INTEGER NOT NULL,
     options TEXT NOT NULL,
     background_asset_id TEXT,
     logo TEXT,
     logo_asset_id TEXT,
     font_id TEXT,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );
   CREATE INDEX presets_by_user ON presets(user_id, created_at);
   CREATE TABLE signing_keys (
     id TEXT PRIMARY KEY,
     user_id TEXT NOT NULL,
     name TEXT NOT NULL,
     sealed_secret TEXT NOT NULL,
     created_at TEXT NOT NULL,
     revoked_at TEXT
   );
   CREATE INDEX signing_keys_by_user ON signing_keys(user_id);
   CREATE TABLE renders (
     hash TEXT PRIMARY KEY,
     user_id TEXT NOT NULL,
     state TEXT NOT NULL,
     blob_key TEXT,
     content_type TEXT,
     claimed_at TEXT NOT NULL
   );
   CREATE INDEX renders_by_user ON renders(user_id);`,
  // 6: each account's image count, kept by triggers in the transaction of every insert and delete,
  // so that a page's `total` is one row read instead of a count of the account's images (54 ms at
  // 1M images, docs/performance.md).
  `CREATE TABLE image_counts (
     user_id TEXT PRIMARY KEY,
     n INTEGER NOT NULL
   ) WITHOUT ROWID;
   INSERT INTO image_counts (user_id, n) SELECT user_id, count(*) FROM images GROUP BY user_id;
   CREATE TRIGGER images_count_insert AFTER INSERT ON images BEGIN
     INSERT INTO image_counts (user_id, n) VALUES (NEW.user_id, 1)
       ON CONFLICT (user_id) DO UPDATE SET n = n + 1;
   END;
   CREATE TRIGGER images_count_delete AFTER DELETE ON images BEGIN
     UPDATE image_counts SET n = n - 1 WHERE user_id = OLD.user_id;
   END;`,
  // 7: sites (src/domain/sites), their pages, and the newest render of each render link (what the
  // link answers while its owner's quota is used up).
  `CREATE TABLE sites (
     id TEXT PRIMARY KEY,
     user_id TEXT NOT NULL,
     origin TEXT NOT NULL,
     name TEXT NOT NULL,
     preset_id TEXT NOT NULL,
     keep_query INTEGER NOT NULL,
     description INTEGER NOT NULL,
     verification_token TEXT NOT NULL,
     verified_at TEXT,
     created_at TEXT NOT NULL
   );
   CREATE INDEX sites_by_user ON sites(user_id, created_at);
   CREATE TABLE site_pages (
     site_id TEXT NOT NULL,
     url TEXT NOT NULL,
     title TEXT,
     subtitle TEXT,
     render_hash TEXT,
     problem TEXT,
     checked_at TEXT NOT NULL,
     PRIMARY KEY (site_id, url)
   ) WITHOUT ROWID;
   CREATE INDEX site_pages_by_check ON site_pages(site_id, checked_at);
   CREATE TABLE render_latest (
     link TEXT PRIMARY KEY,
     user_id TEXT NOT NULL,
     hash TEXT NOT NULL
   ) WITHOUT ROWID;
   CREATE INDEX render_latest_by_user ON render_latest(user_id);`,
  // 8: batches and their items (src/domain/batches), and the keys of charges made once per key (a
  // batch item's), stored in the transaction that charges.
  `CREATE TABLE batches (
     id TEXT PRIMARY KEY,
     user_id TEXT NOT NULL,
     total INTEGER NOT NULL,
     webhook_url TEXT,
     created_at TEXT NOT NULL,
     completed_at TEXT,
     cancelled_at TEXT
   );
   CREATE INDEX batches_by_user ON batches(user_id, created_at);
   CREATE TABLE batch_items (
     batch_id TEXT NOT NULL,
     idx INTEGER NOT NULL,
     user_id TEXT NOT NULL,
     options TEXT NOT NULL,
     status TEXT NOT NULL,
     image_id TEXT,
     error TEXT,
     claimed_at TEXT,
     PRIMARY KEY (batch_id, idx)
   ) WITHOUT ROWID;
   CREATE INDEX batch_items_waiting ON batch_items(status, claimed_at);
   CREATE TABLE usage_charges (
     key TEXT PRIMARY KEY,
     user_id TEXT NOT NULL,
     month TEXT NOT NULL
   ) WITHOUT ROWID;`,
  // 9: webhook endpoints and their deliveries (src/domain/webhooks).
  `CREATE TABLE webhook_endpoints (
     id TEXT PRIMARY KEY,
     user_id TEXT NOT NULL,
     url TEXT NOT NULL,
     sealed_secret TEXT NOT NULL,
     created_at TEXT NOT NULL
   );
   CREATE INDEX webhook_endpoints_by_user ON webhook_endpoints(user_id, created_at);
   CREATE TABLE webhook_deliveries (
     id TEXT PRIMARY KEY,
     user_id TEXT NOT NULL,
     endpoint_id TEXT,
     batch_id TEXT,
     url TEXT NOT NULL,
     type TEXT NOT NULL,
     payload TEXT NOT NULL,
     status TEXT NOT NULL,
     attempts INTEGER NOT NULL,
     next_attempt_at TEXT NOT NULL,
     last_status INTEGER,
     last_error TEXT,
     created_at TEXT NOT NULL,
     delivered_at TEXT
   );
   CREATE INDEX webhook_deliveries_due ON webhook_deliveries(status, next_attempt_at);
   CREATE INDEX webhook_deliveries_by_user ON webhook_deliveries(user_id, created_at);`,
  // 10: templates (src/domain/templates).
  `CREATE TABLE templates (
     id TEXT PRIMARY KEY,
     user_id TEXT NOT NULL,
     name TEXT NOT NULL,
     version INTEGER NOT NULL,
     document TEXT NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );
   CREATE INDEX templates_by_user ON templates(user_id, created_at);`,
  // The title order's key made by the domain (titleSortKey: Unicode-aware, as on MongoDB), in
  // place of COLLATE NOCASE, which folds ASCII letters only.
  `ALTER TABLE images ADD COLUMN title_key TEXT NOT NULL DEFAULT '';
   UPDATE images SET title_key = titlecard_title_key(title);
   DROP INDEX images_by_user_title;
   CREATE INDEX images_by_user_title_key ON images(user_id, title_key, id);`,
  // 12: a site's budget of new cards per hour and per month (issue 41); existing sites get the
  // defaults (SITE_BUDGET_DEFAULT in src/domain/sites/sites.ts).
  `ALTER TABLE sites ADD COLUMN cards_per_hour INTEGER NOT NULL DEFAULT 30;
   ALTER TABLE sites ADD COLUMN cards_per_month INTEGER NOT NULL DEFAULT 300;`,
  // 13: the authorization server moved to oidc-provider (issue 40): its models' entries, keyed by
  // the SHA-256 of their id. The former clients, grants, codes and tokens are dropped: connected
  // assistants register and ask for consent once more.
  `DROP TABLE oauth_tokens;
   DROP TABLE oauth_codes;
   DROP TABLE oauth_grants;
   DROP TABLE oauth_clients;
   CREATE TABLE oauth_entries (
     model TEXT NOT NULL,
     key TEXT NOT NULL,
     payload TEXT NOT NULL,
     grant_id TEXT,
     uid TEXT,
     account_id TEXT,
     client_id TEXT,
     expires_at TEXT,
     consumed_at TEXT,
     last_used_at TEXT,
     PRIMARY KEY (model, key)
   ) WITHOUT ROWID;
   CREATE INDEX oauth_entries_by_grant ON oauth_entries(grant_id);
   CREATE INDEX oauth_entries_by_account ON oauth_entries(account_id, model);
   CREATE INDEX oauth_entries_by_uid ON oauth_entries(model, uid);
   CREATE INDEX oauth_entries_by_expiry ON oauth_entries(expires_at);`,
  // 14: an Idempotency-Key's lease (issue 44): a request under way holds its key only while it
  // renews the lease, so a key whose process died can be retried within seconds. NULL: no lease
  // (a row from before), free to take over.
  `ALTER TABLE idempotency ADD COLUMN lease_until TEXT;`,
  // 15: when a keyed charge was made (issue 44), so that the charge sweep can refund an image's
  // charge whose image was never made. NULL: charged before this column (batch items only).
  `ALTER TABLE usage_charges ADD COLUMN charged_at TEXT;
   CREATE INDEX usage_charges_by_time ON usage_charges(charged_at);`,
  // 16: a done batch item's warnings (issue 42: a background enlarged past 1.5 times), JSON.
  `ALTER TABLE batch_items ADD COLUMN warnings TEXT;`,
  // 17: workspaces (issue 51). Each account becomes its personal workspace, with the account's id,
  // name and tier, and its only member, the owner: records keyed by the account's id are the
  // workspace's, unchanged. Tokens name their workspace and may carry scopes (NULL: every scope of
  // the member's role). The images table loses its reference to users (a workspace owns images now).
  `CREATE TABLE workspaces (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     tier TEXT NOT NULL,
     personal_of TEXT UNIQUE,
     created_at TEXT NOT NULL
   );
   CREATE TABLE memberships (
     workspace_id TEXT NOT NULL,
     user_id TEXT NOT NULL,
     role TEXT NOT NULL,
     created_at TEXT NOT NULL,
     PRIMARY KEY (workspace_id, user_id)
   ) WITHOUT ROWID;
   CREATE INDEX memberships_by_user ON memberships(user_id);
   CREATE TABLE invitations (
     id TEXT PRIMARY KEY,
     workspace_id TEXT NOT NULL,
     email TEXT NOT NULL,
     role TEXT NOT NULL,
     invited_by TEXT NOT NULL,
     secret_hash TEXT NOT NULL UNIQUE,
     created_at TEXT NOT NULL,
     expires_at TEXT NOT NULL,
     accepted_at TEXT
   );
   CREATE INDEX invitations_by_workspace ON invitations(workspace_id, created_at);
   CREATE TABLE audit_entries (
     id TEXT PRIMARY KEY,
     workspace_id TEXT NOT NULL,
     actor_id TEXT,
     action TEXT NOT NULL,
     target TEXT,
     details TEXT NOT NULL,
     address TEXT,
     at TEXT NOT NULL
   );
   CREATE INDEX audit_by_workspace ON audit_entries(workspace_id, at, id);
   CREATE INDEX audit_by_time ON audit_entries(at);
   INSERT INTO workspaces (id, name, tier, personal_of, created_at)
     SELECT id, display_name, tier, id, created_at FROM users;
   INSERT INTO memberships (workspace_id, user_id, role, created_at)
     SELECT id, id, 'owner', created_at FROM users;
   ALTER TABLE users DROP COLUMN tier;
   ALTER TABLE tokens ADD COLUMN workspace_id TEXT NOT NULL DEFAULT '';
   UPDATE tokens SET workspace_id = user_id;
   ALTER TABLE tokens ADD COLUMN scopes TEXT;
   CREATE INDEX tokens_by_workspace ON tokens(workspace_id, created_at);
   CREATE TABLE images_v17 (
     id TEXT PRIMARY KEY,
     user_id TEXT NOT NULL,
     title TEXT NOT NULL,
     subtitle TEXT,
     width INTEGER NOT NULL,
     height INTEGER NOT NULL,
     format TEXT NOT NULL,
     image_key TEXT NOT NULL,
     thumbnail_key TEXT NOT NULL,
     created_at TEXT NOT NULL,
     title_key TEXT NOT NULL DEFAULT ''
   );
   INSERT INTO images_v17 (id, user_id, title, subtitle, width, height, format, image_key,
                           thumbnail_key, created_at, title_key)
     SELECT id, user_id, title, subtitle, width, height, format, image_key, thumbnail_key,
            created_at, title_key FROM images;
   DROP TABLE images;
   ALTER TABLE images_v17 RENAME TO images;
   CREATE INDEX images_by_user_created ON images(user_id, created_at, id);
   CREATE INDEX images_by_user_title_key ON images(user_id, title_key, id);
   CREATE TRIGGER images_count_insert AFTER INSERT ON images BEGIN
     INSERT INTO image_counts (user_id, n) VALUES (NEW.user_id, 1)
       ON CONFLICT (user_id) DO UPDATE SET n = n + 1;
   END;
   CREATE TRIGGER images_count_delete AFTER DELETE ON images BEGIN
     UPDATE image_counts SET n = n - 1 WHERE user_id = OLD.user_id;
   END;`,
  // 18: subscriptions (issue 52): each workspace's as last read from Stripe, and the webhook events
  // applied (each once).
  `CREATE TABLE subscriptions (
     workspace_id TEXT PRIMARY KEY,
     customer_id TEXT NOT NULL,
     subscription_id TEXT,
     status TEXT NOT NULL,
     price_id TEXT,
     billing_interval TEXT,
     current_period_end TEXT,
     cancel_at_period_end INTEGER NOT NULL,
     past_due_since TEXT,
     updated_at TEXT NOT NULL
   );
   CREATE INDEX subscriptions_by_customer ON subscriptions(customer_id);
   CREATE TABLE billing_events (
     id TEXT PRIMARY KEY,
     claimed_at TEXT NOT NULL,
     done INTEGER NOT NULL DEFAULT 0
   ) WITHOUT ROWID;`,
  // 19: which crawler has which card (issue 54): each site page's card versions (a number per
  // content hash, in the order they were first served), and each platform's last fetch of a page.
  `CREATE TABLE site_card_versions (
     site_id TEXT NOT NULL,
     url TEXT NOT NULL,
     hash TEXT NOT NULL,
     version INTEGER NOT NULL,
     first_seen_at TEXT NOT NULL,
     PRIMARY KEY (site_id, url, hash),
     UNIQUE (site_id, url, version)
   ) WITHOUT ROWID;
   CREATE TABLE site_fetches (
     site_id TEXT NOT NULL,
     url TEXT NOT NULL,
     platform TEXT NOT NULL,
     hash TEXT NOT NULL,
     version INTEGER NOT NULL,
     fetched_at TEXT NOT NULL,
     PRIMARY KEY (site_id, url, platform)
   ) WITHOUT ROWID;
   CREATE INDEX site_fetches_by_time ON site_fetches(site_id, fetched_at);`,
];

/**
 * Applies the pending {@link MIGRATIONS} under one immediate transaction, so concurrent starts are
 * safe. The migrations may call `titlecard_title_key(title)`, the domain's {@link titleSortKey}.
 */
export function migrate(db: Database.Database): void {
  db.function('titlecard_title_key', { deterministic: true }, (title: unknown) =>
    titleSortKey(String(title)),
  );
  db.transaction(() => {
    const applied = db.pragma('user_version', { simple: true }) as number;
    for (let i = applied; i < MIGRATIONS.length; i++) db.exec(MIGRATIONS[i] as string);
    if (applied < MIGRATIONS.length) db.pragma(`user_version = ${MIGRATIONS.length}`);
  }).immediate();
}
