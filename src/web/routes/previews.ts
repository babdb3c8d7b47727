/**
 * The link-preview check in the dashboard (docs/previews.md#in-the-dashboard):
 *
 *   /previews              paste a URL; or check one of the recent pages of a verified site
 *   /previews/:id          the report: each platform's mock-up side by side, the problems with how
 *                          to fix them, the tags found, the image's real size (kept a day)
 *   /previews/:id/:p.png   a mock-up, for the page's <img>
 */
import express, { type Response } from 'express';
import type { Services } from '../../domain/services.js';
import { formText, orRefusal } from '../forms.js';
import { page } from '../render.js';
import { sessionPrincipal } from '../session.js';

/** Recent pages of each verified site offered for a check (the site's most recent first). */
const PAGES_PER_SITE = 5;

export function previewsRoutes(services: Services): express.Router {
  const { linkPreviews, sites } = services;
  const router = express.Router();

  const formPage = async (res: Response, extra: Record<string, unknown> = {}, status = 200) => {
    const principal = sessionPrincipal(res);
    const verified = (await sites.list(principal)).filter((s) => s.verified);
    const sitePages = await Promise.all(
      verified.map(async (s) => ({
        site: s,
        pages: (await sites.pages(principal, s.id)).slice(0, PAGES_PER_SITE),
      })),
    );
    page(
      res,
      'previews',
      { title: 'Link previews', section: 'previews', sitePages, values: {}, ...extra },
      status,
    );
  };

  router.get('/previews', async (_req, res) => {
    await formPage(res);
  });
  router.post('/previews', async (req, res) => {
    const url = formText(req.body, 'url').trim();
    await orRefusal(
      res,
      (error, status) => formPage(res, { error, values: { url } }, status),
      async () => {
        const report = await linkPreviews.check(sessionPrincipal(res), { url });
        res.redirect(303, `/previews/${report.id}`);
      },
    );
  });
  router.get('/previews/:id', async (req, res) => {
    const report = await linkPreviews.get(sessionPrincipal(res), req.params.id);
    page(res, 'preview-report', { title: `Link preview of ${report.finalUrl}`, section: 'previews', report });
  });
  router.get('/previews/:id/:platform.png', async (req, res) => {
    const png = await linkPreviews.mockup(sessionPrincipal(res), req.params.id, req.params.platform);
    res.set({ 'Content-Type': 'image/png', 'Cache-Control': 'private, max-age=86400' }).end(png);
  });
  return router;
}
