/**
 * OAuth 2.1 for the MCP connector: Titlecard is the authorization server of its own accounts, so
 * that hosted assistants (claude.ai, ChatGPT, any client of the MCP authorization specification,
 * revision 2025-06-18) connect with a sign-in and a consent instead of a pasted API token.
 *
 * The protocol's messages (metadata, registration, the authorization and token endpoints, PKCE
 * verification, revocation) are parsed and answered by the MCP SDK's auth router
 * (src/web/oauth.ts); this module holds the rules and the records:
 * - Clients register themselves (RFC 7591). Redirect URIs must be https, http on a loopback host
 *   (RFC 8252 section 7.3), or a private-use scheme with a period (RFC 8252 section 7.1), and carry
 *   no fragment (RFC 6749 section 3.1.2).
 * - "Allow" issues an authorization code: single use, {@link CODE_TTL_S}, bound to the client, the
 *   redirect URI, the PKCE challenge (S256) and the resource. A code used twice revokes the grant
 *   it made (OAuth 2.1 section 4.1.3).
 * - Tokens are good only for this server's `/mcp` (RFC 8707 resource indicators). Access tokens last
 *   {@link ACCESS_TOKEN_TTL_S}; refresh tokens {@link REFRESH_TOKEN_TTL_S} and rotate: each works
 *   once, and presenting a used one revokes the whole grant (OAuth 2.1 section 4.3.1, refresh token
 *   replay). Like API tokens, codes and tokens are random secrets of which only the SHA-256 is
 *   stored, and every request looks its token up, so a revocation holds at once in every process.
 * - A grant ends with "Disconnect" (Settings → Connected apps), a password change or reset, and
 *   account deletion. The quota is the account's, shared with REST.
 */
import type { User } from '../kernel/records.js';
import type { OAuthClient, OAuthCode, OAuthGrant, OAuthToken } from '../kernel/records.js';
import { assertConfirmed } from '../accounts/confirmation.js';
import { NotFoundError, OAuthRefusal } from '../kernel/errors.js';
import { hashToken, newId, randomBase62 } from '../kernel/ids.js';
import type { Clock, RecordStore } from '../kernel/ports.js';

/** The one scope: everything the MCP tools do (generate, which uses the quota; list images; read usage). */
export const OAUTH_SCOPE = 'mcp';
/** Access token lifetime, seconds: one hour, after which the client refreshes. */
export const ACCESS_TOKEN_TTL_S = 3600;
/** Refresh token lifetime, seconds: 30 days; each refresh issues a new one (rotation). */
export const REFRESH_TOKEN_TTL_S = 30 * 24 * 3600;
/** Authorization code lifetime, seconds: 5 minutes (OAuth 2.1 section 4.1.2 recommends at most 10). */
export const CODE_TTL_S = 300;
/** `lastUsedAt` of a grant is written at most this often (ms). */
const TOUCH_EVERY_MS = 60_000;

/** Access tokens: `tca_` + 43 base62 characters (256 bits); refresh tokens `tcr_`, codes `tcc_`. */
export const ACCESS_TOKEN_PATTERN = /^tca_[0-9A-Za-z]{43}$/;
const REFRESH_TOKEN_PATTERN = /^tcr_[0-9A-Za-z]{43}$/;
const CODE_PATTERN = /^tcc_[0-9A-Za-z]{43}$/;

/** A client's registration as the OAuth library hands it over (RFC 7591 section 3.2.1). */
export interface ClientRegistration extends Record<string, unknown> {
  client_id: string;
  redirect_uris: string[];
  client_name?: string;
}

/** An authorization request whose client and redirect URI the OAuth library has checked. */
export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  /** PKCE `code_challenge` (S256). */
  codeChallenge: string;
  /** Requested scopes; empty means the default, {@link OAUTH_SCOPE}. */
  scopes: string[];
  /** RFC 8707 `resource`; absent means this server's `/mcp`. */
  resource?: string;
}

/** The token endpoint's answer (RFC 6749 section 5.1). */
export interface TokenSet {
  access_token: string;
  token_type: 'Bearer';
  /** Seconds. */
  expires_in: number;
  refresh_token: string;
  scope: string;
}

/** The caller behind a valid access token. */
export interface OAuthPrincipal {
  user: User;
  clientId: string;
  scopes: string[];
  /** The resource the token is good for. */
  resource: string;
  expiresAt: Date;
}

/** One row of Settings → Connected apps. */
export interface ConnectedApp {
  clientId: string;
  /** The client's registered name, or its id when it gave none. */
  name: string;
  /** The latest "Allow". */
  allowedAt: Date;
  lastUsedAt: Date | null;
}

/** The authorization server's use cases. Refusals are {@link OAuthRefusal}s with an RFC error code. */
export interface OAuth {
  /** The resource its tokens are good for: PUBLIC_URL + `/mcp`. */
  readonly resource: string;
  /**
   * Stores a registration (the library has validated its metadata and issued `client_id`).
   * Throws OAuthRefusal `invalid_redirect_uri` for a redirect URI of another kind than those above.
   */
  registerClient(registration: ClientRegistration): Promise<ClientRegistration>;
  findClient(id: string): Promise<OAuthClient | undefined>;
  /**
   * Checks the scope and resource of an authorization request and returns them as granted. Throws
   * OAuthRefusal `invalid_scope` (a scope other than {@link OAUTH_SCOPE}) or `invalid_target`.
   */
  checkAuthorization(request: Pick<AuthorizationRequest, 'scopes' | 'resource'>): {
    scopes: string[];
    resource: string;
  };
  /** "Allow": issues the authorization code for `user`. Throws as {@link checkAuthorization}. */
  approve(user: User, request: AuthorizationRequest): Promise<string>;
  /** The PKCE challenge of a live code of `clientId`. OAuthRefusal `invalid_grant` otherwise. */
  challengeOf(clientId: string, code: string): Promise<string>;
  /**
   * Exchanges a code (whose PKCE verifier the library has checked) for tokens, once.
   * OAuthRefusal `invalid_grant` (unknown, expired, used, another client or redirect URI) or
   * `invalid_target` (another resource).
   */
  exchangeCode(
    clientId: string,
    code: string,
    options: { redirectUri?: string; resource?: string },
  ): Promise<TokenSet>;
  /** Rotates a refresh token. OAuthRefusal `invalid_grant`, `invalid_scope` or `invalid_target`. */
  refresh(
    clientId: string,
    refreshToken: string,
    options: { scopes?: string[]; resource?: string },
  ): Promise<TokenSet>;
  /** The caller behind an access token. OAuthRefusal `invalid_token` for anything but a live one. */
  verify(accessToken: string): Promise<OAuthPrincipal>;
  /** RFC 7009: ends a token of `clientId` (a refresh token ends its whole grant). Unknown tokens are ignored. */
  revoke(clientId: string, token: string): Promise<void>;
  /** The clients with an active grant of `user`, latest "Allow" first. */
  connectedApps(user: User): Promise<ConnectedApp[]>;
  /** "Disconnect": ends every grant of `user` to `clientId` at once. NotFoundError when there is none. */
  disconnect(user: User, clientId: string): Promise<void>;
  /** Ends every grant of a user (password change or reset). */
  endAllFor(userId: string): Promise<void>;
  /** Deletes every grant, code and token of a user (account deletion). */
  deleteAllFor(userId: string): Promise<void>;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether a redirect URI is of a kind we register (see the module comment). */
function acceptableRedirectUri(uri: string): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.hash || uri.includes('#')) return false;
  if (url.protocol === 'https:') return true;
  if (url.protocol === 'http:') return LOOPBACK_HOSTS.has(url.hostname);
  // RFC 8252 section 7.1: a private-use scheme based on a domain name the app controls.
  return /^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/i.test(url.protocol);
}

/** A resource identifier compared without its fragment and one trailing slash (as the SDK's bearer check). */
const comparable = (resource: string) => resource.replace(/#.*$/, '').replace(/\/$/, '');

export function createOAuth({
  store,
  clock,
  publicUrl,
}: {
  store: RecordStore;
  clock: Clock;
  publicUrl: string;
}): OAuth {
  const resource = `${publicUrl}/mcp`;
  const oauth = store.oauth;
  const after = (seconds: number) => new Date(clock.now().getTime() + seconds * 1000);

  function checkAuthorization(request: Pick<AuthorizationRequest, 'scopes' | 'resource'>) {
    // `scope=""` splits into one empty name: no scope asked for, so the default.
    const unknown = request.scopes.filter((s) => s !== '' && s !== OAUTH_SCOPE);
    if (unknown.length > 0)
      throw new OAuthRefusal(
        'invalid_scope',
        `Unknown scope ${unknown.join(' ')}: the only scope is ${OAUTH_SCOPE}`,
      );
    if (request.resource !== undefined && comparable(request.resource) !== comparable(resource))
      throw new OAuthRefusal(
        'invalid_target',
        `Tokens of this server are only for ${resource}, not ${request.resource}`,
      );
    return { scopes: [OAUTH_SCOPE], resource };
  }

  /** A new access token and refresh token for `grant`. */
  async function issue(grant: OAuthGrant): Promise<TokenSet> {
    const access = `tca_${randomBase62(43)}`;
    const refresh = `tcr_${randomBase62(43)}`;
    const base = { grantId: grant.id, clientId: grant.clientId, userId: grant.userId, endedAt: null };
    const now = clock.now();
    await oauth.createToken({
      ...base,
      tokenHash: hashToken(access),
      kind: 'access',
      createdAt: now,
      expiresAt: after(ACCESS_TOKEN_TTL_S),
    });
    await oauth.createToken({
      ...base,
      tokenHash: hashToken(refresh),
      kind: 'refresh',
      createdAt: now,
      expiresAt: after(REFRESH_TOKEN_TTL_S),
    });
    return {
      access_token: access,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_TTL_S,
      refresh_token: refresh,
      scope: grant.scopes.join(' '),
    };
  }

  /** Revokes a replayed code's or refresh token's grant, then refuses. */
  async function replayed(holder: OAuthCode | OAuthToken, what: string): Promise<never> {
    await oauth.revokeGrants(holder.userId, { grantId: holder.grantId }, clock.now());
    throw new OAuthRefusal(
      'invalid_grant',
      `This ${what} was already used: the access it granted is revoked, authorize again`,
    );
  }

  /** A live code of `clientId`; refuses (and revokes on replay) otherwise. */
  async function liveCode(clientId: string, code: string): Promise<OAuthCode> {
    const found = CODE_PATTERN.test(code) ? await oauth.findCode(hashToken(code)) : undefined;
    if (!found || found.clientId !== clientId)
      throw new OAuthRefusal('invalid_grant', 'Unknown authorization code');
    if (found.usedAt) return replayed(found, 'authorization code');
    if (clock.now() >= found.expiresAt)
      throw new OAuthRefusal('invalid_grant', `The authorization code expired (codes last ${CODE_TTL_S} s)`);
    return found;
  }

  return {
    resource,

    async registerClient(registration) {
      const bad = registration.redirect_uris.filter((u) => !acceptableRedirectUri(u));
      if (bad.length > 0)
        throw new OAuthRefusal(
          'invalid_redirect_uri',
          `Expected redirect_uris of https, http on localhost, or a private-use scheme, without a fragment; got ${bad.join(', ')}`,
        );
      await oauth.createClient({
        id: registration.client_id,
        name: typeof registration.client_name === 'string' ? registration.client_name : null,
        redirectUris: registration.redirect_uris,
        registration,
        createdAt: clock.now(),
      });
      return registration;
    },

    findClient: (id) => oauth.findClient(id),

    checkAuthorization,

    async approve(user, request) {
      const granted = checkAuthorization(request);
      assertConfirmed(user, 'connect an assistant');
      const code = `tcc_${randomBase62(43)}`;
      const now = clock.now();
      await oauth.createCode({
        codeHash: hashToken(code),
        grantId: newId('grt'),
        clientId: request.clientId,
        userId: user.id,
        codeChallenge: request.codeChallenge,
        redirectUri: request.redirectUri,
        ...granted,
        createdAt: now,
        expiresAt: after(CODE_TTL_S),
        usedAt: null,
      });
      return code;
    },

    async challengeOf(clientId, code) {
      return (await liveCode(clientId, code)).codeChallenge;
    },

    async exchangeCode(clientId, code, options) {
      const found = await liveCode(clientId, code);
      if (options.redirectUri !== undefined && options.redirectUri !== found.redirectUri)
        throw new OAuthRefusal('invalid_grant', 'redirect_uri differs from the authorization request');
      if (options.resource !== undefined && comparable(options.resource) !== comparable(found.resource))
        throw new OAuthRefusal(
          'invalid_target',
          `This code is for ${found.resource}, not ${options.resource}`,
        );
      // Exactly one of concurrent exchanges wins; the others are replays.
      if (!(await oauth.useCode(found.codeHash, clock.now()))) return replayed(found, 'authorization code');
      if (!(await store.users.findById(found.userId)))
        throw new OAuthRefusal('invalid_grant', 'The account no longer exists');
      const grant: OAuthGrant = {
        id: found.grantId,
        userId: found.userId,
        clientId,
        scopes: found.scopes,
        resource: found.resource,
        createdAt: clock.now(),
        lastUsedAt: null,
        revokedAt: null,
      };
      await oauth.createGrant(grant);
      return issue(grant);
    },

    async refresh(clientId, refreshToken, options) {
      const found = REFRESH_TOKEN_PATTERN.test(refreshToken)
        ? await oauth.findToken(hashToken(refreshToken))
        : undefined;
      if (!found || found.kind !== 'refresh' || found.clientId !== clientId)
        throw new OAuthRefusal('invalid_grant', 'Unknown refresh token');
      const grant = await oauth.findGrant(found.grantId);
      if (!grant || grant.revokedAt)
        throw new OAuthRefusal('invalid_grant', 'This access was revoked: authorize again');
      if (found.endedAt) return replayed(found, 'refresh token');
      if (clock.now() >= found.expiresAt)
        throw new OAuthRefusal('invalid_grant', 'The refresh token expired: authorize again');
      if (options.resource !== undefined && comparable(options.resource) !== comparable(grant.resource))
        throw new OAuthRefusal(
          'invalid_target',
          `This grant is for ${grant.resource}, not ${options.resource}`,
        );
      const extra = (options.scopes ?? []).filter((s) => !grant.scopes.includes(s));
      if (extra.length > 0)
        throw new OAuthRefusal('invalid_scope', `Scope ${extra.join(' ')} was not granted`);
      if (!(await oauth.endToken(found.tokenHash, clock.now()))) return replayed(found, 'refresh token');
      if (!(await store.users.findById(grant.userId)))
        throw new OAuthRefusal('invalid_grant', 'The account no longer exists');
      return issue(grant);
    },

    async verify(accessToken) {
      const found = ACCESS_TOKEN_PATTERN.test(accessToken)
        ? await oauth.findToken(hashToken(accessToken))
        : undefined;
      if (!found || found.kind !== 'access' || found.endedAt)
        throw new OAuthRefusal('invalid_token', 'The access token is invalid or was revoked');
      const now = clock.now();
      if (now >= found.expiresAt)
        throw new OAuthRefusal('invalid_token', 'The access token expired: refresh it');
      const grant = await oauth.findGrant(found.grantId);
      if (!grant || grant.revokedAt) throw new OAuthRefusal('invalid_token', 'The access token was revoked');
      const user = await store.users.findById(grant.userId);
      if (!user) throw new OAuthRefusal('invalid_token', 'The account no longer exists');
      if (!grant.lastUsedAt || now.getTime() - grant.lastUsedAt.getTime() >= TOUCH_EVERY_MS)
        await oauth.touchGrant(grant.id, now);
      return {
        user,
        clientId: grant.clientId,
        scopes: grant.scopes,
        resource: grant.resource,
        expiresAt: found.expiresAt,
      };
    },

    async revoke(clientId, token) {
      if (!ACCESS_TOKEN_PATTERN.test(token) && !REFRESH_TOKEN_PATTERN.test(token)) return;
      const found = await oauth.findToken(hashToken(token));
      if (!found || found.clientId !== clientId) return;
      // RFC 7009 section 2.1: revoking a refresh token also ends the access tokens of its grant.
      if (found.kind === 'refresh')
        await oauth.revokeGrants(found.userId, { grantId: found.grantId }, clock.now());
      else await oauth.endToken(found.tokenHash, clock.now());
    },

    async connectedApps(user) {
      const byClient = new Map<string, ConnectedApp>();
      for (const grant of await oauth.listActiveGrants(user.id)) {
        const seen = byClient.get(grant.clientId);
        if (seen) {
          if (grant.lastUsedAt && (!seen.lastUsedAt || grant.lastUsedAt > seen.lastUsedAt))
            seen.lastUsedAt = grant.lastUsedAt;
          continue;
        }
        const client = await oauth.findClient(grant.clientId);
        byClient.set(grant.clientId, {
          clientId: grant.clientId,
          name: client?.name ?? grant.clientId,
          allowedAt: grant.createdAt,
          lastUsedAt: grant.lastUsedAt,
        });
      }
      return [...byClient.values()];
    },

    async disconnect(user, clientId) {
      if ((await oauth.revokeGrants(user.id, { clientId }, clock.now())) === 0)
        throw new NotFoundError(`No connected app with id ${clientId} on this account`);
    },

    async endAllFor(userId) {
      await oauth.revokeGrants(userId, {}, clock.now());
    },

    async deleteAllFor(userId) {
      await oauth.deleteAllForUser(userId);
    },
  };
}
