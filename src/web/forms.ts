/** Reading forms and answering a refused one, for every dashboard route. */
import type { Response } from 'express';
import { TitlecardError, TooManyAttemptsError } from '../domain/errors.js';

/**
 * A notice for a page's `?done=` code: the one `notices` has for it, or undefined for any other
 * value (a code never echoes text from the URL).
 */
export function noticeFrom(notices: Record<string, string>, done: unknown): string | undefined {
  return typeof done === 'string' && Object.hasOwn(notices, done) ? notices[done] : undefined;
}

/** A text field of a parsed urlencoded form; '' when absent or not text. */
export function formText(body: unknown, field: string): string {
  const v = (body as Record<string, unknown> | undefined)?.[field];
  return typeof v === 'string' ? v : '';
}

/**
 * The HTTP status of a page that shows a refusal of the domain: 401 wrong credentials, 403 not
 * allowed, 404 unknown, 413 file too large, 429 quota or throttle, 400 any other bad input.
 */
export function statusOf(err: TitlecardError): number {
  switch (err.code) {
    case 'INVALID_CREDENTIALS':
      return 401;
    case 'FORBIDDEN':
      return 403;
    case 'NOT_FOUND':
      return 404;
    case 'CONFLICT':
      return 409;
    case 'FILE_TOO_LARGE':
      return 413;
    case 'RATE_LIMITED':
    case 'QUOTA_EXCEEDED':
      return 429;
    default:
      return 400;
  }
}

/**
 * Runs a form's `action`; when the domain refuses it (a TitlecardError), `show` renders the page
 * again with the refusal's message and {@link statusOf} its code, with `Retry-After` for a
 * throttle. Any other error goes on to the error handler.
 */
export async function orRefusal(
  res: Response,
  show: (error: string, status: number) => unknown,
  action: () => Promise<void>,
): Promise<void> {
  try {
    await action();
  } catch (err) {
    if (!(err instanceof TitlecardError)) throw err;
    if (err instanceof TooManyAttemptsError) res.set('Retry-After', String(err.retryAfterSeconds));
    await show(err.message, statusOf(err));
  }
}
