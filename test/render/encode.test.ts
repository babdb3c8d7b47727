/**
 * The card encoders (src/domain/render/index.ts `encodeCard`, ENCODER_SETTINGS): PNG goes from
 * libvips to @napi-rs/image as a stored PNG and comes back compressed with the png crate's fast
 * deflate and adaptive filters. Lossless, channels kept, and really filtered and compressed: a
 * silent fall back to the package's defaults (no filter) would be half again as large.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { encodeCard } from '../../src/domain/render/encode/encode.js';
import { type PHOTO_FILES, photo } from '../support/images.js';

/** A photo cover-cropped to a 1200×630 card: raw RGB, as the renderer hands it to the encoder. */
async function card(name: (typeof PHOTO_FILES)[number]) {
  const { data, info } = await sharp(photo(name))
    .rotate()
    .resize(1200, 630)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, raw: { raw: { width: info.width, height: info.height, channels: info.channels } } };
}

describe('PNG cards', () => {
  it('are lossless RGB, within 3% of libvips at zlib level 3 with adaptive filters, and far smaller than unfiltered', async () => {
    const { data, raw } = await card('Kleiber_by_Lukas_Baubkus.jpg');
    const png = await encodeCard(sharp(data, raw), 'png');
    const decoded = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    expect(decoded.info.channels).toBe(3);
    expect(decoded.data.equals(data)).toBe(true);
    const libvips = await sharp(data, raw).png({ compressionLevel: 3, adaptiveFiltering: true }).toBuffer();
    const unfiltered = await sharp(data, raw).png({ compressionLevel: 6 }).toBuffer();
    expect(png.length / libvips.length).toBeLessThan(1.03);
    expect(png.length / unfiltered.length).toBeLessThan(0.8);
  });

  it('keep an alpha channel (a PNG photo with transparency stays RGBA), pixel for pixel', async () => {
    const width = 300;
    const height = 200;
    const rgba = Buffer.alloc(width * height * 4);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const i = (y * width + x) * 4;
        rgba[i] = x % 256;
        rgba[i + 1] = y;
        rgba[i + 2] = (x + y) % 256;
        rgba[i + 3] = (x * 255) / (width - 1);
      }
    const png = await encodeCard(sharp(rgba, { raw: { width, height, channels: 4 } }), 'png');
    const decoded = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    expect(decoded.info.channels).toBe(4);
    expect(decoded.data.equals(rgba)).toBe(true);
  });
});

describe('WebP cards with alpha', () => {
  it('keep the alpha channel exactly (libwebp compresses it losslessly), at most a fifth larger than at the opaque setting', async () => {
    const { data, raw } = await card('mate_RainDrops.jpg');
    const { width, height } = raw.raw;
    // The photo with an alpha ramp, as bench/compare.ts makes its RGBA PNG.
    const rgba = Buffer.alloc(width * height * 4);
    for (let p = 0; p < width * height; p++) {
      rgba.set(data.subarray(p * 3, p * 3 + 3), p * 4);
      rgba[p * 4 + 3] = 128 + Math.round((127 * (p % width)) / width);
    }
    const four = { raw: { width, height, channels: 4 as const } };
    const webp = await encodeCard(sharp(rgba, four), 'webp', 4);
    const decoded = await sharp(webp).raw().toBuffer({ resolveWithObject: true });
    expect(decoded.info.channels).toBe(4);
    let alphaDiffers = 0;
    for (let p = 0; p < width * height; p++) if (decoded.data[p * 4 + 3] !== rgba[p * 4 + 3]) alphaDiffers++;
    expect(alphaDiffers).toBe(0);
    const opaqueSetting = await sharp(rgba, four).webp({ quality: 85, effort: 2 }).toBuffer();
    expect(webp.length / opaqueSetting.length).toBeLessThan(1.2);
  });
});
