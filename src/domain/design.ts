/**
 * The design vocabulary: the words a card is described in (aspects and their pixel sizes,
 * templates, positions, focus names, colour modes, fonts, formats) and the limits and tiers of
 * docs/api.md#limits. Plain values with no dependencies: the renderer imports these, never the request
 * schemas (src/domain/schemas.ts), which are built on them.
 */

/** Output canvas sizes in px per `aspect` (docs/api.md#generate-options, `aspect`). */
export const ASPECTS = {
  og: { width: 1200, height: 630 },
  square: { width: 1080, height: 1080 },
  portrait: { width: 1080, height: 1350 },
} as const;
export type Aspect = keyof typeof ASPECTS;
export const ASPECT_NAMES = Object.keys(ASPECTS) as [Aspect, ...Aspect[]];

/** Layout templates (docs/api.md#generate-options, "Templates"). */
export const TEMPLATES = ['bottom-left', 'left', 'right', 'split'] as const;
export type Template = (typeof TEMPLATES)[number];

/** Named cover-crop focus points (docs/api.md#generate-options, see `focus`). */
export const FOCUS_NAMES = ['auto', 'center', 'attention'] as const;

/** Named text positions, used only when no `template` is given (docs/api.md#generate-options). */
export const POSITION_NAMES = ['top', 'center', 'bottom'] as const;

export const COLOR_MODES = ['auto', 'white', 'black', 'custom'] as const;

/** The nine font names of docs/api.md#generate-options. `arial` is set in Arimo, which is metric-compatible with Arial. */
export const FONT_NAMES = [
  'arial',
  'inter',
  'montserrat',
  'playfair-display',
  'oswald',
  'lora',
  'raleway',
  'roboto',
  'source-sans-pro',
] as const;
export type FontName = (typeof FONT_NAMES)[number];

/** Limits of docs/api.md#limits. */
export const LIMITS = {
  /** Background image size in bytes: 10 MB = 10 × 1024 × 1024. */
  imageBytes: 10 * 1024 * 1024,
  /** Title and subtitle length in characters (extended grapheme clusters, UAX #29). */
  textMaxLength: 200,
  fontSizeMin: 24,
  fontSizeMax: 120,
  pageSizeMax: 100,
  pageSizeDefault: 20,
  /** Our choice: at most 100 characters in a token name. */
  tokenNameMaxLength: 100,
  /** Our choice: at most 100 active tokens per account (docs/api.md#limits leaves it open). */
  activeTokensMax: 100,
} as const;

/** Corners a preset's logo can sit in (of the safe zone). */
export const LOGO_CORNERS = ['top-left', 'top-right', 'bottom-left', 'bottom-right'] as const;
export type LogoCorner = (typeof LOGO_CORNERS)[number];

/** A preset's logo: its default corner, and its width as a fraction of the canvas width (range, default). */
export const LOGO = { corner: 'top-right', sizeMin: 0.05, sizeMax: 0.3, size: 0.15 } as const satisfies {
  corner: LogoCorner;
  sizeMin: number;
  sizeMax: number;
  size: number;
};

/** Subscription tiers and their monthly quotas of generated images (docs/api.md#limits). */
export const TIER_QUOTAS = { free: 10, pro: 500, agency: 2000 } as const;
export type Tier = keyof typeof TIER_QUOTAS;
export const TIERS = Object.keys(TIER_QUOTAS) as Tier[];

/**
 * Seats of a workspace per tier: its members and pending invitations together (issue 51; the
 * seat counts of the plans, docs/workspaces.md#seats).
 */
export const TIER_SEATS = { free: 1, pro: 3, agency: 10 } as const satisfies Record<Tier, number>;

/**
 * A member's role in a workspace, each a superset of the next (docs/workspaces.md#roles): `owner`
 * (also deletes the workspace and hands it over), `admin` (members, invitations, others' tokens,
 * webhooks, sites, settings), `editor` (makes cards, batches, templates, assets, presets, render
 * links), `viewer` (reads images, templates and usage; makes and spends nothing).
 */
export const ROLES = ['owner', 'admin', 'editor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/**
 * The scopes of an API token (docs/workspaces.md#scopes). A token acts with the scopes it was given
 * that its member's current role also has.
 */
export const SCOPES = [
  'images:read',
  'images:write',
  'usage:read',
  'templates:write',
  'sites:write',
  'webhooks:write',
  'workspace:admin',
] as const;
export type Scope = (typeof SCOPES)[number];

/** Output file formats (docs/api.md#generate-options). */
export const FILE_FORMATS = ['png', 'jpeg', 'webp'] as const;
export type FileFormat = (typeof FILE_FORMATS)[number];

/** Per output format (docs/api.md#generate-options): the file extension and the media type (RFC 2046, IANA registry). */
export const FILE_TYPES: Record<FileFormat, { extension: string; contentType: string }> = {
  png: { extension: 'png', contentType: 'image/png' },
  jpeg: { extension: 'jpg', contentType: 'image/jpeg' },
  webp: { extension: 'webp', contentType: 'image/webp' },
};
