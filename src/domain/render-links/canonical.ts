/**
 * Signed render links: the canonical form and the signature of a link, with no I/O and no import but
 * node:crypto, so that the server (signature.ts parses and verifies), the command line (`titlecard
 * url sign`) and the client package's `signRenderUrl` (clients/typescript, built from src/client and
 * this file) share one definition. docs/render-links.md states it for sites that sign links
 * themselves:
 *
 *   link      PUBLIC_URL/r/<presetId>.<png|jpg|webp>?<query>&sig=<signature>
 *   query     the parameters (title, subtitle?, image?, exp?, key, and f.<name> for each field of
 *             a template's variables), sorted by name (code point order), each as name=value with RFC 3986 percent-encoding of its UTF-8 bytes (only
 *             A–Z a–z 0–9 - . _ ~ left as they are, hex digits upper case), joined by &
 *   canonical /r/<presetId>.<ext>?<query>      (the path from /r/, whatever PUBLIC_URL's own path)
 *   signature base64url without padding of HMAC-SHA256(key secret as UTF-8, canonical) (RFC 2104,
 *             RFC 4648 section 5)
 *
 * `exp` is an expiry in Unix seconds; `key` names the signing key, so keys can be rotated.
 */
import { createHmac } from 'node:crypto';

/** A link's output format (design.ts' file formats, spelled out: this file imports nothing of the server's). */
export type LinkFormat = 'png' | 'jpeg' | 'webp';

/** A link's file extension per output format. */
export const LINK_EXTENSIONS: Record<LinkFormat, string> = { png: 'png', jpeg: 'jpg', webp: 'webp' };

/** RFC 3986 section 2.1 percent-encoding: everything but the unreserved characters. */
export function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** The canonical string of a link: its path, `?`, and its parameters but `sig`, as the module comment says. */
export function canonicalString(path: string, params: Partial<Record<string, string>>): string {
  const query = Object.keys(params)
    .filter((name) => name !== 'sig' && params[name] !== undefined)
    .sort()
    .map((name) => `${percentEncode(name)}=${percentEncode(params[name] as string)}`)
    .join('&');
  return `${path}?${query}`;
}

/** base64url HMAC-SHA256 of `canonical` under `secret`. */
export function signCanonical(secret: string, canonical: string): string {
  return createHmac('sha256', secret).update(canonical, 'utf8').digest('base64url');
}

/** What a render link says. */
export interface RenderLinkInput {
  /** PUBLIC_URL of the Titlecard server, e.g. `https://cards.example.com`. */
  baseUrl: string;
  /** Preset id, `pre_…`. */
  preset: string;
  title: string;
  subtitle?: string | undefined;
  /** An asset id (`ast_…`) or an https URL of the background; default the preset's. */
  image?: string | undefined;
  /** Values of the variables of the preset's template (`tpl_…`), each sent as `f.<name>`. */
  fields?: Record<string, string> | undefined;
  /** Output format; default png. */
  format?: LinkFormat | undefined;
  /** Expiry: a Date, or Unix seconds. None: the link never expires (until its key is revoked). */
  expires?: Date | number | undefined;
  /** Signing key id, `key_…`, and its secret, `tcs_…`. */
  keyId: string;
  secret: string;
}

/**
 * Builds a signed render link (the module comment's definition). Throws nothing; the server judges
 * the link when it is fetched.
 */
export function signRenderUrl(input: RenderLinkInput): string {
  const path = `/r/${input.preset}.${LINK_EXTENSIONS[input.format ?? 'png']}`;
  const exp =
    input.expires === undefined
      ? undefined
      : String(
          input.expires instanceof Date
            ? Math.floor(input.expires.getTime() / 1000)
            : Math.floor(input.expires),
        );
  const canonical = canonicalString(path, {
    title: input.title,
    subtitle: input.subtitle,
    image: input.image,
    exp,
    key: input.keyId,
    ...Object.fromEntries(Object.entries(input.fields ?? {}).map(([name, value]) => [`f.${name}`, value])),
  });
  return `${input.baseUrl.replace(/\/+$/, '')}${canonical}&sig=${signCanonical(input.secret, canonical)}`;
}
