/**
 * Signed render links: the canonical form, the signature and the parsing of a link, with no I/O, so
 * that the server, the command line (`titlecard url sign`) and the package's `signRenderUrl` share
 * one definition. docs/render-links.md states it for sites that sign links themselves:
 *
 *   link      PUBLIC_URL/r/<presetId>.<png|jpg|webp>?<query>&sig=<signature>
 *   query     the parameters (title, subtitle?, image?, exp?, key), sorted by name (code point
 *             order), each as name=value with RFC 3986 percent-encoding of its UTF-8 bytes (only
 *             A–Z a–z 0–9 - . _ ~ left as they are, hex digits upper case), joined by &
 *   canonical /r/<presetId>.<ext>?<query>      (the path from /r/, whatever PUBLIC_URL's own path)
 *   signature base64url without padding of HMAC-SHA256(key secret as UTF-8, canonical) (RFC 2104,
 *             RFC 4648 section 5)
 *
 * `exp` is an expiry in Unix seconds; `key` names the signing key, so keys can be rotated.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { InvalidSignatureError, NotFoundError, ValidationError } from '../kernel/errors.js';
import type { FileFormat } from '../design.js';

/** The parameters a render link may carry, besides `sig`. */
export const LINK_PARAMS = ['title', 'subtitle', 'image', 'exp', 'key'] as const;
export type LinkParam = (typeof LINK_PARAMS)[number];

/** A link's file extension per output format. */
export const LINK_EXTENSIONS: Record<FileFormat, string> = { png: 'png', jpeg: 'jpg', webp: 'webp' };

const PATH = /^\/r\/(pre_[0-9A-Za-z]{22})\.(png|jpg|webp)$/;

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
  /** Output format; default png. */
  format?: FileFormat | undefined;
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
  });
  return `${input.baseUrl.replace(/\/+$/, '')}${canonical}&sig=${signCanonical(input.secret, canonical)}`;
}

/** A link as fetched, parsed but not yet verified. */
export interface ParsedLink {
  presetId: string;
  format: FileFormat;
  params: Partial<Record<LinkParam, string>>;
  keyId: string;
  sig: string;
  canonical: string;
}

/**
 * Parses a fetched link: `path` from `/r/`, `search` the raw query (with or without `?`). Throws
 * NotFoundError for a path that is no render link, ValidationError (field `query`) for a repeated or
 * unknown parameter, InvalidSignatureError when `key` or `sig` is missing.
 */
export function parseLink(path: string, search: string): ParsedLink {
  const match = PATH.exec(path);
  if (!match) throw new NotFoundError(`No render link ${path}: expected /r/<presetId>.<png|jpg|webp>`);
  const params: Partial<Record<string, string>> = {};
  for (const [name, value] of new URLSearchParams(search)) {
    if (name !== 'sig' && !(LINK_PARAMS as readonly string[]).includes(name))
      throw new ValidationError(
        'query',
        'enum',
        `Expected only the parameters ${[...LINK_PARAMS, 'sig'].join(', ')} but received ${name}`,
      );
    if (params[name] !== undefined)
      throw new ValidationError('query', 'format', `Expected ${name} once but received it more than once`);
    params[name] = value;
  }
  const { sig, ...signed } = params;
  if (!signed.key || !sig)
    throw new InvalidSignatureError('This link is not signed: it needs key and sig parameters');
  const format = (Object.entries(LINK_EXTENSIONS).find(([, ext]) => ext === match[2]) ?? ['png'])[0];
  return {
    presetId: match[1] as string,
    format: format as FileFormat,
    params: signed,
    keyId: signed.key,
    sig,
    canonical: canonicalString(path, signed),
  };
}

/** Whether `sig` is the signature of `canonical` under `secret` (compared in constant time). */
export function signatureMatches(secret: string, canonical: string, sig: string): boolean {
  const expected = Buffer.from(signCanonical(secret, canonical));
  const given = Buffer.from(sig);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
