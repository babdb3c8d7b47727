/**
 * Accounts: users, API tokens (docs/api.md#endpoints) and bearer-token authentication.
 * Token secrets are shown once, at creation; only their SHA-256 hash is stored. A revoked token fails
 * on the very next request in every process, because every request looks the hash up in the store.
 */
import type { Logger } from 'pino';
import { z } from 'zod';
import type { AccountLinks } from './email-links.js';
import { assertConfirmed } from './confirmation.js';
import { createPasswordGuard } from './password-guard.js';
import {
  ConflictError,
  emailTakenError,
  ForbiddenError,
  NotFoundError,
  UnauthorizedError,
  ValidationError,
} from '../kernel/errors.js';
import { hashToken, newId, newTokenSecret, TOKEN_PATTERN } from '../kernel/ids.js';
import type { ApiToken, User, Workspace } from '../kernel/records.js';
import { TIERS, type Scope, type Tier } from '../design.js';
import { effectiveScopes, memberPrincipal, ROLE_SCOPES, type Principal } from '../workspaces/roles.js';
import type { AuditLog } from '../workspaces/audit.js';
import { createPersonalWorkspace } from '../workspaces/personal.js';
import { assertNoLiveSubscription } from '../billing/billing.js';
import { hashPassword, passwordSchema, verifyPassword } from './passwords.js';
import type { Clock, RecordStore, Throttle } from '../kernel/ports.js';
import { createTokenBodySchema, type createdTokenSchema, type tokenListEntrySchema } from './schemas.js';
import { LIMITS } from '../design.js';
import type { OAuth } from '../oauth/oauth.js';
import type { Sessions } from './sessions.js';
import { parseOrThrow } from '../kernel/validate.js';

export type CreatedToken = z.infer<typeof createdTokenSchema>;
export type TokenListEntry = z.infer<typeof tokenListEntrySchema>;

export type { Principal } from '../workspaces/roles.js';

/** docs/api.md#endpoints: the user profile; `tier` is the workspace's where they act. */
export function profileOf(user: User, workspace: Pick<Workspace, 'tier'>) {
  return { id: user.id, email: user.email, displayName: user.displayName, tier: workspace.tier };
}

const newUserSchema = z.object({
  email: z.email().max(254),
  displayName: z.string().trim().min(1).max(100),
  tier: z.enum(TIERS),
});

/** The account use cases. */
export interface Accounts {
  /**
   * Creates an account, its personal workspace on `tier`, and its first token there (named
   * "default", every scope). Throws ValidationError on `email` (format, or already registered:
   * constraint `format`), `displayName` (1–100 characters) or `tier`.
   */
  createUser(input: { email: string; displayName: string; tier: string }): Promise<{
    user: User;
    workspace: Workspace;
    token: CreatedToken;
  }>;
  /**
   * Changes the tier of a person's personal workspace (`titlecard users set-tier`). Throws
   * NotFoundError for an unknown email, ValidationError for a bad tier.
   */
  setTier(email: string, tier: string): Promise<{ user: User; workspace: Workspace }>;
  /** Throws NotFoundError for an unknown email (compared case-insensitively). */
  findUserByEmail(email: string): Promise<User>;
  /**
   * The operator acting as a member (the CLI): the person of `email` in `workspaceId` (their
   * personal workspace when omitted) with every scope of their role there. NotFoundError for an
   * unknown email, or a workspace they are not a member of.
   */
  actAs(email: string, workspaceId?: string): Promise<Principal>;
  /**
   * docs/api.md#endpoints: creates a token of the caller in the caller's workspace; `body` is
   * `{name, scopes?}`. Name rules (our choice): 1 to 100 characters after trimming, no control
   * characters, need not be unique. `scopes` (docs/workspaces.md#scopes): at most the caller's own,
   * default all of them. At most `LIMITS.activeTokensMax` (100) active tokens per workspace.
   * Throws ValidationError on `name` or `scopes`, ForbiddenError naming a scope the caller lacks,
   * or while the account's email is not confirmed (see {@link assertConfirmed}).
   */
  createToken(principal: Principal, body: unknown): Promise<CreatedToken>;
  /** Revokes every active token the person made, in every workspace, at once; answers how many. */
  revokeAllTokens(user: User): Promise<number>;
  /**
   * docs/api.md#endpoints: the active tokens of the workspace, newest first, without secrets: the
   * caller's own, or every member's with `workspace:admin`.
   */
  listTokens(principal: Principal): Promise<TokenListEntry[]>;
  /**
   * docs/api.md#endpoints: revokes at once: the caller's own token, or any of the workspace's with
   * `workspace:admin`. Unknown, already revoked, or beyond that: NotFoundError.
   */
  revokeToken(principal: Principal, id: string): Promise<void>;
  /**
   * Section 5: resolves an `Authorization` header value to the caller: the token's member, acting
   * in the token's workspace with the token's scopes within the member's current role. Throws
   * UnauthorizedError `missing` without a header, `invalid` for anything but a known, active bearer
   * token of a current member. Records the token's `lastUsedAt`, to the minute (see
   * {@link LAST_USED_EVERY_MS}). `address` is the client's, for the audit log.
   */
  authenticate(authorization: string | undefined, address?: string): Promise<Principal>;
  /**
   * Changes the display name at once. A new email (`email` differing from the account's) needs the
   * current password (`currentPassword`), takes effect only when the new address confirms it by the
   * link sent there, and the old address is told; `pendingEmail` names it. Throws ValidationError
   * on `displayName` or `email` (format, or taken), InvalidCredentialsError and TooManyAttemptsError
   * as {@link changePassword}.
   */
  updateProfile(user: User, input: unknown, client: string): Promise<{ user: User; pendingEmail?: string }>;
  /**
   * Changes the password after checking the current one (InvalidCredentialsError when wrong,
   * TooManyAttemptsError while `client` must wait, as at sign-in; an account without a password sets
   * its first one with a reset link), then ends every other session (`keepSession` is the cookie
   * value of the one making the change) and every connected app's access (OAuth grants). API
   * tokens stay (the page lists them, with "Revoke all"). ValidationError on `password`.
   */
  changePassword(user: User, input: unknown, client: string, keepSession?: string): Promise<void>;
  /**
   * Deletes the account after checking its password (InvalidCredentialsError, TooManyAttemptsError
   * as {@link changePassword}): its personal workspace with everything in it, its places in other
   * workspaces and the tokens it made there, connected apps' grants, sessions, email links, then
   * the user. A revoked token or session fails at once, in every process. ConflictError while it
   * is the only owner of a workspace with other members (hand it over or delete it first).
   */
  deleteAccount(user: User, input: unknown, client: string): Promise<void>;
}

/** `lastUsedAt` is written at most this often per token (ms): a busy token costs no write per request. */
export const LAST_USED_EVERY_MS = 60_000;

/** What deleting an account needs from the other use cases. */
export interface AccountsDeps {
  store: RecordStore;
  clock: Clock;
  logger: Logger;
  links: AccountLinks;
  sessions: Pick<Sessions, 'signOutEverywhere'>;
  /** Counts guesses of the current password, as sign-in does (password-guard.ts). */
  throttle: Throttle;
  /** Ends or deletes the OAuth grants of connected apps. */
  oauth: Pick<OAuth, 'endAllFor' | 'deleteAllFor'>;
  /** Deletes a workspace with everything in it, records and files (workspaces.ts). */
  deleteWorkspace: (workspaceId: string) => Promise<void>;
  audit: AuditLog;
}

const profileSchema = z.object({
  displayName: z.string().trim().min(1).max(100),
  email: z.email().max(254),
  currentPassword: z.string().max(1024).default(''),
});
const passwordChangeSchema = z.object({
  currentPassword: z.string().max(1024).default(''),
  password: passwordSchema,
});
const confirmSchema = z.object({ password: z.string().max(1024).default('') });

export function createAccounts({
  store,
  clock,
  logger,
  links,
  sessions,
  throttle,
  oauth,
  deleteWorkspace,
  audit,
}: AccountsDeps): Accounts {
  const guard = createPasswordGuard(throttle);
  /** Checks `password` against the user's, throttled as sign-in is. */
  const checkPassword = (user: User, password: string, client: string) =>
    guard.check(user.email, client, () => verifyPassword(user.passwordHash, password));

  /** A new token record and its one-time view (with the secret); the caller stores the record. */
  function newToken(
    user: User,
    workspaceId: string,
    name: string,
    scopes: Scope[] | null,
    shown: readonly Scope[],
  ): { record: ApiToken; view: CreatedToken } {
    const secret = newTokenSecret();
    const record: ApiToken = {
      id: newId('tok'),
      workspaceId,
      userId: user.id,
      scopes,
      name,
      tokenHash: hashToken(secret),
      createdAt: clock.now(),
      lastUsedAt: null,
      revokedAt: null,
    };
    return {
      record,
      view: {
        id: record.id,
        name,
        token: secret,
        createdAt: record.createdAt.toISOString(),
        scopes: [...shown],
        workspaceId,
      },
    };
  }

  return {
    async createUser(input) {
      const { tier, ...parsed } = parseOrThrow(newUserSchema, input);
      if (await store.users.findByEmail(parsed.email)) throw emailTakenError(parsed.email);
      const user: User = {
        id: newId('usr'),
        ...parsed,
        createdAt: clock.now(),
        passwordHash: null,
        // The operator made it: the address counts as confirmed.
        emailVerifiedAt: clock.now(),
      };
      await store.users.create(user);
      const workspace = await createPersonalWorkspace(store, user, tier);
      const first = newToken(user, workspace.id, 'default', null, ROLE_SCOPES.owner);
      await store.tokens.create(first.record);
      return { user, workspace, token: first.view };
    },

    async setTier(email, tier) {
      const parsedTier: Tier = parseOrThrow(z.enum(TIERS), tier, ['tier']);
      const user = await store.users.findByEmail(email);
      if (!user) throw new NotFoundError(`No user with email ${email}`);
      const workspace = await store.workspaces.find(user.id);
      if (!workspace) throw new NotFoundError(`No personal workspace for ${email}`);
      await store.workspaces.update(workspace.id, { tier: parsedTier });
      await audit.record(null, 'workspace.updated', {
        workspaceId: workspace.id,
        details: { tier: parsedTier },
      });
      return { user, workspace: { ...workspace, tier: parsedTier } };
    },

    async findUserByEmail(email) {
      const user = await store.users.findByEmail(email);
      if (!user) throw new NotFoundError(`No user with email ${email}`);
      return user;
    },

    async actAs(email, workspaceId) {
      const user = await store.users.findByEmail(email);
      if (!user) throw new NotFoundError(`No user with email ${email}`);
      const id = workspaceId ?? user.id;
      const [membership, workspace] = await Promise.all([
        store.workspaces.member(id, user.id),
        store.workspaces.find(id),
      ]);
      if (!membership || !workspace) throw new NotFoundError(`${email} is not a member of a workspace ${id}`);
      return memberPrincipal(user, workspace, membership.role);
    },

    async createToken(principal, body) {
      const { name, scopes } = parseOrThrow(createTokenBodySchema, body ?? {});
      assertConfirmed(principal.user, 'make API tokens');
      const missing = scopes?.find((scope) => !principal.scopes.has(scope));
      if (missing)
        throw new ForbiddenError(
          `A token cannot have the scope ${missing}, which its maker lacks in this workspace`,
        );
      const granted = scopes ? [...new Set(scopes)] : [...principal.scopes];
      const created = newToken(principal.user, principal.workspace.id, name, granted, granted);
      if (!(await store.tokens.createWithinLimit(created.record, LIMITS.activeTokensMax)))
        throw new ValidationError(
          'name',
          'max',
          `Expected at most ${LIMITS.activeTokensMax} active tokens per workspace but this workspace has ${LIMITS.activeTokensMax}; revoke one first`,
        );
      await audit.record(principal, 'token.created', {
        target: created.record.id,
        details: { name, scopes: granted.join(' ') },
      });
      return created.view;
    },

    async listTokens(principal) {
      const mine = principal.scopes.has('workspace:admin') ? undefined : principal.user.id;
      return (await store.tokens.listActive(principal.workspace.id, mine)).map((t) => ({
        id: t.id,
        name: t.name,
        lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
        createdAt: t.createdAt.toISOString(),
        scopes: t.scopes,
        userId: t.userId,
      }));
    },

    async revokeAllTokens(user) {
      return store.tokens.revokeMade(user.id, clock.now());
    },

    async revokeToken(principal, id) {
      const mine = principal.scopes.has('workspace:admin') ? undefined : principal.user.id;
      if (!(await store.tokens.revoke(principal.workspace.id, id, clock.now(), mine)))
        throw new NotFoundError(`No active token with id ${id} in this workspace`);
      await audit.record(principal, 'token.revoked', { target: id });
    },

    async authenticate(authorization, address) {
      if (authorization === undefined || authorization.trim() === '') throw new UnauthorizedError('missing');
      const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
      // A token without its scheme (`Authorization: tc_…`) is named as such, not called invalid.
      if (!match && TOKEN_PATTERN.test(authorization.trim())) throw new UnauthorizedError('scheme');
      const secret = match?.[1];
      if (!secret || !TOKEN_PATTERN.test(secret)) throw new UnauthorizedError('invalid');
      const token = await store.tokens.findActiveByHash(hashToken(secret));
      if (!token) throw new UnauthorizedError('invalid');
      // Read afresh on every request: a member removed or re-roled is seen at once, everywhere.
      const [user, membership, workspace] = await Promise.all([
        store.users.findById(token.userId),
        store.workspaces.member(token.workspaceId, token.userId),
        store.workspaces.find(token.workspaceId),
      ]);
      if (!user || !membership || !workspace) throw new UnauthorizedError('invalid');
      // lastUsedAt: written at most once a minute per token, and never the reason a request fails.
      const now = clock.now();
      if (!token.lastUsedAt || now.getTime() - token.lastUsedAt.getTime() >= LAST_USED_EVERY_MS)
        await store.tokens
          .touch(token.id, now)
          .catch((err: unknown) => logger.warn({ err }, 'lastUsedAt not recorded'));
      return {
        user,
        workspace,
        role: membership.role,
        scopes: effectiveScopes(membership.role, token.scopes),
        tokenId: token.id,
        ...(address ? { address } : {}),
      };
    },

    async updateProfile(user, input, client) {
      const { displayName, email, currentPassword } = parseOrThrow(profileSchema, input);
      const emailChanged = email.toLowerCase() !== user.email.toLowerCase();
      if (emailChanged) {
        await checkPassword(user, currentPassword, client);
        if (await store.users.findByEmail(email)) throw emailTakenError(email);
      }
      await store.users.update(user.id, { displayName });
      const updated = { ...user, displayName };
      if (!emailChanged) return { user: updated };
      await links.requestEmailChange(updated, email);
      return { user: updated, pendingEmail: email };
    },

    async changePassword(user, input, client, keepSession) {
      const { currentPassword, password } = parseOrThrow(passwordChangeSchema, input);
      await checkPassword(user, currentPassword, client);
      await store.users.update(user.id, { passwordHash: await hashPassword(password) });
      await sessions.signOutEverywhere(user, keepSession);
      await oauth.endAllFor(user.id);
    },

    async deleteAccount(user, input, client) {
      const { password } = parseOrThrow(confirmSchema, input);
      await checkPassword(user, password, client);
      const places = await store.workspaces.listFor(user.id);
      // Every workspace that goes with the account: its own, and those where it is the only member.
      for (const { workspace } of places) {
        const alone = (await store.workspaces.members(workspace.id)).every((m) => m.userId === user.id);
        if (workspace.personalOf === user.id || alone) await assertNoLiveSubscription(store, workspace);
      }
      for (const { workspace, role } of places) {
        if (workspace.personalOf === user.id || role !== 'owner') continue;
        const members = await store.workspaces.members(workspace.id);
        if (
          members.some((m) => m.userId !== user.id) &&
          !members.some((m) => m.userId !== user.id && m.role === 'owner')
        )
          throw new ConflictError(
            `You are the only owner of the workspace ${workspace.name} (${workspace.id}): make another member its owner, or delete it, first`,
          );
      }
      // Access ends first, then the data; the user record goes last, so a crash midway leaves an
      // account that can be deleted again.
      await store.tokens.deleteAllForUser(user.id);
      await oauth.deleteAllFor(user.id);
      await sessions.signOutEverywhere(user);
      for (const { workspace } of places) {
        const alone = (await store.workspaces.members(workspace.id)).every((m) => m.userId === user.id);
        if (workspace.personalOf === user.id || alone) await deleteWorkspace(workspace.id);
        else if (await store.workspaces.removeMember(workspace.id, user.id))
          await audit.record(null, 'member.removed', {
            workspaceId: workspace.id,
            target: user.id,
            details: { reason: 'account deleted' },
          });
      }
      await store.links.deleteAllForUser(user.id);
      await store.users.delete(user.id);
    },
  };
}
