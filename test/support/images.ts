/**
 * Test images: the real photographs of test/fixtures/photos (photos.ts), synthetic backgrounds made with
 * sharp, and probes that measure where the text's ink is in an output.
 */
import sharp from 'sharp';

import { photo, type PhotoFile } from './photos.js';

export { PHOTO_FILES, PHOTOS_DIR, photo, type PhotoFile } from './photos.js';

/**
 * Photograph `name` enlarged to `width`×`height` (a cover crop) in `format`: the large inputs of
 * the decode budget and allocator tests, made from the repository's downsized photos. JPEGs are
 * progressive or baseline as asked; PNGs non-interlaced.
 */
export async function enlarged(
  name: PhotoFile,
  width: number,
  height: number,
  format: 'jpeg' | 'png',
  { progressive = false } = {},
): Promise<Buffer> {
  const resized = sharp(photo(name)).resize(width, height);
  return format === 'png' ? resized.png().toBuffer() : resized.jpeg({ progressive }).toBuffer();
}

/** A plain background of one colour. */
export async function solid(
  rgb: [number, number, number],
  format: 'png' | 'jpeg' | 'webp' = 'png',
  width = 1600,
  height = 1000,
): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } })
    .toFormat(format)
    .toBuffer();
}

export interface Decoded {
  data: Buffer;
  width: number;
  height: number;
  channels: number;
  format: string | undefined;
  hasAlpha: boolean;
}

export async function decode(image: Buffer): Promise<Decoded> {
  const meta = await sharp(image).metadata();
  const { data, info } = await sharp(image).raw().toBuffer({ resolveWithObject: true });
  return {
    data,
    width: info.width,
    height: info.height,
    channels: info.channels,
    format: meta.format,
    hasAlpha: meta.hasAlpha ?? false,
  };
}

export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
  /** Pixels counted. */
  count: number;
}

/** `box` grown to hold pixel (x, y), counted; a new box when there is none yet. */
function grow(box: Box | undefined, x: number, y: number): Box {
  if (!box) return { left: x, top: y, right: x, bottom: y, count: 1 };
  box.left = Math.min(box.left, x);
  box.right = Math.max(box.right, x);
  box.top = Math.min(box.top, y);
  box.bottom = Math.max(box.bottom, y);
  box.count++;
  return box;
}

/**
 * Bounding box of the pixels that differ from `background` by more than `threshold` (max channel
 * difference), inside an optional region. Undefined when there are none.
 */
export function inkBox(
  img: Decoded,
  background: [number, number, number],
  threshold = 60,
  region?: { x0: number; x1: number; y0?: number; y1?: number },
): Box | undefined {
  const x0 = region?.x0 ?? 0;
  const x1 = region?.x1 ?? img.width;
  const y0 = region?.y0 ?? 0;
  const y1 = region?.y1 ?? img.height;
  let box: Box | undefined;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = (y * img.width + x) * img.channels;
      const d = Math.max(
        Math.abs((img.data[i] as number) - background[0]),
        Math.abs((img.data[i + 1] as number) - background[1]),
        Math.abs((img.data[i + 2] as number) - background[2]),
      );
      if (d > threshold) box = grow(box, x, y);
    }
  }
  return box;
}

export function pixel(img: Decoded, x: number, y: number): number[] {
  const i = (y * img.width + x) * img.channels;
  return [...img.data.subarray(i, i + img.channels)];
}

/** Mean colour of the pixels of `img` where the ink mask (differs from `background`) is set. */
export function meanInkColour(img: Decoded, background: [number, number, number], threshold = 100): number[] {
  const sum = [0, 0, 0];
  let n = 0;
  for (let i = 0; i < img.width * img.height; i++) {
    const p = i * img.channels;
    const d = Math.max(
      Math.abs((img.data[p] as number) - background[0]),
      Math.abs((img.data[p + 1] as number) - background[1]),
      Math.abs((img.data[p + 2] as number) - background[2]),
    );
    if (d > threshold) {
      sum[0] = (sum[0] as number) + (img.data[p] as number);
      sum[1] = (sum[1] as number) + (img.data[p + 1] as number);
      sum[2] = (sum[2] as number) + (img.data[p + 2] as number);
      n++;
    }
  }
  return sum.map((s) => s / Math.max(1, n));
}

/**
 * Where two renders of the same card differ by more than `threshold` on some channel: rendered once
 * with the text in one colour and once in another (no gradient, no shadow), that is exactly where the
 * text's ink fell, found from the outputs alone. Undefined when they do not differ.
 */
export async function differenceBox(a: Buffer, b: Buffer, threshold = 24): Promise<Box | undefined> {
  const [x, y] = await Promise.all([decode(a), decode(b)]);
  if (x.width !== y.width || x.height !== y.height) throw new Error('differenceBox: sizes differ');
  let box: Box | undefined;
  for (let row = 0; row < x.height; row++)
    for (let col = 0; col < x.width; col++) {
      const i = (row * x.width + col) * x.channels;
      const j = (row * y.width + col) * y.channels;
      let d = 0;
      for (let c = 0; c < 3; c++)
        d = Math.max(d, Math.abs((x.data[i + c] as number) - (y.data[j + c] as number)));
      if (d > threshold) box = grow(box, col, row);
    }
  return box;
}
