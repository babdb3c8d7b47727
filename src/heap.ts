/**
 * V8's heap growing factor for a process that renders (`titlecard serve`, `npm run bench`).
 *
 * After each full collection (mark-compact), V8 sets the next old-generation limit at the live
 * size times a growing factor that it picks from how fast the collector runs against how fast the
 * program allocates (1.1 to 4; heap-controller.cc). It starts the next full collection as soon as
 * the room left under that limit is smaller than the young generation (up to 16 MB here). The
 * server's live heap is about 31 MB (fonts, shaping tables, code); when V8 picked 1.2 to 1.5, the
 * limit (37 to 47 MB) left less room than the young generation, and a full collection ran every
 * three to eight cards. Which way a server went varied from run to run: in four servers alternated
 * with four of the fixed factor below, five of their eight levels of four requests in flight had
 * 15 to 34 full collections per 120 cards and gave 21.8 to 25.3 cards/s, using up to 20 ms more
 * CPU per card (V8's helper threads marking, the main thread's pauses); the other three had none
 * and gave 25.8 to 28.7 (issue 11; `--trace-gc` and per-thread CPU of the server, 24 November 2026,
 * 2 cores).
 *
 * A fixed factor of 2 (`--heap-growing-percent=100`) keeps room above the young generation: 0 to 3
 * full collections per 120 cards and 26.3 to 27.8 cards/s in all eight levels, for at most about
 * 30 MB more heap before a collection.
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
