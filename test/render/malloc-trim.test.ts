/**
 * Handing glibc's free pages back between renders (src/domain/render/photo/malloc-trim.ts): after native
 * work the trim gives memory back and the process's resident memory falls; calls closer together
 * than the interval do nothing.
 */
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { mallocTrimmer, TRIM_INTERVAL_MS } from '../../src/domain/render/photo/malloc-trim.js';
import { enlarged } from '../support/images.js';
const glibc = Boolean(
  (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header
    ?.glibcVersionRuntime,
);

/** Resident memory of this process, MiB (Linux). */
const residentMiB = () =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]) / 1024;

describe.runIf(glibc)('glibc free memory given back between renders', () => {
  it('gives back what libvips freed, and not more often than its interval', async () => {
    const trims: boolean[] = [];
    const trim = mallocTrimmer((freed) => trims.push(freed));
    // Native work that frees many buffers below the mmap threshold on libvips' threads: encodes of
    // a PNG photo in strips, several at once.
    const photo = await enlarged('plasma_Canopee.png', 3840, 2160, 'png');
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        sharp(photo)
          .resize(1600 + 40 * i)
          .webp({ effort: 0 })
          .toBuffer(),
      ),
    );
    const before = residentMiB();
    trim();
    // A second call while the first runs, and one right after it, do nothing.
    trim();
    for (let i = 0; i < 100 && trims.length === 0; i++) await sleep(5);
    trim();
    await sleep(50);
    expect(trims).toEqual([true]);
    expect(residentMiB()).toBeLessThan(before);
    // After the interval a call trims again.
    await sleep(TRIM_INTERVAL_MS);
    trim();
    for (let i = 0; i < 100 && trims.length === 1; i++) await sleep(5);
    expect(trims).toHaveLength(2);
  });
});
