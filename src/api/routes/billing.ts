/**
 * Billing (docs/billing.md): the workspace's plan, a Checkout Session to buy one, a Customer
 * Portal session to manage it, and Stripe's webhook; and their OpenAPI description. Without
 * `STRIPE_SECRET_KEY` every route answers 404: billing is off.
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import { NotFoundError } from '../../domain/kernel/errors.js';
import type { Billing } from '../../domain/billing/billing.js';
import type { Services } from '../../domain/services.js';
import { principalOf, requireAuth } from '../../http/auth.js';
import { envelope, errorResponses, json, ref, secured, type Resource } from '../describe.js';
import { ok } from '../../http/respond.js';
import { jsonBody } from '../../http/json-body.js';

/** Refuses while billing is off (no STRIPE_SECRET_KEY), before anything else runs. */
function billingOn(services: Services) {
  return (_req: Request, res: Response, next: NextFunction): void => {
    if (!services.billing)
      throw new NotFoundError('Billing is off on this server: tiers are set by its operator');
    res.locals.billing = services.billing;
    next();
  };
}
const billingOf = (res: Response) => res.locals.billing as Billing;
const urlResponse = (description: string) => ({
  description,
  content: json({
    type: 'object',
    required: ['success', 'data'],
    properties: {
      success: { const: true },
      data: { type: 'object', required: ['url'], properties: { url: { type: 'string', format: 'uri' } } },
    },
  }),
});

export const billingResource: Resource = {
  router(services) {
    const router = express.Router();
    const on = billingOn(services);
    const auth = requireAuth(services);
    router.get('/billing', auth, on, async (_req, res) => {
      ok(res, await billingOf(res).view(principalOf(res)));
    });
    router.post('/billing/checkout', auth, on, jsonBody('16kb'), async (req, res) => {
      ok(res, await billingOf(res).checkout(principalOf(res), req.body));
    });
    router.post('/billing/portal', auth, on, async (_req, res) => {
      ok(res, await billingOf(res).portal(principalOf(res)));
    });
    // Stripe's deliveries: the signature is over the raw bytes, so the body is read as they came.
    router.post('/billing/webhook', on, express.raw({ type: () => true, limit: '1mb' }), async (req, res) => {
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const applied = await billingOf(res).receive(body, req.get('stripe-signature'));
      ok(res, { applied });
    });
    return router;
  },

  paths: {
    '/billing': {
      get: secured({
        operationId: 'getBilling',
        summary:
          "The workspace's plan: tier, Stripe status, period end, cancel at period end, seats (workspace:admin).",
        responses: {
          200: { description: 'The plan.', content: json(envelope('BillingView')) },
          404: { description: 'Billing is off on this server.', content: json(ref('EndpointErrorBody')) },
        },
      }),
    },
    '/billing/checkout': {
      post: secured({
        operationId: 'createCheckout',
        summary: 'A Stripe Checkout Session for a plan (owners): send the person to its url.',
        requestBody: { required: true, content: json(ref('CheckoutRequest')) },
        responses: {
          200: urlResponse('The Checkout Session.'),
          400: errorResponses[400],
          404: { description: 'Billing is off on this server.', content: json(ref('EndpointErrorBody')) },
          409: {
            description: 'CONFLICT: the workspace has a subscription already (change plans in the portal).',
            content: json(ref('EndpointErrorBody')),
          },
        },
      }),
    },
    '/billing/portal': {
      post: secured({
        operationId: 'createPortalSession',
        summary: 'A Stripe Customer Portal session (owners): change plan, card, invoices, cancel.',
        responses: {
          200: urlResponse('The portal session.'),
          404: {
            description: 'Billing is off, or the workspace has bought nothing yet.',
            content: json(ref('EndpointErrorBody')),
          },
        },
      }),
    },
    '/billing/webhook': {
      post: {
        operationId: 'receiveBillingEvent',
        summary:
          "Stripe's webhook: events signed with STRIPE_WEBHOOK_SECRET, applied once each (docs/billing.md).",
        security: [],
        parameters: [{ name: 'Stripe-Signature', in: 'header', required: true, schema: { type: 'string' } }],
        requestBody: { required: true, content: json({ type: 'object' }) },
        responses: {
          200: {
            description: 'Received; `applied` is false for an event seen before or that changes nothing.',
            content: json({
              type: 'object',
              required: ['success', 'data'],
              properties: {
                success: { const: true },
                data: { type: 'object', required: ['applied'], properties: { applied: { type: 'boolean' } } },
              },
            }),
          },
          400: errorResponses[400],
          404: { description: 'Billing is off on this server.', content: json(ref('EndpointErrorBody')) },
        },
      },
    },
  },
};
