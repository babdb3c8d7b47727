/**
 * The remote MCP connector: Streamable HTTP at `/mcp`, stateless (every POST is answered on its own;
 * GET and DELETE answer 405), authenticated with the same bearer tokens as the REST API and answering
 * a failed authentication the same way (`src/http/auth.ts`).
 *
 * Every revision a client speaks, told apart per request (MCP SDK v2; docs/mcp.md, Revisions): a
 * request carrying the per-request `_meta` envelope of 2026-07-28 goes to the SDK's stateless
 * handler (`server/discover`, no `initialize`); any other (2025-11-25, 2025-06-18, 2025-03-26, with
 * their `initialize` handshake) to a Streamable HTTP transport of its own. Both answer in JSON, not
 * in an event stream, and build the same server (server.ts) for the caller.
 *
 * - OAuth 2.1 (src/web/oauth/): an access token of a connected app (any bearer token but `tc_…`) is checked by the
 *   MCP SDK's bearer middleware, for this resource only (RFC 8707); an API token (`tc_…`) as by
 *   the REST API. A 401 names the Protected Resource Metadata (RFC 9728 section 5.1,
 *   `resource_metadata`), from which a client discovers the authorization server. Without OAuth
 *   (a PUBLIC_URL that is neither https nor loopback) only API tokens are taken.
 * - DNS rebinding: the Host header must name this server (the host of PUBLIC_URL, localhost, or one
 *   of MCP_ALLOWED_HOSTS) and a browser's Origin must be PUBLIC_URL's or one of MCP_ALLOWED_ORIGINS;
 *   on a server whose PUBLIC_URL is on loopback, any loopback origin (any port) too.
 */
import {
  getOAuthProtectedResourceMetadataUrl,
  hostHeaderValidation,
  requireBearerAuth,
  type OAuthTokenVerifier,
} from '@modelcontextprotocol/express';
import { NodeStreamableHTTPServerTransport, toNodeHandler, toWebRequest } from '@modelcontextprotocol/node';
import { createMcpHandler, isLegacyRequest, type AuthInfo } from '@modelcontextprotocol/server';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { unauthorizedResponse } from '../http/auth.js';
import type { Principal } from '../domain/accounts/accounts.js';
import { requestError } from '../http/errors.js';
import { JSON_MAX_DEPTH, nestedDeeperThan } from '../http/json-body.js';
import { UnauthorizedError } from '../domain/kernel/errors.js';
import { TOKEN_PATTERN } from '../domain/kernel/ids.js';
import type { Runtime } from '../runtime.js';
import { localBackend } from '../backend/local.js';
import { buildMcpServer } from './server.js';
import { base64Source } from './sources.js';
import { isLoopbackHost } from '../domain/oauth/clients.js';

/** Largest /mcp request body, MB: a 10 MB image in base64 (13.4 MB) and the rest of the call. */
export const MCP_BODY_LIMIT_MB = 15;

/**
 * A body at least this large (bytes) is parsed in a turn of the event loop of its own, one after
 * another ({@link parseInTurn}): 16 calls with a 2.7 MB image each arrive together, and parsed in
 * one poll phase they held the loop for about 100 ms (issue 55, item 1; `npm run bench -- --attack`).
 * A call without an image is a few hundred bytes and is parsed at once.
 */
const LARGE_BODY_BYTES = 64 * 1024;

let parsing: Promise<unknown> = Promise.resolve();
/**
 * `JSON.parse(text)` after the large bodies ahead of it, each in a later turn of the event loop
 * (`setImmediate` scheduled from the previous one's turn runs in the next iteration): timers and
 * other requests run between two large parses. Rejects as JSON.parse does.
 */
function parseInTurn(text: string): Promise<unknown> {
  const parsed = parsing.then(
    () =>
      new Promise((resolve, reject) =>
        setImmediate(() => {
          try {
            resolve(JSON.parse(text));
          } catch (err) {
            reject(err instanceof Error ? err : new SyntaxError(String(err)));
          }
        }),
      ),
  );
  parsing = parsed.catch(() => undefined);
  return parsed;
}

/**
 * The JSON body of an MCP call, as express.json reads it (its Content-Type, charset and limit), but
 * parsed by {@link parseInTurn} when large. A body that is not JSON, or not an object or array
 * (JSON-RPC's), is refused as express.json refuses it (`entity.parse.failed`).
 */
function mcpJsonBody(limitMb: number): express.RequestHandler[] {
  return [
    express.text({ type: 'application/json', limit: `${limitMb}mb` }),
    (req, _res, next) => {
      if (typeof req.body !== 'string') return next();
      const text = req.body;
      // An empty body is an empty object, as express.json has it.
      if (text === '') {
        req.body = {};
        return next();
      }
      const fail = (err?: unknown) =>
        next(
          Object.assign(
            new SyntaxError((err as Error | undefined)?.message ?? 'not a JSON object or array'),
            { type: 'entity.parse.failed', status: 400 },
          ),
        );
      const done = (value: unknown) => {
        if (value === null || typeof value !== 'object') return fail();
        req.body = value;
        next();
      };
      // A small body at once (a throw in the executor rejects), a large one in a turn of its own.
      const parsed =
        text.length < LARGE_BODY_BYTES
          ? new Promise<unknown>((resolve) => resolve(JSON.parse(text)))
          : parseInTurn(text);
      parsed.then(done, fail);
    },
  ];
}

/** An origin's host name (`[::1]` for IPv6), or '' when it is not a URL (`null`, junk). */
function hostnameOf(origin: string): string {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.hostname : '';
  } catch {
    return '';
  }
}

/** JSON-RPC error body for answers given before the MCP transport sees the request. */
const rpcError = (code: number, message: string) => ({ jsonrpc: '2.0', error: { code, message }, id: null });

/**
 * The start of the notice the SDK writes to the console whenever a handler answers in JSON: that
 * mid-call notifications are dropped. Titlecard's tools send none, and it chose JSON answers on
 * purpose (docs/mcp.md), so the notice goes to the log at debug level instead of every start's
 * terminal (issue 55, item 15).
 */
const RESPONSE_MODE_NOTICE = "responseMode: 'json' drops mid-call notifications";

/** Runs `make` with the console's warnings that start with `notice` sent to `logger` at debug level. */
function quietly<T>(logger: Logger, notice: string, make: () => T): T {
  /* eslint-disable no-console -- the SDK writes this notice with console.warn; nothing else is touched */
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].startsWith(notice))
      logger.debug({ sdk: args[0] }, 'MCP SDK notice');
    else warn(...args);
  };
  try {
    return make();
  } finally {
    console.warn = warn;
  }
  /* eslint-enable no-console */
}

/**
 * The router mounted at `/mcp`. `oauthVerifier`, when given, accepts the access tokens of the
 * authorization server (src/web/oauth/).
 */
export function createMcpRouter(
  { services, logger, publicUrl, config }: Runtime,
  oauthVerifier?: OAuthTokenVerifier,
): express.Router {
  const own = new URL(publicUrl);
  const hosts = [own.hostname, 'localhost', '127.0.0.1', '[::1]', ...config.mcpAllowedHosts].map((h) =>
    h.includes(':') && !h.startsWith('[') ? `[${h}]` : h,
  );
  const origins = new Set([own.origin, ...config.mcpAllowedOrigins]);
  // A server on loopback takes any loopback origin, any port (a local client's page may be served
  // from another port; only the machine itself can be on loopback): the conformance suite's
  // dns-rebinding-protection scenario expects it.
  const onLoopback = isLoopbackHost(own.hostname);
  const originAllowed = (origin: string) =>
    origins.has(origin) || (onLoopback && isLoopbackHost(hostnameOf(origin)));
  const imageSources = [base64Source];

  const checkOrigin = (req: Request, res: Response, next: NextFunction) => {
    const origin = req.headers.origin;
    if (origin !== undefined && !originAllowed(origin)) {
      res.status(403).json(rpcError(-32000, `Origin ${origin} is not allowed`));
      return;
    }
    next();
  };

  const resource = new URL(services.oauth.resource);
  const resourceMetadataUrl = getOAuthProtectedResourceMetadataUrl(resource);
  const oauthBearer =
    oauthVerifier &&
    requireBearerAuth({ verifier: oauthVerifier, expectedResource: resource, resourceMetadataUrl });

  const authenticate = async (req: Request, res: Response, next: NextFunction) => {
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
    // An API token is `tc_…`; any other bearer token is an OAuth access token (opaque, oidc-provider's).
    if (oauthBearer && bearer && !TOKEN_PATTERN.test(bearer)) {
      // The verifier (oauth-verifier.ts) put the principal of the grant's workspace in `extra`.
      await oauthBearer(req, res, next);
      return;
    }
    try {
      const principal = await services.accounts.authenticate(req.headers.authorization, req.ip);
      req.auth = { token: bearer ?? '', clientId: 'api-token', scopes: [], extra: { principal } };
    } catch (err) {
      if (!(err instanceof UnauthorizedError)) throw err;
      const answer = unauthorizedResponse(err);
      const challenge = answer.headers['WWW-Authenticate'] ?? 'Bearer';
      res
        .status(answer.status)
        .set(answer.headers)
        .set(
          'WWW-Authenticate',
          oauthBearer ? `${challenge}, resource_metadata="${resourceMetadataUrl}"` : challenge,
        )
        .json(answer.body);
      return;
    }
    next();
  };

  /** The server for the principal that `authenticate` put on the request (`req.auth.extra`). */
  const serverFor = (auth: AuthInfo | undefined) => {
    const principal = auth?.extra?.principal as Principal;
    return buildMcpServer({ backend: localBackend(services, async () => principal), imageSources, logger });
  };
  const onerror = (err: Error) => logger.warn({ err }, 'an MCP request failed');
  // 2026-07-28 and later: the SDK's stateless handler; the older revisions are routed below.
  // The SDK's own body limit (4 MiB by default) raised to ours: a 10 MB image in base64 fits.
  const maxRequestBodySize = MCP_BODY_LIMIT_MB * 1024 * 1024;
  const modern = toNodeHandler(
    quietly(logger, RESPONSE_MODE_NOTICE, () =>
      createMcpHandler(({ authInfo }) => serverFor(authInfo), {
        legacy: 'reject',
        responseMode: 'json',
        onerror,
        maxRequestBodySize,
      }),
    ),
    { onerror, maxRequestBodySize },
  );
  const legacy = async (req: Request, res: Response) => {
    const server = serverFor(req.auth);
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      Promise.all([transport.close(), server.close()]).catch(onerror);
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  };

  const router = express.Router();
  router.use(hostHeaderValidation(hosts), checkOrigin);
  router.post('/', authenticate, ...mcpJsonBody(MCP_BODY_LIMIT_MB), async (req, res) => {
    if (nestedDeeperThan(req.body, JSON_MAX_DEPTH)) {
      res.status(400).json(rpcError(-32600, `Invalid request: JSON nested more than ${JSON_MAX_DEPTH} deep`));
      return;
    }
    // isLegacyRequest reads the headers from the probe and the message from the parsed body: the
    // probe carries `null`, not a second serialisation of a body of up to 15 MB.
    const probe = await toWebRequest(req, null);
    if (await isLegacyRequest(probe, req.body)) await legacy(req, res);
    else await modern(req, res, req.body);
  });
  // Errors of reading the body, answered in JSON-RPC (JSON-RPC 2.0 section 5.1: -32700 parse error,
  // -32600 invalid request) rather than in the REST API's shape.
  router.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    const type = (err as { type?: string } | null)?.type;
    if (type === 'entity.too.large') {
      res.status(413).json(rpcError(-32600, `Request body larger than ${MCP_BODY_LIMIT_MB} MB`));
      return;
    }
    const invalid = requestError(err);
    if (invalid || type === 'entity.parse.failed') {
      res
        .status(400)
        .json(rpcError(-32700, `Parse error: ${invalid?.message ?? 'the body is not valid JSON'}`));
      return;
    }
    next(err);
  });
  router.all('/', (_req, res) => {
    res
      .status(405)
      .set('Allow', 'POST')
      .json(rpcError(-32000, 'Method not allowed: this server is stateless; use POST'));
  });
  return router;
}
