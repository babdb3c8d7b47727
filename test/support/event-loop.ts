/**
 * The event loop's longest stall while `work` runs, measured with `monitorEventLoopDelay` (in this
 * process: the in-process test server's requests are served on it). Issue 41's target is 50 ms per
 * request; tests print the figure and fail only on a stall a person would notice (see callers).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

export async function withEventLoopWatched<T>(
  work: () => Promise<T>,
): Promise<{ result: T; maxDelayMs: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  try {
    const result = await work();
    return { result, maxDelayMs: histogram.max / 1e6 };
  } finally {
    histogram.disable();
  }
}
