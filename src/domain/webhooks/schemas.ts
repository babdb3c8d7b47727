/** The webhooks' schemas: an endpoint's body, the endpoint, its secret once, and a delivery (docs/webhooks.md). */
import { z } from 'zod';
import { httpUrlSchema } from '../schemas.js';

export const webhookBodySchema = z
  .object({
    url: httpUrlSchema().describe('Where events are POSTed: http or https.'),
  })
  .strict();

export const webhookEndpointSchema = z.object({ id: z.string(), url: z.string(), createdAt: z.string() });

export const createdWebhookSchema = webhookEndpointSchema.extend({
  secret: z.string().describe('whsec_ and base64: the signing secret, shown only here.'),
});

export const webhookDeliverySchema = z.object({
  id: z.string().describe('The webhook-id header.'),
  endpoint: z.string().nullable(),
  url: z.string(),
  type: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  lastStatus: z
    .number()
    .int()
    .nullable()
    .describe("The receiver's last HTTP status; null when it gave none."),
  lastError: z.string().nullable(),
  nextAttemptAt: z.string().nullable().describe('While pending.'),
  createdAt: z.string(),
  deliveredAt: z.string().nullable(),
});
