/**
 * Render links: images made on their first fetch, from a URL in a page's `<meta property="og:image">`
 * (src/domain/render-links/canonical.ts defines the link and its signature).
 *
 * - Signing keys (`/signing-keys`): the secret (`tcs_` + 43 base62, 256 bits) is shown once. The
 *   server must compute the same HMAC to verify a link, so it keeps the secret, sealed with
 *   AES-256-GCM under SECRETS_KEY (src/domain/kernel/secrets.ts). At most {@link SIGNING_KEYS_MAX} active
 *   keys per account; a revoked key's links answer 403 at once, in every process.
 * - A fetch verifies the signature (403 `INVALID_SIGNATURE` when it is missing or wrong, or its key
 *   unknown or revoked, or the link past its `exp`), then looks its content hash up: the preset's
 *   id and version, the texts, the format, and the SHA-256 of every upload it draws (background,
 *   logo, font), or the background's URL. A stored render is served at once, charging nothing.
 * - Otherwise it renders once: a claim in the record store (atomic across processes) makes
 *   concurrent first fetches of one link wait for a single render, which charges one unit of the
 *   key owner's quota (the contract's 429 when none is left; links already rendered keep working).
 *   A claim older than {@link CLAIM_STALE_MS} is taken over (its process died).
 */
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Assets } from './uploads.js';
import { InvalidSignatureError, NotFoundError, ServiceBusyError, ValidationError } from '../kernel/errors.js';
import { FILE_TYPES } from '../design.js';
import { newId, randomBase62 } from '../kernel/ids.js';
import type { Images } from '../images/images.js';
import type { RenderEntry, User } from '../kernel/records.js';
import type { FileFormat } from '../design.js';
import type { BlobStore, Clock, RecordStore } from '../kernel/ports.js';
import type { Presets } from './presets.js';
import type { Principal } from '../accounts/accounts.js';
import { assertConfirmed } from '../accounts/confirmation.js';
import type { Quota } from '../accounts/quota.js';
import type { Renderer } from '../render/index.js';
import { signRenderUrl } from './canonical.js';
import { parseLink, signatureMatches } from './signature.js';
import {
  createSigningKeyBodySchema,
  generateOptionsSchema,
  renderUrlBodySchema,
  type createdSigningKeySchema,
  type renderUrlSchema,
  type signingKeySchema,
} from '../schemas.js';
import type { SecretBox } from '../kernel/secrets.js';
import { parseOrThrow } from '../kernel/validate.js';

/** Active signing keys per account (our choice). */
export const SIGNING_KEYS_MAX = 20;
/** A render claim older than this is taken over, ms: a render takes well under a second. */
export const CLAIM_STALE_MS = 60_000;
/** How often a fetch waiting for another process's render looks again, ms. */
const WAIT_STEP_MS = 100;

export type SigningKeyView = z.infer<typeof signingKeySchema>;
export type CreatedSigningKey = z.infer<typeof createdSigningKeySchema>;
export type RenderUrl = z.infer<typeof renderUrlSchema>;

/** A render link's image, as served. */
export interface ServedRender {
  /** Strong entity tag (RFC 9110 section 8.8.3): the content hash, quoted. */
  etag: string;
  contentType: string;
  /** Undefined when `If-None-Match` matched (a 304). */
  body: Buffer | undefined;
}

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
   * NotFoundError (no such preset), ValidationError (a bad text or image), QuotaExceededError.
   */
  fetch(path: string, search: string, ifNoneMatch?: string): Promise<ServedRender>;
  /** Deletes a user's keys and rendered links (account deletion). */
  deleteAllOf(userId: string): Promise<void>;
}

export interface RenderUrlsDeps {
  store: RecordStore;
  blobs: BlobStore;
  clock: Clock;
  logger: Logger;
  publicUrl: string;
  box: SecretBox;
  quota: Quota;
  images: Pick<Images, 'prepare'>;
  assets: Pick<Assets, 'imageRecordOf' | 'fontRecordOf'>;
  presets: Pick<Presets, 'use'>;
  renderer: Renderer;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createRenderUrls(deps: RenderUrlsDeps): RenderUrls {
  const { store, blobs, clock, box, quota, images, presets, renderer, logger } = deps;
  /** Renders under way in this process, by hash: concurrent fetches here share one. */
  const inFlight = new Map<string, Promise<RenderEntry>>();

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

  /** The stored file of a done entry. */
  async function served(entry: RenderEntry, etag: string): Promise<ServedRender> {
    const blob = entry.blobKey ? await blobs.get(entry.blobKey) : undefined;
    if (!blob) throw new Error(`the file of render ${entry.hash} is missing`);
    return { etag, contentType: blob.contentType, body: blob.body };
  }

  /** Renders the link once across processes (see the module comment); answers the done entry. */
  async function renderOnce(
    hash: string,
    user: User,
    request: { options: Record<string, unknown>; format: FileFormat },
  ): Promise<RenderEntry> {
    // A real wait, so measured on the system clock (a test's clock may stand still).
    const deadline = Date.now() + CLAIM_STALE_MS;
    for (;;) {
      const now = clock.now();
      const claim = await store.renders.claim(hash, user.id, now, new Date(now.getTime() - CLAIM_STALE_MS));
      if (claim.state === 'done') return claim.entry;
      if (claim.state === 'claimed') break;
      if (Date.now() > deadline) throw new ServiceBusyError('This link is still being rendered: try again');
      await sleep(WAIT_STEP_MS);
    }
    let charge: Awaited<ReturnType<Quota['charge']>> | undefined;
    try {
      charge = await quota.charge(user);
      const prepared = await images.prepare(user.id, undefined, request.options);
      const rendered = await renderer.render(prepared.input, prepared.options);
      const blobKey = `r${hash}.${FILE_TYPES[rendered.format].extension}`;
      await blobs.put(blobKey, rendered.image, rendered.contentType);
      await store.renders.complete(hash, blobKey, rendered.contentType);
      return {
        hash,
        userId: user.id,
        state: 'done',
        blobKey,
        contentType: rendered.contentType,
        claimedAt: clock.now(),
      };
    } catch (err) {
      await store.renders
        .release(hash)
        .catch((e: unknown) => logger.error({ err: e, hash }, 'render claim not released'));
      if (charge)
        await quota.refund(charge).catch((e: unknown) => logger.error({ err: e }, 'quota refund failed'));
      throw err;
    }
  }

  return {
    async createKey(principal, body) {
      const { name } = parseOrThrow(createSigningKeyBodySchema, body ?? {});
      assertConfirmed(principal.user, 'make signing keys');
      if ((await store.signingKeys.listActive(principal.user.id)).length >= SIGNING_KEYS_MAX)
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
        userId: principal.user.id,
        name,
        sealedSecret: box.seal(secret, id),
        createdAt,
        revokedAt: null,
      });
      return { id, name, secret, createdAt: createdAt.toISOString() };
    },

    async listKeys(principal) {
      return (await store.signingKeys.listActive(principal.user.id)).map((k) => ({
        id: k.id,
        name: k.name,
        createdAt: k.createdAt.toISOString(),
      }));
    },

    async revokeKey(principal, id) {
      if (!(await store.signingKeys.revoke(principal.user.id, id, clock.now())))
        throw new NotFoundError(`No active signing key with id ${id} on this account`);
    },

    async createUrl(principal, body) {
      const request = parseOrThrow(renderUrlBodySchema, body ?? {});
      await presets.use(principal.user.id, request.preset);
      if (request.image?.startsWith('ast_'))
        await deps.assets.imageRecordOf(principal.user.id, request.image, 'image');
      const keys = await store.signingKeys.listActive(principal.user.id);
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
      const user = await store.users.findById(key.userId);
      if (!user) throw new InvalidSignatureError('This link was signed with an unknown or revoked key');
      const preset = await store.presets.find(user.id, link.presetId);
      if (!preset) throw new NotFoundError(`No preset ${link.presetId}: it may have been deleted`);

      // The request as a generation would see it, validated now (a bad title is a 400, not a render).
      const options: Record<string, unknown> = {
        preset: preset.id,
        title,
        subtitle,
        fileFormat: link.format,
      };
      if (image !== undefined) {
        if (/^ast_[0-9A-Za-z]{22}$/.test(image)) options.asset = image;
        else if (/^https:\/\//.test(image)) options.imageUrl = image;
        else
          throw new ValidationError(
            'image',
            'format',
            'Expected an asset id (ast_…) or an https URL for image',
          );
      }
      const parsed = parseOrThrow(generateOptionsSchema, {
        ...preset.options,
        title,
        subtitle,
        fileFormat: link.format,
      });
      // The uploads' SHA-256 from their records: a cached fetch reads no file but the render's.
      const shaOf = async (id: string | null | undefined, field: string) =>
        id ? (await deps.assets.imageRecordOf(user.id, id, field)).sha256 : null;
      const hash = createHash('sha256')
        .update(
          JSON.stringify({
            preset: preset.id,
            version: preset.version,
            title: parsed.title,
            subtitle: parsed.subtitle ?? null,
            format: link.format,
            background:
              options.imageUrl ??
              (await shaOf((options.asset as string | undefined) ?? preset.backgroundAssetId, 'image')),
            logo: await shaOf(preset.logo?.assetId, 'logo'),
            font:
              typeof parsed.font === 'object'
                ? (await deps.assets.fontRecordOf(user.id, parsed.font.custom)).sha256
                : parsed.font,
          }),
        )
        .digest('hex');
      const etag = `"${hash}"`;
      if (
        ifNoneMatch !== undefined &&
        ifNoneMatch.split(',').some((t) => t.trim() === etag || t.trim() === `W/${etag}`)
      )
        return { etag, contentType: FILE_TYPES[link.format].contentType, body: undefined };

      const stored = await store.renders.find(hash);
      if (stored?.state === 'done') return served(stored, etag);
      let pending = inFlight.get(hash);
      if (!pending) {
        pending = renderOnce(hash, user, { options, format: link.format }).finally(() =>
          inFlight.delete(hash),
        );
        inFlight.set(hash, pending);
      }
      return served(await pending, etag);
    },

    async deleteAllOf(userId) {
      await store.signingKeys.deleteAllForUser(userId);
      for (const entry of await store.renders.deleteAllForUser(userId))
        if (entry.blobKey) await blobs.delete(entry.blobKey);
    },
  };
}
