/**
 * The OAuth 2.1 authorization server's routes (provider.ts says what it is): Protected Resource
 * Metadata, registration (redirect URIs checked by domain/oauth/clients.ts), the limits per client
 * address, the provider's endpoints at the root (RFC 8414 section 3), and the consent pages
 * (consent.ts).
 *
 * Requests per client address (ours, as the MCP SDK's router counted them): authorize 100, token
 * and revoke 50 per 15 minutes, registration 20 per hour; in Redis with REDIS_URL.
 */
import cookieParser from 'cookie-parser';
import express, { type NextFunction, type Request, type Response } from 'express';
import { rateLimit } from 'express-rate-limit';
import { acceptableRedirectUri } from '../../domain/oauth/clients.js';
import { OAUTH_SCOPE } from '../../domain/oauth/oauth.js';
import type { Runtime } from '../../runtime.js';
import { cookieSettings } from '../session.js';
import { createConsentRouter } from './consent.js';
import { createOAuthProvider, INTERACTION_PATH, type OAuthProviderOptions } from './provider.js';

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
  // Cookies parsed as the dashboard parses them (cookie-parser): the library's session and ours.
  router.use('/authorize', limiter(runtime, 'authorize'), cookieParser());
  router.use('/token', limiter(runtime, 'token'));
  router.use('/revoke', limiter(runtime, 'revoke'));
  const publicHost = new URL(publicUrl).host;
  const publicProto = new URL(publicUrl).protocol.replace(':', '');
  /** Removes the library's session cookies from `req` unless that session is the dashboard's person's. */
  async function dropForeignSession(req: Request): Promise<void> {
    const cookies = (req.cookies ?? {}) as Record<string, string | undefined>;
    const sessionId = cookies._session;
    // A string only: cookie-parser reads a `j:` value as JSON, which no session id is.
    if (typeof sessionId !== 'string' || !sessionId) return;
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

  // The person's part: sign-in through the dashboard, then consent (consent.ts).
  router.use(INTERACTION_PATH, createConsentRouter(runtime, provider));
  return router;
}
