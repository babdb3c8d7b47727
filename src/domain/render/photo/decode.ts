/**
 * Decoding the background: the bytes decide the format (magic numbers), never the Content-Type or the
 * file name; only JPEG, PNG and WebP pass (docs/api.md#generate-options). The header is read before any decoding, so a
 * decompression bomb is refused without being decoded. Then the photo is turned upright by its EXIF
 * orientation, converted to sRGB, cover-cropped to the canvas, and leaves here as raw pixels: no
 * metadata (GPS position, camera data) can reach a published image.
 */
import { readFile } from 'node:fs/promises';
import { Semaphore } from 'async-mutex';
import sharp, { type Metadata } from 'sharp';
import { ValidationError } from '../../kernel/errors.js';
import { focusCrop } from '../geometry.js';
import { trimFreeMemory } from './malloc-trim.js';
import {
  DETECTION_SIZE,
  processSubjectDetector,
  type PlacedSubject,
  type SmallCopy,
  type Subject,
  type SubjectDetector,
  subjectFocus,
  subjectsOnCard,
} from './subjects.js';
import {
  DECODE_MEMORY_BUDGET,
  LARGE_DECODE_MIB,
  MAX_ASPECT_RATIO,
  MAX_INPUT_PIXELS,
  UPSCALE_NOTICE,
} from '../limits.js';

export type ImageInput = Buffer | { path: string };

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

export interface DecodedCanvas {
  /** 8-bit sRGB, row-major, `channels` per pixel. */
  pixels: Buffer;
  width: number;
  height: number;
  /** 4 when the input has an alpha channel (kept for PNG and WebP output), else 3. */
  channels: 3 | 4;
}

/**
 * What the cover crop keeps in frame (`focus` of generateOptionsSchema): `auto` the subjects found
 * (subjects.ts), else the centre.
 */
export type Focus = 'auto' | 'center' | 'attention' | { x: number; y: number };

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

/**
 * Checks the input and returns it cover-cropped to `width × height`, keeping `focus` in frame
 * (default the centre).
 * Throws {@link ValidationError} on field `image`: `format` for anything but a decodable JPEG, PNG or
 * WebP (wrong type, corrupt, truncated), `max` for more than {@link MAX_INPUT_PIXELS} pixels.
 */
export async function decodeCover(
  input: ImageInput,
  width: number,
  height: number,
  focus: Exclude<Focus, 'auto'> = 'center',
): Promise<DecodedCanvas> {
  return (await startDecodeCover(input, width, height, focus)).decoded;
}

/**
 * {@link decodeCover} in two steps: resolves once the input has passed its checks and libvips has
 * started decoding it, to the decode under way (`decoded`, which rejects as decodeCover does).
 * The renderer lays its text out only then: each step of the decode's start (reading the file, the
 * header's metadata, starting the pipeline) waits for the main thread, so laying out first would
 * delay the decode's start by about three times (1.2 ms at the median, measured beside each other).
 * With `focus` `auto` on a photo the crop cuts, the decode starts only once the subject detector
 * has looked (subjects.ts: 0.1 to 0.2 s for a photo not seen before, a hash for one seen).
 * Throws {@link ValidationError} on field `image` as decodeCover does for what the checks find.
 */
export async function startDecodeCover(
  input: ImageInput,
  width: number,
  height: number,
  focus: Focus = 'center',
  options: { subjects?: boolean; detector?: SubjectDetector } = {},
): Promise<{
  decoded: Promise<DecodedCanvas>;
  source: CoverSource;
  /**
   * With `focus` `auto` or `options.subjects`: the subjects on the card (subjects.ts); undefined
   * when not looked for, or when the detector was busy or failed (the crop is then centred).
   */
  subjects: Promise<PlacedSubject[] | undefined>;
}> {
  // The file is read once (at most 10 MB): the format sniffing, the end check and the decoder all
  // use these bytes.
  const bytes = Buffer.isBuffer(input) ? input : await readFile(input.path);
  const { format, meta } = await checkImage(bytes);
  // EXIF orientations 5 to 8 turn the photo a quarter: its upright width is the stored height.
  const quarter = (meta.orientation ?? 1) >= 5;
  const upright = quarter
    ? { width: meta.height ?? 0, height: meta.width ?? 0 }
    : { width: meta.width ?? 0, height: meta.height ?? 0 };
  const source = { ...upright, scale: coverScale(upright.width, upright.height, width, height) };
  // focus auto needs the subjects only when the crop cuts something off (1% or more of a side);
  // template auto (`options.subjects`) always, but not with an `attention` crop, whose window is
  // libvips' to choose and so cannot place them.
  const cuts = Math.abs(upright.width / upright.height - width / height) > 0.01 * (width / height);
  const wanted = focus === 'auto' ? cuts || options.subjects : options.subjects && focus !== 'attention';
  if (!wanted)
    return {
      decoded: decodeChecked(bytes, format, meta, width, height, focus === 'auto' ? 'center' : focus),
      source,
      subjects: Promise.resolve(undefined),
    };
  // A detector that is busy or fails leaves the crop centred (or as asked).
  const detector = options.detector ?? processSubjectDetector();
  const found = detector.detect(bytes, () => smallCopy(bytes, format, meta)).catch(() => undefined);
  // Only focus auto's crop waits for the subjects; the others start decoding now.
  const point =
    focus === 'auto'
      ? found.then((s) => subjectFocus(s ?? [], upright.width, upright.height, width, height))
      : Promise.resolve(typeof focus === 'object' ? focus : { x: 0.5, y: 0.5 });
  return {
    decoded:
      focus === 'auto'
        ? point.then((p) => decodeChecked(bytes, format, meta, width, height, p))
        : decodeChecked(bytes, format, meta, width, height, focus),
    source,
    subjects: Promise.all([found, point]).then(([s, p]) =>
      s ? subjectsOnCard(s, upright.width, upright.height, width, height, p) : undefined,
    ),
  };
}

/**
 * The copy of the upright photo the subject detector looks at ({@link DETECTION_SIZE} px on its
 * long side, sRGB), decoded within the decode budget, as the card's own decode is.
 */
function smallCopy(bytes: Buffer, format: SniffedFormat, meta: Metadata): Promise<SmallCopy> {
  const mib = Math.ceil(Math.min(DECODE_MEMORY_BUDGET, decodeMemory(format, meta)) / MIB);
  return decodeBudget.runExclusive(
    () =>
      sharp(bytes, { failOn: 'warning', limitInputPixels: MAX_INPUT_PIXELS })
        .rotate()
        .resize(DETECTION_SIZE, DETECTION_SIZE, { fit: 'inside' })
        .removeAlpha()
        .toColourspace('srgb')
        .raw()
        .toBuffer({ resolveWithObject: true }),
    Math.max(1, mib),
  );
}

/**
 * The faces, people, cats and dogs in an image (subjects.ts), as `focus` `auto` finds them, for the
 * tests and scripts; undefined when the detector is busy or failed. `cacheKey`: the bytes the
 * detector's cache knows the photo by (default `bytes`; the benchmark gives each run a new one);
 * `detector` default the process's ({@link processSubjectDetector}).
 * Throws {@link ValidationError} as {@link checkImage} does.
 */
export async function findSubjects(
  bytes: Buffer,
  cacheKey: Buffer = bytes,
  detector: SubjectDetector = processSubjectDetector(),
): Promise<Subject[] | undefined> {
  const { format, meta } = await checkImage(bytes);
  return detector.detect(cacheKey, () => smallCopy(bytes, format, meta));
}

/** The photo a cover crop starts from: its upright size, px, and how much the crop enlarges it. */
export interface CoverSource {
  width: number;
  height: number;
  /** {@link coverScale}: above 1 the photo is enlarged (2 = each photo pixel covers 2 × 2). */
  scale: number;
}

/**
 * The factor a cover crop scales a `sourceWidth × sourceHeight` photo by to fill `width × height`
 * (the larger of the two ratios: the crop covers both sides), rounded to 2 decimals; 0 for an
 * empty photo.
 */
export function coverScale(sourceWidth: number, sourceHeight: number, width: number, height: number): number {
  if (sourceWidth <= 0 || sourceHeight <= 0) return 0;
  return Math.round(Math.max(width / sourceWidth, height / sourceHeight) * 100) / 100;
}

/** The notice for a photo enlarged past {@link UPSCALE_NOTICE}; undefined below it. */
export function upscaleNotice(source: CoverSource, width: number, height: number): string | undefined {
  if (source.scale <= UPSCALE_NOTICE) return undefined;
  // ASCII only: it travels in a header too (Titlecard-Warning).
  return `The background (${source.width}x${source.height} px) was enlarged ${source.scale} times to cover the ${width}x${height} card, so it looks soft: a photo of at least ${width}x${height} px makes a sharp card.`;
}

// Counted in MiB: async-mutex's semaphore walks its value when it wakes waiters, and a value in
// bytes made each decode take ten times as long.
const MIB = 2 ** 20;
const decodeBudget = new Semaphore(DECODE_MEMORY_BUDGET / MIB);

/**
 * What runs before a large decode ({@link LARGE_DECODE_MIB}): the allocator trim. A seam for the
 * test that counts the calls (test/render/decode-trim.test.ts) without mocking the module.
 */
export const beforeLargeDecode = { run: trimFreeMemory };

/**
 * Bytes a cover-crop decode holds at its peak, from the header, as measured with libvips (growth of
 * the high-water resident memory, one decode in a fresh process): a progressive JPEG or interlaced
 * PNG is decoded whole before it can be shrunk (about 4 bytes a pixel: 59 MB for 13.4 megapixels);
 * a non-interlaced PNG streams its rows (18 MB for 8.3 megapixels); a baseline JPEG and a WebP
 * shrink while they load (8 MB for 20 megapixels, 5 MB as a WebP).
 */
export function decodeMemory(format: SniffedFormat, meta: Metadata): number {
  const pixels = (meta.width ?? 0) * (meta.height ?? 0);
  if (meta.isProgressive) return pixels * 4;
  return pixels * (format === 'png' ? 2.2 : 0.5);
}

/** The decode of {@link decodeCover}, on bytes that passed {@link checkImage}. */
async function decodeChecked(
  bytes: Buffer,
  format: SniffedFormat,
  meta: Metadata,
  width: number,
  height: number,
  focus: Exclude<Focus, 'auto'>,
): Promise<DecodedCanvas> {
  const w = meta.width ?? 0;
  const h = meta.height ?? 0;
  try {
    // failOn 'warning': libvips' warnings include "premature end of JPEG file", which a header that
    // claims more rows than the data holds gives; at 'error' such a file became a flat grey card.
    let pipeline = sharp(bytes, { failOn: 'warning', limitInputPixels: MAX_INPUT_PIXELS }).rotate();
    if (typeof focus === 'object') {
      // EXIF orientations 5 to 8 turn the photo a quarter: its upright width is the stored height.
      const quarter = (meta.orientation ?? 1) >= 5;
      const crop = focusCrop(quarter ? h : w, quarter ? w : h, width, height, focus);
      // extract after resize crops the resized image (sharp's post-resize extraction).
      pipeline = pipeline
        .resize(crop.resize.width, crop.resize.height, { fit: 'fill' })
        .extract(crop.extract);
    } else
      pipeline = pipeline.resize(width, height, {
        fit: 'cover',
        position: focus === 'attention' ? sharp.strategy.attention : 'centre',
      });
    const mib = Math.ceil(Math.min(DECODE_MEMORY_BUDGET, decodeMemory(format, meta)) / MIB);
    const { data, info } = await decodeBudget.runExclusive(
      () => {
        // A large decode's memory comes on top of the pages the allocator holds free: give those back.
        if (mib >= LARGE_DECODE_MIB) beforeLargeDecode.run();
        return pipeline.toColourspace('srgb').raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
      },
      Math.max(1, mib),
    );
    if (info.channels !== 3 && info.channels !== 4) throw new Error(`unexpected ${info.channels} channels`);
    return { pixels: data, width: info.width, height: info.height, channels: info.channels };
  } catch (err) {
    throw new ValidationError(
      'image',
      'format',
      `Expected a decodable ${format.toUpperCase()} image for image but it is corrupt or truncated (${(err as Error).message.split('\n')[0] ?? 'unreadable'})`,
    );
  }
}
