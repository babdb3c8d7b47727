/**
 * `npm run bench -- --encoders`: PNG, JPEG and WebP encoder settings by speed and size, on the
 * photos cover-cropped to a 1200×630 card (the pixels an encoder gets), with the settings Titlecard
 * uses named (through encodeCard). The source of ENCODER_SETTINGS in src/domain/render/index.ts.
 */
import { performance } from 'node:perf_hooks';
import sharp, { type OutputInfo, type Sharp } from 'sharp';
import { Transformer } from '@napi-rs/image';
import { encodeCard } from '../src/domain/render/index.js';
import { HEIGHT, WIDTH } from './engines.js';
import { median } from './stats.js';

/** A candidate: its name and how it encodes a raw 1200×630 card. */
type Candidate = [string, (s: Sharp) => Promise<Buffer>];
const libvips = (name: string, apply: (s: Sharp) => Sharp): Candidate => [name, (s) => apply(s).toBuffer()];

const CANDIDATES: Candidate[] = [
  libvips('png level 6, no filter (before)', (s) => s.png({ compressionLevel: 6 })),
  libvips('png level 0, no filter (stored)', (s) => s.png({ compressionLevel: 0 })),
  libvips('png level 0, adaptive (the filters alone)', (s) =>
    s.png({ compressionLevel: 0, adaptiveFiltering: true }),
  ),
  libvips('png level 1, adaptive', (s) => s.png({ compressionLevel: 1, adaptiveFiltering: true })),
  libvips('png level 3, adaptive (the last setting)', (s) =>
    s.png({ compressionLevel: 3, adaptiveFiltering: true }),
  ),
  libvips('png level 6, adaptive', (s) => s.png({ compressionLevel: 6, adaptiveFiltering: true })),
  ['png: Titlecard (png crate, fast deflate, adaptive)', (s) => encodeCard(s, 'png')],
  [
    'png crate, default deflate, adaptive',
    async (s) =>
      new Transformer(await s.png({ compressionLevel: 0 }).toBuffer()).png({
        compressionType: 0,
        filterType: 5,
      }),
  ],
  libvips('jpeg q85, optimised Huffman (before)', (s) => s.jpeg({ quality: 85 })),
  ['jpeg: Titlecard (q85, standard Huffman)', (s) => encodeCard(s, 'jpeg')],
  libvips('jpeg q85, mozjpeg', (s) => s.jpeg({ quality: 85, mozjpeg: true })),
  libvips('webp q85, effort 4 (before)', (s) => s.webp({ quality: 85 })),
  libvips('webp q85, effort 0', (s) => s.webp({ quality: 85, effort: 0 })),
  libvips('webp q85, effort 1', (s) => s.webp({ quality: 85, effort: 1 })),
  ['webp: Titlecard (q85, effort 2)', (s) => encodeCard(s, 'webp')],
  libvips('webp q85, effort 3', (s) => s.webp({ quality: 85, effort: 3 })),
];

/** WebP of a card with alpha (RGBA): libwebp's alpha plane is what differs. */
const ALPHA_CANDIDATES: Candidate[] = [
  libvips('webp q85, effort 2 (the opaque setting)', (s) => s.webp({ quality: 85, effort: 2 })),
  libvips('webp q85, effort 2, alpha quality 50 (lossy alpha)', (s) =>
    s.webp({ quality: 85, effort: 2, alphaQuality: 50 }),
  ),
  libvips('webp q85, effort 1', (s) => s.webp({ quality: 85, effort: 1 })),
  ['webp: Titlecard with alpha (q85, effort 0)', (s) => encodeCard(s, 'webp', 4)],
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
  const opaque = cards.filter((c) => c.info.channels !== 4);
  const alpha = cards.filter((c) => c.info.channels === 4);
  print(
    `Encoder settings on ${opaque.length} cards of ${WIDTH}×${HEIGHT}: median ms and total KiB over the photos (5 runs each).`,
  );
  await table(opaque, CANDIDATES, print);
  if (alpha.length === 0) return;
  print(`\nWebP of ${alpha.length} card(s) with alpha (the RGBA PNG made from a photo):`);
  await table(alpha, ALPHA_CANDIDATES, print);
}

/** One line per candidate: its median time over `cards` (each the median of 5 runs) and their total size. */
async function table(
  cards: { data: Buffer; info: OutputInfo }[],
  candidates: Candidate[],
  print: (line: string) => void,
): Promise<void> {
  for (const [name, apply] of candidates) {
    const times: number[] = [];
    let bytes = 0;
    for (const { data, info } of cards) {
      const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
      const runs: number[] = [];
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        const out = await apply(sharp(data, raw));
        runs.push(performance.now() - started);
        if (i === 0) bytes += out.length;
      }
      times.push(median(runs));
    }
    print(
      `  ${name.padEnd(50)}${median(times).toFixed(1).padStart(8)} ms${(bytes / 1024).toFixed(0).padStart(9)} KiB`,
    );
  }
}
