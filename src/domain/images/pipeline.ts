/**
 * The one card pipeline (issue 50): admission → (a worker) → prepare → render → display encodings,
 * for every card Titlecard makes, whoever asks: `/generate` and batch items (generation.ts; the
 * serving side of a worker's render in handoff.ts), previews, the fit check and the large view
 * (previews.ts), render links and site cards (src/domain/render-links/render-cache.ts). Nothing
 * else of the domain calls the renderer or hands a render to the workers
 * (`test/system/architecture.test.ts`); what each caller stores (an image record, a link's cached
 * card, nothing) is its own.
 */
import type {
  DisplayEncoding,
  LayoutReport,
  Renderer,
  RenderOptions,
  RenderResult,
} from '../render/index.js';
import { errorOf } from '../kernel/errors.js';
import type { GenerationQueue, QueuedGeneration } from '../kernel/ports.js';
import type { Admission } from './admission.js';
import type { PreparedRender } from './types.js';

export interface CardPipeline {
  /**
   * Renders the card `prepare()` resolves, for `account`: admitted into this process first
   * (Admission: ServiceBusyError when too much is under way, or the expected wait is too long)
   * unless `admitted` is false (the caller was admitted already, or is a worker whose capacity is
   * its own); then prepared (what `prepare` throws: ValidationError, FileTooLargeError) and
   * rendered in the account's render turn (ValidationError on `image` for an undecodable photo).
   * `format` overrides the request's file format (a preview is JPEG). Answers the render with
   * what was prepared (`prepared`: the options as drawn, for the caller's record).
   */
  render(
    account: string,
    prepare: () => Promise<PreparedRender>,
    options?: { admitted?: boolean; format?: RenderOptions['fileFormat'] },
  ): Promise<RenderResult & { prepared: PreparedRender }>;
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
  /**
   * The layout report of `options` without a photo (`POST /layout`): not admitted, since it
   * decodes nothing and takes milliseconds of the main thread once its fonts are loaded.
   */
  layout(options: RenderOptions): Promise<LayoutReport>;
  /** Whether renders are handed to workers (`GENERATE_ON_WORKERS`): then {@link onWorker} takes them. */
  readonly workers: boolean;
  /**
   * Hands `job` to a worker and waits for it (src/adapters/queue.ts): the worker's render report,
   * or null when `written()` (the caller's own check that the result is stored) answered first.
   * Throws the domain error the worker threw (kernel/errors.ts `errorOf`), ServiceBusyError when no
   * worker took it in time, ServiceUnavailableError when the queue does not answer, and a plain
   * Error when there are no workers ({@link workers} false).
   */
  onWorker(job: QueuedGeneration, written: () => Promise<boolean>): Promise<unknown>;
}

/**
 * The card pipeline over `renderer`, admitting into this process with `admission`, and with
 * `queue` (GENERATE_ON_WORKERS) handing renders to the workers.
 */
export function createCardPipeline({
  renderer,
  admission,
  queue,
}: {
  renderer: Renderer;
  admission: Admission;
  queue?: GenerationQueue | undefined;
}): CardPipeline {
  const admitted = <T>(account: string, admit: boolean, work: () => Promise<T>): Promise<T> =>
    admit ? admission.admitted(account, work) : work();
  return {
    render: (account, prepare, { admitted: admit = true, format } = {}) =>
      admitted(account, admit, async () => {
        const prepared = await prepare();
        const { input, options } = prepared;
        const rendered = await renderer.render(input, format ? { ...options, fileFormat: format } : options, {
          account,
        });
        return { ...rendered, prepared };
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

    workers: queue !== undefined,

    async onWorker(job, written) {
      if (!queue) throw new Error(`no workers for ${job.imageId}: GENERATE_ON_WORKERS is off`);
      const result = await queue.run(job, written);
      if (!result.ok) throw errorOf(result.error);
      return result.report;
    },
  };
}
