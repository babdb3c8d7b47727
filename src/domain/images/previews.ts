/**
 * Previews and the free fit check: a generation rendered exactly as `generate` would, scaled down,
 * stored nowhere and charged nothing (the dashboard's playground and template editor), and the
 * layout report of `POST /layout`. Both are limited per account ({@link PREVIEW_LIMIT}).
 */
import sharp from 'sharp';
import type { Principal } from '../accounts/accounts.js';
import { TooManyAttemptsError } from '../kernel/errors.js';
import type { Blob, Throttle } from '../kernel/ports.js';
import type { Renderer } from '../render/index.js';
import type { Templates } from '../templates/templates.js';
import type { Admission } from './admission.js';
import type { Images, PreparedRender } from './images.js';
import { onTemplateCanvas, type RequestResolver } from './request.js';

/** Width of a playground preview in px (JPEG, quality 70). */
export const PREVIEW_WIDTH = 600;
/** Previews per account per minute: a debounced live preview asks at most about one a second. */
export const PREVIEW_LIMIT = { points: 60, windowSeconds: 60 } as const;

export function createPreviews({
  renderer,
  templates,
  previewThrottle,
  admission,
  resolver,
}: {
  renderer: Renderer;
  templates: Pick<Templates, 'draft'>;
  /** Counts previews and layout checks per account ({@link PREVIEW_LIMIT}). */
  previewThrottle: Throttle;
  admission: Admission;
  resolver: RequestResolver;
}): Pick<Images, 'preview' | 'previewTemplate' | 'checkLayout'> {
  const { merged, renderOptions, prepare } = resolver;
  /** A preview: limited per account, admitted as a generation is, drawn as JPEG, {@link PREVIEW_WIDTH} px wide. */
  async function previewed(principal: Principal, prepared: () => Promise<PreparedRender>): Promise<Blob> {
    const wait = await previewThrottle.hit(`preview:${principal.user.id}`);
    if (wait > 0) throw new TooManyAttemptsError(wait, 'previews');
    return admission.admitted(principal.user.id, async () => {
      const { input, options } = await prepared();
      const rendered = await renderer.render(input, { ...options, fileFormat: 'jpeg' });
      const body = await sharp(rendered.image).resize(PREVIEW_WIDTH).jpeg({ quality: 70 }).toBuffer();
      return { body, contentType: 'image/jpeg' };
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

    async checkLayout(principal, options) {
      const { preset, raw } = await merged(principal.user.id, options);
      const parsed = await renderOptions(principal.user.id, raw, preset, false);
      const wait = await previewThrottle.hit(`layout:${principal.user.id}`);
      if (wait > 0) throw new TooManyAttemptsError(wait, 'layout checks');
      return renderer.layout(parsed);
    },
  };
}
