/** The accounts' schemas: API tokens, the user profile, usage and token validation (docs/api.md#endpoints). */
import { z } from 'zod';
import { LIMITS, ROLES, SCOPES, TIERS } from '../design.js';
import { TOKEN_PATTERN } from '../kernel/ids.js';
import { isoTimestamp } from '../schemas.js';
import { textSchema } from '../text.js';

/** Body of `POST /tokens` (docs/api.md#endpoints). Name rules are our choice: 1 to 100 characters, need not be unique. */
export const createTokenBodySchema = z.object({
  name: textSchema(LIMITS.tokenNameMaxLength).describe(
    'Descriptive name, 1 to 100 characters; need not be unique.',
  ),
  scopes: z
    .array(z.enum(SCOPES))
    .min(1)
    .max(SCOPES.length)
    .optional()
    .describe(
      'What the token may do (docs/workspaces.md#scopes): at most the scopes of the caller. Default: every scope the caller has.',
    ),
});

/** A scope of an API token (docs/workspaces.md#scopes). */
export const scopeSchema = z.enum(SCOPES);

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
  user: userProfileSchema.describe("The token's member; `tier` is the workspace's"),
  usage: z.object({
    month: z.string().regex(/^\d{4}-\d{2}$/),
    quota: z.number().int(),
    count: z.number().int(),
    remaining: z.number().int(),
  }),
  workspace: z
    .object({
      id: z.string(),
      name: z.string(),
      role: z.enum(ROLES).describe("The member's role there"),
      scopes: z.array(scopeSchema).describe('What this token may do now: its scopes within the role'),
    })
    .describe('The workspace the token acts in (docs/workspaces.md)'),
});

/** docs/api.md#endpoints: the only response that carries the secret. */
export const createdTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  token: z.string().regex(TOKEN_PATTERN),
  createdAt: isoTimestamp,
  scopes: z.array(scopeSchema),
  workspaceId: z.string().describe('The workspace it acts in'),
});

/** docs/api.md#endpoints entries. `lastUsedAt` is null until first use. */
export const tokenListEntrySchema = z.object({
  id: z.string(),
  name: z.string(),
  lastUsedAt: isoTimestamp.nullable(),
  createdAt: isoTimestamp,
  scopes: z
    .array(scopeSchema)
    .nullable()
    .describe("Its scopes; null for a token made before scopes, which has every scope of its member's role"),
  userId: z.string().describe('The member who made it'),
});
