/**
 * Previews and the free fit check: a generation rendered exactly as `generate` would, scaled down,
 * stored nowhere and charged nothing (the dashboard's playground and template editor), a card
 * re-encoded for a page to show (the studio's large view), and the layout report of `POST /layout`.
 * All are limited per account ({@link PREVIEW_LIMIT}); those that touch pixels go through the card
 * pipeline (pipeline.ts): admitted as a generation is, in the account's render turn.
 */
import type { Principal } from '../accounts/accounts.js';
import { NotFoundError, TooManyAttemptsError } from '../kernel/errors.js';
import type { Blob, BlobStore, RecordStore, Throttle } from '../kernel/ports.js';
import type { Templates } from '../templates/templates.js';
import type { CardPipeline } from './pipeline.js';
import { onTemplateCanvas, type RequestResolver } from './request.js';
import type { LayoutReport } from './schemas.js';
import type { GenerateRequestReader, PreparedRender } from './types.js';

/** Width of a playground preview in px (JPEG, quality 70). */
export const PREVIEW_WIDTH = 600;
/** Previews per account per minute: a debounced live preview asks at most about one a second. */
export const PREVIEW_LIMIT = { points: 60, windowSeconds: 60 } as const;
/** JPEG quality of a card's large view (the studio's): a card as made, for a page only. */
export const VIEW_QUALITY = 90;

/** The preview use cases. Every method throws the domain's errors only; anything else is a fault. */
export interface Previews {
  /**
   * A small preview of a generation (the dashboard's playground): rendered exactly as `generate`
   * would, then scaled to {@link PREVIEW_WIDTH} px wide as JPEG. Not stored, uses no quota, and
   * limited to {@link PREVIEW_LIMIT} per account. Throws TooManyAttemptsError, ValidationError,
   * FileTooLargeError, ServiceBusyError.
   */
  preview(principal: Principal, read: GenerateRequestReader): Promise<Blob>;
  /**
   * A preview of an unsaved template `document` (the dashboard's editor), filled from the request's
   * `title`, `subtitle` and `fields`: as {@link preview}, free and limited alike. ValidationError
   * names the document's path (`layers[3].box.w`) or the field.
   */
  previewTemplate(principal: Principal, document: unknown, read: GenerateRequestReader): Promise<Blob>;
  /**
   * One of the caller's cards at its own size as a JPEG (quality {@link VIEW_QUALITY}, flattened on
   * white) for a page to show: the studio's large view. Limited to {@link PREVIEW_LIMIT} per account
   * (apart from previews), admitted as a generation is, and re-encoded in the account's render
   * turn. Throws NotFoundError (unknown, or another account's), TooManyAttemptsError,
   * ServiceBusyError.
   */
  view(principal: Principal, id: string): Promise<{ body: Buffer; width: number; height: number }>;
  /**
   * The free fit check (`POST /layout`): the report of how the texts and options would be set, with
   * no photo, no quota and nothing stored; limited to {@link PREVIEW_LIMIT} per account. Throws
   * ValidationError, TooManyAttemptsError.
   */
  checkLayout(principal: Principal, options: unknown): Promise<LayoutReport>;
}

export function createPreviews({
  store,
  blobs,
  pipeline,
  templates,
  previewThrottle,
  resolver,
}: {
  store: RecordStore;
  blobs: BlobStore;
  pipeline: CardPipeline;
  templates: Pick<Templates, 'draft'>;
  /** Counts previews and layout checks per account ({@link PREVIEW_LIMIT}). */
  previewThrottle: Throttle;
  resolver: RequestResolver;
}): Previews {
  const { merged, renderOptions, prepare } = resolver;
  /** A preview: limited per account, then the pipeline's render for display, {@link PREVIEW_WIDTH} px wide. */
  async function previewed(principal: Principal, prepared: () => Promise<PreparedRender>): Promise<Blob> {
    const wait = await previewThrottle.hit(`preview:${principal.workspace.id}`);
    if (wait > 0) throw new TooManyAttemptsError(wait, 'previews');
    const shown = await pipeline.renderForDisplay(principal.workspace.id, prepared, {
      width: PREVIEW_WIDTH,
      quality: 70,
    });
    return { body: shown.body, contentType: 'image/jpeg' };
  }

  return {
    preview: (principal, read) =>
      previewed(principal, async () => {
        const { image, imageField, options } = await read();
        return prepare(principal.workspace.id, image, options, imageField);
      }),

    previewTemplate: (principal, document, read) =>
      previewed(principal, async () => {
        const { image, imageField, options } = await read();
        const { fields, template: _template, ...rest } = (options ?? {}) as Record<string, unknown>;
        const prepared = await prepare(principal.workspace.id, image, rest, imageField);
        const design = await templates.draft(principal.workspace.id, document, {
          title: prepared.options.title,
          subtitle: prepared.options.subtitle,
          fields: fields as Record<string, unknown> | undefined,
        });
        return { ...prepared, options: { ...prepared.options, ...onTemplateCanvas(design, rest.aspect) } };
      }),

    async view(principal, id) {
      const account = principal.workspace.id;
      // Counted in one step: exactly PREVIEW_LIMIT a minute, however many calls arrive at once.
      if (!(await previewThrottle.take(`view:${account}`)))
        throw new TooManyAttemptsError(
          Math.max(1, await previewThrottle.blockedFor(`view:${account}`)),
          'card views',
        );
      const record = await store.images.findById(account, id);
      const file = record && (await blobs.get(record.imageKey));
      if (!file) throw new NotFoundError(`No image with id ${id} on this account`);
      return pipeline.display(account, file.body, { quality: VIEW_QUALITY, mozjpeg: true });
    },

    async checkLayout(principal, options) {
      const { preset, raw } = await merged(principal.workspace.id, options);
      const parsed = await renderOptions(principal.workspace.id, raw, preset, false);
      const wait = await previewThrottle.hit(`layout:${principal.workspace.id}`);
      if (wait > 0) throw new TooManyAttemptsError(wait, 'layout checks');
      return pipeline.layout(parsed);
    },
  };
}
