/**
 * The dashboard's Bulk page and Settings → Webhooks:
 *
 *   /bulk                        upload a CSV, pick a preset, start a batch; the recent batches
 *   /bulk/:id                    a batch's progress (the page refreshes itself while it runs), its
 *                                items, cancel, and the zip
 *   /settings/webhooks           add an endpoint (its secret shown once), delete, send a test event,
 *                                the recent deliveries with the receiver's status codes
 */
import express, { type Response } from 'express';
import { BATCH_MAX_ITEMS } from '../../domain/batches/schemas.js';
import type { Services } from '../../domain/services.js';
import { batchBodyOfCsvForm, sendZip } from '../../http/bulk.js';
import { formText, noticeFrom, orRefusal } from '../forms.js';
import { day, page } from '../render.js';
import { sessionPrincipal } from '../session.js';

const NOTICES: Record<string, string> = {
  cancelled: 'The batch is cancelled: the images not started will not be made, nor charged.',
  'webhook-deleted': 'The endpoint is deleted.',
  'test-sent': 'A test event is on its way: its delivery shows below.',
};

export function bulkRoutes(services: Services): express.Router {
  const { batches, presets, webhooks } = services;
  const router = express.Router();

  const bulkPage = async (res: Response, extra: Record<string, unknown> = {}, status = 200) => {
    page(
      res,
      'bulk',
      {
        title: 'Bulk',
        section: 'bulk',
        batches: await batches.list(sessionPrincipal(res)),
        presets: await presets.list(sessionPrincipal(res)),
        maxItems: BATCH_MAX_ITEMS,
        day,
        ...extra,
      },
      status,
    );
  };
  router.get('/bulk', async (req, res) => {
    await bulkPage(res, { notice: noticeFrom(NOTICES, req.query.done) });
  });
  router.post('/bulk', async (req, res) => {
    await orRefusal(
      res,
      (error, status) => bulkPage(res, { error }, status),
      async () => {
        // The account first: an upload is not read for an account that may not make batches.
        batches.admit(sessionPrincipal(res));
        const batch = await batches.create(sessionPrincipal(res), await batchBodyOfCsvForm(req));
        res.redirect(303, `/bulk/${batch.id}`);
      },
    );
  });
  const batchPage = async (res: Response, id: string, extra: Record<string, unknown> = {}, status = 200) => {
    const batch = await batches.get(sessionPrincipal(res), id);
    page(res, 'batch', { title: 'Batch', section: 'bulk', batch, day, ...extra }, status);
  };
  router.get('/bulk/:id', async (req, res) => {
    await batchPage(res, req.params.id, { notice: noticeFrom(NOTICES, req.query.done) });
  });
  router.post('/bulk/:id/cancel', async (req, res) => {
    await orRefusal(
      res,
      (error, status) => batchPage(res, req.params.id, { error }, status),
      async () => {
        await batches.cancel(sessionPrincipal(res), req.params.id);
        res.redirect(303, `/bulk/${req.params.id}?done=cancelled`);
      },
    );
  });
  router.get('/bulk/:id/archive', async (req, res) => {
    await sendZip(res, req.params.id, await batches.archive(sessionPrincipal(res), req.params.id));
  });

  const webhooksPage = async (res: Response, extra: Record<string, unknown> = {}, status = 200) => {
    page(
      res,
      'webhooks',
      {
        title: 'Webhooks',
        section: 'settings',
        tab: 'webhooks',
        endpoints: await webhooks.list(sessionPrincipal(res)),
        deliveries: await webhooks.deliveries(sessionPrincipal(res)),
        day,
        ...extra,
      },
      status,
    );
  };
  router.get('/settings/webhooks', async (req, res) => {
    await webhooksPage(res, { notice: noticeFrom(NOTICES, req.query.done) });
  });
  router.post('/settings/webhooks', async (req, res) => {
    await orRefusal(
      res,
      (error, status) => webhooksPage(res, { error }, status),
      async () => {
        const created = await webhooks.create(sessionPrincipal(res), {
          url: formText(req.body, 'url').trim(),
        });
        // The secret is shown on this answer only (no redirect: it never sits in a URL or history).
        res.set('Cache-Control', 'no-store');
        await webhooksPage(res, { created }, 201);
      },
    );
  });
  router.post('/settings/webhooks/:id/test', async (req, res) => {
    await orRefusal(
      res,
      (error, status) => webhooksPage(res, { error }, status),
      async () => {
        await webhooks.sendTest(sessionPrincipal(res), req.params.id);
        res.redirect(303, '/settings/webhooks?done=test-sent');
      },
    );
  });
  router.post('/settings/webhooks/:id/delete', async (req, res) => {
    await orRefusal(
      res,
      (error, status) => webhooksPage(res, { error }, status),
      async () => {
        await webhooks.delete(sessionPrincipal(res), req.params.id);
        res.redirect(303, '/settings/webhooks?done=webhook-deleted');
      },
    );
  });
  return router;
}
