/**
 * The OAuth 2.1 authorization server of the MCP connector, on oidc-provider (a maintained,
 * OpenID-certified library; docs/mcp.md), with its state in the record store (src/domain/oauth/state.ts)
 * and the person's part, sign-in and consent, in the dashboard:
 *
 *   /.well-known/oauth-protected-resource/mcp   Protected Resource Metadata (RFC 9728; ours)
 *   /.well-known/oauth-authorization-server     Authorization Server Metadata (RFC 8414)
 *   /register    Dynamic Client Registration (RFC 7591), for clients of revisions before 2026-07-28
 *   /authorize   authorization code + PKCE S256 (required of every client)
 *   /token       code exchange and refresh token rotation (a replayed refresh token ends the grant)
 *   /revoke      token revocation (RFC 7009)
 *   /oauth/interaction/:uid   sign-in (the dashboard's session) and the consent page
 *
 * - A `client_id` that is an https URL is a Client ID Metadata Document
 *   (draft-ietf-oauth-client-id-metadata-document, as MCP 2026-07-28 expects): it is fetched
 *   through src/safe-fetch.ts (private and special-use addresses refused after DNS and before any
 *   connection, unless FETCH_ALLOW_ADDRESSES admits them; answers of more than 5 KiB and redirects
 *   refused), and the library checks that its `client_id` is its URL and its
 *   `redirect_uris`, and caches it as its Cache-Control allows (30 s to 1 day). The consent page
 *   names such a client by its `client_name` and its host, so a look-alike name cannot pass as
 *   another app.
 * - Tokens are opaque, for this server's `/mcp` only (RFC 8707): access tokens
 *   {@link ACCESS_TOKEN_TTL_S}, refresh tokens and grants {@link REFRESH_TOKEN_TTL_S}.
 * - Registered redirect URIs must be https, http on a loopback host (RFC 8252 section 7.3), or a
 *   private-use scheme with a period (RFC 8252 section 7.1), without a fragment.
 * - Requests per client address (ours, as the MCP SDK's router counted them): authorize 100,
 *   token and revoke 50 per 15 minutes, registration 20 per hour; in Redis with REDIS_URL.
 * - The consent page cannot be framed (`frame-ancestors 'none'`, `X-Frame-Options: DENY`), its POST
 *   must come from this site's Origin (session.ts), and the session cookie is SameSite=Lax.
 *
 * OAuth needs an https PUBLIC_URL (or a loopback one, for local use): {@link oauthAvailable}.
 */
import { createPrivateKey } from 'node:crypto';
import type { OAuthTokenVerifier as McpTokenVerifier } from '@modelcontextprotocol/express';
import { OAuthError as McpOAuthError, OAuthErrorCode } from '@modelcontextprotocol/server';
import cookieParser from 'cookie-parser';
import express, { type NextFunction, type Request, type Response } from 'express';
import { rateLimit } from 'express-rate-limit';
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { OAuthRefusal } from '../domain/kernel/errors.js';
import {
  ACCESS_TOKEN_TTL_S,
  CODE_TTL_S,
  OAUTH_SCOPE,
  REFRESH_TOKEN_TTL_S,
  shownClientName,
} from '../domain/oauth/oauth.js';
import type { Services } from '../domain/services.js';
import { isConfirmed } from '../domain/accounts/confirmation.js';
import type { Runtime } from '../runtime.js';
import { formText } from './forms.js';
import { securityHeaders } from './headers.js';
import { page } from './render.js';
import { checkSameOrigin, cookieSettings, loadSession, signedInOf } from './session.js';

/** Where the person signs in and answers the consent page, per interaction. */
const INTERACTION_PATH = '/oauth/interaction';

/** The provider's own endpoints at the root (RFC 8414 section 3 puts its metadata there). */
const PROVIDER_PATHS = [
  '/authorize',
  '/token',
  '/register',
  '/revoke',
  '/oauth/jwks',
  '/.well-known/oauth-authorization-server',
  '/.well-known/openid-configuration',
];

/** Requests per client address (see the module comment). */
const LIMITS = {
  authorize: { windowMs: 15 * 60_000, limit: 100 },
  token: { windowMs: 15 * 60_000, limit: 50 },
  revoke: { windowMs: 15 * 60_000, limit: 50 },
  register: { windowMs: 60 * 60_000, limit: 20 },
} as const;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether `id` is an https URL written as the WHATWG URL parser writes it back. */
function isCanonicalHttpsUrl(id: string): boolean {
  try {
    const url = new URL(id);
    return url.protocol === 'https:' && url.href === id;
  } catch {
    return false;
  }
}

/** Whether a redirect URI is of a kind we register (see the module comment). */
export function acceptableRedirectUri(uri: string): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.hash || uri.includes('#')) return false;
  if (url.protocol === 'https:') return true;
  if (url.protocol === 'http:') return LOOPBACK_HOSTS.has(url.hostname);
  return /^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/i.test(url.protocol);
}

/**
 * Whether this PUBLIC_URL can be an OAuth issuer: https, or http on a loopback host (RFC 8414
 * section 2 asks for https; loopback for local use and tests).
 */
export function oauthAvailable(publicUrl: string): boolean {
  const url = new URL(publicUrl);
  return url.protocol === 'https:' || ['localhost', '127.0.0.1'].includes(url.hostname);
}

/**
 * The token verifier of `/mcp` (with the MCP SDK v2's bearer middleware): a live access token for
 * this resource. Throws the v2 `OAuthError` `invalid_token` (a 401 with its challenge) for a token
 * that is unknown, expired, revoked or for another resource.
 */
export function oauthVerifier(services: Services): McpTokenVerifier {
  return {
    async verifyAccessToken(token) {
      try {
        const who = await services.oauth.verify(token);
        return {
          token,
          clientId: who.clientId,
          scopes: who.scopes,
          expiresAt: Math.floor(who.expiresAt.getTime() / 1000),
          resource: new URL(who.resource),
          extra: { user: who.user },
        };
      } catch (err) {
        if (err instanceof OAuthRefusal) throw new McpOAuthError(OAuthErrorCode.InvalidToken, err.message);
        throw err;
      }
    },
  };
}

/** Where a form may send the browser: the redirect URI's origin, or its scheme for a private-use one. */
function redirectSource(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.origin !== 'null' ? url.origin : url.protocol;
}

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** PKCS #8 DER of an Ed25519 private key, before its 32-byte seed (RFC 8410 section 7). */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The Ed25519 private JWK of a 32-byte seed. */
function signingKey(seed: Buffer) {
  const key = createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  return { ...key.export({ format: 'jwk' }), alg: 'EdDSA', use: 'sig', kid: 'titlecard-1' };
}

/** Options of {@link createOAuthProvider} that tests set. */
export interface OAuthProviderOptions {
  /**
   * Fetches Client ID Metadata Documents (the runtime's SSRF-safe fetcher; tests: a loopback https
   * server with a test certificate). Without it, oidc-provider's own fetch, which checks the
   * address only once connected.
   */
  fetch?: typeof globalThis.fetch;
}

/** The oidc-provider instance of this runtime (see the module comment). */
export function createOAuthProvider(runtime: Runtime, options: OAuthProviderOptions = {}): Provider {
  const { services, publicUrl } = runtime;
  const resource = services.oauth.resource;
  const issuer = new URL(publicUrl).href.replace(/\/$/, '');
  const resourceServer = {
    scope: OAUTH_SCOPE,
    audience: resource,
    accessTokenFormat: 'opaque' as const,
    accessTokenTTL: ACCESS_TOKEN_TTL_S,
  };
  const configuration: Configuration = {
    // A second use of a code or refresh token at the same moment is refused: the store says which
    // use was first (the library's own check reads, then writes).
    adapter: (model: string) => {
      const state = services.oauth.stateOf(model);
      return {
        ...state,
        async consume(id: string) {
          if (!(await state.consume(id))) throw new errors.InvalidGrant('this grant was already used');
        },
      };
    },
    // Signed cookies of the library's own session and interactions, from SECRETS_KEY.
    cookies: { keys: [services.oauthSecret('cookies').toString('base64url')] },
    // A signing key for what the library signs (nothing Titlecard asks of it: tokens are opaque and
    // `openid` is not a scope here), derived so every process publishes the same one.
    jwks: { keys: [signingKey(services.oauthSecret('signing key'))] },
    findAccount: async (_ctx, id) =>
      (await services.oauth.accountExists(id))
        ? { accountId: id, claims: async () => ({ sub: id }) }
        : undefined,
    interactions: { url: async (_ctx, interaction) => `${INTERACTION_PATH}/${interaction.uid}` },
    routes: {
      authorization: '/authorize',
      token: '/token',
      registration: '/register',
      revocation: '/revoke',
      jwks: '/oauth/jwks',
    },
    responseTypes: ['code'],
    // Codes and tokens: 256 random bits (43 characters), as API tokens carry 238.
    formats: { bitsOfOpaqueRandomness: 256 },
    // The one scope, also as a scope of the library's own (so that a client's registered `scope`
    // may name it); `openid` is not one: no ID tokens.
    scopes: [OAUTH_SCOPE],
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'EdDSA',
    },
    pkce: { required: () => true },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    expiresWithSession: async () => false,
    rotateRefreshToken: true,
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL_S,
      AuthorizationCode: CODE_TTL_S,
      RefreshToken: REFRESH_TOKEN_TTL_S,
      Grant: REFRESH_TOKEN_TTL_S,
      Interaction: 3600,
      // The library's sign-in session: used only while it is the dashboard's person (the router).
      Session: 24 * 3600,
      IdToken: 3600,
    },
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      dPoP: { enabled: false },
      introspection: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      registration: { enabled: true },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => resource,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, indicator) => {
          if (indicator.replace(/\/$/, '') !== resource)
            throw new errors.InvalidTarget(
              `Tokens of this server are only for ${resource}, not ${indicator}`,
            );
          return resourceServer;
        },
      },
      clientIdMetadataDocument: {
        enabled: true,
        ack: 'draft-02',
        // Only an id in its canonical form (`HTTPS://…` would be another spelling of a URL the
        // consent page names), and only redirect URIs of the kinds a registration may have.
        allowFetch: async (_ctx, clientId) => isCanonicalHttpsUrl(clientId),
        allowClient: async (_ctx, client) =>
          isCanonicalHttpsUrl(client.clientId) && (client.redirectUris ?? []).every(acceptableRedirectUri),
        cacheDuration: { min: 30, max: 86_400 },
      },
    },
    ...(options.fetch ? { fetch: options.fetch } : {}),
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Titlecard: ${escapeHtml(out.error)}</title></head><body><main><h1>This connection could not go on</h1><p>${escapeHtml(out.error_description ?? out.error)}</p><p><a href="/overview">Back to Titlecard</a></p></main></body></html>`;
    },
  };
  const provider = new Provider(issuer, configuration);
  // The router sets Host and X-Forwarded-Proto from PUBLIC_URL on every request it hands over, so
  // the metadata's endpoints and the cookies' Secure flag follow PUBLIC_URL, not a request header.
  provider.proxy = true;
  // The one scope is the resource's: published as such, and asked for when a request names none.
  provider.use(async (ctx: KoaContextWithOIDC, next) => {
    if (ctx.path === '/authorize' && ctx.method === 'GET' && !ctx.query.scope)
      ctx.query = { ...ctx.query, scope: OAUTH_SCOPE };
    await next();
    if (ctx.oidc?.route === 'discovery' && ctx.body && typeof ctx.body === 'object')
      Object.assign(ctx.body as Record<string, unknown>, { scopes_supported: [OAUTH_SCOPE] });
  });
  provider.on('server_error', (_ctx, err) => runtime.logger.error({ err }, 'OAuth server error'));
  return provider;
}

/** An express-rate-limit limiter of `name`, counted in the runtime's shared store (Redis) when there is one. */
function limiter(runtime: Runtime, name: keyof typeof LIMITS) {
  const store = runtime.limits.expressStore(`oauth-${name}`);
  return rateLimit({
    ...LIMITS[name],
    standardHeaders: 'draft-6',
    legacyHeaders: false,
    ...(store ? { store } : {}),
    handler: (_req, res) => {
      res
        .status(429)
        .json({ error: 'too_many_requests', error_description: 'Too many requests: try again later' });
    },
  });
}

/** The authorization server's routes, mounted at the root of the app. */
export function createOAuthRouter(runtime: Runtime, options: OAuthProviderOptions = {}): express.Router {
  const { services, publicUrl } = runtime;
  const provider = createOAuthProvider(runtime, options);
  const callback = provider.callback();
  const cookie = cookieSettings(publicUrl);
  const router = express.Router();
  const resource = services.oauth.resource;

  // Protected Resource Metadata (RFC 9728) of /mcp, at its path-inserted well-known URL.
  router.get(
    ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource'],
    (_req, res) => {
      res.json({
        resource,
        authorization_servers: [new URL(publicUrl).href.replace(/\/$/, '')],
        scopes_supported: [OAUTH_SCOPE],
        bearer_methods_supported: ['header'],
        resource_name: 'Titlecard',
      });
    },
  );

  // Registration: only redirect URIs of the kinds above (the body is parsed here; the library reads it).
  router.post(
    '/register',
    limiter(runtime, 'register'),
    express.json({ limit: '16kb' }),
    (req, res, next) => {
      const body = (req.body ?? {}) as { redirect_uris?: unknown; application_type?: unknown };
      const uris = Array.isArray(body.redirect_uris) ? (body.redirect_uris as unknown[]) : [];
      const bad = uris.filter((u) => typeof u !== 'string' || !acceptableRedirectUri(u));
      if (bad.length > 0) {
        res.status(400).json({
          error: 'invalid_redirect_uri',
          error_description: `Expected redirect_uris of https, http on localhost, or a private-use scheme, without a fragment; got ${bad.join(', ')}`,
        });
        return;
      }
      // An app that is sent back only to this machine (a loopback port or its own scheme) is a
      // native app: the library then lets the loopback port differ (RFC 8252 section 7.3).
      if (
        body.application_type === undefined &&
        uris.length > 0 &&
        uris.every((u) => !String(u).startsWith('https:'))
      )
        body.application_type = 'native';
      next();
    },
  );
  router.use('/authorize', limiter(runtime, 'authorize'));
  router.use('/token', limiter(runtime, 'token'));
  router.use('/revoke', limiter(runtime, 'revoke'));
  const publicHost = new URL(publicUrl).host;
  const publicProto = new URL(publicUrl).protocol.replace(':', '');
  /** Removes the library's session cookies from `req` unless that session is the dashboard's person's. */
  async function dropForeignSession(req: Request): Promise<void> {
    const cookies = Object.fromEntries(
      (req.headers.cookie ?? '').split(';').map((c) => {
        const at = c.indexOf('=');
        const value = c.slice(at + 1).trim();
        try {
          return [c.slice(0, at).trim(), decodeURIComponent(value)];
        } catch {
          return [c.slice(0, at).trim(), value]; // not percent-encoding: as it is
        }
      }),
    );
    const sessionId = cookies._session;
    if (!sessionId) return;
    const [library, dashboard] = await Promise.all([
      services.oauth.stateOf('Session').find(sessionId),
      services.sessions.authenticate(cookies[cookie.name]),
    ]);
    if (library && dashboard && library.accountId === dashboard.user.id) return;
    req.headers.cookie = (req.headers.cookie ?? '')
      .split(';')
      .filter((c) => !/^\s*_session(\.|=)/.test(c))
      .join(';');
  }

  router.use(async (req: Request, res: Response, next: NextFunction) => {
    if (!PROVIDER_PATHS.some((p) => req.path === p || req.path.startsWith(`${p}/`))) return next();
    req.headers.host = publicHost;
    req.headers['x-forwarded-host'] = publicHost;
    req.headers['x-forwarded-proto'] = publicProto;
    // An authorization rides on the library's sign-in session only while it is the dashboard's
    // person: after a sign-out, or another person's sign-in on a shared browser, its session cookie
    // is dropped, so the person now signed in is asked (and nobody gets the account of whoever
    // allowed before).
    if (req.path === '/authorize' || req.path.startsWith('/authorize/')) await dropForeignSession(req);
    Promise.resolve(callback(req, res)).catch(next);
  });

  // The person's part: sign-in through the dashboard, then consent.
  const interaction = express.Router();
  interaction.use(
    securityHeaders(runtime),
    cookieParser(),
    express.urlencoded({ extended: false, limit: '16kb' }),
    checkSameOrigin(new URL(publicUrl).origin),
    loadSession(services.sessions, cookie),
  );
  interaction.all('/:uid', async (req, res) => {
    res.set('Cache-Control', 'no-store');
    let details;
    try {
      details = await provider.interactionDetails(req, res);
    } catch (err) {
      if (!(err instanceof errors.SessionNotFound)) throw err;
      res.status(400);
      page(
        res,
        'error',
        {
          title: 'This sign-in has ended',
          message:
            'This connection request expired or was already answered: start again from your assistant.',
        },
        400,
      );
      return;
    }
    const { uid, prompt, params } = details;
    const who = signedInOf(res);
    if (!who) {
      res.redirect(303, `/sign-in?next=${encodeURIComponent(`${INTERACTION_PATH}/${uid}`)}`);
      return;
    }
    // Signed in to the dashboard: that is the sign-in of this authorization (and a change of
    // account there is one here too).
    if (prompt.name === 'login' || details.session?.accountId !== who.user.id) {
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: who.user.id } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const clientId = String(params.client_id);
    const client = await provider.Client.find(clientId);
    // A client with one registered redirect URI may leave it out of the request (RFC 6749 section 3.1.2.3).
    const asked = params.redirect_uri;
    const redirectUri = typeof asked === 'string' ? asked : (client?.redirectUris?.[0] ?? '');
    const decision = req.method === 'POST' ? formText(req.body, 'decision') : '';
    const confirmed = isConfirmed(who.user);
    if (decision === 'deny') {
      await provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'The person denied access' },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    if (decision === 'allow' && confirmed) {
      const grant = details.grantId
        ? ((await provider.Grant.find(details.grantId)) ??
          new provider.Grant({ accountId: who.user.id, clientId }))
        : new provider.Grant({ accountId: who.user.id, clientId });
      grant.addOIDCScope(OAUTH_SCOPE);
      grant.addResourceScope(resource, OAUTH_SCOPE);
      const grantId = await grant.save();
      await provider.interactionFinished(
        req,
        res,
        { consent: { grantId } },
        { mergeWithLastSubmission: true },
      );
      return;
    }
    const usage = await services.quota.usage(who.user);
    const status = decision === 'allow' ? 403 : 200;
    const redirectHost = new URL(redirectUri).host || redirectUri;
    // A client known by its metadata document: the host that publishes it answers for its name.
    const publisher = isCanonicalHttpsUrl(clientId) ? new URL(clientId).host : undefined;
    // CSP form-action must allow the redirects that follow "Allow" or "Deny": the library's resume
    // URL (this site), then the client's redirect URI.
    securityHeaders(runtime, [redirectSource(redirectUri)])(req, res, () => {
      page(
        res,
        'consent',
        {
          title: 'Allow access',
          client: {
            name: shownClientName(client?.clientName) ?? publisher ?? redirectHost,
            host: redirectHost,
            publisher,
          },
          action: `${INTERACTION_PATH}/${uid}`,
          usage: usage.usage,
          user: who.user,
          confirmed,
        },
        status,
      );
    });
  });
  router.use(INTERACTION_PATH, interaction);
  return router;
}
