/** The accounts' schemas: API tokens, the user profile, usage and token validation (docs/api.md#endpoints). */
import { z } from 'zod';
import { LIMITS, TIERS } from '../design.js';
import { TOKEN_PATTERN } from '../kernel/ids.js';
import { isoTimestamp } from '../schemas.js';
import { textSchema } from '../text.js';

/** Body of `POST /tokens` (docs/api.md#endpoints). Name rules are our choice: 1 to 100 characters, need not be unique. */
export const createTokenBodySchema = z.object({
  name: textSchema(LIMITS.tokenNameMaxLength).describe(
    'Descriptive name, 1 to 100 characters; need not be unique.',
  ),
});

const tierSchema = z.enum(TIERS).describe('Subscription tier: free, pro or agency');

/** docs/api.md#endpoints. `period.end` is the first instant of the next month (exclusive). */
export const usageSchema = z.object({
  period: z.object({ start: isoTimestamp, end: isoTimestamp }),
  usage: z.object({
    generated: z.number().int(),
    limit: z.number().int(),
    remaining: z.number().int(),
    percentUsed: z.number().describe('0 to 100, two decimals'),
  }),
  tier: tierSchema,
});

/** docs/api.md#endpoints. */
export const userProfileSchema = z.object({
  id: z.string(),
  email: z.email(),
  displayName: z.string(),
  tier: tierSchema,
});

/** docs/api.md#endpoints. */
export const tokenValidationSchema = z.object({
  user: userProfileSchema,
  usage: z.object({
    month: z.string().regex(/^\d{4}-\d{2}$/),
    quota: z.number().int(),
    count: z.number().int(),
    remaining: z.number().int(),
  }),
});

/** docs/api.md#endpoints: the only response that carries the secret. */
export const createdTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  token: z.string().regex(TOKEN_PATTERN),
  createdAt: isoTimestamp,
});

/** docs/api.md#endpoints entries. `lastUsedAt` is null until first use. */
export const tokenListEntrySchema = z.object({
  id: z.string(),
  name: z.string(),
  lastUsedAt: isoTimestamp.nullable(),
  createdAt: isoTimestamp,
});
