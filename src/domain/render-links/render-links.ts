/**
 * Render links: images made on their first fetch, from a URL in a page's `<meta property="og:image">`
 * (src/domain/render-links/canonical.ts defines the link and its signature).
 *
 * - Signing keys (`/signing-keys`): the secret (`tcs_` + 43 base62, 256 bits) is shown once. The
 *   server must compute the same HMAC to verify a link, so it keeps the secret, sealed with
 *   AES-256-GCM under SECRETS_KEY (src/domain/kernel/secrets.ts). At most {@link SIGNING_KEYS_MAX} active
 *   keys per account; a revoked key's links answer 403 at once, in every process.
 * - A fetch verifies the signature (403 `INVALID_SIGNATURE` when it is missing or wrong, or its key
 *   unknown or revoked, or the link past its `exp`), then serves the card from the content-addressed
 *   store, rendering it once on the first fetch (render-cache.ts), for one unit of the key owner's
 *   quota.
 * - With the owner's quota used up, a link that needs a new render answers a stand-in instead of a
 *   429, which a crawler would turn into a broken preview on every share: the newest earlier card
 *   of the same link (remembered by the SHA-256 of its canonical string), else the preset's
 *   fallback card (its design with the preset's name as title). Both are free, with a short
 *   Cache-Control (render-cache.ts).
 */
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Assets } from '../assets/assets.js';
import {
  InvalidSignatureError,
  NotFoundError,
  QuotaExceededError,
  ValidationError,
} from '../kernel/errors.js';
import { newId, randomBase62 } from '../kernel/ids.js';
import { FILE_FORMATS, FILE_TYPES } from '../design.js';
import type { Clock, RecordStore } from '../kernel/ports.js';
import type { Presets } from '../presets/presets.js';
import type { Principal } from '../accounts/accounts.js';
import { assertConfirmed } from '../accounts/confirmation.js';
import type { RenderCache, ServedRender } from './render-cache.js';
import { signRenderUrl } from './canonical.js';
import { parseLink, signatureMatches } from './signature.js';
import {
  createSigningKeyBodySchema,
  renderUrlBodySchema,
  type createdSigningKeySchema,
  type renderUrlSchema,
  type signingKeySchema,
} from './schemas.js';
import type { SecretBox } from '../kernel/secrets.js';
import { parseOrThrow } from '../kernel/validate.js';

export type { ServedRender };

/** Active signing keys per account (our choice). */
export const SIGNING_KEYS_MAX = 20;

export type SigningKeyView = z.infer<typeof signingKeySchema>;
export type CreatedSigningKey = z.infer<typeof createdSigningKeySchema>;
export type RenderUrl = z.infer<typeof renderUrlSchema>;

export interface RenderUrls {
  /** `POST /signing-keys`: the secret is in this answer only. ValidationError on `name` or the cap. */
  createKey(principal: Principal, body: unknown): Promise<CreatedSigningKey>;
  /** `GET /signing-keys`: active keys, newest first, without secrets. */
  listKeys(principal: Principal): Promise<SigningKeyView[]>;
  /** `DELETE /signing-keys/{id}`: its links answer 403 from the next fetch. NotFoundError. */
  revokeKey(principal: Principal, id: string): Promise<void>;
  /**
   * `POST /render-urls`: a signed link under PUBLIC_URL/r/. Costs nothing until fetched.
   * ValidationError on a field, on a preset or key that is not the caller's, or without any key.
   */
  createUrl(principal: Principal, body: unknown): Promise<RenderUrl>;
  /**
   * `GET /r/…`: `path` from `/r/`, `search` the raw query. Throws InvalidSignatureError (403),
   * NotFoundError (no such preset), ValidationError (a bad text or image). With the owner's quota
   * used up, answers a stand-in (see the module comment).
   */
  fetch(path: string, search: string, ifNoneMatch?: string): Promise<ServedRender>;
  /**
   * `GET /c/{hash}.{ext}`: a card served by a render or site link, by its content hash (what those
   * links redirect to, so that a card of new content has a new URL). NotFoundError for a hash not
   * stored, or an extension that is not the card's format.
   */
  card(hash: string, extension: string, ifNoneMatch?: string): Promise<ServedRender>;
  /** Deletes a user's keys and rendered links (account deletion). */
  deleteAllOf(userId: string): Promise<void>;
}

export interface RenderUrlsDeps {
  store: RecordStore;
  clock: Clock;
  logger: Logger;
  publicUrl: string;
  box: SecretBox;
  cache: RenderCache;
  assets: Pick<Assets, 'imageRecordOf'>;
  presets: Pick<Presets, 'use'>;
}

export function createRenderUrls(deps: RenderUrlsDeps): RenderUrls {
  const { store, clock, box, presets, logger, cache } = deps;

  /**
   * A key's secret, or undefined when it cannot be opened: the server's SECRETS_KEY is not the one
   * that sealed it (logged, since only the operator can fix it; the key's links cannot be verified).
   */
  function secretOf(key: { id: string; sealedSecret: string }): string | undefined {
    try {
      return box.open(key.sealedSecret, key.id);
    } catch (err) {
      logger.error(
        { err, keyId: key.id },
        'a signing key cannot be opened: SECRETS_KEY differs from the one that sealed it',
      );
      return undefined;
    }
  }

  return {
    async createKey(principal, body) {
      const { name } = parseOrThrow(createSigningKeyBodySchema, body ?? {});
      assertConfirmed(principal.user, 'make signing keys');
      if ((await store.signingKeys.listActive(principal.workspace.id)).length >= SIGNING_KEYS_MAX)
        throw new ValidationError(
          'name',
          'max',
          `Expected at most ${SIGNING_KEYS_MAX} active signing keys per account: revoke one first`,
        );
      const id = newId('key');
      const secret = `tcs_${randomBase62(43)}`;
      const createdAt = clock.now();
      await store.signingKeys.create({
        id,
        userId: principal.workspace.id,
        name,
        sealedSecret: box.seal(secret, id),
        createdAt,
        revokedAt: null,
      });
      return { id, name, secret, createdAt: createdAt.toISOString() };
    },

    async listKeys(principal) {
      return (await store.signingKeys.listActive(principal.workspace.id)).map((k) => ({
        id: k.id,
        name: k.name,
        createdAt: k.createdAt.toISOString(),
      }));
    },

    async revokeKey(principal, id) {
      if (!(await store.signingKeys.revoke(principal.workspace.id, id, clock.now())))
        throw new NotFoundError(`No active signing key with id ${id} on this account`);
    },

    async createUrl(principal, body) {
      const request = parseOrThrow(renderUrlBodySchema, body ?? {});
      await presets.use(principal.workspace.id, request.preset);
      if (request.image?.startsWith('ast_'))
        await deps.assets.imageRecordOf(principal.workspace.id, request.image, 'image');
      const keys = await store.signingKeys.listActive(principal.workspace.id);
      const key = request.key ? keys.find((k) => k.id === request.key) : keys[0];
      if (!key)
        throw new ValidationError(
          'key',
          request.key ? 'format' : 'required',
          request.key
            ? `Expected the id of one of your active signing keys for key but received ${request.key}`
            : 'Expected a signing key to sign with, but this account has none: create one with POST /signing-keys',
        );
      const secret = secretOf(key);
      if (!secret)
        throw new ValidationError(
          'key',
          'format',
          `The signing key ${key.id} cannot be used on this server (its SECRETS_KEY changed): revoke it and create another`,
        );
      const url = signRenderUrl({
        baseUrl: deps.publicUrl,
        preset: request.preset,
        title: request.title,
        subtitle: request.subtitle,
        image: request.image,
        fields: request.fields,
        format: request.format,
        expires:
          request.expiresIn === undefined
            ? undefined
            : Math.floor(clock.now().getTime() / 1000) + request.expiresIn,
        keyId: key.id,
        secret,
      });
      return { url };
    },

    async card(hash, extension, ifNoneMatch) {
      const format = FILE_FORMATS.find((f) => FILE_TYPES[f].extension === extension);
      const card = /^[0-9a-f]{64}$/.test(hash) && format ? await cache.stored(hash) : undefined;
      if (!card || !format || FILE_TYPES[format].contentType !== card.contentType)
        throw new NotFoundError(`No card ${hash.slice(0, 64)}.${extension.slice(0, 8)}`);
      return cache.matches(ifNoneMatch, hash) ? { ...card, body: undefined } : card;
    },

    async fetch(path, search, ifNoneMatch) {
      const link = parseLink(path, search);
      const key = await store.signingKeys.find(link.keyId);
      if (!key || key.revokedAt)
        throw new InvalidSignatureError('This link was signed with an unknown or revoked key');
      const secret = secretOf(key);
      if (!secret || !signatureMatches(secret, link.canonical, link.sig))
        throw new InvalidSignatureError('The signature of this link does not match its parameters');
      const { exp, title, subtitle, image } = link.params;
      if (exp !== undefined) {
        if (!/^\d{1,12}$/.test(exp)) throw new InvalidSignatureError('exp must be Unix seconds');
        if (clock.now().getTime() / 1000 > Number(exp))
          throw new InvalidSignatureError('This link has expired');
      }
      const user = await store.workspaces.find(key.userId);
      if (!user) throw new InvalidSignatureError('This link was signed with an unknown or revoked key');
      const preset = await store.presets.find(user.id, link.presetId);
      if (!preset) throw new NotFoundError(`No preset ${link.presetId}: it may have been deleted`);
      const card = await cache.plan(user, {
        preset,
        title: title ?? '',
        subtitle,
        image,
        fields: link.fields,
        format: link.format,
      });
      if (cache.matches(ifNoneMatch, card.hash)) return cache.notModified(card.hash, link.format);
      const linkId = createHash('sha256').update(link.canonical).digest('hex');
      try {
        return await cache.serve(user, card, true, () => store.renders.setLatest(linkId, user.id, card.hash));
      } catch (err) {
        if (!(err instanceof QuotaExceededError)) throw err;
        const latest = await store.renders.latest(linkId);
        const earlier = latest === undefined ? undefined : await cache.stored(latest);
        const standIn = earlier ?? (await cache.fallback(user, preset, preset.name, link.format));
        return { ...standIn, standIn: 'quota' };
      }
    },

    async deleteAllOf(userId) {
      await store.signingKeys.deleteAllForUser(userId);
      await cache.deleteAllOf(userId);
    },
  };
}
