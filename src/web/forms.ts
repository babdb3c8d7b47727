/** Reading forms and answering a refused one, for every dashboard route. */
import type { TitlecardError } from '../domain/errors.js';

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
    case 'FILE_TOO_LARGE':
      return 413;
    case 'RATE_LIMITED':
    case 'QUOTA_EXCEEDED':
      return 429;
    default:
      return 400;
  }
}
