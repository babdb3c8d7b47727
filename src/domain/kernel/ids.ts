/**
 * Identifiers and secrets. All come from `crypto.randomBytes`, so none can be guessed or enumerated.
 */
import { createHash, randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `length` characters of base62, uniformly random (rejection sampling keeps every symbol equally likely). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

/**
 * The prefixes of record ids: users, tokens, images, grants, assets, fonts, presets, keys, sites,
 * batches, webhooks, messages, templates, workspaces, invitations, audit entries, link-preview checks.
 */
export type IdPrefix =
  | 'usr'
  | 'tok'
  | 'img'
  | 'grt'
  | 'ast'
  | 'fnt'
  | 'pre'
  | 'key'
  | 'sit'
  | 'bat'
  | 'whk'
  | 'msg'
  | 'tpl'
  | 'wsp'
  | 'inv'
  | 'aud'
  | 'lpv';

/** Characters of randomness in a record id and a blob stem: 22 base62 (131 bits). */
export const ID_CHARACTERS = 22;

/** The base62 body of an id or a blob stem, as a regular expression's source. */
export const ID_BODY = `[0-9A-Za-z]{${ID_CHARACTERS}}`;

/**
 * The pattern of a record id of `prefix` (`idPattern('pre')` matches `pre_3SJQtzQudCCNw7msvpESdd`):
 * anchored, or with `anchored: false` as a part to build a larger pattern from (a link's path).
 */
export function idPattern(prefix: IdPrefix, { anchored = true }: { anchored?: boolean } = {}): RegExp {
  const body = `${prefix}_${ID_BODY}`;
  return new RegExp(anchored ? `^${body}$` : body);
}

/** A record id: `prefix_` + 22 base62 characters (131 bits). */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(ID_CHARACTERS)}`;
}

/**
 * The id of a record made once for `seed` (a batch item's image: its batch id and index): the same
 * seed always gives the same id, so a retried item finds the record its first try wrote. The seed
 * holds a random id, so the result is as unguessable as {@link newId}'s.
 */
export function derivedId(prefix: 'img', seed: string): string {
  const digest = createHash('sha256').update(seed).digest();
  let out = '';
  for (const byte of digest) if (byte < 248 && out.length < ID_CHARACTERS) out += BASE62[byte % 62];
  return `${prefix}_${out.padEnd(ID_CHARACTERS, '0')}`;
}

/** An unguessable blob file stem: 22 base62 characters (131 bits); the public URL of an image is built on it. */
export function newBlobStem(): string {
  return randomBase62(ID_CHARACTERS);
}

/**
 * API token secrets look like `tc_` + 40 base62 characters (238 bits). The fixed prefix lets secret
 * scanners recognise a leaked Titlecard token; base62 keeps it one word for double-click selection.
 */
export const TOKEN_PATTERN = /^tc_[0-9A-Za-z]{40}$/;

export function newTokenSecret(): string {
  return `tc_${randomBase62(40)}`;
}

/**
 * Hex SHA-256 of a token secret. A fast hash is right here: the secret has 238 bits of entropy, so
 * unlike a password it cannot be brute-forced from its hash; only the hash is stored.
 */
export function hashToken(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
