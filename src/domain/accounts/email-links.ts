/**
 * Single-use links sent by email: email verification and password reset.
 *
 * - The secret (`lnk_` + 43 base62 characters, 256 bits) is in the link only; the store keeps its
 *   SHA-256. A link works once (it is deleted as it is used, atomically) and expires: verification
 *   after {@link VERIFY_LINK_TTL_MS} (24 h), password reset after {@link RESET_LINK_TTL_MS} (1 h,
 *   the OWASP Forgot Password Cheat Sheet's order of magnitude). A new link of a kind replaces the
 *   older ones.
 * - Asking for a reset answers the same whether or not the email has an account (nothing is sent
 *   when it has none), so the form cannot be used to find accounts.
 * - A reset sets the password, marks the email verified (the link proved it) and ends every session.
 */
import { z } from 'zod';
import { InvalidLinkError } from '../kernel/errors.js';
import { hashToken, randomBase62 } from '../kernel/ids.js';
import type { AccountLinkPurpose, User } from '../kernel/records.js';
import { hashPassword, passwordSchema } from './passwords.js';
import type { Clock, Mailer, RecordStore } from '../kernel/ports.js';
import { parseOrThrow } from '../kernel/validate.js';

export const VERIFY_LINK_TTL_MS = 24 * 3600 * 1000;
export const RESET_LINK_TTL_MS = 3600 * 1000;

/** Where the links point, under PUBLIC_URL (the dashboard serves these pages). */
export const LINK_PATHS: Record<AccountLinkPurpose, string> = {
  'verify-email': '/verify-email',
  'reset-password': '/reset-password',
};

export interface AccountLinks {
  /** Sends `user` a link that proves their current email. Throws what the mailer throws. */
  sendVerification(user: User): Promise<void>;
  /** Uses a verification link: the email it was sent to is verified, if it is still the account's. Throws InvalidLinkError. */
  verifyEmail(secret: string): Promise<User>;
  /** Sends a reset link when `email` has an account; answers the same either way. Throws ValidationError for a malformed email. */
  requestPasswordReset(email: unknown): Promise<void>;
  /** Sets a new password with a reset link and ends every session and connected app. Throws InvalidLinkError, ValidationError (`password`). */
  resetPassword(secret: string, password: unknown): Promise<User>;
}

export function createAccountLinks({
  store,
  clock,
  mailer,
  publicUrl,
}: {
  store: RecordStore;
  clock: Clock;
  mailer: Mailer;
  publicUrl: string;
}): AccountLinks {
  async function issue(user: User, purpose: AccountLinkPurpose, ttlMs: number): Promise<string> {
    await store.links.deleteAllForUser(user.id, purpose);
    const secret = `lnk_${randomBase62(43)}`;
    const now = clock.now();
    await store.links.create({
      idHash: hashToken(secret),
      userId: user.id,
      purpose,
      email: user.email,
      createdAt: now,
      expiresAt: new Date(now.getTime() + ttlMs),
    });
    return `${publicUrl}${LINK_PATHS[purpose]}?token=${secret}`;
  }

  async function use(secret: string, purpose: AccountLinkPurpose): Promise<User> {
    const link = /^lnk_[0-9A-Za-z]{43}$/.test(secret)
      ? await store.links.consume(hashToken(secret), purpose, clock.now())
      : undefined;
    const user = link && (await store.users.findById(link.userId));
    // A link sent to an address the account no longer has proves nothing.
    if (!link || !user || user.email.toLowerCase() !== link.email.toLowerCase()) throw new InvalidLinkError();
    return user;
  }

  return {
    async sendVerification(user) {
      const url = await issue(user, 'verify-email', VERIFY_LINK_TTL_MS);
      await mailer.send({
        to: user.email,
        subject: 'Confirm your email for Titlecard',
        text: `Hello ${user.displayName},\n\nConfirm that ${user.email} is your address by opening this link within 24 hours:\n\n${url}\n\nIf you did not make a Titlecard account, ignore this message.\n`,
      });
    },

    async verifyEmail(secret) {
      const user = await use(secret, 'verify-email');
      const emailVerifiedAt = clock.now();
      await store.users.update(user.id, { emailVerifiedAt });
      return { ...user, emailVerifiedAt };
    },

    async requestPasswordReset(email) {
      const address = parseOrThrow(z.email().max(254), email, ['email']);
      const user = await store.users.findByEmail(address);
      if (!user) return;
      const url = await issue(user, 'reset-password', RESET_LINK_TTL_MS);
      await mailer.send({
        to: user.email,
        subject: 'Reset your Titlecard password',
        text: `Hello ${user.displayName},\n\nSomeone asked to reset the password of the Titlecard account ${user.email}. To choose a new one, open this link within an hour:\n\n${url}\n\nIf it was not you, ignore this message: your password stays as it is.\n`,
      });
    },

    async resetPassword(secret, password) {
      const next = parseOrThrow(passwordSchema, password, ['password']);
      const user = await use(secret, 'reset-password');
      const changes = {
        passwordHash: await hashPassword(next),
        emailVerifiedAt: user.emailVerifiedAt ?? clock.now(),
      };
      await store.users.update(user.id, changes);
      await store.sessions.deleteAllForUser(user.id);
      // A new password also ends the access of connected apps (OAuth grants), as a change does.
      await store.oauth.revokeGrants(user.id, {}, clock.now());
      return { ...user, ...changes };
    },
  };
}
