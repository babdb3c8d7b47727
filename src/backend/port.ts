/**
 * The port through which the MCP tools and the command line reach a Titlecard: the use cases they
 * call, as one interface with two adapters, the domain in this process (local.ts) and a remote
 * Titlecard's REST API (remote.ts). Neither adapter opens stores: whoever composes the process (the
 * HTTP app, the command line) hands them the services or the URL and token.
 */
import type { PreviewReport } from '../domain/link-previews/schemas.js';
import type { ImagePage, ImageView } from '../domain/images/images.js';
import type { ImageSort, SortOrder } from '../domain/kernel/records.js';
import type { TokenValidation, UsageView } from '../domain/accounts/quota.js';
import type { PresetView } from '../domain/presets/presets.js';
import type { TemplateView } from '../domain/templates/templates.js';
import type { RenderUrl } from '../domain/render-links/render-links.js';
import type { GenerateOptions, LayoutReport } from '../domain/images/schemas.js';
import type { BatchDetail, BatchView } from '../domain/batches/batches.js';

export interface TitlecardBackend {
  /**
   * Generates an image; `bytes.read`, when the tool was given bytes, is called once the quota unit
   * is reserved, and `bytes.field` names the tool's argument for them in refusals. `imageUrl`,
   * `asset` and `preset` travel in `options`, for the domain to decide. Answers the record and,
   * where the backend has it at hand, the thumbnail's bytes (for the inline preview).
   */
  generate(
    bytes: { field: string; read: (() => Promise<Buffer>) | undefined },
    options: GenerateRequest,
  ): Promise<{
    image: ImageView;
    thumbnail: Buffer | undefined;
    /** The render report's warnings (a soft, enlarged background; text under 4.5:1), in words to show a person. */
    warnings: string[];
  }>;
  /**
   * A preview of the generation `generate` would make (the dashboard playground's): a JPEG 600 px
   * wide, stored nowhere, charged nothing, 60 a minute per account (TooManyAttemptsError past it).
   * A remote Titlecard's REST API has none: RemoteApiError 501 there.
   */
  preview(
    bytes: { field: string; read: (() => Promise<Buffer>) | undefined },
    options: GenerateRequest,
  ): Promise<Buffer>;
  listImages(query: { limit: number; offset: number; sort: ImageSort; order: SortOrder }): Promise<ImagePage>;
  usage(): Promise<UsageView>;
  validateToken(): Promise<TokenValidation>;
  /**
   * One of the caller's cards at its own size as a JPEG (quality 90, flattened on white), for the
   * studio's large view, with its size in px. NotFoundError (or a remote 404) when there is none;
   * TooManyAttemptsError past 60 a minute per account (src/domain/images/previews.ts).
   */
  cardView(id: string): Promise<{ body: Buffer; width: number; height: number }>;
  /** Deletes one of the caller's images; NotFoundError (or a remote 404) when there is none. */
  deleteImage(id: string): Promise<void>;
  /** The fit check of `POST /layout`. */
  checkLayout(options: GenerateOptions): Promise<LayoutReport>;
  /** The link-preview check of `POST /previews` (docs/previews.md). */
  checkLinkPreview(url: string): Promise<PreviewReport>;
  /** A check's mock-up PNG on `platform` (`GET /previews/{id}/{platform}.png`). */
  linkPreviewMockup(id: string, platform: string): Promise<Buffer>;
  /** The caller's presets, newest first. */
  listPresets(): Promise<PresetView[]>;
  /** The built-in templates, then the caller's, newest first. */
  listTemplates(): Promise<TemplateView[]>;
  /** A built-in template by name or one of the caller's by id; NotFoundError (a remote 404) when there is none. */
  getTemplate(id: string): Promise<TemplateView>;
  /** Saves a template document (`POST /templates`; `titlecard templates push`). */
  createTemplate(document: unknown): Promise<TemplateView>;
  /** Replaces one of the caller's templates (`PUT /templates/{id}`). */
  replaceTemplate(id: string, document: unknown): Promise<TemplateView>;
  /** A signed render link (`POST /render-urls`). */
  createRenderUrl(body: Record<string, unknown>): Promise<RenderUrl>;
  /** Starts a batch (`POST /batches`, JSON). */
  startBatch(body: Record<string, unknown>): Promise<BatchView>;
  /** A batch's progress and items (`GET /batches/{id}`). */
  getBatch(id: string): Promise<BatchDetail>;
}

/**
 * The options of a generation as a tool sends them: docs/api.md#generate-options options (not yet defaulted, so that
 * a preset's apply), and optionally `preset`, `asset` and `imageUrl`.
 */
export type GenerateRequest = Partial<GenerateOptions> & {
  title: string;
  preset?: string;
  asset?: string;
  imageUrl?: string;
};

/** An error answer of a remote Titlecard, relayed with its message (docs/api.md#errors). */
export class RemoteApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'RemoteApiError';
  }
}
