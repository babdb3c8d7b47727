/**
 * A generation's request resolved for the renderer, for every edge and every kind of generation
 * (`/generate`, previews, `/layout`, batch items, render links and sites): the preset's options under
 * the request's own, validated with the API's schema; a template of the user's filled from
 * `fields`; an uploaded font loaded; the preset's logo decoded; the background from exactly one of
 * the upload, `asset` and `imageUrl`, else the preset's. Every refusal is a ValidationError naming
 * the field.
 */
import { FileTooLargeError, TooManyAttemptsError, ValidationError } from '../kernel/errors.js';
import type { ImageFetcher, Throttle } from '../kernel/ports.js';
import { parseOrThrow } from '../kernel/validate.js';
import { imageSize, type ImageInput, type RenderOptions } from '../render/index.js';
import { optionsOverPreset, type Presets } from '../presets/presets.js';
import type { Assets } from '../assets/assets.js';
import { generateOptionsSchema } from './schemas.js';
import { isTemplateId } from '../schemas.js';

import type { Templates } from '../templates/templates.js';
import type { PreparedRender } from './types.js';

/**
 * Fields of a generation besides the options of docs/api.md#generate-options: `preset` (a saved design whose
 * options the request's own override), and a background given by `asset` (an upload's id) or
 * `imageUrl` (fetched SSRF-safely, as the MCP connector does), instead of the uploaded `image`.
 */
export const SOURCE_FIELDS = ['preset', 'asset', 'imageUrl'] as const;

/**
 * Failed `imageUrl` fetches one account may have (timeouts, refused connections, error answers,
 * refused addresses, files too large): 10 in 5 minutes; past them its next `imageUrl` is refused at
 * once with 429 `RATE_LIMITED` until the window ends, without a fetch (ours, issue 41: an account
 * whose image hosts never answer stops holding render slots; a person fixing a bad URL needs a few).
 */
export const FETCH_FAILURES = { points: 10, windowSeconds: 300 } as const;

/**
 * A template's canvas for a render: its `aspect`, or its own `size`, unless the request (or its
 * preset) names an aspect (`requested`), which then wins over both.
 */
export function onTemplateCanvas(
  design: NonNullable<RenderOptions['design']>,
  requested: unknown,
): Pick<RenderOptions, 'design'> & { aspect?: RenderOptions['aspect'] } {
  return requested === undefined
    ? { design, aspect: design.document.aspect }
    : { design: { ...design, size: undefined } };
}

export function createRequestResolver({
  assets,
  presets,
  templates,
  fetchImage,
  fetchThrottle,
}: {
  assets: Pick<Assets, 'imageOf' | 'fontOf'>;
  presets: Pick<Presets, 'use'>;
  templates: Pick<Templates, 'design'>;
  /** Fetches an `imageUrl` SSRF-safely (src/adapters/safe-fetch.ts); without it, imageUrl is refused. */
  fetchImage?: ImageFetcher | undefined;
  /** Counts an account's failed `imageUrl` fetches ({@link FETCH_FAILURES}); without it, none are counted. */
  fetchThrottle?: Throttle | undefined;
}) {
  /**
   * The bytes at `url` for `userId`; TooManyAttemptsError (429) while the account is past
   * {@link FETCH_FAILURES}, else the fetcher's refusal, counted.
   */
  async function fetchFor(userId: string, fetcher: ImageFetcher, url: string): Promise<Buffer> {
    const key = `image-fetch:${userId}`;
    const wait = (await fetchThrottle?.blockedFor(key)) ?? 0;
    if (wait > 0) throw new TooManyAttemptsError(wait, 'failed imageUrl fetches');
    try {
      return await fetcher(url);
    } catch (err) {
      if (err instanceof ValidationError || err instanceof FileTooLargeError) await fetchThrottle?.hit(key);
      throw err;
    }
  }

  /** The request's options over its preset's, without the source fields; and the preset. */
  async function merged(userId: string, options: unknown) {
    const given = (options ?? {}) as Record<string, unknown>;
    const preset = given.preset === undefined ? undefined : await presets.use(userId, given.preset);
    const own = Object.fromEntries(
      Object.entries(given).filter(([k]) => !(SOURCE_FIELDS as readonly string[]).includes(k)),
    );
    return { given, preset, raw: optionsOverPreset(preset, own) };
  }

  /** Options for the renderer: validated, the uploaded font loaded, the preset's logo decoded. */
  async function renderOptions(
    userId: string,
    raw: Record<string, unknown>,
    preset: Awaited<ReturnType<Presets['use']>> | undefined,
    withImages = true,
    standIn = false,
  ): Promise<RenderOptions> {
    const { fields, ...parsed } = parseOrThrow(generateOptionsSchema, raw);
    const font =
      typeof parsed.font === 'object' ? (await assets.fontOf(userId, parsed.font.custom)).font : parsed.font;
    let design: RenderOptions['design'];
    if (isTemplateId(parsed.template)) {
      design = await templates.design(
        userId,
        parsed.template,
        { title: parsed.title, subtitle: parsed.subtitle, fields, lenient: standIn },
        { images: withImages },
      );
    }
    let logo: RenderOptions['logo'];
    if (preset?.logo) {
      const { bytes } = await assets.imageOf(userId, preset.logo.assetId, 'logo');
      const { width, height } = await imageSize(bytes);
      logo = {
        image: bytes,
        width,
        height,
        corner: preset.logo.corner,
        size: preset.logo.size,
      };
    }
    return { ...parsed, font, logo, ...(design ? onTemplateCanvas(design, raw.aspect) : {}) };
  }

  async function prepare(
    userId: string,
    image: ImageInput | undefined,
    options: unknown,
    imageField = 'image',
    standIn = false,
  ): Promise<PreparedRender> {
    const { given, preset, raw } = await merged(userId, options);
    const sources = [
      ...(image !== undefined ? [imageField] : []),
      ...(given.asset !== undefined ? ['asset'] : []),
      ...(given.imageUrl !== undefined ? ['imageUrl'] : []),
    ];
    if (sources.length > 1)
      throw new ValidationError(
        sources[1] as string,
        'type',
        `Expected one background but received ${sources.join(' and ')}: give only one of ${imageField}, asset and imageUrl`,
      );
    if (sources.length === 0 && !preset?.backgroundAssetId)
      throw new ValidationError(
        imageField,
        'required',
        `Expected a JPEG, PNG or WebP file for ${imageField}, or one of asset and imageUrl (or a preset with a background), but received none: ${imageField} is required`,
      );
    const rendered = await renderOptions(userId, raw, preset, true, standIn);
    let input: ImageInput;
    if (image !== undefined) input = image;
    else if (given.asset !== undefined) {
      if (typeof given.asset !== 'string')
        throw new ValidationError('asset', 'type', 'Expected an asset id (ast_…) for asset');
      input = (await assets.imageOf(userId, given.asset, 'asset')).bytes;
    } else if (given.imageUrl !== undefined) {
      if (typeof given.imageUrl !== 'string')
        throw new ValidationError('imageUrl', 'type', 'Expected an http or https URL for imageUrl');
      if (!fetchImage) throw new ValidationError('imageUrl', 'format', 'imageUrl is not available here');
      input = await fetchFor(userId, fetchImage, given.imageUrl);
    } else input = (await assets.imageOf(userId, preset?.backgroundAssetId ?? '', 'preset')).bytes;
    return { input, options: rendered };
  }

  return { merged, renderOptions, prepare };
}

/** What {@link createRequestResolver} answers: the preset merge, the renderer's options, a whole request resolved. */
export type RequestResolver = ReturnType<typeof createRequestResolver>;
