/**
 * Workspaces (docs/workspaces.md): making and deleting them, members and their roles,
 * invitations by email, the tier (by the operator) and the audit log. Every use case acts for a
 * {@link Principal} in one workspace: a REST token in its own, a dashboard session in the one its
 * switcher chose. A workspace `{id}` other than the caller's answers NotFoundError, as for any
 * record that is not the caller's.
 *
 * Rules (issue 51): a workspace always has an owner, so the last owner can neither leave nor be
 * demoted; only an owner makes or unmakes owners, hands a workspace over and deletes it; an admin
 * manages the other members and invitations; seats ({@link TIER_SEATS}) count the members and the
 * pending invitations. Removing a member revokes the tokens they made there and ends their
 * connected apps' access there; their access also ends at once because every request reads the
 * membership afresh.
 */
import { z } from 'zod';
import { TIER_SEATS, TIERS, type Role } from '../design.js';
import {
  auditQuerySchema,
  createWorkspaceSchema,
  invitationBodySchema,
  memberUpdateSchema,
  updateWorkspaceSchema,
  type AuditPage,
  type InvitationView,
  type MemberView,
  type WorkspaceView,
} from './schemas.js';
import {
  ConflictError,
  ForbiddenError,
  InvalidLinkError,
  NotFoundError,
  ValidationError,
} from '../kernel/errors.js';
import { hashToken, newId, randomBase62 } from '../kernel/ids.js';
import type { Clock, Mailer, RecordStore } from '../kernel/ports.js';
import type { Invitation, User, Workspace } from '../kernel/records.js';
import { parseOrThrow } from '../kernel/validate.js';
import { assertConfirmed } from '../accounts/confirmation.js';
import type { AuditLog } from './audit.js';
import { assertNoLiveSubscription } from '../billing/billing.js';
import { memberPrincipal, requireScope, type Principal } from './roles.js';
import type { Logger } from 'pino';

/** An invitation's link is good for 7 days (issue 51). */
export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;

/** The path of an invitation's link; the secret follows in `?token=`. */
export const INVITATION_PATH = '/invitations/accept';

/** The secret in an invitation link: `inv_` + 43 base62 characters (256 bits). */
const INVITATION_SECRET = /^inv_[0-9A-Za-z]{43}$/;

/** Workspaces a person may make beyond the personal one (our choice: plenty for one per client). */
export const WORKSPACES_MAX = 50;

/** What the accept page shows of an invitation before it is taken. */
export interface InvitationPreview {
  workspaceName: string;
  email: string;
  role: Role;
  invitedBy: string;
  expiresAt: Date;
}

export interface Workspaces {
  /** The caller's workspaces with their role in each: the personal one first, then by name. */
  list(user: User): Promise<WorkspaceView[]>;
  /**
   * Makes a workspace (Free tier) with the caller as its owner. ValidationError on `name`;
   * ForbiddenError without `workspace:admin`, or past {@link WORKSPACES_MAX}.
   */
  create(principal: Principal, body: unknown): Promise<WorkspaceView>;
  /** The caller's workspace `id`, with its seats. NotFoundError for any other. */
  get(principal: Principal, id: string): Promise<WorkspaceView>;
  /**
   * Renames (`workspace:admin`) and/or hands over (`owner`: a member's id; owners only, who become
   * admins). ValidationError on `name` or `owner` (not a member); ForbiddenError as said.
   */
  update(principal: Principal, id: string, body: unknown): Promise<WorkspaceView>;
  /** Deletes the workspace with all its records and files (owners only; not a personal one: ConflictError). */
  delete(principal: Principal, id: string): Promise<void>;
  /** The members, oldest first. */
  members(principal: Principal, id: string): Promise<MemberView[]>;
  /**
   * Changes a member's role (`workspace:admin`; only an owner gives or takes `owner`). ConflictError
   * for the last owner; NotFoundError for a non-member.
   */
  setRole(principal: Principal, id: string, userId: string, body: unknown): Promise<MemberView>;
  /**
   * Removes a member (`workspace:admin`, or oneself: leaving). Their tokens there are revoked and
   * their connected apps' access there ends. ConflictError for the last owner; ForbiddenError for
   * an admin removing an owner.
   */
  removeMember(principal: Principal, id: string, userId: string): Promise<void>;
  /**
   * Invites by email with a role (`workspace:admin`; never `owner`: hand over instead) and mails a
   * single-use link good for 7 days. ForbiddenError when the seats are taken (naming the tier's
   * limit); ConflictError when the address is a member or invited already.
   */
  invite(principal: Principal, id: string, body: unknown): Promise<InvitationView>;
  /** The pending invitations, newest first (`workspace:admin`). */
  invitations(principal: Principal, id: string): Promise<InvitationView[]>;
  /** Withdraws a pending invitation (`workspace:admin`); its link stops working. NotFoundError otherwise. */
  withdraw(principal: Principal, id: string, invitationId: string): Promise<void>;
  /** What an invitation link offers; InvalidLinkError when unknown, used, withdrawn or expired. */
  preview(secret: string): Promise<InvitationPreview>;
  /**
   * Accepts an invitation as `user`, who must have confirmed the invited address (ForbiddenError
   * otherwise). InvalidLinkError when unknown, used, withdrawn or expired. Answers the workspace.
   */
  accept(user: User, secret: string, address?: string): Promise<WorkspaceView>;
  /** The audit log, newest first (`workspace:admin`), paginated by `limit` (1–100, default 50) and `offset`. */
  audit(principal: Principal, id: string, query: unknown): Promise<AuditPage>;
  /** The operator's tier change (`titlecard workspaces set-tier`). NotFoundError, ValidationError on `tier`. */
  setTier(id: string, tier: string): Promise<Workspace>;
}

export interface WorkspacesDeps {
  store: RecordStore;
  clock: Clock;
  mailer: Mailer;
  logger: Logger;
  publicUrl: string;
  audit: AuditLog;
  /** Deletes a workspace with everything in it, records and files. */
  deleteWorkspace: (id: string) => Promise<void>;
  /** Ends the connected apps' access of `userId` in `workspaceId` (oauth.ts). */
  endGrantsIn: (workspaceId: string, userId: string) => Promise<void>;
}

export function createWorkspaces(deps: WorkspacesDeps): Workspaces {
  const { store, clock, audit } = deps;

  const view = (workspace: Workspace, role: Role): WorkspaceView => ({
    id: workspace.id,
    name: workspace.name,
    tier: workspace.tier,
    personal: workspace.personalOf !== null,
    role,
    createdAt: workspace.createdAt.toISOString(),
  });

  /** The caller's own workspace, or NotFoundError (a token acts in its workspace only). */
  function own(principal: Principal, id: string): Workspace {
    if (principal.workspace.id !== id)
      throw new NotFoundError(
        `No workspace ${id} here: a token or a dashboard page acts in one workspace, ${principal.workspace.id}`,
      );
    return principal.workspace;
  }

  async function seatsUsed(workspaceId: string): Promise<number> {
    const [members, pending] = await Promise.all([
      store.workspaces.members(workspaceId),
      store.invitations.pending(workspaceId, clock.now()),
    ]);
    return members.length + pending.length;
  }

  async function memberView(workspaceId: string, userId: string): Promise<MemberView> {
    const [m, u] = await Promise.all([
      store.workspaces.member(workspaceId, userId),
      store.users.findById(userId),
    ]);
    if (!m) throw new NotFoundError(`No member ${userId} in this workspace`);
    return {
      userId,
      email: u?.email ?? '',
      displayName: u?.displayName ?? '',
      role: m.role,
      joinedAt: m.createdAt.toISOString(),
    };
  }

  async function ownerCount(workspaceId: string): Promise<number> {
    return (await store.workspaces.members(workspaceId)).filter((m) => m.role === 'owner').length;
  }

  const invitationView = (i: Invitation): InvitationView => ({
    id: i.id,
    email: i.email,
    role: i.role,
    invitedBy: i.invitedBy,
    createdAt: i.createdAt.toISOString(),
    expiresAt: i.expiresAt.toISOString(),
  });

  /** The live invitation of a link secret, or InvalidLinkError. */
  async function live(secret: string): Promise<Invitation> {
    const found = INVITATION_SECRET.test(secret)
      ? await store.invitations.findBySecret(hashToken(secret))
      : undefined;
    if (!found || found.acceptedAt || found.expiresAt <= clock.now()) throw new InvalidLinkError();
    return found;
  }

  return {
    async list(user) {
      return (await store.workspaces.listFor(user.id)).map(({ workspace, role }) => view(workspace, role));
    },

    async create(principal, body) {
      // A person makes workspaces of their own: a token needs workspace:admin for it, a session not.
      if (principal.tokenId) requireScope(principal, 'workspace:admin');
      const { name } = parseOrThrow(createWorkspaceSchema, body);
      assertConfirmed(principal.user, 'make workspaces');
      const mine = await store.workspaces.listFor(principal.user.id);
      if (mine.filter((w) => w.role === 'owner' && w.workspace.personalOf === null).length >= WORKSPACES_MAX)
        throw new ForbiddenError(
          `A person owns at most ${WORKSPACES_MAX} workspaces besides their personal one`,
        );
      const now = clock.now();
      const workspace: Workspace = { id: newId('wsp'), name, tier: 'free', personalOf: null, createdAt: now };
      await store.workspaces.create(workspace, {
        workspaceId: workspace.id,
        userId: principal.user.id,
        role: 'owner',
        createdAt: now,
      });
      await audit.record(principal, 'workspace.created', { workspaceId: workspace.id, details: { name } });
      return view(workspace, 'owner');
    },

    async get(principal, id) {
      const workspace = own(principal, id);
      return {
        ...view(workspace, principal.role),
        seats: { used: await seatsUsed(id), limit: TIER_SEATS[workspace.tier] },
      };
    },

    async update(principal, id, body) {
      let workspace = own(principal, id);
      const { name, owner } = parseOrThrow(updateWorkspaceSchema, body);
      if (name !== undefined) {
        requireScope(principal, 'workspace:admin');
        await store.workspaces.update(id, { name });
        await audit.record(principal, 'workspace.updated', { details: { name } });
        workspace = { ...workspace, name };
      }
      let role = principal.role;
      if (owner !== undefined && owner !== principal.user.id) {
        requireScope(principal, 'workspace:admin');
        if (principal.role !== 'owner') throw new ForbiddenError('Only an owner hands a workspace over');
        if (workspace.personalOf !== null)
          throw new ConflictError(
            'A personal workspace stays with its account: make a workspace to hand over',
          );
        if (!(await store.workspaces.member(id, owner)))
          throw new ValidationError(
            'owner',
            'format',
            `Expected the id of a member of this workspace but got ${owner}`,
          );
        await store.workspaces.setRole(id, owner, 'owner');
        await store.workspaces.setRole(id, principal.user.id, 'admin');
        role = 'admin';
        await audit.record(principal, 'workspace.transferred', { target: owner });
      }
      return view(workspace, role);
    },

    async delete(principal, id) {
      const workspace = own(principal, id);
      requireScope(principal, 'workspace:admin');
      if (principal.role !== 'owner') throw new ForbiddenError('Only an owner deletes a workspace');
      if (workspace.personalOf !== null)
        throw new ConflictError(
          'A personal workspace goes only with its account (Settings → Delete account)',
        );
      await assertNoLiveSubscription(store, workspace);
      await deps.deleteWorkspace(id);
    },

    async members(principal, id) {
      own(principal, id);
      const members = await store.workspaces.members(id);
      return Promise.all(members.map((m) => memberView(id, m.userId)));
    },

    async setRole(principal, id, userId, body) {
      own(principal, id);
      requireScope(principal, 'workspace:admin');
      const { role } = parseOrThrow(memberUpdateSchema, body);
      const target = await store.workspaces.member(id, userId);
      if (!target) throw new NotFoundError(`No member ${userId} in this workspace`);
      if ((role === 'owner' || target.role === 'owner') && principal.role !== 'owner')
        throw new ForbiddenError('Only an owner makes or unmakes owners');
      if (userId === principal.workspace.personalOf && role !== 'owner')
        throw new ConflictError('The account of a personal workspace stays its owner');
      if (target.role === 'owner' && role !== 'owner' && (await ownerCount(id)) <= 1)
        throw new ConflictError('A workspace always has an owner: make another member its owner first');
      if (target.role !== role) {
        await store.workspaces.setRole(id, userId, role);
        await audit.record(principal, 'member.role_changed', {
          target: userId,
          details: { from: target.role, to: role },
        });
      }
      return memberView(id, userId);
    },

    async removeMember(principal, id, userId) {
      own(principal, id);
      const leaving = userId === principal.user.id;
      if (!leaving) requireScope(principal, 'workspace:admin');
      const target = await store.workspaces.member(id, userId);
      if (!target) throw new NotFoundError(`No member ${userId} in this workspace`);
      if (target.role === 'owner' && !leaving && principal.role !== 'owner')
        throw new ForbiddenError('Only an owner removes an owner');
      if (userId === principal.workspace.personalOf)
        throw new ConflictError(
          'The account of a personal workspace stays in it: it goes only with the account',
        );
      if (target.role === 'owner' && (await ownerCount(id)) <= 1)
        throw new ConflictError(
          'A workspace always has an owner: the last owner cannot leave or be removed (hand it over, or delete it)',
        );
      await store.workspaces.removeMember(id, userId);
      await store.tokens.revokeMade(userId, clock.now(), id);
      await deps.endGrantsIn(id, userId);
      await audit.record(principal, 'member.removed', { target: userId, details: { role: target.role } });
    },

    async invite(principal, id, body) {
      const workspace = own(principal, id);
      requireScope(principal, 'workspace:admin');
      const { email, role } = parseOrThrow(invitationBodySchema, body);
      assertConfirmed(principal.user, 'invite people');
      const address = email.toLowerCase();
      const invitee = await store.users.findByEmail(address);
      if (invitee && (await store.workspaces.member(id, invitee.id)))
        throw new ConflictError(`${email} is a member of this workspace already`);
      const pending = await store.invitations.pending(id, clock.now());
      if (pending.some((i) => i.email === address))
        throw new ConflictError(`${email} is invited already: withdraw that invitation to send another`);
      const limit = TIER_SEATS[workspace.tier];
      const used = await seatsUsed(id);
      if (used >= limit)
        throw new ForbiddenError(
          `This workspace uses ${used} of its ${limit} seats (the ${workspace.tier} tier has ${limit}, members and pending invitations together): remove a member, withdraw an invitation or upgrade the tier`,
        );
      const secret = `inv_${randomBase62(43)}`;
      const now = clock.now();
      const invitation: Invitation = {
        id: newId('inv'),
        workspaceId: id,
        email: address,
        role,
        invitedBy: principal.user.id,
        secretHash: hashToken(secret),
        createdAt: now,
        expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
        acceptedAt: null,
      };
      await store.invitations.create(invitation);
      const url = `${deps.publicUrl}${INVITATION_PATH}?token=${secret}`;
      deps.mailer
        .send({
          to: address,
          subject: `${principal.user.displayName} invited you to ${workspace.name} on Titlecard`,
          text: `Hello,\n\n${principal.user.displayName} (${principal.user.email}) invited you to the workspace ${workspace.name} on Titlecard, as ${role}.\n\nTo join, open this link within 7 days and sign in (or sign up) with this address, ${address}:\n\n${url}\n\nIf you did not expect it, ignore this message.\n`,
        })
        .catch((err: unknown) =>
          deps.logger.error({ err, invitation: invitation.id }, 'invitation mail not sent'),
        );
      await audit.record(principal, 'invitation.sent', {
        target: invitation.id,
        details: { email: address, role },
      });
      return invitationView(invitation);
    },

    async invitations(principal, id) {
      own(principal, id);
      requireScope(principal, 'workspace:admin');
      return (await store.invitations.pending(id, clock.now())).map(invitationView);
    },

    async withdraw(principal, id, invitationId) {
      own(principal, id);
      requireScope(principal, 'workspace:admin');
      if (!(await store.invitations.delete(id, invitationId)))
        throw new NotFoundError(`No invitation ${invitationId} in this workspace`);
      await audit.record(principal, 'invitation.withdrawn', { target: invitationId });
    },

    async preview(secret) {
      const invitation = await live(secret);
      const [workspace, inviter] = await Promise.all([
        store.workspaces.find(invitation.workspaceId),
        store.users.findById(invitation.invitedBy),
      ]);
      if (!workspace) throw new InvalidLinkError();
      return {
        workspaceName: workspace.name,
        email: invitation.email,
        role: invitation.role,
        invitedBy: inviter?.displayName ?? 'A former member',
        expiresAt: invitation.expiresAt,
      };
    },

    async accept(user, secret, address) {
      const invitation = await live(secret);
      if (user.email.toLowerCase() !== invitation.email || !user.emailVerifiedAt)
        throw new ForbiddenError(
          `This invitation is for ${invitation.email}: sign in with that address (confirmed) to accept it`,
        );
      const workspace = await store.workspaces.find(invitation.workspaceId);
      if (!workspace) throw new InvalidLinkError();
      if (!(await store.invitations.accept(invitation.id, clock.now()))) throw new InvalidLinkError();
      await store.workspaces.addMember({
        workspaceId: workspace.id,
        userId: user.id,
        role: invitation.role,
        createdAt: clock.now(),
      });
      const actor = memberPrincipal(user, workspace, invitation.role, address);
      await audit.record(actor, 'invitation.accepted', { target: invitation.id });
      await audit.record(actor, 'member.added', { target: user.id, details: { role: invitation.role } });
      const membership = await store.workspaces.member(workspace.id, user.id);
      return view(workspace, membership?.role ?? invitation.role);
    },

    async audit(principal, id, query) {
      own(principal, id);
      requireScope(principal, 'workspace:admin');
      const { limit, offset } = parseOrThrow(auditQuerySchema, query ?? {});
      const { items, total } = await audit.page(id, limit, offset);
      const actors = new Map<string, User | undefined>();
      for (const e of items)
        if (e.actorId && !actors.has(e.actorId)) actors.set(e.actorId, await store.users.findById(e.actorId));
      return {
        entries: items.map((e) => ({
          id: e.id,
          action: e.action,
          actor: e.actorId ? { id: e.actorId, email: actors.get(e.actorId)?.email ?? null } : null,
          target: e.target,
          details: e.details,
          address: e.address,
          at: e.at.toISOString(),
        })),
        pagination: { total, limit, offset, hasMore: offset + items.length < total },
      };
    },

    async setTier(id, tier) {
      const parsed = parseOrThrow(z.enum(TIERS), tier, ['tier']);
      const workspace = await store.workspaces.find(id);
      if (!workspace) throw new NotFoundError(`No workspace ${id}`);
      await store.workspaces.update(id, { tier: parsed });
      await audit.record(null, 'workspace.updated', { workspaceId: id, details: { tier: parsed } });
      return { ...workspace, tier: parsed };
    },
  };
}
