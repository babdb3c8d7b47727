/** OAuth 2.1 records of the MCP connector: clients, grants, codes and tokens. */
import type Database from 'better-sqlite3';
import type { RecordStore } from '../../domain/kernel/ports.js';
import {
  toClient,
  toGrant,
  toCode,
  toOAuthToken,
  type OAuthClientRow,
  type OAuthGrantRow,
  type OAuthCodeRow,
  type OAuthTokenRow,
} from './rows.js';

/** The `oauth` repository of the {@link RecordStore} on SQLite. */
export function sqliteOauth(db: Database.Database): RecordStore['oauth'] {
  const q = {
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
    deleteOAuth: [
      db.prepare('DELETE FROM oauth_tokens WHERE user_id = ?'),
      db.prepare('DELETE FROM oauth_codes WHERE user_id = ?'),
      db.prepare('DELETE FROM oauth_grants WHERE user_id = ?'),
    ],
  };
  return {
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
  };
}
