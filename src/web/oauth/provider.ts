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
 *   through src/adapters/safe-fetch.ts (private and special-use addresses refused after DNS and before any
 *   connection, unless FETCH_ALLOW_ADDRESSES admits them; answers of more than 5 KiB and redirects
 *   refused), and the library checks that its `client_id` is its URL and its
 *   `redirect_uris`, and caches it as its Cache-Control allows (30 s to 1 day). The consent page
 *   names such a client by its `client_name` and its host, so a look-alike name cannot pass as
 *   another app.
 * - Tokens are opaque, for this server's `/mcp` only (RFC 8707): access tokens
 *   {@link ACCESS_TOKEN_TTL_S}, refresh tokens and grants {@link REFRESH_TOKEN_TTL_S}.
 * - Registered redirect URIs must be https, http on a loopback host (RFC 8252 section 7.3), or a
 *   private-use scheme with a period (RFC 8252 section 7.1), without a fragment
 *   (domain/oauth/clients.ts).
 * - Requests per client address (ours, as the MCP SDK's router counted them): authorize 100,
 *   token and revoke 50 per 15 minutes, registration 20 per hour; in Redis with REDIS_URL.
 * - The consent page cannot be framed (`frame-ancestors 'none'`, `X-Frame-Options: DENY`), its POST
 *   must come from this site's Origin (session.ts), and the session cookie is SameSite=Lax.
 *
 * OAuth needs an https PUBLIC_URL (or a loopback one, for local use): domain/oauth/clients.ts
 * `oauthAvailable`. This file: the provider's configuration; index.ts: its routes; consent.ts: the
 * person's part.
 */
import { createPrivateKey } from 'node:crypto';
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { acceptableRedirectUri, isCanonicalHttpsUrl } from '../../domain/oauth/clients.js';
import {
  ACCESS_TOKEN_TTL_S,
  CODE_TTL_S,
  OAUTH_SCOPE,
  REFRESH_TOKEN_TTL_S,
} from '../../domain/oauth/oauth.js';
import { escapeMarkup } from '../../domain/text.js';
import type { Runtime } from '../../runtime.js';

/** Where the person signs in and answers the consent page, per interaction (consent.ts). */
export const INTERACTION_PATH = '/oauth/interaction';

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
      ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Titlecard: ${escapeMarkup(out.error)}</title></head><body><main><h1>This connection could not go on</h1><p>${escapeMarkup(out.error_description ?? out.error)}</p><p><a href="/overview">Back to Titlecard</a></p></main></body></html>`;
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
