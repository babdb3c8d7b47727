/** The workspaces' schemas (docs/workspaces.md): request bodies, and the views the API answers. */
import { z } from 'zod';
import { ROLES, TIERS } from '../design.js';
import { isoTimestamp } from '../schemas.js';
import { textSchema } from '../text.js';

export const roleSchema = z.enum(ROLES).describe('owner, admin, editor or viewer (docs/workspaces.md#roles)');

/** `POST /workspaces`. */
export const createWorkspaceSchema = z.object({
  name: textSchema(100).describe('1 to 100 characters'),
});
/** `PATCH /workspaces/{id}`: rename (admins), hand over (owners). */
export const updateWorkspaceSchema = z.object({
  name: textSchema(100).optional().describe('1 to 100 characters'),
  owner: z
    .string()
    .optional()
    .describe(
      'Hands the workspace over: the id of a member, who becomes an owner; the caller becomes an admin',
    ),
});
/** `PATCH /workspaces/{id}/members/{userId}`. */
export const memberUpdateSchema = z.object({ role: roleSchema });
/** `POST /workspaces/{id}/invitations`. */
export const invitationBodySchema = z.object({
  email: z.email().max(254),
  role: z
    .enum(['admin', 'editor', 'viewer'])
    .default('editor')
    .describe('admin, editor (the default) or viewer; owners are made by handing over'),
});
/** `GET /workspaces/{id}/audit`. */
export const auditQuerySchema = z.object({
  limit: z.number().int().min(1).max(100).default(50).describe('1 to 100, default 50'),
  offset: z.number().int().min(0).default(0).describe('0 or more, default 0'),
});

export const workspaceSchema = z.object({
  id: z.string().describe("wsp_…; a personal workspace has its account's id"),
  name: z.string(),
  tier: z.enum(TIERS),
  personal: z
    .boolean()
    .describe("A personal workspace (its owner's own, which goes only with their account)"),
  role: roleSchema.describe("The caller's role there"),
  createdAt: isoTimestamp,
  seats: z
    .object({ used: z.number().int(), limit: z.number().int() })
    .optional()
    .describe('Members and pending invitations, against the tier’s seats (GET /workspaces/{id} only)'),
});
export const memberSchema = z.object({
  userId: z.string(),
  email: z.string(),
  displayName: z.string(),
  role: roleSchema,
  joinedAt: isoTimestamp,
});
export const invitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: roleSchema,
  invitedBy: z.string().describe('The user id of who invited'),
  createdAt: isoTimestamp,
  expiresAt: isoTimestamp,
});
export const auditEntrySchema = z.object({
  id: z.string(),
  action: z
    .string()
    .describe('member.added, member.role_changed, token.created, … (docs/workspaces.md#audit-log)'),
  actor: z
    .object({ id: z.string(), email: z.string().nullable() })
    .nullable()
    .describe('Who did it; null for the operator (the CLI)'),
  target: z.string().nullable(),
  details: z.record(z.string(), z.string()),
  address: z.string().nullable().describe("The client's address; null from the CLI"),
  at: isoTimestamp,
});
export const auditPageSchema = z.object({
  entries: z.array(auditEntrySchema),
  pagination: z.object({
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
    hasMore: z.boolean(),
  }),
});

export type WorkspaceView = z.infer<typeof workspaceSchema>;
export type MemberView = z.infer<typeof memberSchema>;
export type InvitationView = z.infer<typeof invitationSchema>;
export type AuditPage = z.infer<typeof auditPageSchema>;
