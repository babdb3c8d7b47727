/**
 * Signed render links as the server reads them: parsing a fetched link and checking its signature,
 * over the canonical form of canonical.ts.
 */
import { timingSafeEqual } from 'node:crypto';
import { InvalidSignatureError, NotFoundError, ValidationError } from '../kernel/errors.js';
import type { FileFormat } from '../design.js';
import { canonicalString, LINK_EXTENSIONS, signCanonical } from './canonical.js';
import { idPattern } from '../kernel/ids.js';

/** The parameters a render link may carry, besides `sig` and the fields `f.<name>`. */
export const LINK_PARAMS = ['title', 'subtitle', 'image', 'exp', 'key'] as const;
export type LinkParam = (typeof LINK_PARAMS)[number];
/** A field of a template's variable: `f.` and the variable's name. */
const FIELD_PARAM = /^f\.([A-Za-z][A-Za-z0-9_]{0,31})$/;

const PATH = new RegExp(`^/r/(${idPattern('pre', { anchored: false }).source})\\.(png|jpg|webp)$`);

/** A link as fetched, parsed but not yet verified. */
export interface ParsedLink {
  presetId: string;
  format: FileFormat;
  params: Partial<Record<LinkParam, string>>;
  /** The template's fields the link carries (`f.<name>`), by variable name. */
  fields: Record<string, string>;
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
    if (name !== 'sig' && !(LINK_PARAMS as readonly string[]).includes(name) && !FIELD_PARAM.test(name))
      throw new ValidationError(
        'query',
        'enum',
        `Expected only the parameters ${[...LINK_PARAMS, 'sig'].join(', ')} and f.<variable> but received ${name}`,
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
    fields: Object.fromEntries(
      Object.entries(signed).flatMap(([name, value]) => {
        const field = FIELD_PARAM.exec(name)?.[1];
        return field && value !== undefined ? [[field, value]] : [];
      }),
    ),
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
