/**
 * The content-addressed store of cards made from public links, shared by render links (`/r/…`,
 * render-links.ts) and site links (`/s/…`, src/domain/sites): a card is known by the SHA-256 of
 * everything that shapes it, rendered once across processes, and served from the blob store after.
 *
 * - A claim in the record store (atomic across processes) makes concurrent first fetches of one
 *   card wait for a single render; a claim older than {@link CLAIM_STALE_MS} is taken over (its
 *   process died).
 * - A charged render spends one unit of the owner's quota, refunded if the render fails; a fallback
 *   card (the owner's quota used up, a page that could not be read) is rendered free: there is one
 *   per design and name, so it cannot be used to render free cards at will.
 * - A card is made through the card pipeline (images/pipeline.ts): admitted into this process, or
 *   with GENERATE_ON_WORKERS rendered and stored by a worker ({@link RenderCache.renderQueued}),
 *   while this process holds the claim and the charge.
 */
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { ServiceBusyError, TitlecardError, ValidationError } from '../kernel/errors.js';
import { FILE_TYPES, type FileFormat } from '../design.js';
import { type CardPipeline, type RequestResolver, resultOfError } from '../images/images.js';
import type { Preset, RenderEntry } from '../kernel/records.js';
import type { Account } from '../accounts/ledger.js';
import type {
  BlobStore,
  Clock,
  QueuedGeneration,
  QueuedGenerationResult,
  RecordStore,
} from '../kernel/ports.js';
import type { Assets } from '../assets/assets.js';
import type { Templates } from '../templates/templates.js';
import { optionsOverPreset } from '../presets/presets.js';
import type { Ledger } from '../accounts/ledger.js';
import { generateOptionsSchema } from '../images/schemas.js';
import { isTemplateId } from '../schemas.js';
import { parseOrThrow } from '../kernel/validate.js';
import { idPattern, newBlobStem } from '../kernel/ids.js';

/** A render claim older than this is taken over, ms: a render takes well under a second. */
export const CLAIM_STALE_MS = 60_000;
/** How often a fetch waiting for another process's render looks again, ms. */
const WAIT_STEP_MS = 100;

/**
 * `Cache-Control` of a stand-in answer (an earlier card, or the fallback card): five minutes, so
 * that the right card replaces it soon after the quota resets or the page is fixed (ours).
 */
export const STAND_IN_CACHE_CONTROL = 'public, max-age=300';

/**
 * Why a link answered a stand-in instead of its own card (the `Titlecard-Fallback` header): the
 * owner's quota is used up, a site's page could not be read, the site's budget of new cards is
 * spent for the hour or month, or this client address caused its share of a site's new cards
 * (src/domain/sites/budget.ts).
 */
export type StandIn = 'quota' | 'page' | 'budget' | 'address';

/** A link's card, as served. */
export interface ServedRender {
  /** Strong entity tag (RFC 9110 section 8.8.3): the content hash, quoted. */
  etag: string;
  contentType: string;
  /** Undefined when `If-None-Match` matched (a 304). */
  body: Buffer | undefined;
  /** Set when this is a stand-in: an earlier card or the fallback card, with a short Cache-Control. */
  standIn?: StandIn;
}

/** What a card is drawn from: a preset, the texts, the format, and an optional background. */
export interface CardRequest {
  preset: Preset;
  title: string;
  subtitle?: string | undefined;
  format: FileFormat;
  /** An asset id (`ast_…`) or an https URL; default the preset's background. */
  image?: string | undefined;
  /** Values of the variables of the preset's template, when it names one (`tpl_…`). */
  fields?: Record<string, string> | undefined;
}

/** A card ready to serve or render: its content hash and the generate options that draw it. */
export interface PlannedCard {
  hash: string;
  options: Record<string, unknown>;
  /** A stand-in (the fallback card): a template's required variables may be missing. */
  standIn?: boolean;
}

export interface RenderCache {
  /**
   * Validates the request as a generation would (ValidationError on `title`, `subtitle`, `image`)
   * and computes its content hash: the preset's id and version, the texts, the format, and the
   * SHA-256 of every upload it draws (background, logo, font), or the background's URL.
   */
  plan(user: Account, request: CardRequest): Promise<PlannedCard>;
  /** Whether an `If-None-Match` value names `hash` (strong or weak, RFC 9110 section 13.1.2). */
  matches(ifNoneMatch: string | undefined, hash: string): boolean;
  /** The answer of a matched `If-None-Match` (a 304): the card's ETag and type, no body. */
  notModified(hash: string, format: FileFormat): ServedRender;
  /** The done card `hash`, or undefined when it is not stored. */
  stored(hash: string): Promise<ServedRender | undefined>;
  /**
   * The card, from the store or rendered once. `charge`: one unit of the owner's quota for a new
   * render (QuotaExceededError when none is left); false for a fallback card. `onRendered` runs
   * after a new render of this call is stored.
   */
  serve(
    user: Account,
    card: PlannedCard,
    charge: boolean,
    onRendered?: () => Promise<void>,
  ): Promise<ServedRender>;
  /** The fallback card: the preset's design with `name` as its title, rendered free, once. */
  fallback(user: Account, preset: Preset, name: string, format: FileFormat): Promise<ServedRender>;
  /** Deletes a user's cards and their files (account deletion). */
  deleteAllOf(userId: string): Promise<void>;
  /**
   * A worker's side of a card handed over (`GENERATE_ON_WORKERS`, `job.card` set): renders it
   * through the pipeline and stores it under its hash; the domain error it throws comes back as a
   * result; any other error is thrown, so the queue tries the job again. A card already stored (a
   * retry), or no longer claimed (the serving process gave up), is answered at once without a
   * render. Throws a plain Error for a job without `card`.
   */
  renderQueued(job: QueuedGeneration): Promise<QueuedGenerationResult>;
}

export interface RenderCacheDeps {
  store: RecordStore;
  blobs: BlobStore;
  clock: Clock;
  logger: Logger;
  ledger: Pick<Ledger, 'withCharge'>;
  requests: Pick<RequestResolver, 'prepare'>;
  assets: Pick<Assets, 'imageRecordOf' | 'fontRecordOf'>;
  templates: Pick<Templates, 'design'>;
  /** The card pipeline: a link's card is admitted and rendered as a generation is. */
  pipeline: CardPipeline;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sha256 = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex');

export function createRenderCache(deps: RenderCacheDeps): RenderCache {
  const { store, blobs, clock, ledger, requests, pipeline, logger, assets, templates } = deps;
  /** Renders under way in this process, by hash: concurrent fetches here share one. */
  const inFlight = new Map<string, Promise<RenderEntry>>();

  async function served(entry: RenderEntry): Promise<ServedRender> {
    const blob = entry.blobKey ? await blobs.get(entry.blobKey) : undefined;
    if (!blob) throw new Error(`the file of render ${entry.hash} is missing`);
    return { etag: `"${entry.hash}"`, contentType: blob.contentType, body: blob.body };
  }

  /**
   * Renders the card `hash` for `userId` through the pipeline and stores it: its file
   * (`r<hash>.<ext>`), then its entry done. `admitted`: false on a worker, whose capacity is its own.
   */
  async function renderAndStore(userId: string, card: PlannedCard, admitted: boolean): Promise<RenderEntry> {
    const rendered = await pipeline.render(
      userId,
      () => requests.prepare(userId, undefined, card.options, undefined, card.standIn),
      { admitted },
    );
    const blobKey = `r${card.hash}.${FILE_TYPES[rendered.format].extension}`;
    await blobs.put(blobKey, rendered.image, rendered.contentType);
    await store.renders.complete(card.hash, blobKey, rendered.contentType);
    return {
      hash: card.hash,
      userId,
      state: 'done',
      blobKey,
      contentType: rendered.contentType,
      claimedAt: clock.now(),
    };
  }

  /**
   * The card rendered and stored by a worker (GENERATE_ON_WORKERS); the done entry. A job of its
   * own each time (a new id): a job done or refused earlier answers nothing of this one. When the
   * wait fails but the worker stored the card meanwhile, the card is the answer (and keeps its unit).
   */
  async function renderOnWorker(userId: string, card: PlannedCard): Promise<RenderEntry> {
    const stored = async () => {
      const entry = await store.renders.find(card.hash);
      return entry?.state === 'done' ? entry : undefined;
    };
    try {
      await pipeline.onWorker(
        {
          userId,
          options: card.options,
          uploadKey: null,
          imageField: 'image',
          imageId: `card-${card.hash.slice(0, 32)}-${newBlobStem()}`,
          card: { hash: card.hash, standIn: card.standIn ?? false },
        },
        async () => (await stored()) !== undefined,
      );
    } catch (err) {
      const entry = await stored();
      if (entry) return entry;
      throw err;
    }
    const entry = await stored();
    if (!entry) throw new Error(`the worker's card ${card.hash} is not stored`);
    return entry;
  }

  /** Renders `card` once across processes (see the module comment); answers the done entry. */
  async function renderOnce(user: Account, card: PlannedCard, charged: boolean): Promise<RenderEntry> {
    const { hash } = card;
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
    const render = () =>
      pipeline.workers ? renderOnWorker(user.id, card) : renderAndStore(user.id, card, true);
    try {
      // A charged render spends one unit, refunded if it fails (the ledger's withCharge).
      return charged ? await ledger.withCharge(user, render) : await render();
    } catch (err) {
      await store.renders
        .release(hash)
        .catch((e: unknown) => logger.error({ err: e, hash }, 'render claim not released'));
      throw err;
    }
  }

  async function serve(
    user: Account,
    card: PlannedCard,
    charge: boolean,
    onRendered?: () => Promise<void>,
  ): Promise<ServedRender> {
    const done = await store.renders.find(card.hash);
    if (done?.state === 'done') return served(done);
    let pending = inFlight.get(card.hash);
    if (!pending) {
      pending = renderOnce(user, card, charge)
        .then(async (entry) => {
          await onRendered?.();
          return entry;
        })
        .finally(() => inFlight.delete(card.hash));
      inFlight.set(card.hash, pending);
    }
    return served(await pending);
  }

  return {
    async plan(user, { preset, title, subtitle, format, image, fields }) {
      const options: Record<string, unknown> = { preset: preset.id, title, subtitle, fileFormat: format };
      if (fields && Object.keys(fields).length > 0) options.fields = fields;
      if (image !== undefined) {
        if (idPattern('ast').test(image)) options.asset = image;
        else if (/^https:\/\//.test(image)) options.imageUrl = image;
        else
          throw new ValidationError(
            'image',
            'format',
            'Expected an asset id (ast_…) or an https URL for image',
          );
      }
      // Validated now, so that a bad title is a 400, not a failed render.
      const parsed = parseOrThrow(
        generateOptionsSchema,
        optionsOverPreset(preset, { title, subtitle, fileFormat: format, fields: options.fields }),
      );
      // A template of the user's: its version (an edit renders again) and its fields, checked now.
      const template = isTemplateId(parsed.template)
        ? await templates.design(
            user.id,
            parsed.template,
            { title: parsed.title, subtitle: parsed.subtitle, fields: parsed.fields },
            { images: false },
          )
        : undefined;
      // The uploads' SHA-256 from their records: a cached fetch reads no file but the card's.
      const shaOf = async (id: string | null | undefined, field: string) =>
        id ? (await assets.imageRecordOf(user.id, id, field)).sha256 : null;
      const hash = sha256({
        preset: preset.id,
        version: preset.version,
        title: parsed.title,
        subtitle: parsed.subtitle ?? null,
        format,
        background:
          options.imageUrl ??
          (await shaOf((options.asset as string | undefined) ?? preset.backgroundAssetId, 'image')),
        logo: await shaOf(preset.logo?.assetId, 'logo'),
        font:
          typeof parsed.font === 'object'
            ? (await assets.fontRecordOf(user.id, parsed.font.custom)).sha256
            : parsed.font,
        ...(template
          ? {
              template: { id: template.id, version: template.version },
              // The texts as filled (defaults included) and every field as given (an image's asset or URL).
              values: template.values,
              fields: parsed.fields ?? null,
            }
          : {}),
      });
      return { hash, options };
    },

    matches(ifNoneMatch, hash) {
      const etag = `"${hash}"`;
      return (
        ifNoneMatch !== undefined &&
        ifNoneMatch.split(',').some((t) => t.trim() === etag || t.trim() === `W/${etag}`)
      );
    },

    notModified(hash, format) {
      return { etag: `"${hash}"`, contentType: FILE_TYPES[format].contentType, body: undefined };
    },

    async stored(hash) {
      const entry = await store.renders.find(hash);
      return entry?.state === 'done' ? served(entry) : undefined;
    },

    serve,

    async fallback(user, preset, name, format) {
      const options = { preset: preset.id, title: name, fileFormat: format };
      const hash = sha256({ fallback: true, preset: preset.id, version: preset.version, name, format });
      return serve(user, { hash, options, standIn: true }, false);
    },

    async deleteAllOf(userId) {
      for (const entry of await store.renders.deleteAllForUser(userId))
        if (entry.blobKey) await blobs.delete(entry.blobKey);
    },

    async renderQueued(job) {
      const card = job.card;
      if (!card) throw new Error(`job ${job.imageId} is not a card's`);
      // Done already (a retry), or no longer claimed (the serving process gave up and released
      // it): nothing to render, and no file to leave without its entry.
      const entry = await store.renders.find(card.hash);
      if (entry?.state !== 'rendering') return { ok: true, report: null };
      try {
        await renderAndStore(
          job.userId,
          { hash: card.hash, options: job.options, standIn: card.standIn },
          false,
        );
        return { ok: true, report: null };
      } catch (err) {
        if (err instanceof TitlecardError) return resultOfError(err);
        throw err;
      }
    },
  };
}
