/**
 * The checks of an uploaded image, on its bytes, before any decoding: the bytes decide the format
 * (magic numbers), never the Content-Type or the file name; only JPEG, PNG and WebP pass
 * (docs/api.md#generate-options). The header is read first, so a decompression bomb is refused
 * without being decoded, and a file cut short is refused though a crop would not reach its end.
 */
import sharp, { type Metadata } from 'sharp';
import { ValidationError } from '../../kernel/errors.js';
import { MAX_ASPECT_RATIO, MAX_INPUT_PIXELS } from '../limits.js';

export type SniffedFormat = 'jpeg' | 'png' | 'webp';

/** Format from the first bytes (JPEG FF D8 FF, PNG signature, RIFF…WEBP), or a name for the message. */
export function sniff(head: Buffer): { format: SniffedFormat } | { other: string } {
  const ascii = (from: number, to: number) => head.subarray(from, to).toString('latin1');
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return { format: 'jpeg' };
  if (
    head.length >= 8 &&
    head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return { format: 'png' };
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return { format: 'webp' };
  if (ascii(0, 4) === 'GIF8') return { other: 'a GIF image' };
  if (ascii(0, 4) === 'II*\u0000' || ascii(0, 4) === 'MM\u0000*') return { other: 'a TIFF image' };
  if (ascii(4, 8) === 'ftyp')
    return { other: `an ISO media file (${ascii(8, 12).trim()}, e.g. HEIC or AVIF)` };
  if (/^\s*(<\?xml|<svg|<!DOCTYPE svg)/i.test(ascii(0, 64))) return { other: 'an SVG document' };
  if (head.length === 0) return { other: 'an empty file' };
  return { other: 'data of an unknown format' };
}

/**
 * Where the end marker of a JPEG is: after the top-level segments (APP, DQT, SOF… each with its
 * length), the first SOS starts the entropy-coded data, which cannot contain FF D9 (a data byte FF
 * is always followed by 00 or a restart marker), so the first FF D9 after it is the end of the
 * image; data a camera appends after it (a motion photo's video) does not matter. -1 when missing.
 */
function jpegEnd(data: Buffer): number {
  let at = 2;
  while (at + 4 <= data.length && data[at] === 0xff) {
    const marker = data[at + 1] as number;
    if (marker === 0xda) return data.indexOf(Buffer.from([0xff, 0xd9]), at);
    if (marker === 0xff) {
      at++;
      continue;
    }
    at += 2 + data.readUInt16BE(at + 2);
  }
  return -1;
}

/** Walks the PNG chunks (length, type, data, CRC) to IEND; false when the file ends first. */
function pngComplete(data: Buffer): boolean {
  let at = 8;
  while (at + 8 <= data.length) {
    const length = data.readUInt32BE(at);
    if (data.toString('latin1', at + 4, at + 8) === 'IEND') return at + 12 <= data.length;
    at += 12 + length;
  }
  return false;
}

/**
 * Whether the file holds a whole image as its format defines one: a JPEG's end marker after its
 * scans, a PNG's chunks through IEND, a WebP's bytes as many as its RIFF header declares. Decoders
 * read only the rows a crop needs, so a file cut short below them would otherwise pass.
 */
function endsWhole(data: Buffer, format: SniffedFormat): boolean {
  if (format === 'jpeg') return jpegEnd(data) >= 0;
  if (format === 'png') return pngComplete(data);
  return data.length >= 12 && data.readUInt32LE(4) + 8 <= data.length;
}

/**
 * The checks of an uploaded image (docs/api.md#generate-options), on its bytes: a JPEG, PNG or WebP by its
 * magic numbers, a readable header, at most {@link MAX_INPUT_PIXELS} pixels and
 * {@link MAX_ASPECT_RATIO}:1, and the whole file present. Throws {@link ValidationError} on `field`
 * (default `image`; an MCP tool names its own argument, `imageBase64` or `imagePath`), `format` or
 * `max`; answers the format and the header's metadata.
 */
export async function checkImage(
  bytes: Buffer,
  field = 'image',
): Promise<{ format: SniffedFormat; meta: Metadata }> {
  const sniffed = sniff(bytes.subarray(0, 64));
  if ('other' in sniffed)
    throw new ValidationError(
      field,
      'format',
      `Expected a JPEG, PNG or WebP image for ${field} but received ${sniffed.other}`,
    );
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new ValidationError(
      field,
      'format',
      `Expected a decodable ${sniffed.format.toUpperCase()} image for ${field} but its header is corrupt`,
    );
  }
  const w = meta.width ?? 0;
  const h = meta.height ?? 0;
  if (w * h > MAX_INPUT_PIXELS)
    throw new ValidationError(
      field,
      'max',
      `Expected an image of at most ${MAX_INPUT_PIXELS / 1e6} megapixels for ${field} but received ${w}×${h}`,
    );
  if (Math.max(w, h) > MAX_ASPECT_RATIO * Math.max(1, Math.min(w, h)))
    throw new ValidationError(
      field,
      'max',
      `Expected an image with an aspect ratio of at most ${MAX_ASPECT_RATIO}:1 for ${field} but received ${w}×${h}`,
    );
  if (!endsWhole(bytes, sniffed.format))
    throw new ValidationError(
      field,
      'format',
      `Expected a decodable ${sniffed.format.toUpperCase()} image for ${field} but it is corrupt or truncated (the file ends before its end marker)`,
    );
  return { format: sniffed.format, meta };
}
