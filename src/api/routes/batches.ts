/**
 * Batches (src/domain/batches): `POST /batches` with JSON `{items, webhookUrl?}` or a CSV upload,
 * progress, cancel, and a zip of the finished images.
 *
 * A CSV upload is multipart: the file as `file` (at most 2 MB), a header row naming the fields of
 * `/generate` (title, subtitle, template, colorMode, …; `asset` or `imageUrl` for a background),
 * one row per image. The form's other fields (`preset`, `asset`, `template`, any option) apply to
 * every row; a row's own cell wins. Cells are decoded as the form fields of `/generate` are
 * (src/http/form.ts); an empty cell is not sent. Row 1 after the header is `items[0]`.
 */
import express from 'express';
import { principalOf, requireAuth } from '../../http/auth.js';
import { batchBodyOfCsvForm, sendZip } from '../../http/bulk.js';
import {
  envelope,
  errorResponses,
  idParameter,
  json,
  listEnvelope,
  ref,
  secured,
  unconfirmedResponse,
  type Resource,
} from '../describe.js';
import { ok } from '../../http/respond.js';
import { jsonBody } from '../../http/json-body.js';

export const batchesResource: Resource = {
  router(services) {
    const router = express.Router();
    const auth = requireAuth(services);
    const body = jsonBody('4mb', ['multipart/form-data']);
    const { batches } = services;
    router.post('/batches', auth, body, async (req, res) => {
      const multipart = /^multipart\/form-data/i.test(req.headers['content-type'] ?? '');
      // The account first: an upload is not read for an account that may not make batches.
      batches.admit(principalOf(res));
      const batch = await batches.create(
        principalOf(res),
        multipart ? await batchBodyOfCsvForm(req) : req.body,
      );
      // It may carry the webhook secret: no cache keeps it.
      res
        .status(202)
        .set('Cache-Control', 'no-store')
        .location(`${req.baseUrl}/batches/${batch.id}`)
        .json({ success: true, data: batch });
    });
    router.get('/batches', auth, async (_req, res) => {
      ok(res, { batches: await batches.list(principalOf(res)) });
    });
    router.get('/batches/:id', auth, async (req, res) => {
      ok(res, await batches.get(principalOf(res), req.params.id as string));
    });
    router.delete('/batches/:id', auth, async (req, res) => {
      ok(res, await batches.cancel(principalOf(res), req.params.id as string));
    });
    router.get('/batches/:id/archive', auth, async (req, res) => {
      const id = req.params.id as string;
      await sendZip(res, id, await batches.archive(principalOf(res), id));
    });
    return router;
  },

  paths: {
    '/batches': {
      post: secured({
        operationId: 'createBatch',
        summary:
          'Start a batch: up to 1,000 generations rendered in the background, each charged one unit when rendered. JSON, or a CSV upload (docs/batches.md).',
        requestBody: {
          required: true,
          content: {
            ...json(ref('BatchRequest')),
            'multipart/form-data': {
              schema: {
                type: 'object',
                required: ['file'],
                properties: {
                  file: {
                    type: 'string',
                    contentMediaType: 'text/csv',
                    description: 'A header row naming /generate fields, then one row per image.',
                  },
                  preset: { type: 'string', description: 'Applies to every row.' },
                  asset: { type: 'string', description: 'Applies to every row.' },
                  template: { type: 'string', description: 'Applies to every row.' },
                  webhookUrl: { type: 'string', description: 'Also sent batch.completed.' },
                },
              },
            },
          },
        },
        responses: {
          202: {
            description: 'Accepted: the batch, queued. Location is its URL.',
            headers: { Location: { schema: { type: 'string' } } },
            content: json(envelope('Batch')),
          },
          400: {
            description:
              'A bad item refuses the batch, its index in field (items[7].title); nothing is charged.',
            content: json(ref('ValidationErrorBody')),
          },
          403: unconfirmedResponse,
          429: {
            description:
              'This account has 10 batches not finished, the most it may (ours): cancel one or try again once one finishes. Making a batch also removes the oldest finished ones past the 100 an account keeps.',
            headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait (60).' } },
            content: json(ref('QuotaErrorBody')),
          },
        },
      }),
      get: secured({
        operationId: 'listBatches',
        summary: 'Your 100 newest batches.',
        responses: { 200: { description: 'Batches.', content: listEnvelope('batches', 'Batch') } },
      }),
    },
    '/batches/{id}': {
      get: secured({
        operationId: 'getBatch',
        summary: "A batch's progress, and each item's status, image or error.",
        parameters: [idParameter],
        responses: {
          200: { description: 'The batch.', content: json(envelope('BatchDetail')) },
          404: errorResponses[404],
        },
      }),
      delete: secured({
        operationId: 'cancelBatch',
        summary: 'Cancel the items that have not started (never charged); those rendering finish.',
        parameters: [idParameter],
        responses: {
          200: { description: 'The batch after cancelling.', content: json(envelope('Batch')) },
          404: errorResponses[404],
        },
      }),
    },
    '/batches/{id}/archive': {
      get: secured({
        operationId: 'getBatchArchive',
        summary: 'A zip of the finished images, named by index and title (0007-my-title.png).',
        parameters: [idParameter],
        responses: {
          200: {
            description: 'The zip, streamed.',
            content: {
              'application/zip': { schema: { type: 'string', contentMediaType: 'application/zip' } },
            },
          },
          404: errorResponses[404],
        },
      }),
    },
  },
};
