/**
 * Browser sessions and request forgery, for the dashboard edge.
 *
 * - The session cookie is `HttpOnly`, `SameSite=Lax`, `Path=/`; when PUBLIC_URL is https it is also
 *   `Secure` and named with the `__Host-` prefix (RFC 6265bis 4.1.3.2: no Domain, Path=/, Secure), so
 *   no subdomain can set or shadow it. It lives until the session's absolute expiry; the idle expiry
 *   is enforced by the server (src/domain/accounts/sessions.ts).
 * - CSRF: every state-changing request (anything but GET and HEAD) must carry an `Origin` header
 *   equal to PUBLIC_URL's origin, or, when a browser sends none, a `Referer` of that origin
 *   (the OWASP CSRF Prevention Cheat Sheet's "verifying origin with standard headers"). SameSite=Lax
 *   is a second line: a cross-site POST carries no session cookie.
 */
import type { NextFunction, Request, Response } from 'express';
import type { SessionPrincipal, Sessions, SignedIn } from '../domain/accounts/sessions.js';
import type { Principal } from '../domain/workspaces/roles.js';

export interface CookieSettings {
  name: string;
  secure: boolean;
}

/** The cookie's name and flags for a PUBLIC_URL. */
export function cookieSettings(publicUrl: string): CookieSettings {
  const secure = new URL(publicUrl).protocol === 'https:';
  return { name: secure ? '__Host-titlecard_session' : 'titlecard_session', secure };
}

/** Sets the session cookie of a new session. */
export function setSessionCookie(res: Response, cookie: CookieSettings, signedIn: SignedIn): void {
  res.cookie(cookie.name, signedIn.secret, {
    httpOnly: true,
    sameSite: 'lax',
    secure: cookie.secure,
    path: '/',
    expires: signedIn.expiresAt,
  });
}

export function clearSessionCookie(res: Response, cookie: CookieSettings): void {
  res.clearCookie(cookie.name, { httpOnly: true, sameSite: 'lax', secure: cookie.secure, path: '/' });
}

/** The session cookie's value on a request, if any. */
export function sessionSecret(req: Request, cookie: CookieSettings): string | undefined {
  const value = (req.cookies as Record<string, unknown> | undefined)?.[cookie.name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * The cookie that remembers the workspace chosen in the dashboard's switcher: not a secret (the
 * membership is checked on every request), and the session's other flags.
 */
export const workspaceCookieName = (cookie: CookieSettings) =>
  cookie.secure ? '__Host-titlecard_workspace' : 'titlecard_workspace';

/** Remembers the switcher's choice (a year; it only names a workspace). */
export function setWorkspaceCookie(res: Response, cookie: CookieSettings, workspaceId: string): void {
  res.cookie(workspaceCookieName(cookie), workspaceId, {
    httpOnly: true,
    sameSite: 'lax',
    secure: cookie.secure,
    path: '/',
    maxAge: 365 * 24 * 3600 * 1000,
  });
}

/**
 * Resolves the request's session into `res.locals.signedIn` (undefined when signed out), acting
 * in the workspace of the switcher's cookie when the person belongs to it.
 */
export function loadSession(sessions: Sessions, cookie: CookieSettings) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const chosen = (req.cookies as Record<string, unknown> | undefined)?.[workspaceCookieName(cookie)];
    res.locals.signedIn = await sessions.authenticate(sessionSecret(req, cookie), {
      ...(typeof chosen === 'string' ? { workspaceId: chosen } : {}),
      ...(req.ip ? { address: req.ip } : {}),
    });
    next();
  };
}

/** The signed-in person of this response (after {@link loadSession}), if any. */
export const signedInOf = (res: Response): SessionPrincipal | undefined =>
  res.locals.signedIn as SessionPrincipal | undefined;

/** Pages for signed-in people only: others are sent to sign in, and come back afterwards. */
export function requireSignIn(req: Request, res: Response, next: NextFunction): void {
  if (signedInOf(res)) return next();
  if (req.method === 'GET') res.redirect(303, `/sign-in?next=${encodeURIComponent(req.originalUrl)}`);
  else res.status(401).type('text/plain').send('Sign in first.');
}

/** The signed-in person of a page behind {@link requireSignIn}. */
export function mustBeSignedIn(res: Response): SessionPrincipal {
  const who = signedInOf(res);
  if (!who) throw new Error('requireSignIn must run before this handler');
  return who;
}

/** The signed-in person acting in the switcher's workspace, for the use cases. */
export const sessionPrincipal = (res: Response): Principal => mustBeSignedIn(res).principal;

/** Refuses (403) a state-changing request whose Origin (or Referer) is not `origin`. */
export function checkSameOrigin(origin: string) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method === 'GET' || req.method === 'HEAD') return next();
    const claimed = req.headers.origin ?? refererOrigin(req.headers.referer);
    if (claimed === origin) return next();
    res
      .status(403)
      .type('text/plain')
      .send(
        'This request did not come from a Titlecard page (its Origin is not this site), so it was refused.',
      );
  };
}

function refererOrigin(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}

/** A safe place to return to after signing in: a path of this site only (no open redirect). */
export function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/(?![/\\])/.test(next) ? next : '/overview';
}
