/** The render links' schemas: signing keys and signed links (docs/render-links.md). */
import { z } from 'zod';
import { FILE_FORMATS, LIMITS } from '../design.js';
import { idPattern } from '../kernel/ids.js';
import { isoTimestamp, recordIdSchema } from '../schemas.js';
import { variableNameSchema } from '../render/index.js';
import { textSchema } from '../text.js';

/** Body of `POST /signing-keys`. */
export const createSigningKeyBodySchema = z.object({
  name: textSchema(100).describe('Descriptive name, 1 to 100 characters.'),
});

/** A signing key as listed (no secret). */
export const signingKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: isoTimestamp,
});

/** The one answer that carries a signing key's secret. */
export const createdSigningKeySchema = signingKeySchema.extend({
  secret: z.string().describe('The HMAC secret, shown once: tcs_ and 43 base62 characters.'),
});

/** Answer of `POST /render-urls` and of the MCP tool `create_render_url`. */
export const renderUrlSchema = z.object({
  url: z.url().describe('The signed link under PUBLIC_URL/r/: put it in <meta property="og:image">.'),
});

/** Body of `POST /render-urls`. */
export const renderUrlBodySchema = z
  .object({
    preset: recordIdSchema('pre'),
    title: textSchema(LIMITS.textMaxLength),
    subtitle: textSchema(LIMITS.textMaxLength).optional(),
    image: z
      .string()
      .max(2048)
      .refine((v) => idPattern('ast').test(v) || /^https:\/\/[^\s]+$/.test(v), {
        message: 'an asset id (ast_…) or an https URL',
      })
      .optional()
      .describe("An asset id (ast_…) or an https URL; default the preset's background."),
    fields: z
      .record(variableNameSchema, z.string().max(2000))
      .optional()
      .describe(
        "Values of the variables of the preset's template (tpl_…); the link carries each as f.<name>.",
      ),
    format: z.enum(FILE_FORMATS).optional().describe('png (default), jpeg or webp.'),
    expiresIn: z
      .number()
      .int()
      .min(60)
      .max(10 * 365 * 24 * 3600)
      .optional()
      .describe('Seconds until the link stops working; none: until its key is revoked.'),
    key: recordIdSchema('key').optional().describe('Signing key to sign with; default your newest.'),
  })
  .strict();
