/**
 * Maps domain errors to HTTP (docs/api.md#errors): status, body shape and headers. The last-resort
 * handler turns anything else into a generic 500 with a request id, never a stack trace.
 */
import type { ErrorRequestHandler, Request, Response } from 'express';
import {
  outageOf,
  QuotaExceededError,
  ServiceBusyError,
  ServiceUnavailableError,
  TitlecardError,
  TooManyAttemptsError,
  UnauthorizedError,
  ValidationError,
  type ErrorCode,
} from '../domain/kernel/errors.js';
import type { Metrics } from '../adapters/metrics.js';
import { unauthorizedResponse } from './auth.js';

/** `{success: false, error: {code, message, details?}}` (docs/api.md#errors). */
export function endpointError(code: string, message: string, details?: Record<string, unknown>) {
  return { success: false as const, error: details ? { code, message, details } : { code, message } };
}

/** An HTTP answer to a refused request: status, extra headers, JSON body. */
export interface HttpErrorAnswer {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

/** The endpoint-error body (docs/api.md#errors) at `status`. */
const plain =
  (status: number) =>
  (err: TitlecardError): HttpErrorAnswer => ({ status, body: endpointError(err.code, err.message) });

/** Seconds to wait, for the errors that carry them (quota, throttles, a busy service). */
function retryAfterOf(err: TitlecardError): number {
  return err instanceof QuotaExceededError ||
    err instanceof TooManyAttemptsError ||
    err instanceof ServiceBusyError ||
    err instanceof ServiceUnavailableError
    ? err.retryAfterSeconds
    : 1;
}

/** 503 with `Retry-After`: busy (BUSY) or a store or the queue away (UNAVAILABLE). */
const unavailable = (err: TitlecardError): HttpErrorAnswer => ({
  status: 503,
  headers: { 'Retry-After': String(retryAfterOf(err)) },
  body: endpointError(err.code, err.message),
});

/** The 429 shape of docs/api.md#errors, for the quota and for throttles alike, with `Retry-After`. */
const rateLimited = (err: TitlecardError): HttpErrorAnswer => {
  const retryAfter = retryAfterOf(err);
  return {
    status: 429,
    headers: { 'Retry-After': String(retryAfter) },
    body: { error: 'Rate limit exceeded', message: err.message, retryAfter },
  };
};

/**
 * Every error code's HTTP answer, one row per code of {@link ErrorCode}: the mapped type makes a
 * new code without a row fail the type check. The REST API, the dashboard and `/mcp` all answer
 * from this table (docs/api.md#errors for the codes it names; the rest are ours, docs/api.md).
 */
export const HTTP_ERRORS: { readonly [C in ErrorCode]: (err: TitlecardError) => HttpErrorAnswer } = {
  VALIDATION_ERROR: (err) => ({
    status: 400,
    body: endpointError(
      err.code,
      err.message,
      err instanceof ValidationError ? { field: err.field, constraint: err.constraint } : undefined,
    ),
  }),
  FILE_TOO_LARGE: plain(413),
  UNAUTHORIZED: (err) =>
    unauthorizedResponse(err instanceof UnauthorizedError ? err : new UnauthorizedError('invalid')),
  // A wrong password on a dashboard form (sign-in, change password, delete account).
  INVALID_CREDENTIALS: plain(401),
  QUOTA_EXCEEDED: rateLimited,
  RATE_LIMITED: rateLimited,
  NOT_FOUND: plain(404),
  FORBIDDEN: plain(403),
  INVALID_SIGNATURE: plain(403),
  CONFLICT: plain(409),
  IDEMPOTENCY_IN_FLIGHT: plain(409),
  IDEMPOTENCY_MISMATCH: plain(422),
  BUSY: unavailable,
  UNAVAILABLE: unavailable,
  INVALID_LINK: plain(400),
  OAUTH_REFUSED: plain(400),
};

/** Status, headers and body for a domain error ({@link HTTP_ERRORS}); undefined for anything else. */
export function httpErrorOf(err: unknown): HttpErrorAnswer | undefined {
  return err instanceof TitlecardError ? HTTP_ERRORS[err.code](err) : undefined;
}

/**
 * Errors raised before a route runs, mapped to VALIDATION_ERROR: by express.json() (body-parser) on
 * field `body`, including a body that does not match its Content-Encoding (zlib's errors); by the
 * router on field `path` when a parameter is not valid percent-encoding ("%zz").
 */
export function requestError(err: unknown): ValidationError | undefined {
  const e = err as { type?: string; code?: string; status?: number; message?: string } | null;
  if (e && (e instanceof URIError || (e.status === 400 && /decode param/i.test(e.message ?? ''))))
    return new ValidationError('path', 'format', 'Expected a URL path with valid percent-encoding');
  // zlib's errors: Z_DATA_ERROR and the like for gzip and deflate, ERR__ERROR_… for Brotli.
  if (/^(Z_|ERR__)/.test(e?.code ?? '') || e?.type === 'request.aborted' || e?.type === 'stream.encoding.set')
    return new ValidationError(
      'body',
      'format',
      `Expected a body that matches its Content-Encoding (${e?.message ?? 'it could not be decoded'})`,
    );
  const type = e?.type;
  if (type === 'entity.parse.failed')
    return new ValidationError('body', 'format', 'Expected a JSON body but it could not be parsed');
  if (type === 'entity.too.large')
    return new ValidationError(
      'body',
      'maxLength',
      `Expected a JSON body of at most ${(err as { limit?: number }).limit ?? 16 * 1024} bytes`,
    );
  if (type === 'encoding.unsupported' || type === 'charset.unsupported')
    return new ValidationError('body', 'format', 'Expected a UTF-8 JSON body');
  return undefined;
}

/**
 * When we answer before the request body was read (413 as soon as the limit is crossed, 401, 429 or
 * 503 before an upload), the client is still sending. Closing at once makes it see ECONNRESET or EPIPE
 * instead of our answer, so we keep reading and discarding the rest, and cut the connection only
 * if it goes on for more than 10 s after the answer. No `Connection: close`: with it, Node's HTTP
 * server closes the socket as soon as the answer is written, and a client still uploading (a slow
 * link, a busy event loop) met EPIPE on its next write (test/system/quota.test.ts); kept alive, the
 * connection can serve the client's next request once the body has ended.
 */
export function drainAfterResponse(req: Request, res: Response): void {
  if (req.complete || req.readableEnded) return;
  req.resume();
  res.once('finish', () => {
    if (req.readableEnded) return;
    const timer = setTimeout(() => req.destroy(), 10_000);
    timer.unref();
    req.once('end', () => clearTimeout(timer));
  });
}

export const errorHandler: ErrorRequestHandler = (err, req, res, next) => {
  if (res.headersSent) {
    next(err);
    return;
  }
  const outage = outageOf(err);
  if (outage) req.log.warn({ err }, 'a store or the queue is away: 503');
  const mapped = httpErrorOf(requestError(err) ?? outage ?? err);
  if (err instanceof QuotaExceededError) {
    (req.app.locals as { metrics?: Metrics }).metrics?.quotaRefusals.inc();
    // With billing on, the quota wall names the way past it (docs/billing.md).
    if (err.upgradeUrl && mapped) mapped.body = { ...(mapped.body as object), upgradeUrl: err.upgradeUrl };
  }
  drainAfterResponse(req, res);
  if (mapped) {
    if (mapped.headers) res.set(mapped.headers);
    res.status(mapped.status).json(mapped.body);
    return;
  }
  req.log.error({ err }, 'unhandled error');
  res
    .status(500)
    .json(
      endpointError(
        'INTERNAL_ERROR',
        `Internal server error (request id ${typeof req.id === 'string' ? req.id : JSON.stringify(req.id)})`,
      ),
    );
};
