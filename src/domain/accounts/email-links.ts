/**
 * Single-use links sent by email: email verification, password reset and the change of an email
 * address, and the notices that go with them.
 *
 * - The secret (`lnk_` + 43 base62 characters, 256 bits) is in the link only; the store keeps its
 *   SHA-256. A link works once (it is deleted as it is used, atomically) and expires: verification
 *   and email change after {@link VERIFY_LINK_TTL_MS} (24 h), password reset after
 *   {@link RESET_LINK_TTL_MS} (1 h, the OWASP Forgot Password Cheat Sheet's order of magnitude). A
 *   new link of a kind replaces the older ones.
 * - Mail leaves off the request path ({@link AccountLinksDeps.mailer} is not awaited), so an answer
 *   takes the same time whether or not a message was sent: asking for a reset, or signing up with
 *   an address that has an account, tells nobody which addresses have accounts. Asking for resets
 *   is throttled per address and per client ({@link RESET_REQUEST_LIMITS}).
 * - A reset sets the password, marks the email verified (the link proved it), ends every session
 *   and connected app, and revokes every API token: whoever held the account before the owner
 *   proved their address keeps nothing (OWASP ASVS 4.0 V2.5.7, V3.3.3).
 * - An email change takes effect when the new address confirms it, and the old address is told.
 */
import type { Logger } from 'pino';
import { z } from 'zod';
import { InvalidLinkError, TooManyAttemptsError } from '../kernel/errors.js';
import { hashToken, randomBase62 } from '../kernel/ids.js';
import type { AccountLinkPurpose, User } from '../kernel/records.js';
import { hashPassword, passwordSchema } from './passwords.js';
import type { Clock, MailMessage, Mailer, RecordStore, Throttle } from '../kernel/ports.js';
import { parseOrThrow } from '../kernel/validate.js';

export const VERIFY_LINK_TTL_MS = 24 * 3600 * 1000;
export const RESET_LINK_TTL_MS = 3600 * 1000;

/** Reset requests allowed per hour: 3 per address (its owner's inbox), 10 per client. Our choice. */
export const RESET_REQUEST_LIMITS = { perEmail: 3, perClient: 10, windowSeconds: 3600 } as const;
/** Prefixes of the reset throttle's keys: the lower-cased address, or the client, follows. */
export const RESET_REQUEST_KEYS = { email: 'reset:email:', client: 'reset:client:' } as const;

/** Where the links point, under PUBLIC_URL (the dashboard serves these pages). */
export const LINK_PATHS: Record<AccountLinkPurpose, string> = {
  'verify-email': '/verify-email',
  'change-email': '/verify-email',
  'reset-password': '/reset-password',
};

/** What a password reset ended, for the page that says so. */
export interface ResetOutcome {
  user: User;
  revokedTokens: number;
}

export interface AccountLinks {
  /** Sends `user` a link that proves their current email. */
  sendVerification(user: User): void;
  /** Tells the owner of `user`'s address that someone tried to sign up with it. */
  notifySignUpAttempt(user: User): void;
  /**
   * Uses a verification link: the email it was sent to is verified, if it is still the account's;
   * or an email-change link: the account's email becomes the new address, now verified. Throws
   * InvalidLinkError, ValidationError (`email`) when the new address has an account meanwhile.
   */
  verifyEmail(secret: string): Promise<User>;
  /** Sends the new address a link that makes it the account's email, and tells the old address. */
  requestEmailChange(user: User, email: string): Promise<void>;
  /**
   * Sends a reset link when `email` has an account; answers the same, in the same time, either way.
   * Throws ValidationError for a malformed email, TooManyAttemptsError past
   * {@link RESET_REQUEST_LIMITS} for the address or the `client`.
   */
  requestPasswordReset(email: unknown, client: string): Promise<void>;
  /**
   * Sets a new password with a reset link; ends every session and connected app and revokes every
   * API token. Throws InvalidLinkError, ValidationError (`password`).
   */
  resetPassword(secret: string, password: unknown): Promise<ResetOutcome>;
}

export interface AccountLinksDeps {
  store: RecordStore;
  clock: Clock;
  /** Sends the messages; not awaited (see the module comment), its failures are logged. */
  mailer: Mailer;
  logger: Logger;
  /** Counts reset requests ({@link RESET_REQUEST_KEYS}). */
  resetThrottle: Throttle;
  publicUrl: string;
}

export function createAccountLinks({
  store,
  clock,
  mailer,
  logger,
  resetThrottle,
  publicUrl,
}: AccountLinksDeps): AccountLinks {
  /** Sends `message` off the request path; a failure is logged, never thrown at the caller. */
  function deliver(message: MailMessage): void {
    mailer.send(message).catch((err: unknown) => logger.error({ err, to: message.to }, 'mail not sent'));
  }

  async function issue(user: User, purpose: AccountLinkPurpose, ttlMs: number, email = user.email) {
    await store.links.deleteAllForUser(user.id, purpose);
    const secret = `lnk_${randomBase62(43)}`;
    const now = clock.now();
    await store.links.create({
      idHash: hashToken(secret),
      userId: user.id,
      purpose,
      email,
      createdAt: now,
      expiresAt: new Date(now.getTime() + ttlMs),
    });
    return `${publicUrl}${LINK_PATHS[purpose]}?token=${secret}`;
  }

  async function use(secret: string, purpose: AccountLinkPurpose) {
    const link = /^lnk_[0-9A-Za-z]{43}$/.test(secret)
      ? await store.links.consume(hashToken(secret), purpose, clock.now())
      : undefined;
    const user = link && (await store.users.findById(link.userId));
    if (!link || !user) return undefined;
    // A verification or reset link sent to an address the account no longer has proves nothing.
    if (purpose !== 'change-email' && user.email.toLowerCase() !== link.email.toLowerCase()) return undefined;
    return { user, email: link.email };
  }

  return {
    sendVerification(user) {
      void issue(user, 'verify-email', VERIFY_LINK_TTL_MS).then(
        (url) =>
          deliver({
            to: user.email,
            subject: 'Confirm your email for Titlecard',
            text: `Hello ${user.displayName},\n\nConfirm that ${user.email} is your address by opening this link within 24 hours:\n\n${url}\n\nUntil then, the account cannot make API tokens, signing keys or connect assistants.\nIf you did not make a Titlecard account, ignore this message.\n`,
          }),
        (err: unknown) => logger.error({ err }, 'verification link not issued'),
      );
    },

    notifySignUpAttempt(user) {
      deliver({
        to: user.email,
        subject: 'Someone tried to sign up to Titlecard with your address',
        text: `Hello ${user.displayName},\n\nSomeone tried to make a new Titlecard account with ${user.email}, which already has one. No account was made.\n\nIf it was you: sign in at ${publicUrl}/sign-in, or choose a new password at ${publicUrl}/forgot-password.\nIf it was not you, you need do nothing.\n`,
      });
    },

    async verifyEmail(secret) {
      const verified = await use(secret, 'verify-email');
      if (verified) {
        const emailVerifiedAt = clock.now();
        await store.users.update(verified.user.id, { emailVerifiedAt });
        return { ...verified.user, emailVerifiedAt };
      }
      const changed = await use(secret, 'change-email');
      if (!changed) throw new InvalidLinkError();
      const changes = { email: changed.email, emailVerifiedAt: clock.now() };
      await store.users.update(changed.user.id, changes);
      return { ...changed.user, ...changes };
    },

    async requestEmailChange(user, email) {
      const url = await issue(user, 'change-email', VERIFY_LINK_TTL_MS, email);
      deliver({
        to: email,
        subject: 'Confirm your new email for Titlecard',
        text: `Hello ${user.displayName},\n\nTo make ${email} the email of your Titlecard account (now ${user.email}), open this link within 24 hours:\n\n${url}\n\nIf you did not ask for this, ignore this message.\n`,
      });
      deliver({
        to: user.email,
        subject: 'Your Titlecard email is about to change',
        text: `Hello ${user.displayName},\n\nSomeone signed in to your Titlecard account asked to change its email from ${user.email} to ${email}. It changes once the new address confirms it.\n\nIf it was not you, sign in and change your password now: ${publicUrl}/settings/account\n`,
      });
    },

    async requestPasswordReset(email, client) {
      const address = parseOrThrow(z.email().max(254), email, ['email']);
      const keys = [
        `${RESET_REQUEST_KEYS.email}${address.toLowerCase()}`,
        `${RESET_REQUEST_KEYS.client}${client}`,
      ];
      // The limits count requests made: the one past them is refused, before it counts.
      const wait = Math.max(...(await Promise.all(keys.map((key) => resetThrottle.blockedFor(key)))));
      if (wait > 0) throw new TooManyAttemptsError(wait, 'password reset requests');
      await Promise.all(keys.map((key) => resetThrottle.hit(key)));
      const user = await store.users.findByEmail(address);
      if (!user) return;
      const url = await issue(user, 'reset-password', RESET_LINK_TTL_MS);
      deliver({
        to: user.email,
        subject: 'Reset your Titlecard password',
        text: `Hello ${user.displayName},\n\nSomeone asked to reset the password of the Titlecard account ${user.email}. To choose a new one, open this link within an hour:\n\n${url}\n\nIf it was not you, ignore this message: your password stays as it is.\n`,
      });
    },

    async resetPassword(secret, password) {
      const next = parseOrThrow(passwordSchema, password, ['password']);
      const used = await use(secret, 'reset-password');
      if (!used) throw new InvalidLinkError();
      const { user } = used;
      const now = clock.now();
      const changes = {
        passwordHash: await hashPassword(next),
        emailVerifiedAt: user.emailVerifiedAt ?? now,
      };
      await store.users.update(user.id, changes);
      await store.sessions.deleteAllForUser(user.id);
      // A new password also ends the access of connected apps (OAuth grants), as a change does.
      await store.oauth.endGrants(user.id);
      const revokedTokens = await store.tokens.revokeMade(user.id, now);
      return { user: { ...user, ...changes }, revokedTokens };
    },
  };
}
