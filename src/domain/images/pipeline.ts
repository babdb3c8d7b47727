/**
 * The one card pipeline (issue 50): admission → prepare → render → display encodings, for every
 * card Titlecard makes, whoever asks: `/generate` and batch items (generation.ts, on a worker with
 * `GENERATE_ON_WORKERS`: handoff.ts), previews, the fit check and the large view (previews.ts),
 * render links and site cards (src/domain/render-links/render-cache.ts). Nothing else of the domain
 * calls the renderer (`test/system/architecture.test.ts`); what each caller stores (an image record,
 * a link's cached card, nothing) is its own.
 */
import type {
  DisplayEncoding,
  LayoutReport,
  Renderer,
  RenderOptions,
  RenderResult,
} from '../render/index.js';
import type { Admission } from './admission.js';
import type { PreparedRender } from './types.js';

export interface CardPipeline {
  /**
   * Renders the card `prepare()` resolves, for `account`: admitted into this process first
   * (Admission: ServiceBusyError when too much is under way, or the expected wait is too long)
   * unless `admitted` is false (the caller was admitted already, or is a worker whose capacity is
   * its own); then prepared (what `prepare` throws: ValidationError, FileTooLargeError) and
   * rendered in the account's render turn (ValidationError on `image` for an undecodable photo).
   * `format` overrides the request's file format (a preview is JPEG).
   */
  render(
    account: string,
    prepare: () => Promise<PreparedRender>,
    options?: { admitted?: boolean; format?: RenderOptions['fileFormat'] },
  ): Promise<RenderResult>;
  /**
   * As {@link render}, as JPEG, then re-encoded for a person to look at (`how`) within the same
   * admission: a preview. Width and height in px of what is answered.
   */
  renderForDisplay(
    account: string,
    prepare: () => Promise<PreparedRender>,
    how: DisplayEncoding,
  ): Promise<{ body: Buffer; width: number; height: number }>;
  /**
   * A card re-encoded for a person to look at (render/encode `encodeForDisplay`), admitted as a
   * render is (unless `admitted` is false) and in `account`'s render turn. Width and height in px
   * of what is answered.
   */
  display(
    account: string,
    image: Buffer,
    how: DisplayEncoding,
    options?: { admitted?: boolean },
  ): Promise<{ body: Buffer; width: number; height: number }>;
  /** The layout report of `options` without a photo (`POST /layout`): milliseconds, not admitted. */
  layout(options: RenderOptions): Promise<LayoutReport>;
}

export function createCardPipeline({
  renderer,
  admission,
}: {
  renderer: Renderer;
  admission: Admission;
}): CardPipeline {
  const admitted = <T>(account: string, admit: boolean, work: () => Promise<T>): Promise<T> =>
    admit ? admission.admitted(account, work) : work();
  return {
    render: (account, prepare, { admitted: admit = true, format } = {}) =>
      admitted(account, admit, async () => {
        const { input, options } = await prepare();
        return renderer.render(input, format ? { ...options, fileFormat: format } : options, { account });
      }),

    renderForDisplay: (account, prepare, how) =>
      admission.admitted(account, async () => {
        const { input, options } = await prepare();
        const rendered = await renderer.render(input, { ...options, fileFormat: 'jpeg' }, { account });
        return renderer.display(rendered.image, how, { account });
      }),

    display: (account, image, how, { admitted: admit = true } = {}) =>
      admitted(account, admit, () => renderer.display(image, how, { account })),

    layout: (options) => renderer.layout(options),
  };
}
