/**
 * What the MCP tools call: the domain, reached either directly (HTTP `/mcp`, and stdio on the local
 * embedded store) or through a remote Titlecard's REST API with the typed client `titlecard/client`
 * (stdio with TITLECARD_API_URL, so that a customer of a hosted Titlecard needs only a token).
 */
import { createTitlecardClient, errorMessage, multipartBody } from '../client/index.js';
import type { Principal } from '../domain/accounts/accounts.js';
import type { ImagePage, ImageView } from '../domain/images/images.js';
import type { ImageSort, SortOrder } from '../domain/kernel/records.js';
import type { TokenValidation, UsageView } from '../domain/accounts/quota.js';
import type { PresetView } from '../domain/render-links/presets.js';
import type { TemplateView } from '../domain/templates/templates.js';
import type { RenderUrl } from '../domain/render-links/render-links.js';
import type { GenerateOptions, LayoutReport } from '../domain/schemas.js';
import type { Services } from '../domain/services.js';
import type { Logger } from 'pino';
import { ConfigError, type Config } from '../config.js';
import { createRuntime } from '../runtime.js';
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
  ): Promise<{ image: ImageView; thumbnail: Buffer | undefined }>;
  listImages(query: { limit: number; offset: number; sort: ImageSort; order: SortOrder }): Promise<ImagePage>;
  usage(): Promise<UsageView>;
  validateToken(): Promise<TokenValidation>;
  /** Deletes one of the caller's images; NotFoundError (or a remote 404) when there is none. */
  deleteImage(id: string): Promise<void>;
  /** The fit check of `POST /layout`. */
  checkLayout(options: GenerateOptions): Promise<LayoutReport>;
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

/** The domain, for a caller authenticated by `principal()` (called on every tool call). */
export function localBackend(services: Services, principal: () => Promise<Principal>): TitlecardBackend {
  return {
    async generate(bytes, options) {
      const generated = await services.images.generate(await principal(), async () => ({
        image: bytes.read ? await bytes.read() : undefined,
        imageField: bytes.field,
        options,
      }));
      return { image: generated.image, thumbnail: generated.thumbnail.body };
    },
    async listImages(query) {
      return services.images.list(await principal(), query);
    },
    async usage() {
      return services.quota.usage((await principal()).user);
    },
    async validateToken() {
      return services.quota.validation((await principal()).user);
    },
    async deleteImage(id) {
      await services.images.delete(await principal(), id);
    },
    async checkLayout(options) {
      return services.images.checkLayout(await principal(), options);
    },
    async listPresets() {
      return services.presets.list(await principal());
    },
    async listTemplates() {
      return services.templates.list(await principal());
    },
    async getTemplate(id) {
      return services.templates.get(await principal(), id);
    },
    async createTemplate(document) {
      return services.templates.create(await principal(), document);
    },
    async replaceTemplate(id, document) {
      return services.templates.replace(await principal(), id, document);
    },
    async createRenderUrl(body) {
      return services.renderUrls.createUrl(await principal(), body);
    },
    async startBatch(body) {
      return services.batches.create(await principal(), body);
    },
    async getBatch(id) {
      return services.batches.get(await principal(), id);
    },
  };
}

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

/** The `data` of a success envelope, or a {@link RemoteApiError} with the answer's message. */
function dataOf<T>(answer: { data?: { data: T }; error?: unknown; response: Response }): T {
  if (answer.data === undefined)
    throw new RemoteApiError(answer.response.status, errorMessage(answer.response.status, answer.error));
  return answer.data.data;
}

/** A remote Titlecard's REST API (`apiUrl` is its `{base_url}`, e.g. https://host/api). */
export function remoteBackend(apiUrl: string, token: string): TitlecardBackend {
  const api = createTitlecardClient({ baseUrl: apiUrl, token });
  return {
    async generate(bytes, options) {
      const image = dataOf(
        await api.POST('/generate', {
          body: { ...options, ...(bytes.read ? { image: new Blob([await bytes.read()]) } : {}) } as never,
          bodySerializer: multipartBody,
        }),
      );
      // The thumbnail is a public file: no token needed.
      const res = await fetch(image.thumbnailUrl);
      return { image, thumbnail: res.ok ? Buffer.from(await res.arrayBuffer()) : undefined };
    },
    async listImages(query) {
      return dataOf(await api.GET('/images', { params: { query } }));
    },
    usage: async () => dataOf(await api.GET('/usage')),
    validateToken: async () => dataOf(await api.GET('/tokens/validate')),
    async deleteImage(id) {
      const answer = await api.DELETE('/images/{id}', { params: { path: { id } } });
      if (!answer.response.ok)
        throw new RemoteApiError(answer.response.status, errorMessage(answer.response.status, answer.error));
    },
    checkLayout: async (options) => dataOf(await api.POST('/layout', { body: options })),
    listPresets: async () => dataOf(await api.GET('/presets')).presets,
    listTemplates: async () => dataOf(await api.GET('/templates')).templates,
    getTemplate: async (id) => dataOf(await api.GET('/templates/{id}', { params: { path: { id } } })),
    createTemplate: async (document) => dataOf(await api.POST('/templates', { body: document as never })),
    replaceTemplate: async (id, document) =>
      dataOf(await api.PUT('/templates/{id}', { params: { path: { id } }, body: document as never })),
    createRenderUrl: async (body) => dataOf(await api.POST('/render-urls', { body: body as never })),
    startBatch: async (body) => dataOf(await api.POST('/batches', { body: body as never })),
    getBatch: async (id) => dataOf(await api.GET('/batches/{id}', { params: { path: { id } } })),
  };
}

/** A backend chosen from the environment, and what its caller must do with it. */
export interface EnvironmentBackend {
  backend: TitlecardBackend;
  /** Closes the local stores (nothing for a remote server). */
  close: () => Promise<void>;
  /** The local stores' services, when the backend is local (undefined for a remote server). */
  services: Services | undefined;
}

/**
 * The backend a process acting with an API token uses (`titlecard mcp`, `titlecard templates`):
 * with TITLECARD_API_URL set (a remote Titlecard's `{base_url}`, e.g. https://cards.example.com/api)
 * that server's REST API; otherwise this configuration's stores. Throws ConfigError for a missing
 * TITLECARD_TOKEN or a TITLECARD_API_URL that is not http or https.
 */
export async function backendFromEnvironment(
  config: Config,
  logger: Logger,
  env: NodeJS.ProcessEnv,
): Promise<EnvironmentBackend> {
  const token = env.TITLECARD_TOKEN?.trim();
  if (!token) throw new ConfigError('TITLECARD_TOKEN is required: the API token to act with');
  const apiUrl = env.TITLECARD_API_URL?.trim();
  if (apiUrl) {
    if (!/^https?:\/\//.test(apiUrl))
      throw new ConfigError(
        `Invalid TITLECARD_API_URL=${JSON.stringify(apiUrl)}: expected an http or https URL`,
      );
    logger.info({ apiUrl }, 'acting on a remote Titlecard');
    return { backend: remoteBackend(apiUrl, token), close: async () => {}, services: undefined };
  }
  const runtime = await createRuntime(config, logger);
  logger.info({ dataDir: config.dataDir }, 'acting on the local store');
  return {
    backend: localBackend(runtime.services, () => runtime.services.accounts.authenticate(`Bearer ${token}`)),
    close: () => runtime.close(),
    services: runtime.services,
  };
}
