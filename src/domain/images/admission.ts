/**
 * Admission of generations and previews into this process: a bound on how many are under way
 * (the memory they hold while they wait) and on the wait for a render a new one is admitted to.
 */
import { ServiceBusyError } from '../kernel/errors.js';
import { createTally } from '../kernel/tally.js';
import type { Renderer } from '../render/index.js';

export interface Admission {
  /**
   * Runs `work` as one of the generations and previews under way, for account `accountId`, or
   * refuses it with ServiceBusyError: past `maxInFlight` of them (an account with none under way
   * may still enter, up to {@link accountShare} more: others' load does not shut it out), past the
   * account's share of them ({@link accountShare}: one account waiting on slow image hosts leaves
   * the rest to the others), or when its expected wait for a render is past `maxWaitMs`: the renders
   * ahead of it × the renderer's recent mean render time ÷ its concurrency, where render turns go
   * round robin between accounts (render/turns.ts), so the ones ahead are its own and, of each other
   * account's, as many as its own plus one (issue 55, item 1: four accounts' previews of huge photos
   * were counted whole ahead of another account's one card). Retry-After: the time until it would
   * not be, at least a second.
   */
  admitted<T>(accountId: string, work: () => Promise<T>): Promise<T>;
}

/** The generations and previews one account may have under way: a quarter of them, at least 2. */
export const accountShare = (maxInFlight: number) => Math.max(2, Math.floor(maxInFlight / 4));

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
  const perAccount = createTally();
  const share = accountShare(maxInFlight);
  return {
    async admitted(accountId, work) {
      const mine = perAccount.count(accountId);
      if (mine >= share)
        throw new ServiceBusyError(
          `This account has ${mine} images under way, its share of this server's ${maxInFlight}: try again after Retry-After`,
          1,
        );
      const { concurrency, meanRenderMs } = renderer.load();
      let queued = mine;
      for (const other of perAccount.atLeast(1))
        if (other !== accountId) queued += Math.min(perAccount.count(other), mine + 1);
      const ahead = Math.max(0, queued + 1 - concurrency);
      const waitMs = (ahead * meanRenderMs) / concurrency;
      if (inFlight >= maxInFlight + (mine === 0 ? share : 0) || waitMs > maxWaitMs)
        throw new ServiceBusyError(
          `Titlecard has ${inFlight} images under way, about ${Math.ceil(waitMs / 1000)} s of rendering: try again after Retry-After`,
          Math.max(1, Math.ceil((Math.max(waitMs - maxWaitMs, meanRenderMs / concurrency) || 0) / 1000)),
        );
      inFlight++;
      const done = perAccount.start(accountId);
      try {
        return await work();
      } finally {
        inFlight--;
        done();
      }
    },
  };
}
