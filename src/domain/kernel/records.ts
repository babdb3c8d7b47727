/**
 * Records of the domain, as stored and as returned by the services. Timestamps are `Date`s here;
 * the edges format them as ISO 8601 UTC strings.
 */
import type { FileFormat, Role, Scope, Tier } from '../design.js';

/**
 * A person's account. `email` is unique, compared case-insensitively. What a person makes belongs
 * to a {@link Workspace}: the records below name it in their `userId` (the account that owned
 * them before workspaces; a personal workspace has its owner's id, so nothing moved at upgrade).
 */
export interface User {
  id: string;
  email: string;
  displayName: string;
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
export type AccountLinkPurpose = 'verify-email' | 'reset-password' | 'change-email';

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

/**
 * A workspace (docs/workspaces.md): owns the tier, the monthly quota and everything made in it.
 * Every account has a personal one, whose id is the account's own id; others are `wsp_…`.
 */
export interface Workspace {
  id: string;
  /** 1 to 100 characters. */
  name: string;
  tier: Tier;
  /** The personal workspace of this account, which goes only with it; `null` for the others. */
  personalOf: string | null;
  createdAt: Date;
}

/** The fields of a workspace that settings change. */
export type WorkspaceChanges = Partial<Pick<Workspace, 'name' | 'tier'>>;

/** A person's place in a workspace. */
export interface Membership {
  workspaceId: string;
  userId: string;
  role: Role;
  createdAt: Date;
}

/** An invitation to a workspace, as stored: only the SHA-256 of the secret in its link. */
export interface Invitation {
  id: string;
  workspaceId: string;
  /** The invited address, lower-cased. */
  email: string;
  role: Role;
  /** Who invited. */
  invitedBy: string;
  /** Hex SHA-256 of the link's secret. */
  secretHash: string;
  createdAt: Date;
  expiresAt: Date;
  /** Set once accepted (kept for the audit log's sake, no longer pending). */
  acceptedAt: Date | null;
}

/** An entry of a workspace's audit log (docs/workspaces.md#audit-log). */
export interface AuditEntry {
  id: string;
  workspaceId: string;
  /** Who did it (a user id), or `null` for the operator (the CLI). */
  actorId: string | null;
  /** What happened: `member.added`, `token.created`, … (docs/workspaces.md#audit-log). */
  action: string;
  /** What it was done to: a user, token, invitation, site or webhook id. */
  target: string | null;
  /** Details of the change (a new role, a name), small and flat. */
  details: Record<string, string>;
  /** The client's address, as the service saw it; `null` from the CLI. */
  address: string | null;
  at: Date;
}

/** How often a plan is billed. */
export type BillingInterval = 'month' | 'year';

/** A workspace's Stripe subscription as last read from Stripe (docs/billing.md). */
export interface Subscription {
  workspaceId: string;
  customerId: string;
  subscriptionId: string | null;
  /** Stripe's status (`active`, `past_due`, `canceled`, …). */
  status: string;
  priceId: string | null;
  interval: BillingInterval | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  /** When it turned `past_due`; `null` otherwise (the grace period counts from here). */
  pastDueSince: Date | null;
  /** When Stripe made the event whose state this is: an older event's state is not applied. */
  updatedAt: Date;
}

/** An API token as stored: only the SHA-256 hash of its secret is kept. */
export interface ApiToken {
  id: string;
  /** The workspace it acts in. */
  workspaceId: string;
  /** The member who made it: it never does more than their current role allows. */
  userId: string;
  /** What it may do; `null` for a token made before scopes, which has every scope of its member's role. */
  scopes: Scope[] | null;
  name: string;
  /** Hex SHA-256 of the secret. */
  tokenHash: string;
  createdAt: Date;
  /** `null` until the token first authenticates a request. */
  lastUsedAt: Date | null;
  /** `null` while the token is active. */
  revokedAt: Date | null;
}

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

/** Sort keys and orders of the image list (docs/api.md#endpoints). */
export const IMAGE_SORTS = ['createdAt', 'title'] as const;
export type ImageSort = (typeof IMAGE_SORTS)[number];
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/**
 * The key the image list's `title` order sorts by, the same on every store (each compares keys by
 * code point, then breaks ties by id): the title's base letters first, case and accents ignored
 * (Unicode NFKD with the combining marks dropped, then lower-cased), and after a U+0000 separator
 * the whole title lower-cased, so that accents and case only order titles whose letters tie. So
 * `Ärger` sorts before `Ärmel` and `ärmel`, and `Émile` beside `emile`, not after `zebra`.
 * (A Unicode-aware key in place of SQLite's ASCII-only NOCASE; docs/api.md, "Sorting".)
 */
export function titleSortKey(title: string): string {
  const lower = title.normalize('NFC').toLowerCase();
  const base = lower.normalize('NFKD').replace(/\p{M}/gu, '');
  return `${base}\u0000${lower}`;
}

/** One page request of the image list. `limit` 1..100, `offset` >= 0 (docs/api.md#endpoints). */
export interface ImagePageQuery {
  limit: number;
  offset: number;
  sort: ImageSort;
  order: SortOrder;
}

/**
 * One record of the MCP connector's authorization server (oidc-provider, src/web/oauth/): an
 * entry of one of its models (`Client`, `Grant`, `Session`, `Interaction`, `AuthorizationCode`,
 * `AccessToken`, `RefreshToken`, …) as its adapter stores it (src/domain/oauth/state.ts).
 */
export interface OAuthEntry {
  /** Hex SHA-256 of the model's id: a token or code is a bearer secret, so only its hash is kept. */
  key: string;
  /** The library's payload, without its id (`jti`): its shape is the library's. */
  payload: Record<string, unknown>;
  /** The grant it belongs to (a Grant's own id for a Grant): revoking the grant deletes it. */
  grantId: string | null;
  /** A Session's `uid` (how the library finds a session besides its id). */
  uid: string | null;
  /** The account it belongs to (a Grant's or Session's `accountId`). */
  accountId: string | null;
  /** The client it belongs to (a Grant's `clientId`). */
  clientId: string | null;
  /** `null` for entries that do not expire (a registered Client). */
  expiresAt: Date | null;
  /** Set once a code or refresh token is used: kept (not deleted) so that a replay is seen. */
  consumedAt: Date | null;
  /** A Grant's last use at `/mcp`, to the minute; `null` before. */
  lastUsedAt: Date | null;
}

/** What an uploaded file is for: a background photo, a logo (alpha kept), or a font. */
export const ASSET_KINDS = ['background', 'logo', 'font'] as const;
export type AssetKind = (typeof ASSET_KINDS)[number];
/** Stored formats of uploads: the image formats, and TrueType or OpenType (CFF) fonts. */
export type AssetFormat = FileFormat | 'ttf' | 'otf';

/**
 * An upload kept for reuse (`POST /assets`, `POST /fonts`): metadata stripped, stored privately in
 * the blob store under `blobKey` (never served by `/files`).
 */
export interface Asset {
  /** `ast_…` for images, `fnt_…` for fonts. */
  id: string;
  userId: string;
  kind: AssetKind;
  /** A name to know it by: the given one, else the file's name. */
  name: string;
  format: AssetFormat;
  /** Pixel size of an image; 0 for a font. */
  width: number;
  height: number;
  /** Size of the stored file, bytes. */
  bytes: number;
  /** Hex SHA-256 of the stored file: part of a render link's cache key. */
  sha256: string;
  blobKey: string;
  createdAt: Date;
}

/** Where a preset's logo goes (see `LOGO_CORNERS` in src/domain/render/paint/logo.ts). */
export interface PresetLogo {
  assetId: string;
  corner: 'top-left' | 'top-right' | 'bottom-left' | 'bottom-right';
  /** Logo width as a fraction of the canvas width, 0.05 to 0.3. */
  size: number;
}

/** A saved design: every generate option but the texts, a default background and a logo. */
export interface Preset {
  id: string;
  userId: string;
  name: string;
  /** 1 at creation, one more on every edit: part of a render link's cache key. */
  version: number;
  /** Generate options (docs/api.md#generate-options) as given, validated, without title and subtitle. */
  options: Record<string, unknown>;
  backgroundAssetId: string | null;
  logo: PresetLogo | null;
  /** The uploaded font the options name (`font: {custom}`), if any: kept for the in-use check. */
  fontId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * A template of the user's (docs/templates.md): its document as parsed (every default filled), with a
 * version that every update raises (part of a render link's cache key, as a preset's is).
 */
export interface TemplateRecord {
  id: string;
  userId: string;
  name: string;
  version: number;
  /** The template document (src/domain/render/document/document.ts), as JSON. */
  document: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * A signing key of render links: its secret is stored sealed (AES-256-GCM under the server's
 * SECRETS_KEY), because the server must compute the same HMAC to verify a link.
 */
export interface SigningKey {
  id: string;
  userId: string;
  name: string;
  /** `v1.<iv>.<tag>.<ciphertext>`, base64url (src/domain/kernel/secrets.ts). */
  sealedSecret: string;
  createdAt: Date;
  /** `null` while the key is active. */
  revokedAt: Date | null;
}

/**
 * A rendered render link, content-addressed by `hash` (preset version, parameters, and the bytes of
 * the assets and fonts it uses). `rendering` while one process renders it (a claim).
 */
export interface RenderEntry {
  hash: string;
  userId: string;
  state: 'rendering' | 'done';
  /** Blob key of the bytes once done. */
  blobKey: string | null;
  contentType: string | null;
  claimedAt: Date;
}

/**
 * A site whose pages get their card from one public link, `/s/<id>.<ext>?url=<page>`
 * (src/domain/sites/sites.ts). Its links work once the owner has proven the origin theirs.
 */
export interface Site {
  id: string;
  userId: string;
  /** `scheme://host[:port]`, as the WHATWG URL `origin` serialises it, e.g. `https://blog.example.com`. */
  origin: string;
  /** What the fallback card says; default the origin's host. */
  name: string;
  /** The preset that gives every page's card its design. */
  presetId: string;
  /** Whether a page URL keeps its query string (false: dropped, so `?utm_…` variants are one page). */
  keepQuery: boolean;
  /** Whether a page's `og:description` becomes the card's subtitle. */
  description: boolean;
  /** New cards the site's link may make per clock hour (UTC), and per calendar month (UTC): its budget. */
  budget: SiteBudget;
  /** `tcv_` + 32 base62: the content of the verification meta tag or file. */
  verificationToken: string;
  /** `null` until verified. */
  verifiedAt: Date | null;
  createdAt: Date;
}

/** A site's budget of new cards (src/domain/sites, `SITE_BUDGET_DEFAULT`). */
export interface SiteBudget {
  cardsPerHour: number;
  cardsPerMonth: number;
}

/** What Titlecard last saw of one page of a site: a card, or the problem that gave the fallback card. */
export interface SitePage {
  siteId: string;
  /** The page URL as fetched (origin, path, and the query when the site keeps it). */
  url: string;
  title: string | null;
  subtitle: string | null;
  /** Content hash of the page's newest card (a {@link RenderEntry}); null while it has none. */
  renderHash: string | null;
  /** Why the last check gave the fallback card (404, not HTML, timeout…); null when it went well. */
  problem: string | null;
  /** When the page was last fetched: it is not fetched again before the re-check interval. */
  checkedAt: Date;
}

/**
 * A platform's crawler fetched a site page's card (src/domain/link-previews/platforms.ts names the
 * crawlers): the last fetch of each page by each platform, with the card's version (1 for the
 * page's first card, then one more for each card of new content).
 */
export interface CrawlerFetch {
  siteId: string;
  url: string;
  /** A platform id of the link-previews table (`x`, `facebook`…). */
  platform: string;
  /** Content hash of the card it got. */
  hash: string;
  version: number;
  fetchedAt: Date;
}

/** A batch of generations (`POST /batches`, src/domain/batches): its items are rendered in the background. */
export interface Batch {
  id: string;
  userId: string;
  total: number;
  /** Where `batch.completed` is also sent (besides the account's webhook endpoints); null for none. */
  webhookUrl: string | null;
  createdAt: Date;
  /** When its last item finished or it was cancelled; null while items wait or run. */
  completedAt: Date | null;
  /** Set when `DELETE /batches/{id}` cancelled the items that had not started. */
  cancelledAt: Date | null;
}

export type BatchItemStatus = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

/** One generation of a batch, by its index in the request. */
export interface BatchItem {
  batchId: string;
  userId: string;
  index: number;
  /** What `/generate` takes without the upload (validated when the batch was made). */
  options: Record<string, unknown>;
  status: BatchItemStatus;
  /** The image record it made (an id derived from batch and index: a retry finds it). */
  imageId: string | null;
  /** Why it failed: the code and message `/generate` would answer, and the field. */
  error: { code: string; message: string; field: string | null } | null;
  /** Done, but worse than it could be (the render report's `warnings`); absent when none. */
  warnings?: string[];
  /** When a runner claimed it (`running`): a claim not renewed for a while is taken over. */
  claimedAt: Date | null;
}

/** A webhook endpoint of an account (`POST /webhooks`, src/domain/webhooks): where its events go. */
export interface WebhookEndpoint {
  id: string;
  userId: string;
  url: string;
  /** The signing secret (`whsec_…`), sealed as a signing key's is (src/domain/kernel/secrets.ts). */
  sealedSecret: string;
  createdAt: Date;
}

/** One event on its way to one receiver: sent, retried with backoff, or given up. */
export interface WebhookDelivery {
  /** `msg_…`: the `webhook-id` header, the same on every retry (receivers deduplicate on it). */
  id: string;
  userId: string;
  /** The endpoint it goes to; null for a batch's own `webhookUrl`. */
  endpointId: string | null;
  /** For a batch's `webhookUrl`: the batch, whose secret signs it. */
  batchId: string | null;
  url: string;
  /** `image.created`, `batch.completed`, `webhook.test`. */
  type: string;
  /** The JSON body, as signed. */
  payload: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  /** When it is next due (while pending); a runner holding it pushes this forward as a lease. */
  nextAttemptAt: Date;
  /** The receiver's last HTTP status, or null when it gave none (refused, timed out). */
  lastStatus: number | null;
  lastError: string | null;
  createdAt: Date;
  deliveredAt: Date | null;
}
