/**
 * Which OAuth clients and issuers Titlecard accepts (docs/mcp.md): the rules of redirect URIs and
 * client ids, and the one loopback rule they share.
 *
 * - Registered redirect URIs must be https, http on a loopback host (RFC 8252 section 7.3), or a
 *   private-use scheme with a period (RFC 8252 section 7.1), without a fragment.
 * - A `client_id` that is an https URL (a Client ID Metadata Document,
 *   draft-ietf-oauth-client-id-metadata-document) is accepted only in its canonical form, so that
 *   `HTTPS://…`, another spelling of a URL the consent page names, is not.
 * - The issuer (PUBLIC_URL) must be https, or http on a loopback host for local use and tests
 *   (RFC 8414 section 2 asks for https).
 */

/** Host names of this machine as a URL's `hostname` writes them (RFC 8252 section 7.3, and `localhost`). */
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether a URL's `hostname` names this machine: `localhost`, `127.0.0.1` or `[::1]`. */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname);
}

/** Whether `id` is an https URL written as the WHATWG URL parser writes it back. */
export function isCanonicalHttpsUrl(id: string): boolean {
  try {
    const url = new URL(id);
    return url.protocol === 'https:' && url.href === id;
  } catch {
    return false;
  }
}

/** Whether a redirect URI is of a kind we register (see the module comment). */
export function acceptableRedirectUri(uri: string): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.hash || uri.includes('#')) return false;
  if (url.protocol === 'https:') return true;
  if (url.protocol === 'http:') return isLoopbackHost(url.hostname);
  return /^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/i.test(url.protocol);
}

/**
 * Whether this PUBLIC_URL can be an OAuth issuer: https, or http on a loopback host (RFC 8414
 * section 2 asks for https; loopback for local use and tests).
 */
export function oauthAvailable(publicUrl: string): boolean {
  const url = new URL(publicUrl);
  return url.protocol === 'https:' || isLoopbackHost(url.hostname);
}

/** Where a form may send the browser: the redirect URI's origin, or its scheme for a private-use one. */
export function redirectSource(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.origin !== 'null' ? url.origin : url.protocol;
}
