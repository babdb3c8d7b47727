/**
 * Webhook endpoints (src/domain/webhooks): add (the secret shown once), list, delete, send a test
 * event, and the recent deliveries with the receiver's status codes.
 */
import express from 'express';
import { principalOf, requireAuth } from '../../http/auth.js';
import {
  envelope,
  errorResponses,
  idempotent,
  idParameter,
  json,
  listEnvelope,
  messageResponse,
  ref,
  secretShownOnceResponses,
  secured,
  unconfirmedResponse,
  type Resource,
} from '../describe.js';
import { ok } from '../../http/respond.js';
import { collectionRoutes } from '../collection.js';
import { jsonBody } from '../../http/json-body.js';

export const webhooksResource: Resource = {
  router(services) {
    const router = express.Router();
    const auth = requireAuth(services);
    const body = jsonBody('16kb');
    const { webhooks } = services;
    collectionRoutes(router, webhooks, {
      plural: 'webhooks',
      noun: 'Webhook endpoint',
      auth,
      body,
      secretOnCreate: true,
      // A retry of a creation makes no second endpoint, nor a second secret (issue 41).
      idempotency: services.idempotency,
    });
    router.get('/webhooks/deliveries', auth, async (req, res) => {
      const endpoint = typeof req.query.endpoint === 'string' ? req.query.endpoint : undefined;
      ok(res, { deliveries: await webhooks.deliveries(principalOf(res), endpoint) });
    });
    router.post('/webhooks/:id/test', auth, async (req, res) => {
      res
        .status(202)
        .json({ success: true, data: await webhooks.sendTest(principalOf(res), req.params.id as string) });
    });
    return router;
  },

  paths: {
    '/webhooks': {
      post: secured(
        idempotent({
          operationId: 'createWebhook',
          summary:
            'Add an endpoint for image.created and batch.completed, signed per Standard Webhooks; the secret is returned only here (docs/webhooks.md).',
          requestBody: { required: true, content: json(ref('WebhookRequest')) },
          responses: {
            201: { description: 'Created.', content: json(envelope('CreatedWebhook')) },
            400: errorResponses[400],
            403: unconfirmedResponse,
            ...secretShownOnceResponses('an endpoint', 'WebhookEndpoint', 'deleted'),
          },
        }),
      ),
      get: secured({
        operationId: 'listWebhooks',
        summary: 'Your webhook endpoints, newest first, without secrets.',
        responses: {
          200: { description: 'Endpoints.', content: listEnvelope('webhooks', 'WebhookEndpoint') },
        },
      }),
    },
    '/webhooks/deliveries': {
      get: secured({
        operationId: 'listWebhookDeliveries',
        summary: 'The 50 newest deliveries, with their status, attempts and the receiver status code.',
        parameters: [
          {
            name: 'endpoint',
            in: 'query',
            required: false,
            description: 'Only this endpoint (whk_…).',
            schema: { type: 'string' },
          },
        ],
        responses: {
          200: { description: 'Deliveries.', content: listEnvelope('deliveries', 'WebhookDelivery') },
        },
      }),
    },
    '/webhooks/{id}': {
      delete: secured({
        operationId: 'deleteWebhook',
        summary: 'Delete an endpoint; its pending deliveries are dropped.',
        parameters: [idParameter],
        responses: { 200: messageResponse('Done.'), 404: errorResponses[404] },
      }),
    },
    '/webhooks/{id}/test': {
      post: secured({
        operationId: 'sendWebhookTest',
        summary: 'Queue a webhook.test event to the endpoint.',
        parameters: [idParameter],
        responses: {
          202: { description: 'Queued.', content: json(envelope('WebhookDelivery')) },
          404: errorResponses[404],
          429: {
            description:
              'Three test events already wait for this endpoint (its receiver has not answered them yet).',
            headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait.' } },
            content: json(ref('QuotaErrorBody')),
          },
        },
      }),
    },
  },
};
