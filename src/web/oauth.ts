/**
 * The OAuth 2.1 authorization server of the MCP connector, on the MCP SDK's auth router
 * (`mcpAuthRouter`), which implements the protocol's endpoints; this module gives it a provider
 * backed by the domain (src/domain/oauth/oauth.ts) and the person's part, sign-in and consent:
 *
 *   /.well-known/oauth-protected-resource/mcp   Protected Resource Metadata (RFC 9728)
 *   /.well-known/oauth-authorization-server     Authorization Server Metadata (RFC 8414)
 *   /register    Dynamic Client Registration (RFC 7591)
 *   /authorize   authorization code + PKCE S256; sends the person to sign in, then shows the consent
 *                page, whose "Allow" and "Deny" post back here
 *   /token       code exchange and refresh token rotation
 *   /revoke      token revocation (RFC 7009)
 *
 * The SDK checks the client and that the redirect URI is one it registered (exactly; on a loopback
 * host any port, RFC 8252 section 7.3) before the provider sees a request, on GET and on the
 * consent's POST alike, and limits requests per client address (authorize 100, token and revoke 50
 * per 15 minutes, registration 20 per hour; counted in Redis when REDIS_URL is set, else per
 * process). The consent page cannot be framed
 * (`frame-ancestors 'none'`, `X-Frame-Options: DENY`), its POST must come from this site's Origin
 * (session.ts), and the session cookie is SameSite=Lax.
 *
 * OAuth needs an https PUBLIC_URL (or a loopback one, for local use): the SDK refuses another issuer.
 */
import {
  AccessDeniedError,
  CustomOAuthError,
  InvalidTokenError,
  OAUTH_ERRORS,
  OAuthError,
  ServerError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type {
  AuthorizationParams,
  OAuthServerProvider,
} from '@modelcontextprotocol/sdk/server/auth/provider.js';
import { mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import type { OAuthTokenVerifier as McpTokenVerifier } from '@modelcontextprotocol/express';
import { OAuthError as McpOAuthError, OAuthErrorCode } from '@modelcontextprotocol/server';
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import cookieParser from 'cookie-parser';
import express, { type Request, type Response } from 'express';
import type { Store } from 'express-rate-limit';
import { OAuthRefusal } from '../domain/kernel/errors.js';
import { OAUTH_SCOPE, type AuthorizationRequest, type ClientRegistration } from '../domain/oauth/oauth.js';
import type { Services } from '../domain/services.js';
import { isConfirmed } from '../domain/accounts/confirmation.js';
import type { Runtime } from '../runtime.js';
import { formText } from './forms.js';
import { securityHeaders } from './headers.js';
import { page } from './render.js';
import { checkSameOrigin, cookieSettings, loadSession, signedInOf } from './session.js';

/** The authorization request's parameters, carried from the GET to the consent's POST. */
const REQUEST_FIELDS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'code_challenge',
  'code_challenge_method',
  'scope',
  'state',
  'resource',
] as const;

/** Runs a domain call; a refusal becomes the SDK's OAuth error of the same RFC code (answered by the SDK). */
async function asOAuth<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof OAuthRefusal) {
      const Known = OAUTH_ERRORS[err.oauthCode];
      throw Known ? new Known(err.message) : new CustomOAuthError(err.oauthCode, err.message);
    }
    if (err instanceof OAuthError) throw err;
    throw new ServerError(err instanceof Error ? err.message : 'Internal Server Error');
  }
}

/** The request's authorization parameters (query on GET, form on POST), for hidden fields and `next`. */
function requestFields(req: Request): [string, string][] {
  const source = (req.method === 'POST' ? req.body : req.query) as Record<string, unknown>;
  return REQUEST_FIELDS.flatMap((f) => (typeof source[f] === 'string' ? [[f, source[f]]] : []));
}

/** Where a form may send the browser: the redirect URI's origin, or its scheme for a private-use one. */
function redirectSource(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.origin !== 'null' ? url.origin : url.protocol;
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

/** The SDK provider on the domain's use cases. */
function oauthProvider(runtime: Runtime): OAuthServerProvider {
  const { services } = runtime;
  const { oauth, quota } = services;

  async function authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response) {
    const req = res.req;
    const request: AuthorizationRequest = {
      clientId: client.client_id,
      redirectUri: params.redirectUri,
      codeChallenge: params.codeChallenge,
      scopes: params.scopes ?? [],
      ...(params.resource ? { resource: params.resource.href } : {}),
    };
    // Scope and resource first: a bad one goes back to the client (the SDK redirects with the error).
    await asOAuth(async () => oauth.checkAuthorization(request));
    const fields = requestFields(req);
    const who = signedInOf(res);
    if (!who) {
      const back = `/authorize?${new URLSearchParams(fields).toString()}`;
      res.redirect(303, `/sign-in?next=${encodeURIComponent(back)}`);
      return;
    }
    const decision = req.method === 'POST' ? formText(req.body, 'decision') : '';
    // An unconfirmed account connects no assistant (confirmation.ts): the page says why, and offers
    // only "Deny" and "Send it again".
    const confirmed = isConfirmed(who.user);
    if (decision === 'allow' && confirmed) {
      const code = await asOAuth(() => oauth.approve(who.user, request));
      const target = new URL(params.redirectUri);
      target.searchParams.set('code', code);
      if (params.state !== undefined) target.searchParams.set('state', params.state);
      res.redirect(303, target.href);
      return;
    }
    if (decision === 'deny') throw new AccessDeniedError('The person denied access');
    if (decision === 'allow') res.status(403);
    const usage = await quota.usage(who.user);
    // CSP form-action must allow the redirect that follows "Allow" or "Deny".
    securityHeaders(runtime, [redirectSource(params.redirectUri)])(req, res, () => {
      page(
        res,
        'consent',
        {
          title: 'Allow access',
          client: {
            name: client.client_name ?? 'An application',
            host: new URL(params.redirectUri).host || params.redirectUri,
          },
          fields,
          usage: usage.usage,
          user: who.user,
          confirmed,
        },
        res.statusCode,
      );
    });
  }

  return {
    clientsStore: {
      async getClient(id) {
        return (await oauth.findClient(id))?.registration as OAuthClientInformationFull | undefined;
      },
      async registerClient(client) {
        return await asOAuth(() => oauth.registerClient(client as ClientRegistration));
      },
    },
    authorize,
    challengeForAuthorizationCode: (client, code) => asOAuth(() => oauth.challengeOf(client.client_id, code)),
    exchangeAuthorizationCode: (client, code, _verifier, redirectUri, resource) =>
      asOAuth(() =>
        oauth.exchangeCode(client.client_id, code, {
          ...(redirectUri !== undefined ? { redirectUri } : {}),
          ...(resource ? { resource: resource.href } : {}),
        }),
      ),
    exchangeRefreshToken: (client, refreshToken, scopes, resource) =>
      asOAuth(() =>
        oauth.refresh(client.client_id, refreshToken, {
          ...(scopes ? { scopes } : {}),
          ...(resource ? { resource: resource.href } : {}),
        }),
      ),
    verifyAccessToken: async (token) => {
      try {
        return await oauthVerifier(services).verifyAccessToken(token);
      } catch (err) {
        if (err instanceof McpOAuthError) throw new InvalidTokenError(err.message);
        throw err;
      }
    },
    revokeToken: (client, request) => asOAuth(() => oauth.revoke(client.client_id, request.token)),
  };
}

/**
 * Whether this PUBLIC_URL can be an OAuth issuer: https, or http on a loopback host (the SDK's
 * rule, after RFC 8414 section 2; loopback for local use and tests).
 */
export function oauthAvailable(publicUrl: string): boolean {
  const url = new URL(publicUrl);
  return url.protocol === 'https:' || ['localhost', '127.0.0.1'].includes(url.hostname);
}

/** The authorization server's routes, mounted at the root of the app. */
/**
 * The rate-limit option of one of the SDK's OAuth endpoints: its own limits, counted in the
 * runtime's shared store (Redis) when there is one; else the SDK's default, in this process.
 */
function sharedLimit(runtime: Runtime, name: string): { rateLimit?: { store: Store } } {
  const store = runtime.limits.expressStore(name);
  return store ? { rateLimit: { store } } : {};
}

export function createOAuthRouter(runtime: Runtime): express.Router {
  const { services, publicUrl } = runtime;
  const cookie = cookieSettings(publicUrl);
  const router = express.Router();
  router.use(
    '/authorize',
    securityHeaders(runtime),
    cookieParser(),
    checkSameOrigin(new URL(publicUrl).origin),
    loadSession(services.sessions, cookie),
  );
  router.use(
    mcpAuthRouter({
      provider: oauthProvider(runtime),
      issuerUrl: new URL(publicUrl),
      resourceServerUrl: new URL(services.oauth.resource),
      scopesSupported: [OAUTH_SCOPE],
      resourceName: 'Titlecard',
      // The SDK's limits per client address, counted where the runtime counts its own (REDIS_URL).
      authorizationOptions: sharedLimit(runtime, 'oauth-authorize'),
      tokenOptions: sharedLimit(runtime, 'oauth-token'),
      revocationOptions: sharedLimit(runtime, 'oauth-revoke'),
      clientRegistrationOptions: sharedLimit(runtime, 'oauth-register'),
    }),
  );
  return router;
}
