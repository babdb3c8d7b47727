/**
 * Handing the C allocator's free memory back to the system before a large decode. libvips, the
 * encoders and resvg allocate and free on several threads; glibc keeps what they free in its
 * arenas, resident, unless it lies at the top of a heap. After a session of every photo in every
 * format a server held 40 MiB of such free pages (its resident memory fell from 286 to 245 MiB
 * when `malloc_trim(0)` was called into it from gdb), and a progressive JPEG's decode (about 56
 * MiB, mapped on its own) comes on top of them. glibc's `malloc_trim` (2.8 and later: every arena,
 * every whole free page) is called through koffi, a foreign-function interface with prebuilt
 * binaries, on a thread of koffi's own, never on the main thread.
 */
import { createRequire } from 'node:module';
import type * as Koffi from 'koffi';

const require = createRequire(import.meta.url);

/** Fewest milliseconds between two trims: at most four a second, each 1 to 2 ms on its own thread. */
export const TRIM_INTERVAL_MS = 250;

type Trim = ((pad: number) => number) & {
  async: (pad: number, done: (err: unknown, freed: number) => void) => void;
};

/**
 * glibc's `malloc_trim`, or undefined where there is none (musl, macOS, Windows: nothing to trim
 * there) or where koffi has no binary for the platform: the renderer works the same without it.
 */
function loadTrim(): Trim | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const koffi = require('koffi') as typeof Koffi;
    return koffi.load('libc.so.6').func('int malloc_trim(size_t pad)') as Trim;
  } catch {
    return undefined;
  }
}

/**
 * A function that asks glibc to return its free pages to the system, at most once every
 * {@link TRIM_INTERVAL_MS} and never twice at once; calls in between do nothing. It returns at once
 * (the trim runs on koffi's thread). Where the C library is not glibc it does nothing.
 * `onTrimmed` hears whether each trim gave memory back (for tests).
 */
export function mallocTrimmer(onTrimmed?: (freed: boolean) => void): () => void {
  const trim = loadTrim();
  let last = -Infinity;
  let running = false;
  return () => {
    if (!trim || running || performance.now() - last < TRIM_INTERVAL_MS) return;
    running = true;
    trim.async(0, (err, freed) => {
      running = false;
      last = performance.now();
      if (!err) onTrimmed?.(freed === 1);
    });
  };
}

let processTrimmer: (() => void) | undefined;

/**
 * The process's trimmer ({@link mallocTrimmer}): the decoder calls it before each large decode
 * (decode.ts, `LARGE_DECODE_MIB`); it trims at most once every {@link TRIM_INTERVAL_MS} for the
 * whole process.
 */
export function trimFreeMemory(): void {
  processTrimmer ??= mallocTrimmer();
  processTrimmer();
}
