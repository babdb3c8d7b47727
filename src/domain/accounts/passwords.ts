/**
 * Passwords of dashboard accounts: hashed with argon2id (RFC 9106) through @node-rs/argon2, with the
 * OWASP Password Storage Cheat Sheet's minimum parameters (19 MiB of memory, 2 iterations, 1 lane),
 * about 25 ms per hash on this project's 2-core machine. Only the PHC string is stored; a password
 * is never logged.
 */
import { hash, verify } from '@node-rs/argon2';
import { z } from 'zod';

/** Length rules (NIST SP 800-63B section 3.1.1.2: at least 8; our upper bound keeps hashing cheap). */
export const PASSWORD_LENGTH = { min: 8, max: 256 } as const;

/** A new password: 8 to 256 characters, anything allowed (NIST SP 800-63B: no composition rules). */
export const passwordSchema = z
  .string()
  .min(PASSWORD_LENGTH.min, `Expected a password of at least ${PASSWORD_LENGTH.min} characters`)
  .max(PASSWORD_LENGTH.max, `Expected a password of at most ${PASSWORD_LENGTH.max} characters`);

const OPTIONS = {
  algorithm: 2 /* Algorithm.Argon2id, a const enum */,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

/** The argon2id PHC string of `password` (with a fresh random salt). */
export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/** A hash of no password, verified against when an account does not exist, so that timing tells nothing. */
const DUMMY = hashPassword('titlecard-no-such-account');

/**
 * Whether `password` matches `passwordHash`. With no hash (no account, or none set) it still spends
 * the time of a verification and answers false.
 */
export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (passwordHash === null) {
    await verify(await DUMMY, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}
