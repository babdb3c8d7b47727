/** Rows of the SQLite tables (snake_case, ISO 8601 text for dates, JSON text for lists) and their mapping to the domain's records. */
import type {
  AccountLink,
  AccountLinkPurpose,
  ApiToken,
  Asset,
  ImageRecord,
  Preset,
  RenderEntry,
  Session,
  SigningKey,
  User,
} from '../../../domain/kernel/records.js';
import type { Scope } from '../../../domain/design.js';

export interface UserRow {
  id: string;
  email: string;
  display_name: string;
  created_at: string;
  password_hash: string | null;
  email_verified_at: string | null;
}
export interface SessionRow {
  id_hash: string;
  user_id: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}
export interface LinkRow {
  id_hash: string;
  user_id: string;
  purpose: AccountLinkPurpose;
  email: string;
  created_at: string;
  expires_at: string;
}
export interface TokenRow {
  id: string;
  workspace_id: string;
  user_id: string;
  /** JSON array of scopes, or NULL (every scope of the member's role). */
  scopes: string | null;
  name: string;
  token_hash: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}
export interface ImageRow {
  id: string;
  user_id: string;
  title: string;
  subtitle: string | null;
  width: number;
  height: number;
  format: ImageRecord['format'];
  image_key: string;
  thumbnail_key: string;
  created_at: string;
}

export const toUser = (r: UserRow): User => ({
  id: r.id,
  email: r.email,
  displayName: r.display_name,
  createdAt: new Date(r.created_at),
  passwordHash: r.password_hash,
  emailVerifiedAt: r.email_verified_at ? new Date(r.email_verified_at) : null,
});
export const toSession = (r: SessionRow): Session => ({
  idHash: r.id_hash,
  userId: r.user_id,
  createdAt: new Date(r.created_at),
  lastSeenAt: new Date(r.last_seen_at),
  expiresAt: new Date(r.expires_at),
});
export const toLink = (r: LinkRow): AccountLink => ({
  idHash: r.id_hash,
  userId: r.user_id,
  purpose: r.purpose,
  email: r.email,
  createdAt: new Date(r.created_at),
  expiresAt: new Date(r.expires_at),
});
/** User fields as their columns, for a partial UPDATE. */
export const USER_COLUMNS = {
  email: 'email',
  displayName: 'display_name',
  passwordHash: 'password_hash',
  emailVerifiedAt: 'email_verified_at',
} as const;
export const toToken = (r: TokenRow): ApiToken => ({
  id: r.id,
  workspaceId: r.workspace_id,
  userId: r.user_id,
  scopes: r.scopes === null ? null : (JSON.parse(r.scopes) as Scope[]),
  name: r.name,
  tokenHash: r.token_hash,
  createdAt: new Date(r.created_at),
  lastUsedAt: r.last_used_at ? new Date(r.last_used_at) : null,
  revokedAt: r.revoked_at ? new Date(r.revoked_at) : null,
});
export const toImage = (r: ImageRow): ImageRecord => ({
  id: r.id,
  userId: r.user_id,
  title: r.title,
  subtitle: r.subtitle,
  width: r.width,
  height: r.height,
  format: r.format,
  imageKey: r.image_key,
  thumbnailKey: r.thumbnail_key,
  createdAt: new Date(r.created_at),
});

export const dateOrNull = (v: string | null) => (v ? new Date(v) : null);
export interface AssetRow {
  id: string;
  user_id: string;
  kind: Asset['kind'];
  name: string;
  format: Asset['format'];
  width: number;
  height: number;
  bytes: number;
  sha256: string;
  blob_key: string;
  created_at: string;
}
export interface PresetRow {
  id: string;
  user_id: string;
  name: string;
  version: number;
  options: string;
  background_asset_id: string | null;
  logo: string | null;
  font_id: string | null;
  created_at: string;
  updated_at: string;
}
export interface SigningKeyRow {
  id: string;
  user_id: string;
  name: string;
  sealed_secret: string;
  created_at: string;
  revoked_at: string | null;
}
export interface RenderRow {
  hash: string;
  user_id: string;
  state: RenderEntry['state'];
  blob_key: string | null;
  content_type: string | null;
  claimed_at: string;
}
export const toAsset = (r: AssetRow): Asset => ({
  id: r.id,
  userId: r.user_id,
  kind: r.kind,
  name: r.name,
  format: r.format,
  width: r.width,
  height: r.height,
  bytes: r.bytes,
  sha256: r.sha256,
  blobKey: r.blob_key,
  createdAt: new Date(r.created_at),
});
export const toPreset = (r: PresetRow): Preset => ({
  id: r.id,
  userId: r.user_id,
  name: r.name,
  version: r.version,
  options: JSON.parse(r.options) as Record<string, unknown>,
  backgroundAssetId: r.background_asset_id,
  logo: r.logo ? (JSON.parse(r.logo) as Preset['logo']) : null,
  fontId: r.font_id,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});
export const toSigningKey = (r: SigningKeyRow): SigningKey => ({
  id: r.id,
  userId: r.user_id,
  name: r.name,
  sealedSecret: r.sealed_secret,
  createdAt: new Date(r.created_at),
  revokedAt: dateOrNull(r.revoked_at),
});
export const toRender = (r: RenderRow): RenderEntry => ({
  hash: r.hash,
  userId: r.user_id,
  state: r.state,
  blobKey: r.blob_key,
  contentType: r.content_type,
  claimedAt: new Date(r.claimed_at),
});
/** A preset as its columns (the logo's asset id apart, for the in-use count). */
export const presetColumns = (
  p: Pick<Preset, 'name' | 'options' | 'backgroundAssetId' | 'logo' | 'fontId' | 'updatedAt'>,
) => ({
  name: p.name,
  options: JSON.stringify(p.options),
  backgroundAssetId: p.backgroundAssetId,
  logo: p.logo ? JSON.stringify(p.logo) : null,
  logoAssetId: p.logo?.assetId ?? null,
  fontId: p.fontId,
  updatedAt: p.updatedAt.toISOString(),
});
