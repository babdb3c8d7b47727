/**
 * Encoding: the card and its thumbnail in the requested format (docs/api.md#generate-options `fileFormat`), from the
 * blended pixels. PNG through @napi-rs/image (the Rust `png` crate), JPEG and WebP through libvips.
 */
import { type PngEncodeOptions, Transformer } from '@napi-rs/image';
import sharp, { type Sharp } from 'sharp';
import type { FileFormat } from '../../design.js';

/** Quality of jpeg and webp output (docs/api.md#generate-options). */
export const LOSSY_QUALITY = 85;
/** Thumbnail width in px; the height follows the aspect (og 400×210, square 400×400, portrait 400×500). */
export const THUMBNAIL_WIDTH = 400;

/**
 * Encoder settings, chosen by speed and size on 1200×630 cards from the photos of
 * the full-size fixture photographs (`npm run bench -- --encoders` prints the table; docs/performance.md):
 * - PNG: the Rust `png` crate (through @napi-rs/image) with its fast deflate and adaptive filters:
 *   about a fifth of libvips' time at zlib level 3, for 1% more bytes.
 * - JPEG: quality {@link LOSSY_QUALITY} with libjpeg's standard Huffman tables: optimised tables
 *   save 1.7% of the bytes and take 2.3 times as long.
 * - WebP: quality {@link LOSSY_QUALITY} at effort (libwebp method) 2: half the time of the default
 *   effort 4 for 2.4% more bytes. With an alpha channel, effort 0: libwebp compresses the alpha
 *   plane losslessly, and above effort 0 it tries its alpha filters one by one; a 1200×630 card
 *   with alpha took 67 ms of CPU at effort 2 (31 without the alpha), 27 at effort 0, for 16% more
 *   bytes (58 → 67 KiB; `npm run bench -- --encoders`).
 */
export const ENCODER_SETTINGS = {
  // CompressionType.Fast (1) and FilterType.Adaptive (5) by number: @napi-rs/image 1.15 declares
  // both enums in its types but exports them as empty objects, so `CompressionType.Fast` would be
  // undefined at run time and leave its defaults (no filter, zlib's default level: 53% larger).
  png: { compressionType: 1, filterType: 5 } satisfies PngEncodeOptions,
  jpeg: { quality: LOSSY_QUALITY, optimiseCoding: false },
  webp: { quality: LOSSY_QUALITY, effort: 2 },
  webpWithAlpha: { quality: LOSSY_QUALITY, effort: 0 },
} as const;

/**
 * Encodes a pipeline's pixels as a card in `format` ({@link ENCODER_SETTINGS}); JPEG is flattened
 * onto white (no alpha). PNG goes from libvips to @napi-rs/image as a stored PNG (zlib level 0, no
 * filters: about 3 ms), which keeps the channels (RGB, or RGBA for a photo with alpha). Both encode
 * on libuv's thread pool; the call that starts @napi-rs/image's task takes 0.05 ms on the main
 * thread at the median and up to 5 ms (40 calls on a 1200×630 card). `channels` is the pipeline's
 * (4 with alpha; default 3). Rejects as the pipeline does (an undecodable input).
 */
export async function encodeCard(pipeline: Sharp, format: FileFormat, channels: 3 | 4 = 3): Promise<Buffer> {
  switch (format) {
    case 'png': {
      const stored = await pipeline.png({ compressionLevel: 0 }).toBuffer();
      return new Transformer(stored).png(ENCODER_SETTINGS.png);
    }
    case 'jpeg':
      return pipeline.flatten({ background: '#ffffff' }).jpeg(ENCODER_SETTINGS.jpeg).toBuffer();
    case 'webp':
      return pipeline
        .webp(channels === 4 ? ENCODER_SETTINGS.webpWithAlpha : ENCODER_SETTINGS.webp)
        .toBuffer();
  }
}

/** How {@link encodeForDisplay} shows a card to a person: a JPEG, flattened onto white. */
export interface DisplayEncoding {
  /** JPEG quality, 1 to 100. */
  quality: number;
  /** Scaled to this width, px, the height following (the playground's 600); default its own size. */
  width?: number | undefined;
  /** Scaled down, never up, to fit this many px on each side (an assistant's 1568). */
  maxSide?: number | undefined;
  /**
   * Most bytes the JPEG may have: the quality is lowered in steps of 15, not below 35, until it
   * fits (an assistant's inline image, about 100 KB). Default no limit.
   */
  maxBytes?: number | undefined;
  /** mozjpeg's settings: about a tenth smaller, slower (the studio's large view). */
  mozjpeg?: boolean | undefined;
}

/** Lowest quality {@link DisplayEncoding.maxBytes} lowers to, and its step. */
const DISPLAY_QUALITY_FLOOR = 35;
const DISPLAY_QUALITY_STEP = 15;

/**
 * A card (PNG, JPEG or WebP bytes) re-encoded for a person to look at: the playground's preview,
 * an assistant's inline image, the studio's large view. Answers the JPEG and its size in px.
 * Rejects as libvips does for bytes that are not an image (a fault: cards are ours).
 */
export async function encodeForDisplay(
  image: Buffer,
  { quality, width, maxSide, maxBytes, mozjpeg = false }: DisplayEncoding,
): Promise<{ body: Buffer; width: number; height: number }> {
  let pipeline = sharp(image);
  if (width !== undefined) pipeline = pipeline.resize(width);
  else if (maxSide !== undefined)
    pipeline = pipeline.resize(maxSide, maxSide, { fit: 'inside', withoutEnlargement: true });
  const pixels = await pipeline
    .flatten({ background: '#ffffff' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: pixels.info.width, height: pixels.info.height, channels: 3 as const } };
  let q = quality;
  for (;;) {
    const body = await sharp(pixels.data, raw).jpeg({ quality: q, mozjpeg }).toBuffer();
    if (maxBytes === undefined || body.length <= maxBytes || q - DISPLAY_QUALITY_STEP < DISPLAY_QUALITY_FLOOR)
      return { body, width: pixels.info.width, height: pixels.info.height };
    q -= DISPLAY_QUALITY_STEP;
  }
}
