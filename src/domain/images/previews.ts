/**
 * Previews and the free fit check: a generation rendered exactly as `generate` would, scaled down,
 * stored nowhere and charged nothing (the dashboard's playground and template editor), a card
 * re-encoded for a page to show (the studio's large view), and the layout report of `POST /layout`.
 * All are limited per account ({@link PREVIEW_LIMIT}); those that touch pixels are admitted as a
 * generation is and take the account's render turn.
 */
import type { Principal } from '../accounts/accounts.js';
import { NotFoundError, TooManyAttemptsError } from '../kernel/errors.js';
import type { Blob, BlobStore, RecordStore, Throttle } from '../kernel/ports.js';
import type { Renderer } from '../render/index.js';
import type { Templates } from '../templates/templates.js';
import type { Admission } from './admission.js';
import type { Images, PreparedRender } from './images.js';
import { onTemplateCanvas, type RequestResolver } from './request.js';

/** Width of a playground preview in px (JPEG, quality 70). */
export const PREVIEW_WIDTH = 600;
/** Previews per account per minute: a debounced live preview asks at most about one a second. */
export const PREVIEW_LIMIT = { points: 60, windowSeconds: 60 } as const;
/** JPEG quality of a card's large view (the studio's): a card as made, for a page only. */
export const VIEW_QUALITY = 90;

export function createPreviews({
  store,
  blobs,
  renderer,
  templates,
  previewThrottle,
  admission,
  resolver,
}: {
  store: RecordStore;
  blobs: BlobStore;
  renderer: Renderer;
  templates: Pick<Templates, 'draft'>;
  /** Counts previews and layout checks per account ({@link PREVIEW_LIMIT}). */
  previewThrottle: Throttle;
  admission: Admission;
  resolver: RequestResolver;
}): Pick<Images, 'preview' | 'previewTemplate' | 'view' | 'checkLayout'> {
  const { merged, renderOptions, prepare } = resolver;
  /** A preview: limited per account, admitted as a generation is, drawn as JPEG, {@link PREVIEW_WIDTH} px wide. */
  async function previewed(principal: Principal, prepared: () => Promise<PreparedRender>): Promise<Blob> {
    const wait = await previewThrottle.hit(`preview:${principal.user.id}`);
    if (wait > 0) throw new TooManyAttemptsError(wait, 'previews');
    return admission.admitted(principal.user.id, async () => {
      const { input, options } = await prepared();
      const account = principal.user.id;
      const rendered = await renderer.render(input, { ...options, fileFormat: 'jpeg' }, { account });
      const shown = await renderer.display(
        rendered.image,
        { width: PREVIEW_WIDTH, quality: 70 },
        { account },
      );
      return { body: shown.body, contentType: 'image/jpeg' };
    });
  }

  return {
    preview: (principal, read) =>
      previewed(principal, async () => {
        const { image, imageField, options } = await read();
        return prepare(principal.user.id, image, options, imageField);
      }),

    previewTemplate: (principal, document, read) =>
      previewed(principal, async () => {
        const { image, imageField, options } = await read();
        const { fields, template: _template, ...rest } = (options ?? {}) as Record<string, unknown>;
        const prepared = await prepare(principal.user.id, image, rest, imageField);
        const design = await templates.draft(principal.user.id, document, {
          title: prepared.options.title,
          subtitle: prepared.options.subtitle,
          fields: fields as Record<string, unknown> | undefined,
        });
        return { ...prepared, options: { ...prepared.options, ...onTemplateCanvas(design, rest.aspect) } };
      }),

    async view(principal, id) {
      const account = principal.user.id;
      // Counted in one step: exactly PREVIEW_LIMIT a minute, however many calls arrive at once.
      if (!(await previewThrottle.take(`view:${account}`)))
        throw new TooManyAttemptsError(
          Math.max(1, await previewThrottle.blockedFor(`view:${account}`)),
          'card views',
        );
      const record = await store.images.findById(account, id);
      const file = record && (await blobs.get(record.imageKey));
      if (!file) throw new NotFoundError(`No image with id ${id} on this account`);
      return admission.admitted(account, () =>
        renderer.display(file.body, { quality: VIEW_QUALITY, mozjpeg: true }, { account }),
      );
    },

    async checkLayout(principal, options) {
      const { preset, raw } = await merged(principal.user.id, options);
      const parsed = await renderOptions(principal.user.id, raw, preset, false);
      const wait = await previewThrottle.hit(`layout:${principal.user.id}`);
      if (wait > 0) throw new TooManyAttemptsError(wait, 'layout checks');
      return renderer.layout(parsed);
    },
  };
}
