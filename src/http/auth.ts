/**
 * Bearer-token authentication at the HTTP edges (docs/api.md#authentication), shared by the REST API and the
 * MCP endpoint so that both answer a failed authentication the same way.
 */
import type { NextFunction, Request, Response } from 'express';
import type { Principal } from '../domain/accounts/accounts.js';
import type { UnauthorizedError } from '../domain/kernel/errors.js';
import type { UsageView } from '../domain/accounts/quota.js';
import type { Services } from '../domain/services.js';

/**
 * The 401 answer to a failed authentication: the body `{error, message}` of docs/api.md#errors and
 * the RFC 6750 section 3 challenge, which carries `error="invalid_token"` only when a token was sent
 * ("if the request lacks any authentication information, the resource server SHOULD NOT include an
 * error code").
 */
export function unauthorizedResponse(err: UnauthorizedError): {
  status: 401;
  headers: Record<string, string>;
  body: { error: 'Unauthorized'; message: string };
} {
  return {
    status: 401,
    headers: {
      'WWW-Authenticate':
        err.reason === 'missing'
          ? 'Bearer realm="titlecard"'
          : err.reason === 'scheme'
            ? 'Bearer realm="titlecard", error="invalid_request"'
            : 'Bearer realm="titlecard", error="invalid_token"',
    },
    body: { error: 'Unauthorized', message: err.message },
  };
}

/**
 * The monthly quota as rate-limit headers (IETF draft-ietf-httpapi-ratelimit-headers, structured
 * fields): `RateLimit-Policy: "monthly";q=<quota>;w=<seconds in this UTC month>` and
 * `RateLimit: "monthly";r=<remaining>;t=<seconds until the reset>`, beside the API's Retry-After.
 */
export function setRateLimitHeaders(res: Response, usage: UsageView): void {
  const start = Date.parse(usage.period.start);
  const end = Date.parse(usage.period.end);
  const window = Math.round((end - start) / 1000);
  const reset = Math.max(0, Math.ceil((end - Date.now()) / 1000));
  res.set('RateLimit-Policy', `"monthly";q=${usage.usage.limit};w=${window}`);
  res.set('RateLimit', `"monthly";r=${usage.usage.remaining};t=${reset}`);
}

/**
 * Express middleware: authenticates the `Authorization` header, keeps the caller for
 * {@link principalOf} and sets the rate-limit headers. A failure reaches the error handler as
 * UnauthorizedError (mapped to {@link unauthorizedResponse}).
 */
export function requireAuth(services: Services) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const principal = await services.accounts.authenticate(req.headers.authorization, req.ip);
    res.locals.principal = principal;
    // The quota's headers are the usage's: only for a caller who may read it.
    if (principal.scopes.has('usage:read'))
      setRateLimitHeaders(res, await services.quota.usage(principal.workspace));
    next();
  };
}

/** The caller authenticated by {@link requireAuth} for this response. */
export const principalOf = (res: Response): Principal => res.locals.principal as Principal;
