/**
 * `npm run bench -- --compare`: the job of engines.ts through the floor, Titlecard, satori + resvg
 * and takumi, interleaved in one process (each round runs every engine once on the same photo and
 * format, in a rotating order, so that a slow patch of the machine hits all of them alike). Prints
 * per photo and format the median wall time of each engine, the ratios the performance issue sets
 * targets for, and the output bytes; and, to compare encoders on the very same pixels, Titlecard's
 * card bytes over takumi's when takumi encodes Titlecard's card (tc÷takumi bytes, at quality 85).
 */
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import type { FontLibrary } from '../src/domain/render/index.js';
import {
  type Engine,
  floorEngine,
  type Format,
  satoriEngine,
  takumiEncoder,
  takumiEngine,
  titlecardEngine,
} from './engines.js';
import { median } from './stats.js';

const NAMES = ['floor', 'titlecard', 'satori', 'takumi'] as const;
type Name = (typeof NAMES)[number];

export interface CompareRow {
  photo: string;
  format: Format;
  ms: Record<Name, number>;
  bytes: Record<Name, number>;
  /** Bytes of Titlecard's card when takumi encodes its pixels. */
  takumiSamePixels: number;
}

/**
 * Runs `runs` interleaved rounds (after one warm-up round) per photo and format. `photos` maps a
 * name to its bytes; a WebP copy of one photo is added by the caller to cover WebP input.
 */
export async function compare(
  fonts: FontLibrary,
  photos: Map<string, Buffer>,
  runs: number,
  formats: readonly Format[],
  print: (line: string) => void,
): Promise<CompareRow[]> {
  const engines: Record<Name, Engine> = {
    floor: floorEngine(),
    titlecard: titlecardEngine(fonts),
    satori: await satoriEngine(),
    takumi: await takumiEngine(),
  };
  const encodeLikeTakumi = await takumiEncoder();
  const rows: CompareRow[] = [];
  const pad = (s: string, n: number) => s.padStart(n);
  for (const format of formats) {
    print(`\n${format} output: median ms per card + thumbnail (bytes of the card)`);
    print(
      `${'photo'.padEnd(42)}${NAMES.map((n) => pad(n, 16)).join('')}${pad('tc÷floor', 10)}${pad('satori÷tc', 11)}${pad('takumi÷tc', 11)}${pad('tc÷takumi bytes', 17)}`,
    );
    for (const [photo, bytes] of photos) {
      const times = Object.fromEntries(NAMES.map((n) => [n, [] as number[]])) as Record<Name, number[]>;
      const sizes = {} as Record<Name, number>;
      let card: Buffer = Buffer.alloc(0);
      for (let round = -1; round < runs; round++) {
        for (let k = 0; k < NAMES.length; k++) {
          const name = NAMES[(k + round + 1) % NAMES.length] as Name;
          const started = performance.now();
          const out = await engines[name](bytes, format);
          const elapsed = performance.now() - started;
          if (round >= 0) times[name].push(out ? elapsed : NaN);
          sizes[name] = out ? out.card.length : NaN;
          if (out && name === 'titlecard') card = out.card;
        }
      }
      const ms = Object.fromEntries(NAMES.map((n) => [n, median(times[n])])) as Record<Name, number>;
      // Encoders compared on the same pixels: takumi encodes Titlecard's card.
      const sameAsTakumi = (await encodeLikeTakumi(card, format)).length;
      rows.push({ photo, format, ms, bytes: sizes, takumiSamePixels: sameAsTakumi });
      print(
        `${photo.padEnd(42)}${NAMES.map((n) => pad(Number.isNaN(ms[n]) ? 'n/a' : `${ms[n].toFixed(0)} (${(sizes[n] / 1024).toFixed(0)}k)`, 16)).join('')}` +
          `${pad((ms.titlecard / ms.floor).toFixed(2), 10)}${pad((ms.satori / ms.titlecard).toFixed(2), 11)}${pad((ms.takumi / ms.titlecard).toFixed(2), 11)}${pad((sizes.titlecard / sameAsTakumi).toFixed(3), 17)}`,
      );
    }
    const of = rows.filter((r) => r.format === format);
    const med = (f: (r: CompareRow) => number) =>
      median(of.map(f).filter((v) => !Number.isNaN(v))).toFixed(2);
    print(
      `${'median of photos'.padEnd(42)}${' '.repeat(64)}${pad(
        med((r) => r.ms.titlecard / r.ms.floor),
        10,
      )}${pad(
        med((r) => r.ms.satori / r.ms.titlecard),
        11,
      )}${pad(
        med((r) => r.ms.takumi / r.ms.titlecard),
        11,
      )}${pad(
        med((r) => r.bytes.titlecard / r.takumiSamePixels),
        17,
      )}`,
    );
  }
  return rows;
}

/** A WebP (quality 90) of a photo, to time WebP input: the fixtures hold only JPEG and PNG. */
export const webpOf = (photo: Buffer) => sharp(photo).rotate().webp({ quality: 90 }).toBuffer();

/**
 * A PNG with alpha made from `photo`: its pixels, and an alpha channel rising from 50% at the left
 * edge to opaque at the right, so that every row mixes opacities (a 1920×1200 photo gives 6 MB,
 * the size of the RGBA PNG takumi was faster on, issue 28).
 */
export async function rgbaPngOf(photo: Buffer): Promise<Buffer> {
  const { width = 0, height = 0 } = await sharp(photo).rotate().metadata();
  const alpha = Buffer.alloc(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) alpha[y * width + x] = 128 + Math.round((127 * x) / width);
  // The photo must have no alpha of its own (a JPEG): sharp applies removeAlpha after joinChannel.
  return sharp(photo)
    .rotate()
    .joinChannel(alpha, { raw: { width, height, channels: 1 } })
    .png()
    .toBuffer();
}
