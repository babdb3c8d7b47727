/**
 * The dashboard edge: server-rendered pages at PUBLIC_URL for people in a browser, on the same
 * domain services as the REST API and the MCP connector (one use case per action; no rule here).
 *
 *   /sign-up /sign-in /sign-out /forgot-password /reset-password /verify-email   (routes/auth.ts)
 *   /overview /images /playground /connect                                         (routes/dashboard.ts)
 *   /links/presets /links/uploads /links/keys (render links)                       (routes/render-links.ts)
 *   /settings/tokens /settings/apps /settings/account                              (routes/settings.ts)
 *   /static/*  two stylesheets, two small ES modules, sample photos
 *   /oauth/interaction (sign-in and consent of OAuth; its protocol is oidc-provider's)  (oauth.ts)
 *
 * Security headers on every page: headers.ts. Sessions and CSRF: session.ts.
 */
import cookieParser from 'cookie-parser';
import express, { type ErrorRequestHandler } from 'express';
import { NotFoundError, TitlecardError } from '../domain/kernel/errors.js';
import type { Runtime } from '../runtime.js';
import { securityHeaders } from './headers.js';
import { page, STATIC_DIR } from './render.js';
import { authRoutes } from './routes/auth.js';
import { dashboardRoutes } from './routes/dashboard.js';
import { linksRoutes } from './routes/render-links.js';
import { sitesRoutes } from './routes/sites.js';
import { previewsRoutes } from './routes/previews.js';
import { bulkRoutes } from './routes/bulk.js';
import { templatesRoutes } from './routes/templates.js';
import { settingsRoutes } from './routes/settings.js';
import { workspacesRoutes } from './routes/workspaces.js';
import { billingRoutes } from './routes/billing.js';
import { checkSameOrigin, cookieSettings, loadSession, requireSignIn } from './session.js';

/** Paths only a signed-in person may open. */
const SIGNED_IN_PATHS = [
  '/overview',
  '/images',
  '/playground',
  '/templates',
  '/links',
  '/bulk',
  '/settings',
  '/connect',
  '/previews',
];

export function createWebRouter(runtime: Runtime): express.Router {
  const { services, publicUrl } = runtime;
  const cookie = cookieSettings(publicUrl);
  const origin = new URL(publicUrl).origin;
  const router = express.Router();

  router.use('/static', express.static(STATIC_DIR, { maxAge: '1h', index: false }));
  router.use(securityHeaders(runtime));
  router.use(cookieParser());
  router.use(checkSameOrigin(origin));
  router.use(express.urlencoded({ extended: false, limit: '16kb' }));
  router.use(loadSession(services.sessions, cookie));
  // Without SMTP_URL the account emails are printed in the server's terminal (src/adapters/mail.ts): the
  // pages that ask for a confirmation say so.
  router.use((_req, res, next) => {
    res.locals.mailInTerminal = !runtime.config.smtpUrl;
    res.locals.billingOn = services.billing !== undefined;
    next();
  });
  router.use(authRoutes(services, cookie));
  router.use(SIGNED_IN_PATHS, requireSignIn);
  router.use(dashboardRoutes(services, publicUrl));
  router.use(templatesRoutes(services));
  router.use(linksRoutes(services, publicUrl));
  router.use(sitesRoutes(services));
  router.use(previewsRoutes(services));
  router.use(bulkRoutes(services));
  router.use(settingsRoutes(services, cookie));
  router.use(workspacesRoutes(services, cookie));
  if (services.billing) router.use(billingRoutes(runtime, services.billing));
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
