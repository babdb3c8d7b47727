/**
 * V8's heap growing factor for a process that renders (`titlecard serve`, `npm run bench`).
 *
 * After each full collection V8 sets the next old-generation limit at the live size times a growing
 * factor it picks itself (1.1 to 4; heap-controller.cc), and starts the next full collection once
 * the room under that limit is smaller than the young generation (up to 16 MB here). For the
 * server's live heap of about 31 MB it sometimes picked 1.2 to 1.5, and a full collection then ran
 * every three to eight cards. A fixed factor of 2 keeps room above the young generation, for at
 * most about 30 MB more heap: at four in flight, 26.3 to 27.8 cards/s against 21.8 to 25.3 in the
 * runs where V8's own choice went wrong (`npm run bench -- --http`; docs/performance.md).
 */
import v8 from 'node:v8';

/** The old generation may grow to (1 + this / 100) × its live size before the next full collection. */
export const HEAP_GROWING_PERCENT = 100;

/**
 * Sets V8's heap growing factor to {@link HEAP_GROWING_PERCENT}, unless the process was started with
 * its own `--heap-growing-percent` (which then wins). V8 reads the flag each time it recomputes the
 * limit, so setting it after start-up takes effect at the next full collection. Answers whether it
 * set the flag.
 */
export function tuneHeapGrowing(execArgv: readonly string[] = process.execArgv): boolean {
  if (execArgv.some((arg) => /^--heap[-_]growing[-_]percent\b/.test(arg))) return false;
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return true;
}
