/**
 * Sites in the dashboard (src/domain/sites/sites.ts), a tab of Render links:
 *
 *   /links/sites            add a site, list them; a notice while the quota is used up
 *   /links/sites/:id        how to verify (meta tag or file), Verify, the snippet for every page,
 *                           the budget of new cards (per hour and month) and what it spent, the
 *                           recent pages and their problems; delete
 */
import express, { type Response } from 'express';
import type { Services } from '../../domain/services.js';
import { formText, noticeFrom, orRefusal } from '../forms.js';
import { day, page } from '../render.js';
import { sessionPrincipal } from '../session.js';

const NOTICES: Record<string, string> = {
  added: 'The site is added. Verify that the origin is yours to turn its link on.',
  verified: 'The site is verified: its link works for every page of the origin.',
  deleted: 'The site is deleted: its link answers 404 from now on.',
  budget: 'The budget is saved.',
};

/** How long before `now` `then` was, in the largest whole unit: "9 days ago", "3 hours ago", "just now". */
function ago(then: Date, now: Date): string {
  const minutes = Math.floor((now.getTime() - then.getTime()) / 60_000);
  const [n, unit] =
    minutes >= 2880
      ? [Math.floor(minutes / 1440), 'days']
      : minutes >= 120
        ? [Math.floor(minutes / 60), 'hours']
        : [minutes, 'minutes'];
  return n < 1 ? 'just now' : `${n} ${n === 1 ? unit.slice(0, -1) : unit} ago`;
}

/**
 * While the quota is used up, site and render links answer stand-ins (render-cache.ts): the pages
 * of both say so (views/quota-stand-ins.eta). Undefined while some quota is left.
 */
export async function quotaUsedUp(
  services: Services,
  res: Response,
): Promise<{ resetsOn: string } | undefined> {
  const usage = await services.quota.usage(sessionPrincipal(res).workspace);
  return usage.usage.remaining > 0 ? undefined : { resetsOn: day(usage.period.end) };
}

export function sitesRoutes(services: Services): express.Router {
  const { sites, presets } = services;
  const router = express.Router();
  const quotaState = (res: Response) => quotaUsedUp(services, res);

  const listPage = async (res: Response, extra: Record<string, unknown> = {}, status = 200) => {
    const presetList = await presets.list(sessionPrincipal(res));
    page(
      res,
      'sites',
      {
        title: 'Sites',
        section: 'links',
        tab: 'sites',
        sites: await sites.list(sessionPrincipal(res)),
        presetNames: Object.fromEntries(presetList.map((p) => [p.id, p.name])),
        presets: presetList,
        quotaUsedUp: await quotaState(res),
        values: {},
        day,
        ...extra,
      },
      status,
    );
  };
  const sitePage = async (res: Response, id: string, extra: Record<string, unknown> = {}, status = 200) => {
    const site = await sites.get(sessionPrincipal(res), id);
    page(
      res,
      'site',
      {
        title: site.origin,
        section: 'links',
        tab: 'sites',
        site,
        pages: await sites.pages(sessionPrincipal(res), id),
        fetches: await sites.fetches(sessionPrincipal(res), id),
        ago: (iso: string) => ago(new Date(iso), services.clock.now()),
        quotaUsedUp: await quotaState(res),
        day,
        ...extra,
      },
      status,
    );
  };

  router.get('/links/sites', async (req, res) => {
    await listPage(res, { notice: noticeFrom(NOTICES, req.query.done) });
  });
  router.post('/links/sites', async (req, res) => {
    const values = req.body as Record<string, unknown>;
    await orRefusal(
      res,
      (error, status) => listPage(res, { error, values }, status),
      async () => {
        const name = formText(req.body, 'name').trim();
        const created = await sites.create(sessionPrincipal(res), {
          origin: formText(req.body, 'origin').trim(),
          preset: formText(req.body, 'preset'),
          ...(name ? { name } : {}),
          keepQuery: formText(req.body, 'keepQuery') === 'on',
          description: formText(req.body, 'description') === 'on',
        });
        res.redirect(303, `/links/sites/${created.id}?done=added`);
      },
    );
  });
  router.get('/links/sites/:id', async (req, res) => {
    await sitePage(res, req.params.id, { notice: noticeFrom(NOTICES, req.query.done) });
  });
  router.post('/links/sites/:id/verify', async (req, res) => {
    await orRefusal(
      res,
      (error, status) => sitePage(res, req.params.id, { error }, status),
      async () => {
        await sites.verify(sessionPrincipal(res), req.params.id);
        res.redirect(303, `/links/sites/${req.params.id}?done=verified`);
      },
    );
  });
  router.post('/links/sites/:id/budget', async (req, res) => {
    await orRefusal(
      res,
      (error, status) => sitePage(res, req.params.id, { error }, status),
      async () => {
        // A number field sends text: a whole number is passed as one, anything else as given (refused).
        const count = (name: string) => {
          const text = formText(req.body, name).trim();
          return /^\d{1,9}$/.test(text) ? Number(text) : text;
        };
        await sites.setBudget(sessionPrincipal(res), req.params.id, {
          cardsPerHour: count('cardsPerHour'),
          cardsPerMonth: count('cardsPerMonth'),
        });
        res.redirect(303, `/links/sites/${req.params.id}?done=budget`);
      },
    );
  });
  router.post('/links/sites/:id/delete', async (req, res) => {
    await orRefusal(
      res,
      (error, status) => sitePage(res, req.params.id, { error }, status),
      async () => {
        await sites.delete(sessionPrincipal(res), req.params.id);
        res.redirect(303, '/links/sites?done=deleted');
      },
    );
  });
  return router;
}
