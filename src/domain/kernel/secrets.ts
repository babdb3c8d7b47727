/**
 * Secrets the server must read back (the signing keys of render links, which it needs to compute the
 * same HMAC as the site that signed), sealed at rest with AES-256-GCM (NIST SP 800-38D) under the
 * server's SECRETS_KEY: a copy of the database alone opens nothing. The sealed form is
 * `v1.<iv>.<tag>.<ciphertext>`, each base64url; the 96-bit IV is random per secret, and the record's
 * id is bound as associated data, so a sealed secret moved to another record does not open.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** SECRETS_KEY: 32 bytes. */
export const SECRETS_KEY_BYTES = 32;

export interface SecretBox {
  /** Seals `secret` for the record `id`. */
  seal(secret: string, id: string): string;
  /** Opens what {@link seal} made for `id`; throws (a fault: wrong key or tampering) otherwise. */
  open(sealed: string, id: string): string;
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== SECRETS_KEY_BYTES) throw new Error(`SECRETS_KEY must be ${SECRETS_KEY_BYTES} bytes`);
  return {
    seal(secret, id) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(id));
      const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), body]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },
    open(sealed, id) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'))
        .setAAD(Buffer.from(id))
        .setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}
