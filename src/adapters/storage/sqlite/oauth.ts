/** The MCP connector's authorization server state on SQLite: one table of entries (see OAuthRepository). */
import type Database from 'better-sqlite3';
import type { RecordStore } from '../../../domain/kernel/ports.js';
import type { OAuthEntry } from '../../../domain/kernel/records.js';

interface OAuthEntryRow {
  model: string;
  key: string;
  payload: string;
  grant_id: string | null;
  uid: string | null;
  account_id: string | null;
  client_id: string | null;
  expires_at: string | null;
  consumed_at: string | null;
  last_used_at: string | null;
}

const date = (v: string | null) => (v === null ? null : new Date(v));

const toEntry = (r: OAuthEntryRow): OAuthEntry => ({
  key: r.key,
  payload: JSON.parse(r.payload) as Record<string, unknown>,
  grantId: r.grant_id,
  uid: r.uid,
  accountId: r.account_id,
  clientId: r.client_id,
  expiresAt: date(r.expires_at),
  consumedAt: date(r.consumed_at),
  lastUsedAt: date(r.last_used_at),
});

/** Expired entries are deleted on one upsert in this many. */
const SWEEP_EVERY = 200;

/** The `oauth` repository of the {@link RecordStore} on SQLite. */
export function sqliteOauth(db: Database.Database): RecordStore['oauth'] {
  const live = '(expires_at IS NULL OR expires_at > @now)';
  const q = {
    upsert: db.prepare(
      `INSERT OR REPLACE INTO oauth_entries (model, key, payload, grant_id, uid, account_id, client_id, expires_at, consumed_at, last_used_at)
       VALUES (@model, @key, @payload, @grantId, @uid, @accountId, @clientId, @expiresAt, NULL, NULL)`,
    ),
    find: db.prepare<{ model: string; key: string; now: string }, OAuthEntryRow>(
      `SELECT * FROM oauth_entries WHERE model = @model AND key = @key AND ${live}`,
    ),
    byUid: db.prepare<{ model: string; uid: string; now: string }, OAuthEntryRow>(
      `SELECT * FROM oauth_entries WHERE model = @model AND uid = @uid AND ${live}`,
    ),
    consume: db.prepare(
      'UPDATE oauth_entries SET consumed_at = @at WHERE model = @model AND key = @key AND consumed_at IS NULL',
    ),
    destroy: db.prepare('DELETE FROM oauth_entries WHERE model = ? AND key = ?'),
    revoke: db.prepare('DELETE FROM oauth_entries WHERE grant_id = ?'),
    grants: db.prepare<{ accountId: string; now: string }, OAuthEntryRow>(
      `SELECT * FROM oauth_entries WHERE model = 'Grant' AND account_id = @accountId AND ${live}
       ORDER BY json_extract(payload, '$.iat') DESC, key`,
    ),
    grantIds: db.prepare<{ accountId: string; clientId: string | null }, { grant_id: string }>(
      `SELECT grant_id FROM oauth_entries WHERE model = 'Grant' AND account_id = @accountId
       AND (@clientId IS NULL OR client_id = @clientId)`,
    ),
    sessions: db.prepare("DELETE FROM oauth_entries WHERE model = 'Session' AND account_id = ?"),
    touch: db.prepare(
      `UPDATE oauth_entries SET last_used_at = @at WHERE model = 'Grant' AND key = @key
       AND (last_used_at IS NULL OR last_used_at < @at)`,
    ),
    sweep: db.prepare('DELETE FROM oauth_entries WHERE expires_at IS NOT NULL AND expires_at <= ?'),
  };
  let upserts = 0;
  const endGrants = db.transaction((accountId: string, clientId: string | null) => {
    const ids = q.grantIds.all({ accountId, clientId }).map((r) => r.grant_id);
    for (const id of ids) q.revoke.run(id);
    if (clientId === null) q.sessions.run(accountId);
    return ids.length;
  });
  return {
    async upsert(model, e) {
      q.upsert.run({
        model,
        key: e.key,
        payload: JSON.stringify(e.payload),
        grantId: e.grantId,
        uid: e.uid,
        accountId: e.accountId,
        clientId: e.clientId,
        expiresAt: e.expiresAt?.toISOString() ?? null,
      });
      if (++upserts % SWEEP_EVERY === 0) q.sweep.run(new Date().toISOString());
    },
    async find(model, key, now) {
      const r = q.find.get({ model, key, now: now.toISOString() });
      return r && toEntry(r);
    },
    async findByUid(model, uid, now) {
      const r = q.byUid.get({ model, uid, now: now.toISOString() });
      return r && toEntry(r);
    },
    async consume(model, key, at) {
      return q.consume.run({ model, key, at: at.toISOString() }).changes === 1;
    },
    async destroy(model, key) {
      q.destroy.run(model, key);
    },
    async revokeByGrantId(grantId) {
      q.revoke.run(grantId);
    },
    async grantsOf(accountId, now) {
      return q.grants.all({ accountId, now: now.toISOString() }).map(toEntry);
    },
    async touchGrant(key, at) {
      q.touch.run({ key, at: at.toISOString() });
    },
    async endGrants(accountId, clientId) {
      return endGrants(accountId, clientId ?? null);
    },
  };
}
