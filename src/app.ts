/**
 * The HTTP application: every HTTP edge on one Express app, on one {@link Runtime}.
 *   /api    the REST API (src/api), with its OpenAPI document at /api/openapi.json
 *   /files  published images and thumbnails (public)
 *   /r      signed render links (public; rendered on first fetch, then served from the store)
 *   /s      site links (public; a verified site's page, its card from its og:title)
 *   /mcp    the MCP connector over Streamable HTTP (src/mcp)
 *   /.well-known/oauth-*, /register, /authorize, /token, /revoke   OAuth 2.1 for it (src/web/oauth/)
 *   /healthz
 *   /, /sign-in, /overview, /settings/…   the dashboard (src/web)
 * Unknown routes answer 404 `NOT_FOUND`; errors are mapped by one handler (src/http/errors.ts).
 */
import express from 'express';
import { pinoHttp } from 'pino-http';
import { createApiRouter } from './api/router.js';
import { endpointError, errorHandler } from './http/errors.js';
import { methodRules } from './api/describe.js';
import { filesResource } from './api/routes/files.js';
import { renderLinksResource } from './api/routes/render-links.js';
import { siteLinksResource } from './api/routes/sites.js';
import { createMcpRouter } from './mcp/http.js';
import { requestLogMessage, requestSerializers } from './logger.js';
import type { Runtime } from './runtime.js';
import { createWebRouter } from './web/index.js';
import { oauthAvailable } from './domain/oauth/clients.js';
import { oauthVerifier } from './mcp/oauth-verifier.js';
import { createOAuthRouter } from './web/oauth/index.js';

/**
 * The Express app on `runtime`. `isStopping` tells `/readyz` that a graceful shutdown has begun
 * (src/server.ts): it then answers 503 `{status: "stopping"}`, so a load balancer stops sending.
 */
export function createHttpApp(runtime: Runtime, isStopping: () => boolean = () => false): express.Express {
  const app = express();
  app.disable('x-powered-by');
  // The client's address for throttles and logs: the socket's, or X-Forwarded-For's behind the
  // proxies TRUST_PROXY names (docs/security.md).
  app.set('trust proxy', runtime.config.trustProxy);
  app.locals.uploadDir = runtime.uploadDir;
  app.locals.metrics = runtime.metrics;
  // Every answer is counted by method, route pattern and status, with its duration.
  app.use((req, res, next) => {
    const end = runtime.metrics.requests.startTimer({ method: req.method });
    res.once('finish', () => {
      const route = (req.route as { path?: string } | undefined)?.path;
      end({ route: route ? `${req.baseUrl}${route}` : 'unmatched', status: String(res.statusCode) });
    });
    next();
  });
  app.use(
    pinoHttp({
      logger: runtime.logger,
      // A request id from the caller (a proxy's) is kept when it is a plain token; else a new UUID.
      genReqId: (req, res) => {
        const given = req.headers['x-request-id'];
        const id = typeof given === 'string' && /^[\w.:-]{1,128}$/.test(given) ? given : crypto.randomUUID();
        res.setHeader('X-Request-Id', id);
        return id;
      },
      autoLogging: { ignore: (req) => ['/healthz', '/readyz', '/metrics'].includes(req.url ?? '') },
      // One compact line per request at info; headers at debug (logger.ts).
      serializers: requestSerializers(runtime.logger),
      customSuccessMessage: (req, res, responseTime) => requestLogMessage(req, res, responseTime),
      customErrorMessage: (req, res, error) => requestLogMessage(req, res, error),
    }),
  );
  app.use('/api', createApiRouter(runtime.services));
  for (const resource of [filesResource, renderLinksResource, siteLinksResource]) {
    const methods = methodRules(resource.paths);
    app.use(methods.before);
    app.use(resource.router(runtime.services));
    app.use(methods.after);
  }
  // Liveness: the process answers. Readiness: its stores answer too (503 when one does not).
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/metrics', async (req, res) => {
    const expected = runtime.config.metricsToken;
    if (expected && req.headers.authorization !== `Bearer ${expected}`) {
      res.status(401).set('WWW-Authenticate', 'Bearer realm="titlecard-metrics"').json({
        error: 'Unauthorized',
        message: 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>',
      });
      return;
    }
    res.type(runtime.metrics.registry.contentType).send(await runtime.metrics.registry.metrics());
  });
  app.get('/readyz', async (_req, res) => {
    if (isStopping()) {
      res.status(503).json({ status: 'stopping' });
      return;
    }
    const { ready, degraded, checks } = await runtime.services.ready();
    const status = !ready ? 'unavailable' : degraded ? 'degraded' : 'ok';
    res.status(ready ? 200 : 503).json({ status, checks });
  });
  // OAuth for MCP clients (src/web/oauth/): its endpoints sit at the root, as RFC 8414 expects.
  const oauth = oauthAvailable(runtime.publicUrl);
  if (oauth) app.use(createOAuthRouter(runtime, { fetch: runtime.oauthFetch }));
  else
    runtime.logger.warn(
      { publicUrl: runtime.publicUrl },
      'OAuth for MCP clients is off: it needs an https PUBLIC_URL (API tokens work at /mcp as ever)',
    );
  app.use('/mcp', createMcpRouter(runtime, oauth ? oauthVerifier(runtime.services) : undefined));
  const notFound: express.RequestHandler = (req, res) => {
    res
      .status(404)
      .json(endpointError('NOT_FOUND', `No route ${req.method} ${req.originalUrl.split('?')[0] ?? ''}`));
  };
  // The API's own paths answer in the API's shape; only the rest reaches the dashboard.
  app.use(['/api', '/files', '/mcp', '/r', '/s'], notFound);
  app.use(createWebRouter(runtime));
  app.use(notFound);
  app.use(errorHandler);
  return app;
}
