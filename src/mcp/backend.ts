/**
 * What the MCP tools call: the domain, reached either directly (HTTP /mcp, and stdio on the local
 * embedded store) or through a remote Titlecard's REST API (stdio with TITLECARD_API_URL, so that a
 * customer of a hosted Titlecard needs only a token). Both raise the domain's errors.
 */
import type { Principal } from '../domain/accounts.js';
import {
  FileTooLargeError,
  NotFoundError,
  TitlecardError,
  UnauthorizedError,
  ValidationError,
  type Constraint,
} from '../domain/errors.js';
import type { ImagePage, ImageView } from '../domain/images.js';
import type { TokenValidation, UsageView } from '../domain/quota.js';
import { LIMITS, type GenerateOptions } from '../domain/schemas.js';
import type { Services } from '../domain/services.js';

export interface TitlecardBackend {
  generate(image: Buffer, options: GenerateOptions): Promise<ImageView>;
  listImages(query: { limit: number; offset: number; sort: string; order: string }): Promise<ImagePage>;
  usage(): Promise<UsageView>;
  validateToken(): Promise<TokenValidation>;
  /** The bytes of a file the service published (its thumbnail), for the inline preview. */
  readFile(url: string): Promise<Buffer | undefined>;
}

/** The domain, for a caller authenticated by `principal()` (called on every tool call). */
export function localBackend(services: Services, principal: () => Promise<Principal>): TitlecardBackend {
  return {
    async generate(image, options) {
      const p = await principal();
      await services.quota.assertAvailable(p.user);
      return services.images.generate(p, image, options);
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
    async readFile(url) {
      const key = new URL(url).pathname.split('/').pop() ?? '';
      return (await services.blobs.get(key))?.body;
    },
  };
}

/** A quota error relayed from a remote server: its message and its retry delay. */
export class RemoteQuotaError extends TitlecardError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('QUOTA_EXCEEDED', message);
  }
}

/** Turns a REST error response back into the domain's error (spec section 7). */
function errorFrom(status: number, body: unknown): Error {
  const b = (body ?? {}) as {
    message?: string;
    retryAfter?: number;
    error?: { code?: string; message?: string; details?: { field?: string; constraint?: Constraint } };
  };
  if (status === 401) return new UnauthorizedError('invalid');
  if (status === 429) return new RemoteQuotaError(b.message ?? 'Monthly quota exceeded', b.retryAfter ?? 0);
  if (status === 413) return new FileTooLargeError(LIMITS.imageBytes);
  if (status === 404) return new NotFoundError(b.error?.message ?? 'Not found');
  if (status === 400 && b.error?.details?.field)
    return new ValidationError(
      b.error.details.field,
      b.error.details.constraint ?? 'format',
      b.error.message ?? 'Invalid',
    );
  return new Error(`Titlecard answered ${status}: ${b.error?.message ?? JSON.stringify(body)}`);
}

/** Form fields of `POST /generate` for typed options (the inverse of `src/api/form.ts`). */
export function toFormFields(options: GenerateOptions): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined) continue;
    if (key === 'font') fields.font = JSON.stringify({ system: value });
    else fields[key] = typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
  return fields;
}

/** A client of a remote Titlecard's REST API (`apiUrl` is its `{base_url}`, e.g. https://host/api). */
export function remoteBackend(apiUrl: string, token: string): TitlecardBackend {
  const base = apiUrl.replace(/\/+$/, '');
  const headers = { authorization: `Bearer ${token}` };
  async function request<T>(path: string, init: RequestInit = {}): Promise<T> {
    const res = await fetch(`${base}${path}`, { ...init, headers: { ...headers, ...(init.headers ?? {}) } });
    const text = await res.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    if (!res.ok) throw errorFrom(res.status, body);
    return (body as { data: T }).data;
  }
  return {
    async generate(image, options) {
      const form = new FormData();
      form.append('image', new Blob([image]), 'image');
      for (const [k, v] of Object.entries(toFormFields(options))) form.append(k, v);
      return request<ImageView>('/generate', { method: 'POST', body: form });
    },
    async listImages(q) {
      const query = new URLSearchParams({
        limit: String(q.limit),
        offset: String(q.offset),
        sort: q.sort,
        order: q.order,
      });
      return request<ImagePage>(`/images?${query.toString()}`);
    },
    usage: () => request<UsageView>('/usage'),
    validateToken: () => request<TokenValidation>('/tokens/validate'),
    async readFile(url) {
      const res = await fetch(url);
      return res.ok ? Buffer.from(await res.arrayBuffer()) : undefined;
    },
  };
}
