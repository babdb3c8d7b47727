/**
 * An uploaded image as it is stored (an asset: a background, a logo, a template's image): upright
 * by its EXIF orientation, in sRGB, in its own format, so PNG and WebP keep their alpha channel (a
 * logo's transparency), and with no metadata (GPS position, camera data).
 */
import sharp, { type OutputInfo } from 'sharp';
import { ValidationError } from '../../kernel/errors.js';
import { MAX_INPUT_PIXELS } from '../limits.js';
import type { SniffedFormat } from './checks.js';

/**
 * `bytes`, of format `format` (already sniffed by `checkImage`), re-encoded for storage: PNG at
 * compression level 6, WebP and JPEG at `quality` (1 to 100; WebP's alpha lossless). Answers the
 * bytes and their size in px. Throws ValidationError (field `image`) for a corrupt or truncated
 * image (libvips' first line in the message).
 */
export async function storedUpload(
  bytes: Buffer,
  format: SniffedFormat,
  quality: number,
): Promise<{ body: Buffer; width: number; height: number }> {
  try {
    const pipeline = sharp(bytes, { failOn: 'warning', limitInputPixels: MAX_INPUT_PIXELS })
      .rotate()
      .toColourspace('srgb');
    const encoded =
      format === 'png'
        ? pipeline.png({ compressionLevel: 6 })
        : format === 'webp'
          ? pipeline.webp({ quality, alphaQuality: 100 })
          : pipeline.jpeg({ quality });
    const { data, info }: { data: Buffer; info: OutputInfo } = await encoded.toBuffer({
      resolveWithObject: true,
    });
    return { body: data, width: info.width, height: info.height };
  } catch (err) {
    throw new ValidationError(
      'image',
      'format',
      `Expected a decodable ${format.toUpperCase()} image for image but it is corrupt or truncated (${(err as Error).message.split('\n')[0] ?? 'unreadable'})`,
    );
  }
}

/**
 * The size of an image in px as its header states it (before EXIF orientation): a logo's, already
 * checked as an upload. 1 for a dimension the header leaves out; rejects with sharp's own error for
 * bytes it cannot read (a fault: stored uploads were checked).
 */
export async function imageSize(bytes: Buffer): Promise<{ width: number; height: number }> {
  const meta = await sharp(bytes).metadata();
  return { width: meta.width ?? 1, height: meta.height ?? 1 };
}
