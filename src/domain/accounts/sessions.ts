/**
 * Dashboard accounts in the browser: sign-up, sign-in and server-side sessions.
 *
 * - A session is an opaque random secret (`ses_` + 43 base62 characters, 256 bits) in a cookie; only
 *   its SHA-256 is stored, like an API token's. It ends after {@link SESSION_IDLE_MS} without a
 *   request (idle expiry) and at the latest {@link SESSION_ABSOLUTE_MS} after sign-in (absolute
 *   expiry), whichever comes first: the OWASP Session Management Cheat Sheet's two timeouts.
 * - Failed sign-ins are throttled per account (email) and per client address; see
 *   {@link SIGN_IN_LIMITS}. The answer to a failed sign-in is the same whether or not the email has
 *   an account, and takes the same time (a dummy password verification).
 * - Sign-up is open or closed by configuration (`SIGNUP`); new accounts are on the free tier.
 */
import { z } from 'zod';
import type { AccountLinks } from './email-links.js';
import {
  emailTakenError,
  ForbiddenError,
  InvalidCredentialsError,
  TooManyAttemptsError,
} from '../kernel/errors.js';
import { hashToken, newId, randomBase62 } from '../kernel/ids.js';
import type { Session, User } from '../kernel/records.js';
import { hashPassword, passwordSchema, verifyPassword } from './passwords.js';
import type { Clock, RecordStore, Throttle } from '../kernel/ports.js';
import { parseOrThrow } from '../kernel/validate.js';

/** Idle expiry: 7 days without a request. */
export const SESSION_IDLE_MS = 7 * 24 * 3600 * 1000;
/** Absolute expiry: 30 days after sign-in, however active. */
export const SESSION_ABSOLUTE_MS = 30 * 24 * 3600 * 1000;
/** `lastSeenAt` is written at most once a minute per session, not on every request. */
const TOUCH_EVERY_MS = 60_000;

/**
 * Failed sign-ins allowed per 15 minutes before a 15-minute wait: 5 per account (OWASP
 * Authentication Cheat Sheet, "account lockout" by throttling, not locking), 20 per address (an
 * office or a NAT shares one).
 */
export const SIGN_IN_LIMITS = { perAccount: 5, perAddress: 20, windowSeconds: 900 } as const;

/** Prefixes of the throttle's keys: the account's email, or the client's address, follows. */
export const SIGN_IN_KEYS = { account: 'sign-in:account:', address: 'sign-in:address:' } as const;

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
}

export interface Sessions {
  /**
   * Creates a free-tier account with a password and signs it in; sends the email verification.
   * Throws ForbiddenError when sign-up is closed, ValidationError on `email` (format, or taken),
   * `displayName` (1–100 characters) or `password` (8–256 characters).
   */
  signUp(input: unknown): Promise<SignedIn>;
  /**
   * Throws TooManyAttemptsError while the account or `address` is throttled, InvalidCredentialsError
   * for anything but a matching email and password, ValidationError for an empty field.
   */
  signIn(input: unknown, address: string): Promise<SignedIn>;
  /** The live session of a cookie value, or undefined (missing, unknown, or expired: then deleted). */
  authenticate(secret: string | undefined): Promise<SessionPrincipal | undefined>;
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

  const accountKey = (email: string) => `${SIGN_IN_KEYS.account}${email.trim().toLowerCase()}`;
  const addressKey = (address: string) => `${SIGN_IN_KEYS.address}${address}`;

  return {
    signUpMode,

    async signUp(input) {
      if (signUpMode === 'closed')
        throw new ForbiddenError('Sign-up is closed on this server: ask its operator for an account');
      const { email, displayName, password } = parseOrThrow(signUpSchema, input);
      if (await store.users.findByEmail(email)) throw emailTakenError(email);
      const user: User = {
        id: newId('usr'),
        email,
        displayName,
        tier: 'free',
        createdAt: clock.now(),
        passwordHash: await hashPassword(password),
        emailVerifiedAt: null,
      };
      await store.users.create(user);
      await links.sendVerification(user);
      return open(user);
    },

    async signIn(input, address) {
      const { email, password } = parseOrThrow(signInSchema, input);
      const wait = Math.max(
        await throttle.blockedFor(accountKey(email)),
        await throttle.blockedFor(addressKey(address)),
      );
      if (wait > 0) throw new TooManyAttemptsError(wait, 'failed sign-ins');
      const user = await store.users.findByEmail(email);
      if (!(await verifyPassword(user?.passwordHash ?? null, password)) || !user) {
        const after = Math.max(
          await throttle.hit(accountKey(email)),
          await throttle.hit(addressKey(address)),
        );
        if (after > 0) throw new TooManyAttemptsError(after, 'failed sign-ins');
        throw new InvalidCredentialsError();
      }
      await throttle.reset(accountKey(email));
      return open(user);
    },

    async authenticate(secret) {
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
      return { user, session };
    },

    async signOut(secret) {
      if (secret && SESSION_SECRET_PATTERN.test(secret)) await store.sessions.delete(hashToken(secret));
    },

    async signOutEverywhere(user, keep) {
      await store.sessions.deleteAllForUser(user.id, keep ? hashToken(keep) : undefined);
    },
  };
}
