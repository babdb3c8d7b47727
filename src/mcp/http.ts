/**
 * The remote MCP connector: Streamable HTTP at `/mcp`, stateless (every POST is answered on its own;
 * GET and DELETE answer 405), authenticated with the same bearer tokens as the REST API and answering
 * a failed authentication the same way (`src/http/auth.ts`).
 *
 * - OAuth 2.1 (src/web/oauth.ts): an access token of a connected app (`tca_…`) is checked by the
 *   MCP SDK's bearer middleware, for this resource only (RFC 8707); an API token (`tc_…`) as by
 *   the REST API. A 401 names the Protected Resource Metadata (RFC 9728 section 5.1,
 *   `resource_metadata`), from which a client discovers the authorization server. Without OAuth
 *   (a PUBLIC_URL that is neither https nor loopback) only API tokens are taken.
 * - DNS rebinding: the Host header must name this server (the host of PUBLIC_URL, localhost, or one
 *   of MCP_ALLOWED_HOSTS) and a browser's Origin must be PUBLIC_URL's or one of MCP_ALLOWED_ORIGINS.
 */
import { hostHeaderValidation } from '@modelcontextprotocol/sdk/server/middleware/hostHeaderValidation.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import type { OAuthTokenVerifier } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import { getOAuthProtectedResourceMetadataUrl } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import express, { type NextFunction, type Request, type Response } from 'express';
import { principalOf, unauthorizedResponse } from '../http/auth.js';
import { requestError } from '../http/errors.js';
import type { User } from '../domain/kernel/records.js';
import { UnauthorizedError } from '../domain/kernel/errors.js';
import { ACCESS_TOKEN_PATTERN } from '../domain/oauth/oauth.js';
import type { Runtime } from '../runtime.js';
import { localBackend } from '../backend/local.js';
import { buildMcpServer } from './server.js';
import { base64Source } from './sources.js';

/** Largest /mcp request body, MB: a 10 MB image in base64 (13.4 MB) and the rest of the call. */
export const MCP_BODY_LIMIT_MB = 15;

/** JSON-RPC error body for answers given before the MCP transport sees the request. */
const rpcError = (code: number, message: string) => ({ jsonrpc: '2.0', error: { code, message }, id: null });

/**
 * The router mounted at `/mcp`. `oauthVerifier`, when given, accepts the access tokens of the
 * authorization server (src/web/oauth.ts).
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
  const imageSources = [base64Source];

  const checkOrigin = (req: Request, res: Response, next: NextFunction) => {
    const origin = req.headers.origin;
    if (origin !== undefined && !origins.has(origin)) {
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
    if (oauthBearer && bearer && ACCESS_TOKEN_PATTERN.test(bearer)) {
      await oauthBearer(req, res, () => {
        res.locals.principal = { user: req.auth?.extra?.user as User };
        next();
      });
      return;
    }
    try {
      res.locals.principal = await services.accounts.authenticate(req.headers.authorization);
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

  const router = express.Router();
  router.use(hostHeaderValidation(hosts), checkOrigin);
  router.post('/', authenticate, express.json({ limit: `${MCP_BODY_LIMIT_MB}mb` }), async (req, res) => {
    const principal = principalOf(res);
    const server = buildMcpServer({
      backend: localBackend(services, async () => principal),
      imageSources,
      logger,
    });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      Promise.all([transport.close(), server.close()]).catch((err: unknown) =>
        logger.warn({ err }, 'closing an MCP request failed'),
      );
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
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
