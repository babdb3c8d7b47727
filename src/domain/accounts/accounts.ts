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
import { emailTakenError, NotFoundError, UnauthorizedError, ValidationError } from '../kernel/errors.js';
import { hashToken, newId, newTokenSecret, TOKEN_PATTERN } from '../kernel/ids.js';
import type { ApiToken, User } from '../kernel/records.js';
import { TIERS, type Tier } from '../design.js';
import { hashPassword, passwordSchema, verifyPassword } from './passwords.js';
import type { Clock, RecordStore, Throttle } from '../kernel/ports.js';
import { createTokenBodySchema, type createdTokenSchema, type tokenListEntrySchema } from './schemas.js';
import { LIMITS } from '../design.js';
import type { OAuth } from '../oauth/oauth.js';
import type { Sessions } from './sessions.js';
import { parseOrThrow } from '../kernel/validate.js';

export type CreatedToken = z.infer<typeof createdTokenSchema>;
export type TokenListEntry = z.infer<typeof tokenListEntrySchema>;

/** Who is calling: the user, and the API token that authenticated the request (none for a dashboard session). */
export interface Principal {
  user: User;
  tokenId?: string;
}

/** docs/api.md#endpoints: the user profile. */
export function profileOf(user: User) {
  return { id: user.id, email: user.email, displayName: user.displayName, tier: user.tier };
}

const newUserSchema = z.object({
  email: z.email().max(254),
  displayName: z.string().trim().min(1).max(100),
  tier: z.enum(TIERS),
});

/** The account use cases. */
export interface Accounts {
  /**
   * Creates an account and its first token (named "default"). Throws ValidationError on `email`
   * (format, or already registered: constraint `format`), `displayName` (1–100 characters) or `tier`.
   */
  createUser(input: { email: string; displayName: string; tier: string }): Promise<{
    user: User;
    token: CreatedToken;
  }>;
  /** Changes a user's tier. Throws NotFoundError for an unknown email, ValidationError for a bad tier. */
  setTier(email: string, tier: string): Promise<User>;
  /** Throws NotFoundError for an unknown email (compared case-insensitively). */
  findUserByEmail(email: string): Promise<User>;
  /**
   * docs/api.md#endpoints: creates a token; `body` is `{name}`. Name rules (our choice): 1 to 100 characters after
   * trimming, no control characters, need not be unique. At most `LIMITS.activeTokensMax` (100)
   * active tokens per account. Throws ValidationError on `name`, ForbiddenError while the account's
   * email is not confirmed (see {@link assertConfirmed}).
   */
  createToken(user: User, body: unknown): Promise<CreatedToken>;
  /** Revokes every active token of the user at once; answers how many. */
  revokeAllTokens(user: User): Promise<number>;
  /** docs/api.md#endpoints: the user's active tokens, newest first, without secrets. */
  listTokens(user: User): Promise<TokenListEntry[]>;
  /** docs/api.md#endpoints: revokes at once. Unknown, already revoked, or another user's token: NotFoundError. */
  revokeToken(user: User, id: string): Promise<void>;
  /**
   * Section 5: resolves an `Authorization` header value to the caller. Throws UnauthorizedError
   * `missing` without a header, `invalid` for anything but a known, active bearer token.
   * Records the token's `lastUsedAt`, to the minute (see {@link LAST_USED_EVERY_MS}).
   */
  authenticate(authorization: string | undefined): Promise<Principal>;
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
   * as {@link changePassword}): images and their files, tokens, connected apps' grants, sessions,
   * email links, then the user. A revoked token or session fails at once, in every process.
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
  /** Deletes every image, upload, preset, signing key and rendered link of the user, records and files. */
  deleteImagesOf: (userId: string) => Promise<void>;
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
  deleteImagesOf,
}: AccountsDeps): Accounts {
  const guard = createPasswordGuard(throttle);
  /** Checks `password` against the user's, throttled as sign-in is. */
  const checkPassword = (user: User, password: string, client: string) =>
    guard.check(user.email, client, () => verifyPassword(user.passwordHash, password));

  /** A new token record and its one-time view (with the secret); the caller stores the record. */
  function newToken(user: User, name: string): { record: ApiToken; view: CreatedToken } {
    const secret = newTokenSecret();
    const record: ApiToken = {
      id: newId('tok'),
      userId: user.id,
      name,
      tokenHash: hashToken(secret),
      createdAt: clock.now(),
      lastUsedAt: null,
      revokedAt: null,
    };
    return {
      record,
      view: { id: record.id, name, token: secret, createdAt: record.createdAt.toISOString() },
    };
  }

  return {
    async createUser(input) {
      const parsed = parseOrThrow(newUserSchema, input);
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
      const first = newToken(user, 'default');
      await store.tokens.create(first.record);
      return { user, token: first.view };
    },

    async setTier(email, tier) {
      const parsedTier: Tier = parseOrThrow(z.enum(TIERS), tier, ['tier']);
      const user = await store.users.findByEmail(email);
      if (!user) throw new NotFoundError(`No user with email ${email}`);
      await store.users.setTier(user.id, parsedTier);
      return { ...user, tier: parsedTier };
    },

    async findUserByEmail(email) {
      const user = await store.users.findByEmail(email);
      if (!user) throw new NotFoundError(`No user with email ${email}`);
      return user;
    },

    async createToken(user, body) {
      const { name } = parseOrThrow(createTokenBodySchema, body ?? {});
      assertConfirmed(user, 'make API tokens');
      const created = newToken(user, name);
      if (!(await store.tokens.createWithinLimit(created.record, LIMITS.activeTokensMax)))
        throw new ValidationError(
          'name',
          'max',
          `Expected at most ${LIMITS.activeTokensMax} active tokens per account but this account has ${LIMITS.activeTokensMax}; revoke one first`,
        );
      return created.view;
    },

    async listTokens(user) {
      return (await store.tokens.listActive(user.id)).map((t) => ({
        id: t.id,
        name: t.name,
        lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
        createdAt: t.createdAt.toISOString(),
      }));
    },

    async revokeAllTokens(user) {
      const now = clock.now();
      const active = await store.tokens.listActive(user.id);
      for (const token of active) await store.tokens.revoke(user.id, token.id, now);
      return active.length;
    },

    async revokeToken(user, id) {
      if (!(await store.tokens.revoke(user.id, id, clock.now())))
        throw new NotFoundError(`No active token with id ${id} on this account`);
    },

    async authenticate(authorization) {
      if (authorization === undefined || authorization.trim() === '') throw new UnauthorizedError('missing');
      const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
      // A token without its scheme (`Authorization: tc_…`) is named as such, not called invalid.
      if (!match && TOKEN_PATTERN.test(authorization.trim())) throw new UnauthorizedError('scheme');
      const secret = match?.[1];
      if (!secret || !TOKEN_PATTERN.test(secret)) throw new UnauthorizedError('invalid');
      const token = await store.tokens.findActiveByHash(hashToken(secret));
      if (!token) throw new UnauthorizedError('invalid');
      const user = await store.users.findById(token.userId);
      if (!user) throw new UnauthorizedError('invalid');
      // lastUsedAt: written at most once a minute per token, and never the reason a request fails.
      const now = clock.now();
      if (!token.lastUsedAt || now.getTime() - token.lastUsedAt.getTime() >= LAST_USED_EVERY_MS)
        await store.tokens
          .touch(token.id, now)
          .catch((err: unknown) => logger.warn({ err }, 'lastUsedAt not recorded'));
      return { user, tokenId: token.id };
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
      // Access ends first, then the data; the user record goes last, so a crash midway leaves an
      // account that can be deleted again.
      await store.tokens.deleteAllForUser(user.id);
      await oauth.deleteAllFor(user.id);
      await sessions.signOutEverywhere(user);
      await deleteImagesOf(user.id);
      await store.links.deleteAllForUser(user.id);
      await store.users.delete(user.id);
    },
  };
}
