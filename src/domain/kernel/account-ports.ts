/**
 * Storage ports of accounts and workspaces (docs/workspaces.md): users, API tokens, workspaces
 * with their members, invitations and audit logs. Part of the record store of ports.ts.
 */
import type { Role } from '../design.js';
import type {
  ApiToken,
  AuditEntry,
  Subscription,
  Invitation,
  Membership,
  User,
  UserChanges,
  Workspace,
  WorkspaceChanges,
} from './records.js';

export interface UserRepository {
  /** Inserts a user. Throws {@link import('./errors.js').ValidationError} (field `email`) if the email is taken. */
  create(user: User): Promise<void>;
  findById(id: string): Promise<User | undefined>;
  /** Case-insensitive match. */
  findByEmail(email: string): Promise<User | undefined>;
  /** Applies `changes`; false when no user has that id. Throws ValidationError (field `email`) if the new email is taken. */
  update(id: string, changes: UserChanges): Promise<boolean>;
  /** Deletes the user record (its tokens, images, sessions and links are deleted first, by their repositories). */
  delete(id: string): Promise<void>;
}

export interface TokenRepository {
  create(token: ApiToken): Promise<void>;
  /**
   * Creates the token only while its workspace has fewer than `max` active tokens; false
   * otherwise. Atomic across processes: concurrent creations never exceed `max`.
   */
  createWithinLimit(token: ApiToken, max: number): Promise<boolean>;
  /** The active (not revoked) token with this hash, if any. */
  findActiveByHash(tokenHash: string): Promise<ApiToken | undefined>;
  /** A workspace's active tokens (only those `userId` made, when given), newest first. */
  listActive(workspaceId: string, userId?: string): Promise<ApiToken[]>;
  countActive(workspaceId: string): Promise<number>;
  /**
   * Revokes the workspace's active token `id` (only if `userId` made it, when given). Returns false
   * when there is none (unknown, revoked, another workspace's or another member's).
   */
  revoke(workspaceId: string, id: string, at: Date, userId?: string): Promise<boolean>;
  /**
   * Revokes every active token `userId` made (in `workspaceId` only, when given: a member removed);
   * answers how many.
   */
  revokeMade(userId: string, at: Date, workspaceId?: string): Promise<number>;
  /** Records that the token authenticated a request at `at`; never moves `lastUsedAt` back. */
  touch(id: string, at: Date): Promise<void>;
  /** Deletes every token of the workspace, revoked or not (the workspace deleted). */
  deleteAllForWorkspace(workspaceId: string): Promise<void>;
  /** Deletes every token the person made, in any workspace (the account deleted). */
  deleteAllForUser(userId: string): Promise<void>;
}

/** Workspaces and their members (docs/workspaces.md). */
export interface WorkspaceRepository {
  /** Inserts a workspace and its first member (its owner) together. */
  create(workspace: Workspace, owner: Membership): Promise<void>;
  find(id: string): Promise<Workspace | undefined>;
  /** Applies `changes`; false when there is no such workspace. */
  update(id: string, changes: WorkspaceChanges): Promise<boolean>;
  /** Deletes the workspace, its members, invitations and audit log (its other records go first). */
  delete(id: string): Promise<void>;
  /** The person's workspaces with their role in each: their own personal one first, then by name. */
  listFor(userId: string): Promise<{ workspace: Workspace; role: Role }[]>;
  /** A person's membership of a workspace; undefined when they are not a member. */
  member(workspaceId: string, userId: string): Promise<Membership | undefined>;
  /** The workspace's members, oldest first. */
  members(workspaceId: string): Promise<Membership[]>;
  /** Adds a member; false when they already are one. */
  addMember(membership: Membership): Promise<boolean>;
  /** Changes a member's role; false when they are not a member. */
  setRole(workspaceId: string, userId: string, role: Role): Promise<boolean>;
  /** Removes a member; false when they were not one. */
  removeMember(workspaceId: string, userId: string): Promise<boolean>;
}

/** Invitations to workspaces (docs/workspaces.md#invitations). */
export interface InvitationRepository {
  create(invitation: Invitation): Promise<void>;
  /** The workspace's pending invitations (not accepted, not expired at `now`), newest first. */
  pending(workspaceId: string, now: Date): Promise<Invitation[]>;
  /** The invitation whose link secret has this hash, accepted or not. */
  findBySecret(secretHash: string): Promise<Invitation | undefined>;
  /** Marks the invitation accepted at `at`, once: false when it already was (or is gone). */
  accept(id: string, at: Date): Promise<boolean>;
  /** Deletes the workspace's invitation `id`; false when there was none. */
  delete(workspaceId: string, id: string): Promise<boolean>;
  /** Deletes every invitation of the workspace. */
  deleteAllFor(workspaceId: string): Promise<void>;
}

/** Workspaces' audit logs (docs/workspaces.md#audit-log). */
export interface AuditRepository {
  append(entry: AuditEntry): Promise<void>;
  /** One page of a workspace's entries, newest first (ties by id), and how many there are. */
  page(workspaceId: string, limit: number, offset: number): Promise<{ items: AuditEntry[]; total: number }>;
  /** Deletes the entries older than `before` (kept a year); answers how many. */
  prune(before: Date): Promise<number>;
  /** Deletes every entry of the workspace. */
  deleteAllFor(workspaceId: string): Promise<void>;
}

/** Workspaces' subscriptions and the billing events applied (docs/billing.md). */
export interface BillingRepository {
  find(workspaceId: string): Promise<Subscription | undefined>;
  findByCustomer(customerId: string): Promise<Subscription | undefined>;
  /** Inserts or replaces the workspace's subscription. */
  upsert(subscription: Subscription): Promise<void>;
  /**
   * Claims an event id for applying at `at`: true for the one caller that did (atomic, across
   * processes); false when it is applied, or claimed since `staleBefore` (a claim older than that
   * whose process died or could not give it back is taken over).
   */
  claimEvent(eventId: string, at: Date, staleBefore: Date): Promise<boolean>;
  /** Marks a claimed event applied: never claimed again. */
  finishEvent(eventId: string): Promise<void>;
  /** Gives a claim back (applying it failed: Stripe's retry applies it). */
  releaseEvent(eventId: string): Promise<void>;
  /** The subscriptions `past_due` since before `before`. */
  pastDueSince(before: Date): Promise<Subscription[]>;
  /** Deletes the workspace's subscription record (the workspace deleted). */
  delete(workspaceId: string): Promise<void>;
}
