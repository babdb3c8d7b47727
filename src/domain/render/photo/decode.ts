/**
 * Decoding the background, once the bytes have passed their checks (checks.ts: the format by its
 * magic numbers, the header before any decoding): the photo is turned upright by its EXIF
 * orientation, converted to sRGB, cover-cropped to the canvas, and leaves here as raw pixels: no
 * metadata (GPS position, camera data) can reach a published image.
 */
import { readFile } from 'node:fs/promises';
import { Semaphore } from 'async-mutex';
import sharp, { type Metadata, type OutputInfo, type Sharp } from 'sharp';
import { ValidationError } from '../../kernel/errors.js';
import { focusCrop } from '../geometry.js';
import { trimFreeMemory } from './malloc-trim.js';
import { checkImage, type SniffedFormat } from './checks.js';
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

/** The centre of the photo as a focus point. */
const CENTRE = { x: 0.5, y: 0.5 };

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
 * With `focus` `auto` on a photo the crop cuts and the detector has not seen, the whole photo is
 * decoded and the crop cut once the detector has looked at it (6 to 8 ms: `npm run bench`, "the look
 * alone").
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
  // A photo seen before has its subjects at hand: its crop is decoded at once, as any other.
  const recalled = await detector.recall(bytes);
  if (recalled) {
    const known = recalled.subjects.catch(() => undefined);
    // A focus given (template auto's `center` or a point) is decoded as given: `center` by
    // libvips' own cover crop, as before.
    const focusOf: Promise<Exclude<Focus, 'auto'>> =
      focus === 'auto'
        ? known.then((s) => subjectFocus(s ?? [], upright.width, upright.height, width, height))
        : Promise.resolve(focus);
    return {
      decoded: focusOf.then((f) => decodeChecked(bytes, format, meta, width, height, f)),
      source,
      subjects: Promise.all([known, focusOf]).then(([s, f]) =>
        s
          ? subjectsOnCard(
              s,
              upright.width,
              upright.height,
              width,
              height,
              typeof f === 'object' ? f : CENTRE,
            )
          : undefined,
      ),
    };
  }
  // One decode (issue 53): the whole photo, from which the detector's small copy is made and the
  // card's crop cut once the subjects are known. The whole is decoded at the cover crop's scale
  // when that shrinks the photo (libvips shrinks on load), at its own size when the crop enlarges
  // it (the crop is then enlarged from those pixels, as libvips would from the file). A second
  // decode for the small copy, even libjpeg's DCT-scaled one, costs its entropy decoding again: a
  // new 20-megapixel JPEG's card took 57 to 59 ms of CPU more than when seen with it, 8 to 20 from
  // the whole (`TITLECARD_PHOTOS=… npm run bench -- --http`). A photo whose whole would
  // be much larger than the card (a panorama on a portrait card), or too small to look at, is
  // looked at small first and then cropped, as a bound on memory.
  const scaled = focusCrop(upright.width, upright.height, width, height, CENTRE).resize;
  // 8-bit photos only: libvips enlarges a 16-bit one before its conversion to 8 bits, which
  // enlarging 8-bit pixels would not match.
  const enlarged = scaled.width > upright.width && meta.depth === 'uchar';
  const wholeSize = enlarged ? upright : scaled;
  const oneDecode =
    focus === 'auto' &&
    wholeSize.width * wholeSize.height <= MAX_WHOLE_SHARE * width * height &&
    Math.max(wholeSize.width, wholeSize.height) >= DETECTION_SIZE;
  // The whole's pixels count against the decode budget until the crop is cut from them.
  let cut = () => {};
  const held = new Promise<void>((resolve) => (cut = resolve));
  const whole = oneDecode
    ? decodeWhole(bytes, format, meta, enlarged ? undefined : wholeSize, {
        bytes: wholeSize.width * wholeSize.height * 4,
        until: held,
      })
    : undefined;
  whole?.catch(() => undefined);
  const small = whole ? () => whole.then(smallCopyOf) : () => smallCopy(bytes, format, meta);
  const found = detector.detect(bytes, small).catch(() => undefined);
  // Only focus auto's crop waits for the subjects; the others start decoding now.
  const point =
    focus === 'auto'
      ? found.then((s) => subjectFocus(s ?? [], upright.width, upright.height, width, height))
      : Promise.resolve(typeof focus === 'object' ? focus : CENTRE);
  let decoded: Promise<DecodedCanvas>;
  if (whole)
    decoded = Promise.all([whole, point])
      .then(([w, p]) => {
        const window = focusCrop(upright.width, upright.height, width, height, p);
        return enlarged ? enlargedCrop(w, window) : cropOf(w, window.extract);
      })
      .finally(cut);
  else
    decoded =
      focus === 'auto'
        ? point.then((p) => decodeChecked(bytes, format, meta, width, height, p))
        : decodeChecked(bytes, format, meta, width, height, focus);
  return {
    decoded,
    source,
    subjects: Promise.all([found, point]).then(([s, p]) =>
      s ? subjectsOnCard(s, upright.width, upright.height, width, height, p) : undefined,
    ),
  };
}

/**
 * Most times the card's area the whole photo may take, as {@link startDecodeCover} decodes it, to be
 * decoded once: a 4:3 or 3:2 photo on a 1.91:1 card takes 1.3 to 1.4, a 2:3 portrait 2.9 (the
 * whole of a 2056 × 3088 photo is 1200 × 1802) and a 9:16 one 3.4. Its pixels then
 * hold at most 12 MB for a 1200 × 630 card (4 bytes a pixel with alpha). Past it, a photo is looked
 * at small and then cropped: two decodes (with 2, the 2:3 portrait's new card took 53 to 62 ms of
 * CPU more than when seen; with 4, 24 to 28; `TITLECARD_PHOTOS=… npm run bench -- --http`).
 */
const MAX_WHOLE_SHARE = 4;

/**
 * The whole upright photo, 8-bit sRGB, scaled to `size` (px: the cover crop's scale, before the
 * crop) or, when undefined, at its own size; decoded within the decode budget as
 * {@link decodeChecked} does, with its errors, its pixels held in the budget as `hold` says.
 */
function decodeWhole(
  bytes: Buffer,
  format: SniffedFormat,
  meta: Metadata,
  size: { width: number; height: number } | undefined,
  hold: Hold,
): Promise<DecodedCanvas> {
  return decodeChecked(bytes, format, meta, size?.width ?? 0, size?.height ?? 0, CENTRE, false, hold);
}

/**
 * How the detector's copy is scaled: stretched to the square, with a linear (triangle) kernel.
 * From a raw 1200 × 800 photo it takes 1.8 ms of CPU instead of libvips' default lanczos3's 3.0,
 * with alpha 4.5 instead of 6.1 (sharp alone, medians of 40), and the detector finds the same
 * subjects in both kernels' copies of the photos of test/fixtures/photos, test/fixtures/subjects
 * and the full-size originals: the same kinds, boxes at an IoU of 0.93 to 1, scores within 0.06
 * (docs/performance.md, "Subject detection").
 */
const COPY_RESIZE = { fit: 'fill', kernel: 'linear' } as const;

/** The detector's copy ({@link SmallCopy}) of a decoded photo. */
async function smallCopyOf(whole: DecodedCanvas): Promise<SmallCopy> {
  const raw = { raw: { width: whole.width, height: whole.height, channels: whole.channels } };
  const data = await sharp(whole.pixels, raw)
    .resize(DETECTION_SIZE, DETECTION_SIZE, COPY_RESIZE)
    .removeAlpha()
    .raw()
    .toBuffer();
  return { data, photo: { width: whole.width, height: whole.height } };
}

/**
 * The card's crop of an 8-bit photo decoded at its own size that the crop enlarges: `window`
 * (focusCrop's) scaled and cut as {@link decodeChecked} does from the file, by libvips on those
 * pixels, to the same pixels. Throws Error (a fault of ours) when libvips fails on them.
 */
async function enlargedCrop(
  whole: DecodedCanvas,
  window: ReturnType<typeof focusCrop>,
): Promise<DecodedCanvas> {
  const raw = { raw: { width: whole.width, height: whole.height, channels: whole.channels } };
  const { data, info } = await cutWindow(sharp(whole.pixels, raw), window)
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  return { pixels: data, width: info.width, height: info.height, channels: whole.channels };
}

/**
 * `pipeline` scaled and cut to `window` (focusCrop's): the one way a card's crop is cut, from the
 * file ({@link decodeChecked}) or from a whole decoded at its own size ({@link enlargedCrop}), so
 * that both give the same pixels. extract after resize crops the resized image (sharp's
 * post-resize extraction).
 */
function cutWindow(pipeline: Sharp, window: ReturnType<typeof focusCrop>): Sharp {
  return pipeline.resize(window.resize.width, window.resize.height, { fit: 'fill' }).extract(window.extract);
}

/** The `rect` of `canvas`, its rows copied out; throws (a fault of ours) when `rect` is not inside it. */
function cropOf(canvas: DecodedCanvas, rect: { left: number; top: number; width: number; height: number }) {
  const { channels } = canvas;
  if (
    rect.left < 0 ||
    rect.top < 0 ||
    rect.left + rect.width > canvas.width ||
    rect.top + rect.height > canvas.height
  )
    throw new Error(`crop ${JSON.stringify(rect)} outside the ${canvas.width}×${canvas.height} photo`);
  const row = rect.width * channels;
  const pixels = Buffer.allocUnsafe(row * rect.height);
  for (let y = 0; y < rect.height; y++) {
    const from = ((rect.top + y) * canvas.width + rect.left) * channels;
    canvas.pixels.copy(pixels, y * row, from, from + row);
  }
  return { pixels, width: rect.width, height: rect.height, channels };
}

/**
 * The detector's copy ({@link SmallCopy}) of the photo `bytes`, decoded within the decode budget as
 * the card's own decode is (a JPEG's with libjpeg's DCT scaling: sharp shrinks on load): for
 * the photos {@link startDecodeCover} does not decode whole, and {@link findSubjects}.
 */
async function smallCopy(bytes: Buffer, format: SniffedFormat, meta: Metadata): Promise<SmallCopy> {
  decodeStarts.run('small');
  const data = await decodeBudget.runExclusive(
    () =>
      sharp(bytes, { failOn: 'warning', limitInputPixels: MAX_INPUT_PIXELS })
        .rotate()
        .resize(DETECTION_SIZE, DETECTION_SIZE, COPY_RESIZE)
        .removeAlpha()
        .toColourspace('srgb')
        .raw()
        .toBuffer(),
    budgetShare(decodeMemory(format, meta)),
  );
  const quarter = (meta.orientation ?? 1) >= 5;
  const [width, height] = [meta.width ?? 1, meta.height ?? 1];
  return { data, photo: quarter ? { width: height, height: width } : { width, height } };
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

/** Formats a link-preview image may be (the platforms show GIF too, its first frame). */
const PREVIEW_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif']);

/**
 * What an image fetched from elsewhere is (the link-preview check's, src/domain/link-previews): its
 * format and its size in px upright (EXIF orientations 5 to 8 swap the sides), from its header;
 * and, when it may be decoded (at most {@link MAX_INPUT_PIXELS} and {@link MAX_ASPECT_RATIO}:1), a
 * copy for people to look at, within `keepSide` px on each side, upright, flattened on white, JPEG
 * quality 85, decoded within the decode budget as cards are. Undefined for bytes that are not a
 * JPEG, PNG, WebP or GIF image libvips reads (HTML, SVG, TIFF, a truncated file).
 */
export async function inspectImage(
  bytes: Buffer,
  keepSide: number,
): Promise<{ format: string; width: number; height: number; kept?: Buffer } | undefined> {
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    return undefined;
  }
  if (!PREVIEW_FORMATS.has(meta.format)) return undefined;
  const quarter = (meta.orientation ?? 1) >= 5;
  const [w, h] = [meta.width ?? 1, meta.height ?? 1];
  const facts = { format: meta.format, width: quarter ? h : w, height: quarter ? w : h };
  if (w * h > MAX_INPUT_PIXELS || Math.max(w, h) > MAX_ASPECT_RATIO * Math.min(w, h)) return facts;
  try {
    const kept = await decodeBudget.runExclusive(
      () =>
        sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, pages: 1, failOn: 'error' })
          .rotate()
          .resize(keepSide, keepSide, { fit: 'inside', withoutEnlargement: true })
          .flatten({ background: '#ffffff' })
          .jpeg({ quality: 85 })
          .toBuffer(),
      budgetShare(decodeMemory(meta.format === 'jpeg' ? 'jpeg' : 'png', meta)),
    );
    return { ...facts, kept };
  } catch {
    return undefined;
  }
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

/** A decode's share of the budget for `bytes`: whole MiB, at least 1, at most the whole budget. */
const budgetShare = (bytes: number) => Math.max(1, Math.ceil(Math.min(DECODE_MEMORY_BUDGET, bytes) / MIB));

/**
 * What runs before a large decode ({@link LARGE_DECODE_MIB}): the allocator trim. A seam for the
 * test that counts the calls (test/render/decode-trim.test.ts) without mocking the module.
 */
export const beforeLargeDecode = { run: trimFreeMemory };

/**
 * What runs as a file's decode starts: `crop` the card's crop, `whole` the whole photo (the one
 * decode of a photo the detector has not seen), `small` the detector's copy decoded on its own.
 * Nothing in the service; a seam for the test that counts a card's decodes (decode.test.ts).
 */
export const decodeStarts = { run: (_kind: 'crop' | 'whole' | 'small'): void => undefined };

/** A decode's output kept past it: its `bytes` count against the budget until `until` settles. */
interface Hold {
  bytes: number;
  until: Promise<void>;
}

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

/**
 * The decode of {@link decodeCover}, on bytes that passed {@link checkImage}; with `crop` false
 * (and `focus` a point), the whole photo scaled to `width × height`, or at its own size for 0 × 0.
 * Its share of the decode budget is {@link decodeMemory}'s estimate, plus `hold.bytes` kept until
 * `hold.until` settles.
 */
async function decodeChecked(
  bytes: Buffer,
  format: SniffedFormat,
  meta: Metadata,
  width: number,
  height: number,
  focus: Exclude<Focus, 'auto'>,
  crop = true,
  hold?: Hold,
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
      const window = focusCrop(quarter ? h : w, quarter ? w : h, width, height, focus);
      if (crop) pipeline = cutWindow(pipeline, window);
      else if (width > 0)
        // The whole as the crop's window: with an extract, sharp turns a quarter-turned photo
        // before scaling it, as for the crop; without one, after (2 levels apart on some pixels).
        pipeline = pipeline
          .resize(width, height, { fit: 'fill' })
          .extract({ left: 0, top: 0, width, height });
    } else
      pipeline = pipeline.resize(width, height, {
        fit: 'cover',
        position: focus === 'attention' ? sharp.strategy.attention : 'centre',
      });
    const estimate = decodeMemory(format, meta);
    const [, release] = await decodeBudget.acquire(budgetShare(estimate + (hold?.bytes ?? 0)));
    let out: { data: Buffer; info: OutputInfo } | undefined;
    try {
      // A large decode's memory comes on top of the pages the allocator holds free: give those back.
      if (budgetShare(estimate) >= LARGE_DECODE_MIB) beforeLargeDecode.run();
      decodeStarts.run(crop ? 'crop' : 'whole');
      out = await pipeline
        .toColourspace('srgb')
        .raw({ depth: 'uchar' })
        .toBuffer({ resolveWithObject: true });
    } finally {
      if (out && hold) hold.until.then(release, release);
      else release();
    }
    const { data, info } = out;
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
