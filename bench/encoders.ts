/**
 * `npm run bench -- --encoders`: PNG, JPEG and WebP encoder settings by speed and size, on the
 * photos cover-cropped to a 1200×630 card (the pixels an encoder gets), with the settings Titlecard
 * uses named. The source of ENCODER_SETTINGS in src/domain/render/index.ts.
 */
import { performance } from 'node:perf_hooks';
import sharp, { type Sharp } from 'sharp';
import { ENCODER_SETTINGS } from '../src/domain/render/index.js';
import { HEIGHT, WIDTH } from './engines.js';
import { median } from './stats.js';

const CANDIDATES: [string, (s: Sharp) => Sharp][] = [
  ['png level 6, no filter (before)', (s) => s.png({ compressionLevel: 6 })],
  ['png level 0, no filter (stored)', (s) => s.png({ compressionLevel: 0 })],
  [
    'png level 0, adaptive (the filters alone)',
    (s) => s.png({ compressionLevel: 0, adaptiveFiltering: true }),
  ],
  ['png level 1, no filter', (s) => s.png({ compressionLevel: 1 })],
  ['png level 1, adaptive', (s) => s.png({ compressionLevel: 1, adaptiveFiltering: true })],
  ['png level 2, adaptive', (s) => s.png({ compressionLevel: 2, adaptiveFiltering: true })],
  [
    `png: Titlecard (level ${ENCODER_SETTINGS.png.compressionLevel}, adaptive)`,
    (s) => s.png(ENCODER_SETTINGS.png),
  ],
  ['png level 4, adaptive', (s) => s.png({ compressionLevel: 4, adaptiveFiltering: true })],
  ['png level 6, adaptive', (s) => s.png({ compressionLevel: 6, adaptiveFiltering: true })],
  ['jpeg q85, optimised Huffman (before)', (s) => s.jpeg({ quality: 85 })],
  ['jpeg: Titlecard (q85, standard Huffman)', (s) => s.jpeg(ENCODER_SETTINGS.jpeg)],
  ['jpeg q85, mozjpeg', (s) => s.jpeg({ quality: 85, mozjpeg: true })],
  ['webp q85, effort 4 (before)', (s) => s.webp({ quality: 85 })],
  ['webp q85, effort 1', (s) => s.webp({ quality: 85, effort: 1 })],
  ['webp: Titlecard (q85, effort 2)', (s) => s.webp(ENCODER_SETTINGS.webp)],
  ['webp q85, effort 3', (s) => s.webp({ quality: 85, effort: 3 })],
];

export async function encoderTable(
  photos: Map<string, Buffer>,
  print: (line: string) => void,
): Promise<void> {
  const cards = await Promise.all(
    [...photos.values()].map((p) =>
      sharp(p).rotate().resize(WIDTH, HEIGHT).raw().toBuffer({ resolveWithObject: true }),
    ),
  );
  print(
    `Encoder settings on ${cards.length} cards of ${WIDTH}×${HEIGHT}: median ms and total KiB over the photos (5 runs each).`,
  );
  for (const [name, apply] of CANDIDATES) {
    const times: number[] = [];
    let bytes = 0;
    for (const { data, info } of cards) {
      const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
      const runs: number[] = [];
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        const out = await apply(sharp(data, raw)).toBuffer();
        runs.push(performance.now() - started);
        if (i === 0) bytes += out.length;
      }
      times.push(median(runs));
    }
    print(
      `  ${name.padEnd(42)}${median(times).toFixed(1).padStart(8)} ms${(bytes / 1024).toFixed(0).padStart(9)} KiB`,
    );
  }
}
