/**
 * The REST edge (spec section 4), an Express app built from the domain services. Each route parses
 * its input, calls one domain function and wraps the result in the spec's envelope. Nothing here
 * listens: `src/server.ts` does, and tests can start it on any port.
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import type { Principal } from '../domain/accounts.js';
import { NotFoundError, ValidationError } from '../domain/errors.js';
import type { Services } from '../domain/services.js';
import { endpointError, errorHandler } from './errors.js';
import { decodeFields } from './form.js';
import { receiveForm } from './multipart.js';
import { buildOpenApiDocument } from './openapi.js';

/** Files never change once written, so caches may keep them for a year (RFC 9111, `immutable`: RFC 8246). */
const FILE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

const principalOf = (res: Response) => res.locals.principal as Principal;

export interface AppOptions {
  logger: Logger;
  /** Extra routers mounted before the 404 handler (the MCP endpoint). */
  mount?: (app: express.Express) => void;
}

export function createApp(services: Services, options: AppOptions): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  app.use(
    pinoHttp({
      logger: options.logger,
      genReqId: () => crypto.randomUUID(),
      autoLogging: { ignore: (req) => req.url === '/healthz' },
    }),
  );

  const { accounts, quota, images } = services;
  const ok = (res: Response, data: unknown, status = 200) => res.status(status).json({ success: true, data });

  /** Section 5: every API endpoint requires a bearer token. */
  const requireAuth = async (req: Request, res: Response, next: NextFunction) => {
    res.locals.principal = await accounts.authenticate(req.headers.authorization);
    next();
  };

  const api = express.Router();
  const openapi = buildOpenApiDocument();
  api.get('/openapi.json', (_req, res) => {
    res.json(openapi);
  });

  api.post('/generate', requireAuth, async (req, res) => {
    const principal = principalOf(res);
    // Refuse before reading the upload when nothing is left this month.
    await quota.assertAvailable(principal.user);
    const form = await receiveForm(req);
    try {
      if (!form.image) {
        throw new ValidationError(
          'image',
          'required',
          'Expected a JPEG, PNG or WebP file for image but received nothing: image is required',
        );
      }
      const record = await images.generate(principal, { path: form.image.path }, decodeFields(form.fields));
      ok(res, record, 201);
    } finally {
      await form.cleanup();
    }
  });

  api.get('/images', requireAuth, async (req, res) => {
    ok(res, await images.list(principalOf(res), decodeFields(req.query as Record<string, unknown>)));
  });

  api.get('/usage', requireAuth, async (_req, res) => {
    ok(res, await quota.usage(principalOf(res).user));
  });

  api.get('/tokens/validate', requireAuth, async (_req, res) => {
    ok(res, await quota.validation(principalOf(res).user));
  });

  api.post('/tokens', requireAuth, express.json({ limit: '16kb' }), async (req, res) => {
    ok(res, await accounts.createToken(principalOf(res).user, req.body), 201);
  });

  api.get('/tokens', requireAuth, async (_req, res) => {
    ok(res, { tokens: await accounts.listTokens(principalOf(res).user) });
  });

  api.delete('/tokens/:id', requireAuth, async (req, res) => {
    await accounts.revokeToken(principalOf(res).user, String(req.params.id));
    res.json({ success: true, message: `Token ${String(req.params.id)} revoked` });
  });

  app.use('/api', api);

  /** Image files, public: social networks fetch them without a token. Names are unguessable. */
  app.get('/files/:key', async (req, res) => {
    const blob = await services.blobs.get(String(req.params.key));
    if (!blob) throw new NotFoundError(`No file ${String(req.params.key)}`);
    res.set({
      'Content-Type': blob.contentType,
      'Cache-Control': FILE_CACHE_CONTROL,
      'X-Content-Type-Options': 'nosniff',
      'Access-Control-Allow-Origin': '*',
    });
    res.send(blob.body);
  });

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });

  options.mount?.(app);

  app.use((req, res) => {
    res.status(404).json(endpointError('NOT_FOUND', `No route ${req.method} ${req.path}`));
  });
  app.use(errorHandler);
  return app;
}
