/** Reading forms and answering a refused one, for every dashboard route. */
import type { Response } from 'express';
import { TitlecardError } from '../domain/kernel/errors.js';
import { HTTP_ERRORS } from '../http/errors.js';

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
 * The status and headers a refusal of the domain is answered with on a page or in the playground:
 * the same as the REST API's ({@link HTTP_ERRORS}), so a busy service is a 503 with `Retry-After`
 * here too. Sets the headers on `res` and answers the status.
 */
export function refusalStatus(res: Response, err: TitlecardError): number {
  const answer = HTTP_ERRORS[err.code](err);
  // The dashboard's forms never ask for a bearer token: no WWW-Authenticate challenge on a page.
  for (const [name, value] of Object.entries(answer.headers ?? {}))
    if (name !== 'WWW-Authenticate') res.set(name, value);
  return answer.status;
}

/**
 * Runs a form's `action`; when the domain refuses it (a TitlecardError), `show` renders the page
 * again with the refusal's message and {@link refusalStatus}. Any other error goes on to the error
 * handler.
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
    await show(err.message, refusalStatus(res, err));
  }
}
