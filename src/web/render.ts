/**
 * Server-rendered pages: Eta templates (`src/web/views`), which escape every `<%= %>` value by
 * default, in one layout. Templates and static files are read from the package's `src/web`, which
 * resolves from both `src/web` (tsx) and `dist/web` (built).
 */
import { fileURLToPath } from 'node:url';
import { Eta } from 'eta';
import type { Response } from 'express';
import type { SessionPrincipal } from '../domain/accounts/sessions.js';

const WEB_DIR = fileURLToPath(new URL('../../src/web/', import.meta.url));
export const VIEWS_DIR = `${WEB_DIR}views`;
export const STATIC_DIR = `${WEB_DIR}static`;

const eta = new Eta({ views: VIEWS_DIR, cache: true, autoEscape: true });

/** The navigation's sections; `current` marks the page's own with aria-current. */
export type Section =
  | 'overview'
  | 'images'
  | 'playground'
  | 'templates'
  | 'links'
  | 'previews'
  | 'bulk'
  | 'settings'
  | 'connect'
  | 'none';

export interface PageData {
  /** The document title's first part. */
  title: string;
  section?: Section;
  [key: string]: unknown;
}

/**
 * Renders `view` in the layout, with the signed-in person (if any), whether account emails are
 * printed in the server's terminal (`mailInTerminal`: no SMTP_URL), and the page's data.
 */
export function page(res: Response, view: string, data: PageData, status = 200): void {
  const signedIn = res.locals.signedIn as SessionPrincipal | undefined;
  const mailInTerminal = res.locals.mailInTerminal === true;
  const html = eta.render(`./${view}`, {
    section: 'none',
    user: signedIn?.user,
    // The switcher's workspace and the person's others, with their role in each.
    workspace: signedIn?.principal.workspace,
    role: signedIn?.principal.role,
    scopes: signedIn ? [...signedIn.principal.scopes] : [],
    workspaces: signedIn?.workspaces ?? [],
    // With billing on (docs/billing.md): the Billing tab, and Upgrade beside the usage.
    billingOn: res.locals.billingOn === true,
    mailInTerminal,
    ...data,
  });
  res.status(status).type('html').send(html);
}

/** Dates as people read them: "22 Nov 2026", UTC. */
export function day(at: Date | string): string {
  return new Date(at).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
}
