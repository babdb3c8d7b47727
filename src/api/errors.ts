/**
 * Maps domain errors to HTTP (spec section 7): status, body shape and headers. The last-resort
 * handler turns anything else into a generic 500 with a request id, never a stack trace.
 */
import type { ErrorRequestHandler, Request, Response } from 'express';
import {
  ConflictError,
  FileTooLargeError,
  ForbiddenError,
  InvalidSignatureError,
  NotFoundError,
  QuotaExceededError,
  ServiceBusyError,
  TitlecardError,
  TooManyAttemptsError,
  UnauthorizedError,
  ValidationError,
} from '../domain/errors.js';
import { IdempotencyInFlightError, IdempotencyMismatchError } from '../domain/idempotency.js';
import type { Metrics } from '../metrics.js';
import { unauthorizedResponse } from './auth.js';

/** `{success: false, error: {code, message, details?}}` (spec 7.2, endpoint errors). */
export function endpointError(code: string, message: string, details?: Record<string, unknown>) {
  return { success: false as const, error: details ? { code, message, details } : { code, message } };
}

/** Status, headers and body for a domain error; undefined for anything else. */
export function httpErrorOf(
  err: unknown,
): { status: number; headers?: Record<string, string>; body: unknown } | undefined {
  if (err instanceof ValidationError)
    return {
      status: 400,
      body: endpointError(err.code, err.message, { field: err.field, constraint: err.constraint }),
    };
  if (err instanceof FileTooLargeError) return { status: 413, body: endpointError(err.code, err.message) };
  if (err instanceof UnauthorizedError) return unauthorizedResponse(err);
  // The spec's 429 shape (section 7.2), for the quota and for the fit check's rate limit alike.
  if (err instanceof QuotaExceededError || err instanceof TooManyAttemptsError)
    return {
      status: 429,
      headers: { 'Retry-After': String(err.retryAfterSeconds) },
      body: { error: 'Rate limit exceeded', message: err.message, retryAfter: err.retryAfterSeconds },
    };
  if (err instanceof NotFoundError) return { status: 404, body: endpointError(err.code, err.message) };
  if (err instanceof ForbiddenError || err instanceof InvalidSignatureError)
    return { status: 403, body: endpointError(err.code, err.message) };
  if (err instanceof ConflictError) return { status: 409, body: endpointError(err.code, err.message) };
  if (err instanceof IdempotencyInFlightError)
    return { status: 409, body: endpointError(err.code, err.message) };
  if (err instanceof IdempotencyMismatchError)
    return { status: 422, body: endpointError(err.code, err.message) };
  if (err instanceof ServiceBusyError)
    return {
      status: 503,
      headers: { 'Retry-After': String(err.retryAfterSeconds) },
      body: endpointError(err.code, err.message),
    };
  if (err instanceof TitlecardError) return { status: 400, body: endpointError(err.code, err.message) };
  return undefined;
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
 * link, a busy event loop) met EPIPE on its next write (test/quota.test.ts); kept alive, the
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
  const mapped = httpErrorOf(requestError(err) ?? err);
  if (err instanceof QuotaExceededError)
    (req.app.locals as { metrics?: Metrics }).metrics?.quotaRefusals.inc();
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
