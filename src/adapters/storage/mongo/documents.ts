/** The documents of each MongoDB collection, their mapping to the domain's records, and the unique-key check every claim relies on. */
import type { MongoServerError } from 'mongodb';
import type {
  AccountLink,
  ApiToken,
  Asset,
  ImageRecord,
  Preset,
  RenderEntry,
  Session,
  SigningKey,
  User,
} from '../../../domain/kernel/records.js';
import type { StoredResponse } from '../../../domain/kernel/ports.js';

export interface UserDoc extends Omit<User, 'id'> {
  _id: string;
  emailLower: string;
  /** The tier of an account stored before workspaces (its personal workspace's now, workspaces.ts). */
  tier?: string;
}
export interface TokenDoc extends Omit<ApiToken, 'id'> {
  _id: string;
}
export interface ImageDoc extends Omit<ImageRecord, 'id'> {
  _id: string;
  /** The title order's key, the domain's titleSortKey (kernel/records.ts), as SQLite's title_key. */
  titleKey: string;
  /** Before titleKey: the title lower-cased. Replaced by titleKey when the store opens (titleKeysOf). */
  titleLower?: string;
}
export interface SessionDoc extends Omit<Session, 'idHash'> {
  _id: string;
}
export interface LinkDoc extends Omit<AccountLink, 'idHash'> {
  _id: string;
}
export interface IdempotencyDoc {
  /** `${userId}:${key}` */
  _id: string;
  fingerprint: string;
  createdAt: Date;
  expiresAt: Date;
  /** While `response` is null: the holder's lease (absent on a record from before: free). */
  leaseUntil?: Date;
  response: StoredResponse | null;
}
/** One claimed place among a user's `max` active tokens: `${userId}:${slot}`, freed on revocation. */
/** A token's place under its workspace's cap: `_id` is `workspaceId:slot`. */
export interface TokenSlotDoc {
  _id: string;
  /** The workspace (named `userId` since the accounts that owned tokens before workspaces). */
  userId: string;
  slot: number;
  tokenId: string;
}
/** A key charged once (usage.ts): its unique `_id` is the key, `receipt` the slot it charged. */
export interface UsageKeyDoc {
  _id: string;
  receipt: string;
  userId: string;
  month: string;
  /** When it was charged; removed once its image is recorded (usage.ts `settle`). */
  chargedAt?: Date;
}

export interface UsageSlotDoc {
  /** `${userId}:${month}:${slot}` */
  _id: string;
  userId: string;
  month: string;
  slot: number;
  chargedAt: Date;
  /** Set by a charge made once per key (a batch item's). */
  key?: string;
}

export interface AssetDoc extends Omit<Asset, 'id'> {
  _id: string;
}
export interface PresetDoc extends Omit<Preset, 'id'> {
  _id: string;
  /** The logo's asset id, for the in-use count. */
  logoAssetId: string | null;
}
export interface SigningKeyDoc extends Omit<SigningKey, 'id'> {
  _id: string;
}
export interface RenderDoc extends Omit<RenderEntry, 'hash'> {
  _id: string;
}
export const toAsset = ({ _id, ...rest }: AssetDoc): Asset => ({ id: _id, ...rest });
export const toPreset = ({ _id, logoAssetId: _l, ...rest }: PresetDoc): Preset => ({ id: _id, ...rest });
export const toSigningKey = ({ _id, ...rest }: SigningKeyDoc): SigningKey => ({ id: _id, ...rest });
export const toRender = ({ _id, ...rest }: RenderDoc): RenderEntry => ({ hash: _id, ...rest });

// Users stored before the dashboard existed have no password or verification fields.
export const toUser = ({ _id, emailLower: _e, tier: _t, ...rest }: UserDoc): User => ({
  id: _id,
  ...rest,
  passwordHash: rest.passwordHash ?? null,
  emailVerifiedAt: rest.emailVerifiedAt ?? null,
});
export const toSession = ({ _id, ...rest }: SessionDoc): Session => ({ idHash: _id, ...rest });
export const toLink = ({ _id, ...rest }: LinkDoc): AccountLink => ({ idHash: _id, ...rest });
export const toToken = ({ _id, ...rest }: TokenDoc): ApiToken => ({ id: _id, ...rest });
export const toImage = ({ _id, titleKey: _k, titleLower: _t, ...rest }: ImageDoc): ImageRecord => ({
  id: _id,
  ...rest,
});

/** Attempts at claiming a slot before giving up under extreme contention (each re-reads the taken slots). */
export const CHARGE_ATTEMPTS = 25;

/**
 * A unique-index violation: code 11000 on MongoDB. FerretDB 1.24 reports one from an update as an
 * InternalError (code 1) whose message carries SQLite's "UNIQUE constraint failed" (seen in the
 * contract suite), so that message counts too.
 */
export const isDuplicateKey = (err: unknown) => {
  const e = err as MongoServerError | undefined;
  return e?.code === 11000 || (e?.code === 1 && /UNIQUE constraint failed/.test(e.message));
};
