/**
 * Dashboard accounts in the browser: sign-up, sign-in and server-side sessions.
 *
 * - A session is an opaque random secret (`ses_` + 43 base62 characters, 256 bits) in a cookie; only
 *   its SHA-256 is stored, like an API token's. It ends after {@link SESSION_IDLE_MS} without a
 *   request (idle expiry) and at the latest {@link SESSION_ABSOLUTE_MS} after sign-in (absolute
 *   expiry), whichever comes first: the OWASP Session Management Cheat Sheet's two timeouts.
 * - Failed sign-ins are throttled per account and client together, with growing waits, and per
 *   client (password-guard.ts): a stranger's failures never lock the owner out. The answer to a
 *   failed sign-in is the same whether or not the email has an account, and takes the same time (a
 *   dummy password verification).
 * - Sign-up is open or closed by configuration (`SIGNUP`); new accounts are on the free tier. It
 *   answers the same, in the same time, whether or not the address has an account: a new address
 *   gets its account and a verification link, a taken one a notice to its owner. Nobody is signed
 *   in by signing up: the person signs in next, and the account makes no tokens, signing keys or
 *   connected apps until its address is confirmed (OWASP ASVS 4.0 V2.1, "pre-hijacking").
 */
import { z } from 'zod';
import type { AccountLinks } from './email-links.js';
import { ForbiddenError, ValidationError } from '../kernel/errors.js';
import { createPasswordGuard } from './password-guard.js';
import { hashToken, newId, randomBase62 } from '../kernel/ids.js';
import type { Session, User, Workspace } from '../kernel/records.js';
import type { Role } from '../design.js';
import { createPersonalWorkspace } from '../workspaces/personal.js';
import { memberPrincipal, type Principal } from '../workspaces/roles.js';
import { hashPassword, passwordSchema, verifyPassword } from './passwords.js';
import type { Clock, RecordStore, Throttle } from '../kernel/ports.js';
import { parseOrThrow } from '../kernel/validate.js';

/** Idle expiry: 7 days without a request. */
export const SESSION_IDLE_MS = 7 * 24 * 3600 * 1000;
/** Absolute expiry: 30 days after sign-in, however active. */
export const SESSION_ABSOLUTE_MS = 30 * 24 * 3600 * 1000;
/** `lastSeenAt` is written at most once a minute per session, not on every request. */
const TOUCH_EVERY_MS = 60_000;

export const SESSION_SECRET_PATTERN = /^ses_[0-9A-Za-z]{43}$/;

/** `SIGNUP`: `open` lets anyone make an account in the dashboard; `closed` only `titlecard users create`. */
export type SignUpMode = 'open' | 'closed';

const signUpSchema = z.object({
  email: z.email().max(254),
  displayName: z.string().trim().min(1).max(100),
  password: passwordSchema,
});
const signInSchema = z.object({
  email: z.string().trim().min(1).max(254),
  password: z.string().min(1).max(1024),
});

/** A new session: the secret goes into the cookie, once. */
export interface SignedIn {
  user: User;
  secret: string;
  expiresAt: Date;
}

/** A request's session, resolved. */
export interface SessionPrincipal {
  user: User;
  session: Session;
  /** The person acting in the workspace chosen in the dashboard's switcher (their personal one by default). */
  principal: Principal;
  /** Every workspace the person belongs to, with their role: the personal one first, then by name. */
  workspaces: { workspace: Workspace; role: Role }[];
}

export interface Sessions {
  /**
   * Creates a free-tier account with a password and sends the email verification, or, when the
   * address has an account, tells its owner; the same answer either way, and nobody signed in.
   * Throws ForbiddenError when sign-up is closed, ValidationError on `email` (format),
   * `displayName` (1–100 characters) or `password` (8–256 characters).
   */
  signUp(input: unknown): Promise<void>;
  /**
   * Throws TooManyAttemptsError while this `client` must wait on this account or at all (see
   * password-guard.ts), InvalidCredentialsError for anything but a matching email and password,
   * ValidationError for an empty field.
   */
  signIn(input: unknown, client: string): Promise<SignedIn>;
  /** The live session of a cookie value, or undefined (missing, unknown, or expired: then deleted). */
  /**
   * The session of this cookie value, acting in `workspaceId` when the person belongs to it (their
   * personal workspace otherwise); undefined when there is no live session. `address` is the
   * client's, for the audit log.
   */
  authenticate(
    secret: string | undefined,
    options?: { workspaceId?: string; address?: string },
  ): Promise<SessionPrincipal | undefined>;
  /** Ends the session of this cookie value (no error when there is none). */
  signOut(secret: string | undefined): Promise<void>;
  /** Ends every session of the user but `keep` (a cookie value), or all of them. */
  signOutEverywhere(user: User, keep?: string): Promise<void>;
  /** Whether sign-up is open. */
  readonly signUpMode: SignUpMode;
}

export interface SessionsDeps {
  store: RecordStore;
  clock: Clock;
  throttle: Throttle;
  links: AccountLinks;
  signUpMode: SignUpMode;
}

export function createSessions({ store, clock, throttle, links, signUpMode }: SessionsDeps): Sessions {
  const guard = createPasswordGuard(throttle);
  async function open(user: User): Promise<SignedIn> {
    const secret = `ses_${randomBase62(43)}`;
    const now = clock.now();
    const expiresAt = new Date(now.getTime() + SESSION_ABSOLUTE_MS);
    await store.sessions.create({
      idHash: hashToken(secret),
      userId: user.id,
      createdAt: now,
      lastSeenAt: now,
      expiresAt,
    });
    return { user, secret, expiresAt };
  }

  return {
    signUpMode,

    async signUp(input) {
      if (signUpMode === 'closed')
        throw new ForbiddenError('Sign-up is closed on this server: ask its operator for an account');
      const { email, displayName, password } = parseOrThrow(signUpSchema, input);
      // Hashed either way, so that a taken address answers in the same time as a new one.
      const passwordHash = await hashPassword(password);
      const owner = await store.users.findByEmail(email);
      if (owner) {
        links.notifySignUpAttempt(owner);
        return;
      }
      const user: User = {
        id: newId('usr'),
        email,
        displayName,
        createdAt: clock.now(),
        passwordHash,
        emailVerifiedAt: null,
      };
      try {
        await store.users.create(user);
      } catch (err) {
        // Taken between the look-up and the insert: the same answer as a taken address.
        if (err instanceof ValidationError && err.field === 'email') return;
        throw err;
      }
      // New accounts are on the free tier.
      await createPersonalWorkspace(store, user, 'free');
      links.sendVerification(user);
    },

    async signIn(input, client) {
      const { email, password } = parseOrThrow(signInSchema, input);
      let user: User | undefined;
      await guard.check(email, client, async () => {
        user = await store.users.findByEmail(email);
        return (await verifyPassword(user?.passwordHash ?? null, password)) && user !== undefined;
      });
      return open(user as User);
    },

    async authenticate(secret, { workspaceId, address } = {}) {
      if (!secret || !SESSION_SECRET_PATTERN.test(secret)) return undefined;
      const idHash = hashToken(secret);
      const session = await store.sessions.find(idHash);
      if (!session) return undefined;
      const now = clock.now();
      if (now >= session.expiresAt || now.getTime() - session.lastSeenAt.getTime() >= SESSION_IDLE_MS) {
        await store.sessions.delete(idHash);
        return undefined;
      }
      const user = await store.users.findById(session.userId);
      if (!user) return undefined;
      if (now.getTime() - session.lastSeenAt.getTime() >= TOUCH_EVERY_MS)
        await store.sessions.touch(idHash, now);
      let workspaces = await store.workspaces.listFor(user.id);
      // An account whose sign-up stopped between its two writes gets its workspace now (or its
      // place in it back, when the workspace was written and the membership not).
      if (workspaces.length === 0) {
        if (await store.workspaces.find(user.id))
          await store.workspaces.addMember({
            workspaceId: user.id,
            userId: user.id,
            role: 'owner',
            createdAt: user.createdAt,
          });
        else await createPersonalWorkspace(store, user, 'free');
        workspaces = await store.workspaces.listFor(user.id);
      }
      const chosen = workspaces.find((w) => w.workspace.id === workspaceId) ?? workspaces[0];
      if (!chosen) return undefined;
      return {
        user,
        session,
        principal: memberPrincipal(user, chosen.workspace, chosen.role, address),
        workspaces,
      };
    },

    async signOut(secret) {
      if (secret && SESSION_SECRET_PATTERN.test(secret)) await store.sessions.delete(hashToken(secret));
    },

    async signOutEverywhere(user, keep) {
      await store.sessions.deleteAllForUser(user.id, keep ? hashToken(keep) : undefined);
    },
  };
}
