/**
 * Who may do what in a workspace (docs/workspaces.md#roles): the scopes of each role, and the
 * check every use case makes of its caller. A role is a superset of the next; a token acts with
 * the scopes it was given that its member's current role also has, read afresh at each request,
 * so a lowered role or a removed member takes effect at once in every process.
 */
import { SCOPES, type Role, type Scope } from '../design.js';
import { ForbiddenError } from '../kernel/errors.js';
import type { User, Workspace } from '../kernel/records.js';

/**
 * The scopes of each role. Reading (images, templates, usage) is a viewer's; making cards,
 * templates, assets, presets and render links an editor's; sites, webhooks, members, invitations,
 * others' tokens and settings an admin's. An owner has an admin's scopes and, beyond any scope,
 * deletes the workspace and hands it over (the role itself is checked for those).
 */
export const ROLE_SCOPES: Record<Role, readonly Scope[]> = {
  viewer: ['images:read', 'usage:read'],
  editor: ['images:read', 'usage:read', 'images:write', 'templates:write'],
  admin: SCOPES,
  owner: SCOPES,
};

/**
 * Who is calling: the person, the workspace they act in, their role there and the scopes this
 * request may use (a token's scopes within the role's; the role's for a dashboard session).
 */
export interface Principal {
  user: User;
  workspace: Workspace;
  role: Role;
  scopes: ReadonlySet<Scope>;
  /** The API token that authenticated the request (none for a dashboard session or an MCP grant). */
  tokenId?: string;
  /** The client's address as the edge saw it (for the audit log); none from the CLI. */
  address?: string;
}

/** The scopes a caller in `role` acts with: `granted` (a token's, `null`: all) within the role's. */
export function effectiveScopes(role: Role, granted: readonly Scope[] | null): ReadonlySet<Scope> {
  const allowed = ROLE_SCOPES[role];
  return new Set(granted === null ? allowed : granted.filter((s) => allowed.includes(s)));
}

/** A principal acting as `user` in `workspace` with every scope of `role` (a session, an MCP grant). */
export function memberPrincipal(user: User, workspace: Workspace, role: Role, address?: string): Principal {
  return { user, workspace, role, scopes: effectiveScopes(role, null), ...(address ? { address } : {}) };
}

/**
 * Throws ForbiddenError (403 `FORBIDDEN`) naming `scope` when the caller lacks it, and what gives
 * it: a token's scopes or the member's role.
 */
export function requireScope(principal: Pick<Principal, 'scopes' | 'role' | 'tokenId'>, scope: Scope): void {
  if (principal.scopes.has(scope)) return;
  const roleHas = ROLE_SCOPES[principal.role].includes(scope);
  throw new ForbiddenError(
    roleHas && principal.tokenId
      ? `This token lacks the scope ${scope}; make a token with it`
      : `This needs the scope ${scope}, which the role ${principal.role} does not have in this workspace`,
  );
}
