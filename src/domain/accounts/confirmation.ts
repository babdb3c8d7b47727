/**
 * Whether an account's email is confirmed, and the rule that follows from it: an account made with
 * someone else's address must not make lasting credentials (API tokens, signing keys, connected
 * apps) before the owner can take it over with a password reset (OWASP ASVS 4.0 V2.1,
 * "pre-hijacking"; docs/security.md).
 */
import { ForbiddenError } from '../kernel/errors.js';
import type { User } from '../kernel/records.js';

/** Whether the account's email counts as confirmed: verified by a link, or made on the command line. */
export function isConfirmed(user: User): boolean {
  // Accounts of `titlecard users create` have no password until a reset link (which verifies) sets one.
  return user.emailVerifiedAt !== null || user.passwordHash === null;
}

/**
 * Throws ForbiddenError while the user's email is not confirmed: an account made with someone
 * else's address must not make lasting credentials (API tokens, signing keys, connected apps)
 * before the owner can take it over (OWASP ASVS 4.0 V2.1, "pre-hijacking"). `what` names the action.
 */
export function assertConfirmed(user: User, what: string): void {
  if (!isConfirmed(user))
    throw new ForbiddenError(
      `Confirm your email first: open the link we sent to ${user.email} (the dashboard sends it again on request), then you can ${what}`,
    );
}
