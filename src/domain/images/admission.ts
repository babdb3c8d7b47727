/**
 * Admission of generations and previews into this process: a bound on how many are under way
 * (the memory they hold while they wait) and on the wait for a render a new one is admitted to.
 */
import { ServiceBusyError } from '../kernel/errors.js';
import type { Renderer } from '../render/index.js';

export interface Admission {
  /**
   * Runs `work` as one of the generations and previews under way, or refuses it with
   * ServiceBusyError: past `maxInFlight` of them, or when its expected wait for a render (the ones
   * ahead of it × the renderer's recent mean render time ÷ its concurrency) is past `maxWaitMs`.
   * Retry-After: the time until it would not be, at least a second.
   */
  admitted<T>(work: () => Promise<T>): Promise<T>;
}

export function createAdmission({
  renderer,
  maxInFlight,
  maxWaitMs,
}: {
  renderer: Pick<Renderer, 'load'>;
  /** Most under way at once (RENDER_CONCURRENCY + RENDER_QUEUE). */
  maxInFlight: number;
  /** Longest expected wait for a render, ms (RENDER_MAX_WAIT). */
  maxWaitMs: number;
}): Admission {
  let inFlight = 0;
  return {
    async admitted(work) {
      const { concurrency, meanRenderMs } = renderer.load();
      const ahead = Math.max(0, inFlight + 1 - concurrency);
      const waitMs = (ahead * meanRenderMs) / concurrency;
      if (inFlight >= maxInFlight || waitMs > maxWaitMs)
        throw new ServiceBusyError(
          `Titlecard has ${inFlight} images under way, about ${Math.ceil(waitMs / 1000)} s of rendering: try again after Retry-After`,
          Math.max(1, Math.ceil((Math.max(waitMs - maxWaitMs, meanRenderMs / concurrency) || 0) / 1000)),
        );
      inFlight++;
      try {
        return await work();
      } finally {
        inFlight--;
      }
    },
  };
}
