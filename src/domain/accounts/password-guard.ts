/**
 * Throttling of password guesses: sign-in and every check of the current password (changing the
 * password or the email, deleting the account) go through one guard, so a guess counts the same
 * wherever it is made.
 *
 * After OWASP's Authentication Cheat Sheet ("account lockout": throttle, do not lock) and NIST SP
 * 800-63B section 5.2.2 (rate limiting that does not let a stranger lock the owner out):
 * - Failures count per account **and client** together: after {@link PASSWORD_GUESS_LIMITS}
 *   `freePerPair` failures, that client waits before its next try on that account, and the wait
 *   doubles with each further failure (2 s, 4 s, 8 s … at most 15 minutes). Another client, the
 *   owner's, is not slowed: a correct password from a client that has not failed gets in.
 * - Failures also count per client over every account (`perClient` in 15 minutes), which stops one
 *   client trying one password on many accounts.
 * - A correct password clears the account-and-client count.
 * The client is the address Express gives (`req.ip`): behind a proxy, set TRUST_PROXY so that it is
 * the client's and not the proxy's (docs/security.md).
 */
import { InvalidCredentialsError, TooManyAttemptsError } from '../kernel/errors.js';
import type { Throttle } from '../kernel/ports.js';

export const PASSWORD_GUESS_LIMITS = {
  /** Failures of one client on one account before it has to wait. */
  freePerPair: 5,
  /** The first wait, seconds; each further failure doubles it. */
  firstDelaySeconds: 2,
  /** The longest wait, seconds (15 minutes). */
  maxDelaySeconds: 900,
  /** Failures of one client over all accounts in `windowSeconds` before it waits out the window. */
  perClient: 20,
  windowSeconds: 900,
} as const;

/** Prefixes of the throttle's keys: the account (lower-cased email) and the client, or the client alone. */
export const PASSWORD_GUESS_KEYS = { pair: 'password:pair:', client: 'password:client:' } as const;

export interface PasswordGuard {
  /**
   * Runs `verify` (true when the password matches) for the account `email`, guessed from `client`.
   * Throws TooManyAttemptsError (with the seconds to wait) while that client must wait, before
   * `verify` runs, or when this failure starts a wait; InvalidCredentialsError for any other failure.
   */
  check(email: string, client: string, verify: () => Promise<boolean>): Promise<void>;
}

export function createPasswordGuard(throttle: Throttle): PasswordGuard {
  const keys = (email: string, client: string) => ({
    pair: `${PASSWORD_GUESS_KEYS.pair}${email.trim().toLowerCase()}|${client}`,
    client: `${PASSWORD_GUESS_KEYS.client}${client}`,
  });
  return {
    async check(email, client, verify) {
      const key = keys(email, client);
      const wait = Math.max(await throttle.blockedFor(key.pair), await throttle.blockedFor(key.client));
      if (wait > 0) throw new TooManyAttemptsError(wait, 'failed password attempts');
      if (await verify()) {
        await throttle.reset(key.pair);
        return;
      }
      const after = Math.max(await throttle.hit(key.pair), await throttle.hit(key.client));
      if (after > 0) throw new TooManyAttemptsError(after, 'failed password attempts');
      throw new InvalidCredentialsError();
    },
  };
}
