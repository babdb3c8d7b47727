/**
 * Records of the domain, as stored and as returned by the services. Timestamps are `Date`s here;
 * the edges format them as ISO 8601 UTC strings.
 */

/** Subscription tiers and their monthly quotas of generated images (spec section 8). */
export const TIER_QUOTAS = { free: 10, pro: 500, agency: 2000 } as const;
export type Tier = keyof typeof TIER_QUOTAS;
export const TIERS = Object.keys(TIER_QUOTAS) as Tier[];

/** An account. `email` is unique, compared case-insensitively. */
export interface User {
  id: string;
  email: string;
  displayName: string;
  tier: Tier;
  createdAt: Date;
  /** argon2id PHC string; `null` for an account made by `titlecard users create` until a password is set. */
  passwordHash: string | null;
  /** When `email` was last proven by a verification link; `null` until then. */
  emailVerifiedAt: Date | null;
}

/** The fields of a user that account settings change. */
export type UserChanges = Partial<Pick<User, 'email' | 'displayName' | 'passwordHash' | 'emailVerifiedAt'>>;

/**
 * A browser session of the dashboard, as stored: only the SHA-256 of the cookie's secret is kept
 * (as for API tokens), so a copy of the database opens no session.
 */
export interface Session {
  /** Hex SHA-256 of the cookie secret. */
  idHash: string;
  userId: string;
  createdAt: Date;
  /** Last request; the idle expiry counts from here. */
  lastSeenAt: Date;
  /** The absolute expiry, fixed at sign-in. */
  expiresAt: Date;
}

/** What a single-use link sent by email does. */
export type AccountLinkPurpose = 'verify-email' | 'reset-password';

/** A single-use link sent by email, as stored (only the hash of its secret). */
export interface AccountLink {
  /** Hex SHA-256 of the secret in the link. */
  idHash: string;
  userId: string;
  purpose: AccountLinkPurpose;
  /** The address the link was sent to (verification proves this one). */
  email: string;
  createdAt: Date;
  expiresAt: Date;
}

/** An API token as stored: only the SHA-256 hash of its secret is kept. */
export interface ApiToken {
  id: string;
  userId: string;
  name: string;
  /** Hex SHA-256 of the secret. */
  tokenHash: string;
  createdAt: Date;
  /** `null` until the token first authenticates a request. */
  lastUsedAt: Date | null;
  /** `null` while the token is active. */
  revokedAt: Date | null;
}

/** Output file formats (spec 4.1). */
export const FILE_FORMATS = ['png', 'jpeg', 'webp'] as const;
export type FileFormat = (typeof FILE_FORMATS)[number];

/** A generated image as stored. The files live in the blob store under `imageKey` and `thumbnailKey`. */
export interface ImageRecord {
  id: string;
  userId: string;
  title: string;
  subtitle: string | null;
  width: number;
  height: number;
  format: FileFormat;
  imageKey: string;
  thumbnailKey: string;
  createdAt: Date;
}

/** Sort keys and orders of the image list (spec 4.2). */
export const IMAGE_SORTS = ['createdAt', 'title'] as const;
export type ImageSort = (typeof IMAGE_SORTS)[number];
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/** One page request of the image list. `limit` 1..100, `offset` >= 0 (spec 4.2). */
export interface ImagePageQuery {
  limit: number;
  offset: number;
  sort: ImageSort;
  order: SortOrder;
}
