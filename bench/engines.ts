/**
 * The job `npm run bench -- --compare` gives each engine: a 1200×630 card from a photo (cover crop,
 * EXIF orientation applied) with a title, a subtitle and a dark gradient behind them, plus a 400 px
 * wide thumbnail, both in the output format at quality 85 (docs/api.md#generate-options). Bench-only code:
 * satori and takumi are devDependencies.
 *
 * - floor: what no titling renderer can go below: sharp decodes, turns, cover-crops and converts the
 *   photo to sRGB, then encodes the card and the thumbnail (at the settings Titlecard uses), nothing
 *   drawn.
 * - titlecard: the production renderer (src/domain/render).
 * - satori: satori lays out a JSX-like tree into an SVG (photo embedded as a data URL), resvg
 *   rasterises it (the @vercel/og approach), sharp encodes the card and makes the thumbnail.
 * - takumi: `@takumi-rs/core` decodes, lays out, draws and encodes the card itself (its own PNG, JPEG
 *   and WebP encoders); the thumbnail is made by sharp from takumi's card (takumi has no second output).
 */
import { readFileSync } from 'node:fs';
import { Resvg } from '@resvg/resvg-js';
import { Renderer as Takumi } from '@takumi-rs/core';
import { container, image, text } from '@takumi-rs/helpers';
import satori from 'satori';
import sharp from 'sharp';
import type { FontLibrary } from '../src/domain/render/index.js';
import { createRenderer } from '../src/domain/render/index.js';
import { encodeCard, THUMBNAIL_WIDTH } from '../src/domain/render/index.js';
import { generateOptionsSchema } from '../src/domain/images/schemas.js';

export const FORMATS = ['png', 'jpeg', 'webp'] as const;
export type Format = (typeof FORMATS)[number];
export const WIDTH = 1200;
export const HEIGHT = 630;
export const TITLE = 'How we cut our build times in half with a smarter cache';
export const SUBTITLE = 'Engineering blog · 8 min read';

export interface Output {
  card: Buffer;
  thumbnail: Buffer;
}
/** Renders the job; undefined when the engine cannot read the photo (resvg has no WebP decoder). */
export type Engine = (photo: Buffer, format: Format) => Promise<Output | undefined>;

const FONT_DIR = new URL('../fonts/arimo/', import.meta.url);
const bold = readFileSync(new URL('Arimo_700Bold.ttf', FONT_DIR));
const regular = readFileSync(new URL('Arimo_400Regular.ttf', FONT_DIR));
const THUMB_HEIGHT = Math.round((THUMBNAIL_WIDTH * HEIGHT) / WIDTH);

/** The thumbnail the two foreign engines get: sharp resizes their card, same encoder settings as ours. */
const thumbnailOf = (card: Buffer, format: Format) =>
  encodeCard(sharp(card).resize(THUMBNAIL_WIDTH, THUMB_HEIGHT), format);

export function floorEngine(): Engine {
  return async (photo, format) => {
    const { data, info } = await sharp(photo)
      .rotate()
      .resize(WIDTH, HEIGHT, { fit: 'cover' })
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    const raw = { raw: { width: WIDTH, height: HEIGHT, channels: info.channels } };
    const [card, thumbnail] = await Promise.all([
      encodeCard(sharp(data, raw), format, info.channels as 3 | 4),
      encodeCard(sharp(data, raw).resize(THUMBNAIL_WIDTH, THUMB_HEIGHT), format, info.channels as 3 | 4),
    ]);
    return { card, thumbnail };
  };
}

export function titlecardEngine(fonts: FontLibrary): Engine {
  const renderer = createRenderer(fonts);
  return async (photo, format) => {
    const options = generateOptionsSchema.parse({ title: TITLE, subtitle: SUBTITLE, fileFormat: format });
    const out = await renderer.render(photo, options);
    return { card: out.image, thumbnail: out.thumbnail };
  };
}

/**
 * The card both foreign engines draw, as CSS: the photo cover-cropped, a bottom-up dark gradient like
 * Titlecard's own for this title (60% at the bottom edge, 51% where the text starts, clear at the
 * top), and the title and subtitle at the bottom left with a soft shadow.
 */
const FULL = { position: 'absolute', left: 0, top: 0, width: WIDTH, height: HEIGHT } as const;
const STYLES = {
  card: { width: WIDTH, height: HEIGHT, position: 'relative', display: 'flex' },
  photo: { ...FULL, objectFit: 'cover' },
  gradient: {
    ...FULL,
    backgroundImage: 'linear-gradient(to top, rgba(0,0,0,0.6) 0%, rgba(0,0,0,0.51) 70%, rgba(0,0,0,0) 100%)',
  },
  text: {
    position: 'absolute',
    left: 60,
    right: 60,
    bottom: 60,
    display: 'flex',
    flexDirection: 'column',
    color: 'white',
    fontFamily: 'Arimo',
    textShadow: '0 2px 4px rgba(0,0,0,0.55)',
  },
  title: { fontSize: 64, fontWeight: 700, lineHeight: 1.1 },
  subtitle: { fontSize: 32, fontWeight: 400, marginTop: 16 },
} as const;

export async function satoriEngine(): Promise<Engine> {
  const fonts = [
    { name: 'Arimo', data: bold, weight: 700 as const, style: 'normal' as const },
    { name: 'Arimo', data: regular, weight: 400 as const, style: 'normal' as const },
  ];
  return async (photo, format) => {
    const meta = await sharp(photo).metadata();
    if (meta.format === 'webp') return undefined;
    const mime = meta.format === 'png' ? 'image/png' : 'image/jpeg';
    const el = (type: string, style: object, children?: unknown, extra = {}) => ({
      type,
      key: null,
      props: { style, children, ...extra },
    });
    const tree = el('div', STYLES.card, [
      el('img', STYLES.photo, undefined, {
        src: `data:${mime};base64,${photo.toString('base64')}`,
        width: WIDTH,
        height: HEIGHT,
      }),
      el('div', STYLES.gradient),
      el('div', STYLES.text, [el('div', STYLES.title, TITLE), el('div', STYLES.subtitle, SUBTITLE)]),
    ]);
    // satori reads React elements; the plain objects above are ones (type, key, props).
    const svg = await satori(tree, { width: WIDTH, height: HEIGHT, fonts });
    const png = new Resvg(svg, { fitTo: { mode: 'original' }, font: { loadSystemFonts: false } })
      .render()
      .asPng();
    const card = format === 'png' ? png : await encodeCard(sharp(png), format);
    return { card, thumbnail: await thumbnailOf(card, format) };
  };
}

/**
 * Takumi's encoder on given pixels: the card `card` (any format sharp reads) drawn full-size by
 * takumi and encoded in `format`, to compare output sizes on the very same pixels.
 */
export async function takumiEncoder(): Promise<(card: Buffer, format: Format) => Promise<Buffer>> {
  const renderer = new Takumi({ cacheMaxBytes: 0 });
  return async (card, format) => {
    const png = await sharp(card).png({ compressionLevel: 0 }).toBuffer();
    return renderer.render(image({ src: 'card', style: { width: WIDTH, height: HEIGHT } }), {
      width: WIDTH,
      height: HEIGHT,
      format,
      ...(format === 'png' ? {} : { quality: 85 }),
      images: [{ src: 'card', data: png, cache: 'none' }],
    });
  };
}

export async function takumiEngine(): Promise<Engine> {
  const renderer = new Takumi({ cacheMaxBytes: 0 });
  await renderer.registerFont({ name: 'Arimo', data: bold, weight: 700 });
  await renderer.registerFont({ name: 'Arimo', data: regular, weight: 400 });
  return async (photo, format) => {
    const node = container({
      style: STYLES.card,
      children: [
        image({ src: 'photo', style: STYLES.photo }),
        container({ style: STYLES.gradient }),
        container({
          style: STYLES.text,
          children: [text(TITLE, STYLES.title), text(SUBTITLE, STYLES.subtitle)],
        }),
      ],
    });
    const card = await renderer.render(node, {
      width: WIDTH,
      height: HEIGHT,
      format,
      ...(format === 'png' ? {} : { quality: 85 }),
      images: [{ src: 'photo', data: photo, cache: 'none' }],
    });
    return { card, thumbnail: await thumbnailOf(card, format) };
  };
}
