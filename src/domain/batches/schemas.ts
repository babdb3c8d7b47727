/** The batches' schemas: a batch's body, the batch, its items, and its webhook secret once (docs/batches.md). */
import { z } from 'zod';
import { generateShape } from '../images/schemas.js';
import { httpUrlSchema } from '../schemas.js';

/** Items per batch (issue 27: a blog's back catalogue; HCTI takes 25, we take more). */
export const BATCH_MAX_ITEMS = 1000;

/**
 * The fields a batch item may have: the options of POST /generate (docs/api.md#generate-options) and
 * its background, `preset`, `asset` or `imageUrl`. Any other is refused, naming it (an unknown key
 * would be stored with every item: issue 41).
 */
export const BATCH_ITEM_FIELDS: readonly string[] = [
  ...Object.keys(generateShape),
  'preset',
  'asset',
  'imageUrl',
];

export const batchBodySchema = z
  .object({
    items: z
      .array(z.record(z.string(), z.unknown()))
      .min(1)
      .max(BATCH_MAX_ITEMS)
      .describe(
        `1 to ${BATCH_MAX_ITEMS} generations, each what POST /generate takes without the upload: preset, asset or imageUrl for the background, title, subtitle and options.`,
      ),
    webhookUrl: httpUrlSchema()
      .optional()
      .describe('Also sent batch.completed (besides your webhook endpoints).'),
  })
  .strict();

export const batchSchema = z.object({
  id: z.string(),
  status: z.enum(['queued', 'running', 'completed', 'cancelled']),
  total: z.number().int(),
  done: z.number().int(),
  failed: z.number().int(),
  cancelled: z.number().int(),
  webhookUrl: z.string().nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
});

export const batchItemSchema = z.object({
  index: z.number().int(),
  status: z.enum(['queued', 'running', 'done', 'failed', 'cancelled']),
  image: z
    .object({
      id: z.string(),
      url: z.string(),
      thumbnailUrl: z.string(),
      width: z.number(),
      height: z.number(),
    })
    .nullable(),
  error: z.object({ code: z.string(), message: z.string(), field: z.string().nullable() }).nullable(),
  warnings: z
    .array(z.string())
    .default([])
    .describe(
      "(Ours.) A done item's render warnings, in words to show a person: a background enlarged more than 1.5 times to cover the card (it looks soft). Empty when none.",
    ),
});

export const batchDetailSchema = batchSchema.extend({ items: z.array(batchItemSchema) });

export const createdBatchSchema = batchSchema.extend({
  webhookSecret: z
    .string()
    .optional()
    .describe('With webhookUrl: the secret that signs its deliveries (whsec_…), shown only here.'),
});
