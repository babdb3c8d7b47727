/**
 * The dashboard edge: server-rendered pages at PUBLIC_URL for people in a browser, on the same
 * domain services as the REST API and the MCP connector (one use case per action; no rule here).
 *
 *   /sign-up /sign-in /sign-out /forgot-password /reset-password /verify-email   (routes/auth.ts)
 *   /overview /images /playground /connect                                         (routes/dashboard.ts)
 *   /settings/tokens /settings/account                                             (routes/settings.ts)
 *   /static/*  one stylesheet, two small ES modules, sample photos
 *
 * Security headers on every page (helmet): a Content-Security-Policy with no inline script or style,
 * `frame-ancestors 'none'`, `nosniff`, `Referrer-Policy: same-origin` (so that same-origin form posts
 * keep their Origin header, which the CSRF check reads). Sessions and CSRF: see session.ts.
 */
import cookieParser from 'cookie-parser';
import express, { type ErrorRequestHandler } from 'express';
import helmet from 'helmet';
import { NotFoundError, TitlecardError } from '../domain/errors.js';
import type { Runtime } from '../runtime.js';
import { page, STATIC_DIR } from './render.js';
import { authRoutes } from './routes/auth.js';
import { dashboardRoutes } from './routes/dashboard.js';
import { settingsRoutes } from './routes/settings.js';
import { checkSameOrigin, cookieSettings, loadSession, requireSignIn } from './session.js';

/** Paths only a signed-in person may open. */
const SIGNED_IN_PATHS = ['/overview', '/images', '/playground', '/settings', '/connect'];

export function createWebRouter({ services, publicUrl, config }: Runtime): express.Router {
  const cookie = cookieSettings(publicUrl);
  const origin = new URL(publicUrl).origin;
  const imageOrigins = config.s3?.publicUrl ? [new URL(config.s3.publicUrl).origin] : [];
  const router = express.Router();

  router.use('/static', express.static(STATIC_DIR, { maxAge: '1h', index: false }));
  router.use(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'"],
          imgSrc: ["'self'", 'data:', 'blob:', ...imageOrigins],
          connectSrc: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
        },
      },
      referrerPolicy: { policy: 'same-origin' },
      xFrameOptions: { action: 'deny' },
      strictTransportSecurity: origin.startsWith('https:'),
    }),
  );
  router.use(cookieParser());
  router.use(checkSameOrigin(origin));
  router.use(express.urlencoded({ extended: false, limit: '16kb' }));
  router.use(loadSession(services.sessions, cookie));
  router.use(authRoutes(services, cookie));
  router.use(SIGNED_IN_PATHS, requireSignIn);
  router.use(dashboardRoutes(services, publicUrl));
  router.use(settingsRoutes(services, cookie));
  router.use(pageErrors);
  return router;
}

/** Errors of the pages as pages: 404 for an unknown image or token, 400 for a bad form, else 500. */
const pageErrors: ErrorRequestHandler = (err, req, res, next) => {
  if (res.headersSent) return next(err);
  if (err instanceof NotFoundError)
    return page(res, 'error', { title: 'Not found', heading: 'Not found', message: err.message }, 404);
  if (err instanceof TitlecardError)
    return page(res, 'error', { title: 'Refused', heading: 'That did not work', message: err.message }, 400);
  if ((err as { type?: string }).type?.startsWith('entity.'))
    return page(
      res,
      'error',
      { title: 'Bad request', heading: 'Bad request', message: 'The form could not be read.' },
      400,
    );
  req.log.error({ err }, 'unhandled error on a page');
  page(
    res,
    'error',
    {
      title: 'Error',
      heading: 'Something went wrong',
      message: `Please try again. (Request id ${typeof req.id === 'string' ? req.id : JSON.stringify(req.id)})`,
    },
    500,
  );
};
