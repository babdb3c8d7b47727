/**
 * The remote MCP connector: Streamable HTTP at `/mcp`, stateless (every POST is answered on its own;
 * GET and DELETE answer 405), authenticated with the same bearer tokens as the REST API.
 *
 * - A missing or bad token is a 401 with `WWW-Authenticate: Bearer error="invalid_token"` (RFC 6750
 *   section 3). No OAuth discovery document is published: clients that find one ignore a configured
 *   Authorization header.
 * - DNS rebinding: the Host header must name this server (the host of PUBLIC_URL, localhost, or one
 *   of MCP_ALLOWED_HOSTS) and a browser's Origin must be PUBLIC_URL's or one of MCP_ALLOWED_ORIGINS.
 */
import { hostHeaderValidation } from '@modelcontextprotocol/sdk/server/middleware/hostHeaderValidation.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import type { Principal } from '../domain/accounts.js';
import { UnauthorizedError } from '../domain/errors.js';
import type { Services } from '../domain/services.js';
import { localBackend } from './backend.js';
import type { ImageFetcher } from './fetch-image.js';
import { buildMcpServer } from './tools.js';

export interface McpHttpOptions {
  services: Services;
  fetchImage: ImageFetcher;
  logger: Logger;
  /** PUBLIC_URL: its host and origin are always allowed. */
  publicUrl: string;
  allowedHosts?: string[];
  allowedOrigins?: string[];
}

/** JSON-RPC error body for answers given before the MCP transport sees the request. */
const rpcError = (code: number, message: string) => ({ jsonrpc: '2.0', error: { code, message }, id: null });

export function mountMcp(app: Express, options: McpHttpOptions): void {
  const publicUrl = new URL(options.publicUrl);
  const hosts = [publicUrl.hostname, 'localhost', '127.0.0.1', '[::1]', ...(options.allowedHosts ?? [])].map(
    (h) => (h.includes(':') && !h.startsWith('[') ? `[${h}]` : h),
  );
  const origins = new Set([publicUrl.origin, ...(options.allowedOrigins ?? [])]);

  const checkOrigin = (req: Request, res: Response, next: NextFunction) => {
    const origin = req.headers.origin;
    if (origin !== undefined && !origins.has(origin)) {
      res.status(403).json(rpcError(-32000, `Origin ${origin} is not allowed`));
      return;
    }
    next();
  };

  const authenticate = async (req: Request, res: Response, next: NextFunction) => {
    try {
      res.locals.principal = await options.services.accounts.authenticate(req.headers.authorization);
      next();
    } catch (err) {
      if (!(err instanceof UnauthorizedError)) throw err;
      res
        .status(401)
        .set(
          'WWW-Authenticate',
          `Bearer realm="titlecard", error="invalid_token", error_description="${err.message}"`,
        )
        .json({ error: 'Unauthorized', message: err.message });
    }
  };

  const router = express.Router();
  router.use(hostHeaderValidation(hosts), checkOrigin);
  router.post('/', authenticate, express.json({ limit: '15mb' }), async (req, res) => {
    const principal = res.locals.principal as Principal;
    const server = buildMcpServer({
      backend: localBackend(options.services, async () => principal),
      fetchImage: options.fetchImage,
      mode: 'http',
      logger: options.logger,
    });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  router.all('/', (_req, res) => {
    res
      .status(405)
      .set('Allow', 'POST')
      .json(rpcError(-32000, 'Method not allowed: this server is stateless; use POST'));
  });
  app.use('/mcp', router);
}
