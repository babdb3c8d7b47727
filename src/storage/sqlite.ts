/**
 * The embedded record store: SQLite through better-sqlite3, in WAL mode so readers never wait for the
 * writer, with a 5 s busy timeout so that several processes can share one database file. Schema
 * migrations are applied at open, under an immediate transaction, so concurrent starts are safe.
 */
import Database from 'better-sqlite3';
import { emailTakenError } from '../domain/kernel/errors.js';
import type {
  AccountLink,
  AccountLinkPurpose,
  ApiToken,
  ImagePageQuery,
  ImageRecord,
  OAuthClient,
  OAuthCode,
  OAuthGrant,
  OAuthToken,
  Asset,
  Preset,
  RenderEntry,
  Session,
  SigningKey,
  Tier,
  User,
} from '../domain/kernel/records.js';
import type { IdempotencyStart, RecordStore, RenderClaim, StoredResponse } from '../domain/kernel/ports.js';

/** Ordered schema migrations; `PRAGMA user_version` holds how many have been applied. */
const MIGRATIONS = [
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
];

interface UserRow {
  id: string;
  email: string;
  display_name: string;
  tier: Tier;
  created_at: string;
  password_hash: string | null;
  email_verified_at: string | null;
}
interface SessionRow {
  id_hash: string;
  user_id: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}
interface LinkRow {
  id_hash: string;
  user_id: string;
  purpose: AccountLinkPurpose;
  email: string;
  created_at: string;
  expires_at: string;
}
interface TokenRow {
  id: string;
  user_id: string;
  name: string;
  token_hash: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}
interface ImageRow {
  id: string;
  user_id: string;
  title: string;
  subtitle: string | null;
  width: number;
  height: number;
  format: ImageRecord['format'];
  image_key: string;
  thumbnail_key: string;
  created_at: string;
}

const toUser = (r: UserRow): User => ({
  id: r.id,
  email: r.email,
  displayName: r.display_name,
  tier: r.tier,
  createdAt: new Date(r.created_at),
  passwordHash: r.password_hash,
  emailVerifiedAt: r.email_verified_at ? new Date(r.email_verified_at) : null,
});
const toSession = (r: SessionRow): Session => ({
  idHash: r.id_hash,
  userId: r.user_id,
  createdAt: new Date(r.created_at),
  lastSeenAt: new Date(r.last_seen_at),
  expiresAt: new Date(r.expires_at),
});
const toLink = (r: LinkRow): AccountLink => ({
  idHash: r.id_hash,
  userId: r.user_id,
  purpose: r.purpose,
  email: r.email,
  createdAt: new Date(r.created_at),
  expiresAt: new Date(r.expires_at),
});
/** User fields as their columns, for a partial UPDATE. */
const USER_COLUMNS = {
  email: 'email',
  displayName: 'display_name',
  passwordHash: 'password_hash',
  emailVerifiedAt: 'email_verified_at',
} as const;
const toToken = (r: TokenRow): ApiToken => ({
  id: r.id,
  userId: r.user_id,
  name: r.name,
  tokenHash: r.token_hash,
  createdAt: new Date(r.created_at),
  lastUsedAt: r.last_used_at ? new Date(r.last_used_at) : null,
  revokedAt: r.revoked_at ? new Date(r.revoked_at) : null,
});
const toImage = (r: ImageRow): ImageRecord => ({
  id: r.id,
  userId: r.user_id,
  title: r.title,
  subtitle: r.subtitle,
  width: r.width,
  height: r.height,
  format: r.format,
  imageKey: r.image_key,
  thumbnailKey: r.thumbnail_key,
  createdAt: new Date(r.created_at),
});

interface OAuthClientRow {
  id: string;
  name: string | null;
  redirect_uris: string;
  registration: string;
  created_at: string;
}
interface OAuthGrantRow {
  id: string;
  user_id: string;
  client_id: string;
  scopes: string;
  resource: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}
interface OAuthCodeRow {
  code_hash: string;
  grant_id: string;
  client_id: string;
  user_id: string;
  code_challenge: string;
  redirect_uri: string;
  resource: string;
  scopes: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}
interface OAuthTokenRow {
  token_hash: string;
  kind: OAuthToken['kind'];
  grant_id: string;
  client_id: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  ended_at: string | null;
}
const dateOrNull = (v: string | null) => (v ? new Date(v) : null);
interface AssetRow {
  id: string;
  user_id: string;
  kind: Asset['kind'];
  name: string;
  format: Asset['format'];
  width: number;
  height: number;
  bytes: number;
  sha256: string;
  blob_key: string;
  created_at: string;
}
interface PresetRow {
  id: string;
  user_id: string;
  name: string;
  version: number;
  options: string;
  background_asset_id: string | null;
  logo: string | null;
  font_id: string | null;
  created_at: string;
  updated_at: string;
}
interface SigningKeyRow {
  id: string;
  user_id: string;
  name: string;
  sealed_secret: string;
  created_at: string;
  revoked_at: string | null;
}
interface RenderRow {
  hash: string;
  user_id: string;
  state: RenderEntry['state'];
  blob_key: string | null;
  content_type: string | null;
  claimed_at: string;
}
const toAsset = (r: AssetRow): Asset => ({
  id: r.id,
  userId: r.user_id,
  kind: r.kind,
  name: r.name,
  format: r.format,
  width: r.width,
  height: r.height,
  bytes: r.bytes,
  sha256: r.sha256,
  blobKey: r.blob_key,
  createdAt: new Date(r.created_at),
});
const toPreset = (r: PresetRow): Preset => ({
  id: r.id,
  userId: r.user_id,
  name: r.name,
  version: r.version,
  options: JSON.parse(r.options) as Record<string, unknown>,
  backgroundAssetId: r.background_asset_id,
  logo: r.logo ? (JSON.parse(r.logo) as Preset['logo']) : null,
  fontId: r.font_id,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});
const toSigningKey = (r: SigningKeyRow): SigningKey => ({
  id: r.id,
  userId: r.user_id,
  name: r.name,
  sealedSecret: r.sealed_secret,
  createdAt: new Date(r.created_at),
  revokedAt: dateOrNull(r.revoked_at),
});
const toRender = (r: RenderRow): RenderEntry => ({
  hash: r.hash,
  userId: r.user_id,
  state: r.state,
  blobKey: r.blob_key,
  contentType: r.content_type,
  claimedAt: new Date(r.claimed_at),
});
/** A preset as its columns (the logo's asset id apart, for the in-use count). */
const presetColumns = (
  p: Pick<Preset, 'name' | 'options' | 'backgroundAssetId' | 'logo' | 'fontId' | 'updatedAt'>,
) => ({
  name: p.name,
  options: JSON.stringify(p.options),
  backgroundAssetId: p.backgroundAssetId,
  logo: p.logo ? JSON.stringify(p.logo) : null,
  logoAssetId: p.logo?.assetId ?? null,
  fontId: p.fontId,
  updatedAt: p.updatedAt.toISOString(),
});
const toClient = (r: OAuthClientRow): OAuthClient => ({
  id: r.id,
  name: r.name,
  redirectUris: JSON.parse(r.redirect_uris) as string[],
  registration: JSON.parse(r.registration) as Record<string, unknown>,
  createdAt: new Date(r.created_at),
});
const toGrant = (r: OAuthGrantRow): OAuthGrant => ({
  id: r.id,
  userId: r.user_id,
  clientId: r.client_id,
  scopes: JSON.parse(r.scopes) as string[],
  resource: r.resource,
  createdAt: new Date(r.created_at),
  lastUsedAt: dateOrNull(r.last_used_at),
  revokedAt: dateOrNull(r.revoked_at),
});
const toCode = (r: OAuthCodeRow): OAuthCode => ({
  codeHash: r.code_hash,
  grantId: r.grant_id,
  clientId: r.client_id,
  userId: r.user_id,
  codeChallenge: r.code_challenge,
  redirectUri: r.redirect_uri,
  resource: r.resource,
  scopes: JSON.parse(r.scopes) as string[],
  createdAt: new Date(r.created_at),
  expiresAt: new Date(r.expires_at),
  usedAt: dateOrNull(r.used_at),
});
const toOAuthToken = (r: OAuthTokenRow): OAuthToken => ({
  tokenHash: r.token_hash,
  kind: r.kind,
  grantId: r.grant_id,
  clientId: r.client_id,
  userId: r.user_id,
  createdAt: new Date(r.created_at),
  expiresAt: new Date(r.expires_at),
  endedAt: dateOrNull(r.ended_at),
});

function migrate(db: Database.Database): void {
  db.transaction(() => {
    const applied = db.pragma('user_version', { simple: true }) as number;
    for (let i = applied; i < MIGRATIONS.length; i++) db.exec(MIGRATIONS[i] as string);
    if (applied < MIGRATIONS.length) db.pragma(`user_version = ${MIGRATIONS.length}`);
  }).immediate();
}

/**
 * Opens (creating if needed) the database at `file` (`:memory:` for a private in-memory one) and
 * applies pending migrations.
 */
export function openSqliteStore(file: string): RecordStore {
  const db = new Database(file);
  db.pragma('busy_timeout = 5000');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  migrate(db);

  const q = {
    insertUser: db.prepare(
      `INSERT INTO users (id, email, display_name, tier, created_at, password_hash, email_verified_at)
       VALUES (@id, @email, @displayName, @tier, @createdAt, @passwordHash, @emailVerifiedAt)`,
    ),
    deleteUser: db.prepare('DELETE FROM users WHERE id = ?'),
    deleteTokens: db.prepare('DELETE FROM tokens WHERE user_id = ?'),
    imageById: db.prepare<[string, string], ImageRow>('SELECT * FROM images WHERE id = ? AND user_id = ?'),
    deleteImage: db.prepare<[string, string], ImageRow>(
      'DELETE FROM images WHERE id = ? AND user_id = ? RETURNING *',
    ),
    deleteImages: db.prepare<[string], ImageRow>('DELETE FROM images WHERE user_id = ? RETURNING *'),
    countByDay: db.prepare<[string, string, string], { day: string; n: number }>(
      `SELECT substr(created_at, 1, 10) AS day, count(*) AS n FROM images
       WHERE user_id = ? AND created_at >= ? AND created_at < ? GROUP BY day`,
    ),
    insertSession: db.prepare(
      `INSERT INTO sessions (id_hash, user_id, created_at, last_seen_at, expires_at)
       VALUES (@idHash, @userId, @createdAt, @lastSeenAt, @expiresAt)`,
    ),
    session: db.prepare<[string], SessionRow>('SELECT * FROM sessions WHERE id_hash = ?'),
    touchSession: db.prepare('UPDATE sessions SET last_seen_at = ? WHERE id_hash = ? AND last_seen_at < ?'),
    deleteSession: db.prepare('DELETE FROM sessions WHERE id_hash = ?'),
    deleteSessions: db.prepare('DELETE FROM sessions WHERE user_id = ? AND id_hash IS NOT ?'),
    insertLink: db.prepare(
      `INSERT INTO account_links (id_hash, user_id, purpose, email, created_at, expires_at)
       VALUES (@idHash, @userId, @purpose, @email, @createdAt, @expiresAt)`,
    ),
    consumeLink: db.prepare<[string, string, string], LinkRow>(
      'DELETE FROM account_links WHERE id_hash = ? AND purpose = ? AND expires_at > ? RETURNING *',
    ),
    deleteLinks: db.prepare('DELETE FROM account_links WHERE user_id = ? AND (? IS NULL OR purpose = ?)'),
    idempotencyGet: db.prepare<
      [string, string],
      { fingerprint: string; expires_at: string; response: string | null }
    >('SELECT fingerprint, expires_at, response FROM idempotency WHERE user_id = ? AND key = ?'),
    idempotencyPut: db.prepare(
      `INSERT OR REPLACE INTO idempotency (user_id, key, fingerprint, created_at, expires_at, response)
       VALUES (@userId, @key, @fingerprint, @createdAt, @expiresAt, NULL)`,
    ),
    idempotencyComplete: db.prepare('UPDATE idempotency SET response = ? WHERE user_id = ? AND key = ?'),
    idempotencyDelete: db.prepare('DELETE FROM idempotency WHERE user_id = ? AND key = ?'),
    userById: db.prepare<[string], UserRow>('SELECT * FROM users WHERE id = ?'),
    userByEmail: db.prepare<[string], UserRow>('SELECT * FROM users WHERE email = ?'),
    setTier: db.prepare('UPDATE users SET tier = ? WHERE id = ?'),
    insertToken: db.prepare(
      `INSERT INTO tokens (id, user_id, name, token_hash, created_at, last_used_at, revoked_at)
       VALUES (@id, @userId, @name, @tokenHash, @createdAt, NULL, NULL)`,
    ),
    // One statement: the count and the insert are one atomic step, also across processes.
    insertTokenWithin: db.prepare(
      `INSERT INTO tokens (id, user_id, name, token_hash, created_at, last_used_at, revoked_at)
       SELECT @id, @userId, @name, @tokenHash, @createdAt, NULL, NULL
       WHERE (SELECT count(*) FROM tokens WHERE user_id = @userId AND revoked_at IS NULL) < @max`,
    ),
    tokenByHash: db.prepare<[string], TokenRow>(
      'SELECT * FROM tokens WHERE token_hash = ? AND revoked_at IS NULL',
    ),
    activeTokens: db.prepare<[string], TokenRow>(
      'SELECT * FROM tokens WHERE user_id = ? AND revoked_at IS NULL ORDER BY created_at DESC, id DESC',
    ),
    countActive: db.prepare<[string], { n: number }>(
      'SELECT count(*) AS n FROM tokens WHERE user_id = ? AND revoked_at IS NULL',
    ),
    revoke: db.prepare(
      'UPDATE tokens SET revoked_at = ? WHERE id = ? AND user_id = ? AND revoked_at IS NULL',
    ),
    touch: db.prepare(
      'UPDATE tokens SET last_used_at = @at WHERE id = @id AND (last_used_at IS NULL OR last_used_at < @at)',
    ),
    insertImage: db.prepare(
      `INSERT INTO images (id, user_id, title, subtitle, width, height, format, image_key, thumbnail_key, created_at)
       VALUES (@id, @userId, @title, @subtitle, @width, @height, @format, @imageKey, @thumbnailKey, @createdAt)`,
    ),
    countImages: db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM images WHERE user_id = ?'),
    blobKeys: db.prepare<[], { image_key: string; thumbnail_key: string }>(
      'SELECT image_key, thumbnail_key FROM images',
    ),
    usage: db.prepare<[string, string], { count: number }>(
      'SELECT count FROM usage WHERE user_id = ? AND month = ?',
    ),
    // One statement, so one atomic step even across processes: insert the first unit of the month,
    // or add one unless the limit is reached. `changes` is 0 exactly when the quota is used up.
    charge: db.prepare(
      `INSERT INTO usage (user_id, month, count) VALUES (@userId, @month, 1)
       ON CONFLICT (user_id, month) DO UPDATE SET count = count + 1 WHERE count < @limit`,
    ),
    refund: db.prepare('UPDATE usage SET count = count - 1 WHERE user_id = ? AND month = ? AND count > 0'),
    insertClient: db.prepare(
      `INSERT INTO oauth_clients (id, name, redirect_uris, registration, created_at)
       VALUES (@id, @name, @redirectUris, @registration, @createdAt)`,
    ),
    client: db.prepare<[string], OAuthClientRow>('SELECT * FROM oauth_clients WHERE id = ?'),
    insertGrant: db.prepare(
      `INSERT INTO oauth_grants (id, user_id, client_id, scopes, resource, created_at, last_used_at, revoked_at)
       VALUES (@id, @userId, @clientId, @scopes, @resource, @createdAt, NULL, NULL)`,
    ),
    grant: db.prepare<[string], OAuthGrantRow>('SELECT * FROM oauth_grants WHERE id = ?'),
    activeGrants: db.prepare<[string], OAuthGrantRow>(
      'SELECT * FROM oauth_grants WHERE user_id = ? AND revoked_at IS NULL ORDER BY created_at DESC, id DESC',
    ),
    touchGrant: db.prepare(
      'UPDATE oauth_grants SET last_used_at = @at WHERE id = @id AND (last_used_at IS NULL OR last_used_at < @at)',
    ),
    revokeGrants: db.prepare(
      `UPDATE oauth_grants SET revoked_at = @at WHERE user_id = @userId AND revoked_at IS NULL
       AND (@clientId IS NULL OR client_id = @clientId) AND (@grantId IS NULL OR id = @grantId)`,
    ),
    insertCode: db.prepare(
      `INSERT INTO oauth_codes (code_hash, grant_id, client_id, user_id, code_challenge, redirect_uri,
         resource, scopes, created_at, expires_at, used_at)
       VALUES (@codeHash, @grantId, @clientId, @userId, @codeChallenge, @redirectUri, @resource,
         @scopes, @createdAt, @expiresAt, NULL)`,
    ),
    code: db.prepare<[string], OAuthCodeRow>('SELECT * FROM oauth_codes WHERE code_hash = ?'),
    useCode: db.prepare('UPDATE oauth_codes SET used_at = ? WHERE code_hash = ? AND used_at IS NULL'),
    insertOAuthToken: db.prepare(
      `INSERT INTO oauth_tokens (token_hash, kind, grant_id, client_id, user_id, created_at, expires_at, ended_at)
       VALUES (@tokenHash, @kind, @grantId, @clientId, @userId, @createdAt, @expiresAt, NULL)`,
    ),
    oauthToken: db.prepare<[string], OAuthTokenRow>('SELECT * FROM oauth_tokens WHERE token_hash = ?'),
    endToken: db.prepare('UPDATE oauth_tokens SET ended_at = ? WHERE token_hash = ? AND ended_at IS NULL'),
    insertAsset: db.prepare(
      `INSERT INTO assets (id, user_id, kind, name, format, width, height, bytes, sha256, blob_key, created_at)
       VALUES (@id, @userId, @kind, @name, @format, @width, @height, @bytes, @sha256, @blobKey, @createdAt)`,
    ),
    asset: db.prepare<[string, string], AssetRow>('SELECT * FROM assets WHERE id = ? AND user_id = ?'),
    deleteAsset: db.prepare<[string, string], AssetRow>(
      'DELETE FROM assets WHERE id = ? AND user_id = ? RETURNING *',
    ),
    deleteAssets: db.prepare<[string], AssetRow>('DELETE FROM assets WHERE user_id = ? RETURNING *'),
    insertPreset: db.prepare(
      `INSERT INTO presets (id, user_id, name, version, options, background_asset_id, logo, logo_asset_id,
         font_id, created_at, updated_at)
       VALUES (@id, @userId, @name, 1, @options, @backgroundAssetId, @logo, @logoAssetId, @fontId,
         @createdAt, @updatedAt)`,
    ),
    preset: db.prepare<[string, string], PresetRow>('SELECT * FROM presets WHERE id = ? AND user_id = ?'),
    presets: db.prepare<[string], PresetRow>(
      'SELECT * FROM presets WHERE user_id = ? ORDER BY created_at DESC, id DESC',
    ),
    updatePreset: db.prepare<Record<string, unknown>, PresetRow>(
      `UPDATE presets SET name = @name, options = @options, background_asset_id = @backgroundAssetId,
         logo = @logo, logo_asset_id = @logoAssetId, font_id = @fontId, updated_at = @updatedAt,
         version = version + 1
       WHERE id = @id AND user_id = @userId RETURNING *`,
    ),
    deletePreset: db.prepare('DELETE FROM presets WHERE id = ? AND user_id = ?'),
    deletePresets: db.prepare('DELETE FROM presets WHERE user_id = ?'),
    presetsUsing: db.prepare<Record<string, string>, { n: number }>(
      `SELECT count(*) AS n FROM presets WHERE user_id = @userId
       AND (background_asset_id = @id OR logo_asset_id = @id OR font_id = @id)`,
    ),
    insertKey: db.prepare(
      `INSERT INTO signing_keys (id, user_id, name, sealed_secret, created_at, revoked_at)
       VALUES (@id, @userId, @name, @sealedSecret, @createdAt, NULL)`,
    ),
    key: db.prepare<[string], SigningKeyRow>('SELECT * FROM signing_keys WHERE id = ?'),
    activeKeys: db.prepare<[string], SigningKeyRow>(
      'SELECT * FROM signing_keys WHERE user_id = ? AND revoked_at IS NULL ORDER BY created_at DESC, id DESC',
    ),
    revokeKey: db.prepare(
      'UPDATE signing_keys SET revoked_at = ? WHERE id = ? AND user_id = ? AND revoked_at IS NULL',
    ),
    deleteKeys: db.prepare('DELETE FROM signing_keys WHERE user_id = ?'),
    render: db.prepare<[string], RenderRow>('SELECT * FROM renders WHERE hash = ?'),
    insertRender: db.prepare(
      `INSERT INTO renders (hash, user_id, state, blob_key, content_type, claimed_at)
       VALUES (@hash, @userId, 'rendering', NULL, NULL, @claimedAt)`,
    ),
    reclaimRender: db.prepare(
      `UPDATE renders SET claimed_at = @claimedAt, user_id = @userId
       WHERE hash = @hash AND state = 'rendering' AND claimed_at < @staleBefore`,
    ),
    completeRender: db.prepare(
      "UPDATE renders SET state = 'done', blob_key = ?, content_type = ? WHERE hash = ?",
    ),
    releaseRender: db.prepare("DELETE FROM renders WHERE hash = ? AND state = 'rendering'"),
    deleteRenders: db.prepare<[string], RenderRow>('DELETE FROM renders WHERE user_id = ? RETURNING *'),
    deleteOAuth: [
      db.prepare('DELETE FROM oauth_tokens WHERE user_id = ?'),
      db.prepare('DELETE FROM oauth_codes WHERE user_id = ?'),
      db.prepare('DELETE FROM oauth_grants WHERE user_id = ?'),
    ],
  };
  const pages = {
    'createdAt:asc': 'created_at ASC, id ASC',
    'createdAt:desc': 'created_at DESC, id DESC',
    'title:asc': 'title COLLATE NOCASE ASC, id ASC',
    'title:desc': 'title COLLATE NOCASE DESC, id DESC',
  } as const;
  const listImages = Object.fromEntries(
    Object.entries(pages).map(([k, order]) => [
      k,
      db.prepare<[string, number, number], ImageRow>(
        `SELECT * FROM images WHERE user_id = ? ORDER BY ${order} LIMIT ? OFFSET ?`,
      ),
    ]),
  ) as Record<keyof typeof pages, Database.Statement<[string, number, number], ImageRow>>;

  return {
    users: {
      async create(user) {
        try {
          q.insertUser.run({
            ...user,
            createdAt: user.createdAt.toISOString(),
            emailVerifiedAt: user.emailVerifiedAt?.toISOString() ?? null,
          });
        } catch (err) {
          if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE')
            throw emailTakenError(user.email);
          throw err;
        }
      },
      async findById(id) {
        const r = q.userById.get(id);
        return r && toUser(r);
      },
      async findByEmail(email) {
        const r = q.userByEmail.get(email);
        return r && toUser(r);
      },
      async setTier(id, tier) {
        return q.setTier.run(tier, id).changes === 1;
      },
      async update(id, changes) {
        const entries = Object.entries(changes).filter(([, v]) => v !== undefined);
        if (entries.length === 0) return q.userById.get(id) !== undefined;
        const sets = entries.map(([k]) => `${USER_COLUMNS[k as keyof typeof USER_COLUMNS]} = ?`).join(', ');
        const values = entries.map(([, v]) => (v instanceof Date ? v.toISOString() : v));
        try {
          return db.prepare(`UPDATE users SET ${sets} WHERE id = ?`).run(...values, id).changes === 1;
        } catch (err) {
          if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE')
            throw emailTakenError(changes.email ?? '');
          throw err;
        }
      },
      async delete(id) {
        q.deleteUser.run(id);
      },
    },
    tokens: {
      async create(t) {
        q.insertToken.run({
          id: t.id,
          userId: t.userId,
          name: t.name,
          tokenHash: t.tokenHash,
          createdAt: t.createdAt.toISOString(),
        });
      },
      async createWithinLimit(t, max) {
        return (
          q.insertTokenWithin.run({
            id: t.id,
            userId: t.userId,
            name: t.name,
            tokenHash: t.tokenHash,
            createdAt: t.createdAt.toISOString(),
            max,
          }).changes === 1
        );
      },
      async findActiveByHash(hash) {
        const r = q.tokenByHash.get(hash);
        return r && toToken(r);
      },
      async listActive(userId) {
        return q.activeTokens.all(userId).map(toToken);
      },
      async countActive(userId) {
        return q.countActive.get(userId)?.n ?? 0;
      },
      async revoke(userId, id, at) {
        return q.revoke.run(at.toISOString(), id, userId).changes === 1;
      },
      async touch(id, at) {
        q.touch.run({ at: at.toISOString(), id });
      },
      async deleteAllForUser(userId) {
        q.deleteTokens.run(userId);
      },
    },
    images: {
      async insert(r) {
        q.insertImage.run({ ...r, createdAt: r.createdAt.toISOString() });
      },
      async list(userId, query: ImagePageQuery) {
        const stmt = listImages[`${query.sort}:${query.order}`];
        const items = stmt.all(userId, query.limit, query.offset).map(toImage);
        return { items, total: q.countImages.get(userId)?.n ?? 0 };
      },
      async *allBlobKeys() {
        for (const r of q.blobKeys.iterate()) {
          yield r.image_key;
          yield r.thumbnail_key;
        }
      },
      async findById(userId, id) {
        const r = q.imageById.get(id, userId);
        return r && toImage(r);
      },
      async delete(userId, id) {
        const r = q.deleteImage.get(id, userId);
        return r && toImage(r);
      },
      async deleteAllForUser(userId) {
        return q.deleteImages.all(userId).map(toImage);
      },
      async countByDay(userId, from, to) {
        const rows = q.countByDay.all(userId, from.toISOString(), to.toISOString());
        return Object.fromEntries(rows.map((r) => [r.day, r.n]));
      },
    },
    sessions: {
      async create(s) {
        q.insertSession.run({
          idHash: s.idHash,
          userId: s.userId,
          createdAt: s.createdAt.toISOString(),
          lastSeenAt: s.lastSeenAt.toISOString(),
          expiresAt: s.expiresAt.toISOString(),
        });
      },
      async find(idHash) {
        const r = q.session.get(idHash);
        return r && toSession(r);
      },
      async touch(idHash, at) {
        q.touchSession.run(at.toISOString(), idHash, at.toISOString());
      },
      async delete(idHash) {
        q.deleteSession.run(idHash);
      },
      async deleteAllForUser(userId, keepIdHash) {
        q.deleteSessions.run(userId, keepIdHash ?? null);
      },
    },
    links: {
      async create(l) {
        q.insertLink.run({
          ...l,
          createdAt: l.createdAt.toISOString(),
          expiresAt: l.expiresAt.toISOString(),
        });
      },
      async consume(idHash, purpose, at) {
        const r = q.consumeLink.get(idHash, purpose, at.toISOString());
        return r && toLink(r);
      },
      async deleteAllForUser(userId, purpose) {
        q.deleteLinks.run(userId, purpose ?? null, purpose ?? null);
      },
    },
    usage: {
      async get(userId, month) {
        return q.usage.get(userId, month)?.count ?? 0;
      },
      async tryCharge(userId, month, limit) {
        // The counter is the whole state here: any receipt refunds one unit.
        return q.charge.run({ userId, month, limit }).changes === 1 ? `${userId}:${month}` : undefined;
      },
      async refund(userId, month) {
        q.refund.run(userId, month);
      },
    },
    idempotency: {
      async begin(userId, key, fingerprint, at, expiresAt) {
        // One IMMEDIATE transaction: it holds the write lock from the read to the insert, so two
        // processes cannot both find the key free.
        return db
          .transaction((): IdempotencyStart => {
            const row = q.idempotencyGet.get(userId, key);
            if (!row || row.expires_at <= at.toISOString()) {
              q.idempotencyPut.run({
                userId,
                key,
                fingerprint,
                createdAt: at.toISOString(),
                expiresAt: expiresAt.toISOString(),
              });
              return { state: 'started' };
            }
            if (row.fingerprint !== fingerprint) return { state: 'mismatch' };
            if (row.response === null) return { state: 'in-flight' };
            return { state: 'done', response: JSON.parse(row.response) as StoredResponse };
          })
          .immediate();
      },
      async complete(userId, key, response) {
        q.idempotencyComplete.run(JSON.stringify(response), userId, key);
      },
      async abandon(userId, key) {
        q.idempotencyDelete.run(userId, key);
      },
    },
    oauth: {
      async createClient(c) {
        q.insertClient.run({
          id: c.id,
          name: c.name,
          redirectUris: JSON.stringify(c.redirectUris),
          registration: JSON.stringify(c.registration),
          createdAt: c.createdAt.toISOString(),
        });
      },
      async findClient(id) {
        const r = q.client.get(id);
        return r && toClient(r);
      },
      async createGrant(g) {
        q.insertGrant.run({
          id: g.id,
          userId: g.userId,
          clientId: g.clientId,
          scopes: JSON.stringify(g.scopes),
          resource: g.resource,
          createdAt: g.createdAt.toISOString(),
        });
      },
      async findGrant(id) {
        const r = q.grant.get(id);
        return r && toGrant(r);
      },
      async listActiveGrants(userId) {
        return q.activeGrants.all(userId).map(toGrant);
      },
      async touchGrant(id, at) {
        q.touchGrant.run({ id, at: at.toISOString() });
      },
      async revokeGrants(userId, which, at) {
        return q.revokeGrants.run({
          userId,
          clientId: which.clientId ?? null,
          grantId: which.grantId ?? null,
          at: at.toISOString(),
        }).changes;
      },
      async createCode(c) {
        q.insertCode.run({
          codeHash: c.codeHash,
          grantId: c.grantId,
          clientId: c.clientId,
          userId: c.userId,
          codeChallenge: c.codeChallenge,
          redirectUri: c.redirectUri,
          resource: c.resource,
          scopes: JSON.stringify(c.scopes),
          createdAt: c.createdAt.toISOString(),
          expiresAt: c.expiresAt.toISOString(),
        });
      },
      async findCode(codeHash) {
        const r = q.code.get(codeHash);
        return r && toCode(r);
      },
      async useCode(codeHash, at) {
        return q.useCode.run(at.toISOString(), codeHash).changes === 1;
      },
      async createToken(t) {
        q.insertOAuthToken.run({
          tokenHash: t.tokenHash,
          kind: t.kind,
          grantId: t.grantId,
          clientId: t.clientId,
          userId: t.userId,
          createdAt: t.createdAt.toISOString(),
          expiresAt: t.expiresAt.toISOString(),
        });
      },
      async findToken(tokenHash) {
        const r = q.oauthToken.get(tokenHash);
        return r && toOAuthToken(r);
      },
      async endToken(tokenHash, at) {
        return q.endToken.run(at.toISOString(), tokenHash).changes === 1;
      },
      async deleteAllForUser(userId) {
        db.transaction(() => {
          for (const statement of q.deleteOAuth) statement.run(userId);
        })();
      },
    },
    assets: {
      async create(a) {
        q.insertAsset.run({ ...a, createdAt: a.createdAt.toISOString() });
      },
      async find(userId, id) {
        const r = q.asset.get(id, userId);
        return r && toAsset(r);
      },
      async list(userId, kinds) {
        const marks = kinds.map(() => '?').join(', ');
        return db
          .prepare<string[], AssetRow>(
            `SELECT * FROM assets WHERE user_id = ? AND kind IN (${marks}) ORDER BY created_at DESC, id DESC`,
          )
          .all(userId, ...kinds)
          .map(toAsset);
      },
      async delete(userId, id) {
        const r = q.deleteAsset.get(id, userId);
        return r && toAsset(r);
      },
      async deleteAllForUser(userId) {
        return q.deleteAssets.all(userId).map(toAsset);
      },
    },
    presets: {
      async create(p) {
        q.insertPreset.run({
          id: p.id,
          userId: p.userId,
          ...presetColumns(p),
          createdAt: p.createdAt.toISOString(),
        });
      },
      async find(userId, id) {
        const r = q.preset.get(id, userId);
        return r && toPreset(r);
      },
      async list(userId) {
        return q.presets.all(userId).map(toPreset);
      },
      async update(userId, id, changes) {
        const r = q.updatePreset.get({ id, userId, ...presetColumns(changes) });
        return r && toPreset(r);
      },
      async delete(userId, id) {
        return q.deletePreset.run(id, userId).changes === 1;
      },
      async countUsing(userId, id) {
        return q.presetsUsing.get({ userId, id })?.n ?? 0;
      },
      async deleteAllForUser(userId) {
        q.deletePresets.run(userId);
      },
    },
    signingKeys: {
      async create(k) {
        q.insertKey.run({
          id: k.id,
          userId: k.userId,
          name: k.name,
          sealedSecret: k.sealedSecret,
          createdAt: k.createdAt.toISOString(),
        });
      },
      async find(id) {
        const r = q.key.get(id);
        return r && toSigningKey(r);
      },
      async listActive(userId) {
        return q.activeKeys.all(userId).map(toSigningKey);
      },
      async revoke(userId, id, at) {
        return q.revokeKey.run(at.toISOString(), id, userId).changes === 1;
      },
      async deleteAllForUser(userId) {
        q.deleteKeys.run(userId);
      },
    },
    renders: {
      async find(hash) {
        const r = q.render.get(hash);
        return r && toRender(r);
      },
      async claim(hash, userId, at, staleBefore) {
        // One IMMEDIATE transaction: the read and the insert or takeover are one step across processes.
        return db
          .transaction((): RenderClaim => {
            const row = q.render.get(hash);
            if (!row) {
              q.insertRender.run({ hash, userId, claimedAt: at.toISOString() });
              return { state: 'claimed' };
            }
            if (row.state === 'done') return { state: 'done', entry: toRender(row) };
            const taken = q.reclaimRender.run({
              hash,
              userId,
              claimedAt: at.toISOString(),
              staleBefore: staleBefore.toISOString(),
            });
            return taken.changes === 1 ? { state: 'claimed' } : { state: 'rendering' };
          })
          .immediate();
      },
      async complete(hash, blobKey, contentType) {
        q.completeRender.run(blobKey, contentType, hash);
      },
      async release(hash) {
        q.releaseRender.run(hash);
      },
      async deleteAllForUser(userId) {
        return q.deleteRenders.all(userId).map(toRender);
      },
    },
    async close() {
      db.close();
    },
  };
}
