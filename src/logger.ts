/**
 * The structured logger (pino). Logs always go to stderr: stdout belongs to command output
 * (`--json`) and, in stdio MCP mode, to the protocol. Bearer tokens, cookies and redirect locations
 * (which carry an OAuth authorization code after "Allow") are redacted, and so are the secrets of
 * emailed links in a request's URL and Referer ({@link redactUrl}), so a secret never reaches a log
 * line.
 */
import { pino, type Logger } from 'pino';

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'res.headers.location',
];

/** Query parameters whose values are secrets: the email links' `token` (lnk_…), OAuth's `code`. */
const SECRET_PARAMS = /([?&](?:token|code)=)[^&#\s]*/gi;
/** Whether a query parameter's name is one of {@link SECRET_PARAMS}'. */
const isSecretParam = (name: string) => /^(?:token|code)$/i.test(name);

/** `url` (a path with a query, or an absolute URL) with the values of secret query parameters redacted. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]');
}

/**
 * The request as pino-http serialises it, with {@link redactUrl} applied to `url` and to the
 * `referer` header (a page of an emailed link passes its URL on as the Referer of what it loads),
 * and the same parameters redacted in `query`.
 */
export function redactRequest<
  T extends { url?: string; headers?: Record<string, unknown>; query?: Record<string, unknown> },
>(req: T): T {
  const referer = req.headers?.referer;
  return {
    ...req,
    ...(req.query
      ? {
          query: Object.fromEntries(
            Object.entries(req.query).map(([k, v]) => [k, isSecretParam(k) ? '[redacted]' : v]),
          ),
        }
      : {}),
    ...(typeof req.url === 'string' ? { url: redactUrl(req.url) } : {}),
    ...(req.headers && typeof referer === 'string'
      ? { headers: { ...req.headers, referer: redactUrl(referer) } }
      : {}),
  };
}

/** pino-http's serialised request, as {@link requestSerializers} receives it. */
interface SerializedRequest {
  id?: unknown;
  method?: string;
  url?: string;
  headers?: Record<string, unknown>;
  query?: Record<string, unknown>;
}

/**
 * The request log's serialisers: at `info`, one compact line per request, `{req: {id, method,
 * url}, res: {statusCode}, responseTime}` (ms) and the message `GET /api/usage 200 3 ms`; at
 * `debug` (or `trace`), the request's and the answer's headers too. Secrets are redacted at every
 * level ({@link redactRequest}, {@link REDACTED_PATHS}).
 */
export function requestSerializers(logger: Logger) {
  const full = () => logger.isLevelEnabled('debug');
  return {
    req: (req: SerializedRequest) =>
      full() ? redactRequest(req) : { id: req.id, method: req.method, url: redactUrl(req.url ?? '') },
    res: (res: { statusCode?: number; headers?: Record<string, unknown> }) =>
      full() ? res : { statusCode: res.statusCode },
  };
}

/**
 * The request log's message: method, path and query (secrets redacted), status, and the time in ms
 * (`GET /api/usage 200 3 ms`) or, for a failed request, the error's message.
 */
export function requestLogMessage(
  req: { method?: string; originalUrl?: string; url?: string },
  res: { statusCode: number },
  outcome: number | Error,
): string {
  const line = `${req.method} ${redactUrl(req.originalUrl ?? req.url ?? '')} ${res.statusCode}`;
  return typeof outcome === 'number' ? `${line} ${Math.round(outcome)} ms` : `${line}: ${outcome.message}`;
}

export function createLogger(level: string = 'info'): Logger {
  return pino(
    { level, base: { service: 'titlecard' }, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } },
    pino.destination(2),
  );
}
