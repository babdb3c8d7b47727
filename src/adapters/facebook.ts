/**
 * Facebook's re-scrape of a page (Meta for Developers, Sharing: "Updating Your Content",
 * `POST /?id={url}&scrape=true&access_token={token}` on the Graph API): Facebook fetches the page's
 * tags again, and its image, so that new shares show the new card. Used when a site page's card
 * changes (src/domain/sites/crawls.ts), with `FACEBOOK_APP_TOKEN`.
 */
import type { Rescrape } from '../domain/sites/crawls.js';

/** Milliseconds a re-scrape may take (Facebook fetches the page meanwhile). */
const TIMEOUT_MS = 10_000;

/**
 * The re-scrape of `pageUrl` at `graphUrl` (default Facebook's) with the app token `token`; rejects
 * with the Graph API's error message when it refuses (an error envelope, `{error: {message}}`).
 */
export function facebookRescrape(token: string, graphUrl: string): Rescrape {
  return async (pageUrl) => {
    const body = new URLSearchParams({ id: pageUrl, scrape: 'true', access_token: token });
    const answer = await fetch(`${graphUrl.replace(/\/$/, '')}/`, {
      method: 'POST',
      body,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!answer.ok) {
      const text = await answer.text();
      let message = text.slice(0, 300);
      try {
        message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? message;
      } catch {
        // Not JSON: its first characters.
      }
      throw new Error(`Facebook answered ${answer.status}: ${message}`);
    }
  };
}
