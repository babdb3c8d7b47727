/**
 * Bearer-token authentication at the HTTP edges (spec section 5), shared by the REST API and the
 * MCP endpoint so that both answer a failed authentication the same way.
 */
import type { NextFunction, Request, Response } from 'express';
import type { Principal } from '../domain/accounts.js';
import type { UnauthorizedError } from '../domain/errors.js';
import type { Services } from '../domain/services.js';

/**
 * The 401 answer to a failed authentication: the spec's body `{error, message}` (section 7.2) and
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
          : 'Bearer realm="titlecard", error="invalid_token"',
    },
    body: { error: 'Unauthorized', message: err.message },
  };
}

/**
 * Express middleware: authenticates the `Authorization` header and keeps the caller for
 * {@link principalOf}. A failure reaches the error handler as UnauthorizedError (mapped to
 * {@link unauthorizedResponse}).
 */
export function requireAuth(services: Services) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    res.locals.principal = await services.accounts.authenticate(req.headers.authorization);
    next();
  };
}

/** The caller authenticated by {@link requireAuth} for this response. */
export const principalOf = (res: Response): Principal => res.locals.principal as Principal;
