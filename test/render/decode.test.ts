/**
 * The decode (src/domain/render/photo/decode.ts): what its memory budget estimates for the fixture
 * photos, that a decode larger than the whole budget still runs (alone) beside others, and that a
 * photo the subject detector has not seen is cropped to the very pixels of one it has.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { checkImage } from '../../src/domain/render/photo/checks.js';
import {
  decodeCover,
  decodeMemory,
  decodeStarts,
  startDecodeCover,
} from '../../src/domain/render/photo/decode.js';
import { createSubjectDetector } from '../../src/domain/render/photo/subjects.js';
import { DECODE_MEMORY_BUDGET } from '../../src/domain/render/limits.js';
import { enlarged, photo } from '../support/images.js';

/** The decode's estimate for an image of the full-size fixture photos' sizes and encodings. */
const estimate = async (image: Buffer) => {
  const { format, meta } = await checkImage(image);
  return decodeMemory(format, meta);
};

describe('decode memory budget', () => {
  it('lets two progressive JPEGs of 13 megapixels decode at once, not two of 16, and baseline ones share', async () => {
    // Progressive: every coefficient held before the shrink (about 56 MiB for 13.4 megapixels,
    // measured). Two of Dragonfly (13.4 megapixels) fit the budget, so both cores decode; two of
    // seeding (15.9) do not.
    // (The originals' sizes: the repository keeps them downsized, so the test enlarges them.)
    const dragonfly = await estimate(
      await enlarged('Dragonfly_by_Bolly.jpg', 4224, 3168, 'jpeg', { progressive: true }),
    );
    expect(dragonfly).toBeLessThanOrEqual(DECODE_MEMORY_BUDGET / 2);
    expect(dragonfly).toBeGreaterThan(DECODE_MEMORY_BUDGET / 3);
    const seeding = await enlarged('seeding_by_Clements_Engelhardt.jpg', 5312, 2988, 'jpeg', {
      progressive: true,
    });
    expect(await estimate(seeding)).toBeGreaterThan(DECODE_MEMORY_BUDGET / 2);
    // Baseline JPEG (20 megapixels) and a non-interlaced PNG stream: several fit the budget.
    const kleiber = await enlarged('Kleiber_by_Lukas_Baubkus.jpg', 6028, 3391, 'jpeg');
    expect(await estimate(kleiber)).toBeLessThan(DECODE_MEMORY_BUDGET / 4);
    expect(await estimate(await enlarged('plasma_Canopee.png', 3840, 2160, 'png'))).toBeLessThan(
      DECODE_MEMORY_BUDGET / 2,
    );
  });

  it('decodes a photo estimated above the whole budget, alone, while smaller ones wait and then run', async () => {
    const huge = await sharp({ create: { width: 8000, height: 4000, channels: 3, background: '#335577' } })
      .jpeg({ progressive: true })
      .toBuffer();
    const { format, meta } = await checkImage(huge);
    expect(decodeMemory(format, meta)).toBeGreaterThan(DECODE_MEMORY_BUDGET);
    const small = photo('mate_RainDrops.jpg');
    const decoded = await Promise.all([
      decodeCover(small, 120, 63),
      decodeCover(huge, 120, 63),
      decodeCover(small, 120, 63),
    ]);
    expect(decoded.map((d) => [d.width, d.height])).toEqual([
      [120, 63],
      [120, 63],
      [120, 63],
    ]);
    // The huge one's colour came through: the budget changes when a decode runs, not its pixels.
    expect([...decoded[1].pixels.subarray(0, 3)].map((v) => Math.round(v / 8))).toEqual(
      [0x33, 0x55, 0x77].map((v) => Math.round(v / 8)),
    );
  });
});

describe('a new photo and the same photo seen', () => {
  // A photo not seen is decoded once, whole, and cut once its subjects are known (at the crop's
  // scale, or at its own size when the crop enlarges an 8-bit photo); past four times the card, or
  // too small to look at, it is looked at small and then decoded again. A photo seen decodes its
  // crop at once. Each way runs the same libvips operations on the same decoded pixels, so the
  // cards must match byte for byte: any difference is a changed card.
  it('crop to the same pixels, with the decodes each way takes', async () => {
    const mate = photo('mate_RainDrops.jpg');
    const friends = photo('friends_by_Aitzol_Berasategi.jpg');
    /** The photo with its own luminance as alpha: an alpha that varies over the picture. */
    const withAlpha = async (bytes: Buffer) => {
      const { data, info } = await sharp(bytes).greyscale().raw().toBuffer({ resolveWithObject: true });
      const alpha = { raw: { width: info.width, height: info.height, channels: 1 as const } };
      return sharp(bytes).removeAlpha().joinChannel(data, alpha).png().toBuffer();
    };
    const whole = ['whole'];
    const twice = ['small', 'crop'];
    const cases: [string, Promise<Buffer>, number, number, string[]][] = [
      ['a landscape JPEG the crop shrinks', Promise.resolve(mate), 1200, 630, whole],
      ['a portrait JPEG the crop enlarges', Promise.resolve(friends), 1200, 630, whole],
      [
        'a portrait JPEG the crop shrinks, 2.9 times the card',
        enlarged('friends_by_Aitzol_Berasategi.jpg', 2056, 3088, 'jpeg', { progressive: true }),
        1200,
        630,
        whole,
      ],
      ['a PNG with alpha the crop shrinks', withAlpha(mate), 1200, 630, whole],
      ['a PNG with alpha the crop enlarges', withAlpha(friends), 1200, 630, whole],
      [
        'a 16-bit PNG the crop enlarges',
        sharp(friends).toColourspace('rgb16').png().toBuffer(),
        1200,
        630,
        whole,
      ],
      ['a greyscale JPEG the crop enlarges', sharp(friends).greyscale().jpeg().toBuffer(), 1200, 630, whole],
      [
        'a JPEG turned upright by its EXIF orientation, then enlarged',
        sharp(mate).withMetadata({ orientation: 6 }).jpeg().toBuffer(),
        1200,
        630,
        whole,
      ],
      [
        'a JPEG turned upright by its EXIF orientation, then shrunk',
        sharp(mate).rotate(270).withMetadata({ orientation: 6 }).jpeg().toBuffer(),
        1200,
        630,
        whole,
      ],
      [
        'a panorama on a portrait card, 5.5 times the card',
        sharp(mate).resize(8000, 1000, { fit: 'fill' }).jpeg().toBuffer(),
        1080,
        1350,
        twice,
      ],
      ['a photo too small to look at', sharp(mate).resize(280, 175).jpeg().toBuffer(), 1200, 630, twice],
    ];
    const detector = createSubjectDetector();
    const kinds: string[] = [];
    const counting = decodeStarts.run;
    decodeStarts.run = (kind) => void kinds.push(kind);
    try {
      for (const [what, made, width, height, decodes] of cases) {
        const bytes = await made;
        expect(await detector.recall(bytes), `${what}: not seen before`).toBeUndefined();
        kinds.length = 0;
        const fresh = await (await startDecodeCover(bytes, width, height, 'auto', { detector })).decoded;
        expect(kinds, `${what}: its decodes when new`).toEqual(decodes);
        expect(await detector.recall(bytes), `${what}: seen now`).toBeDefined();
        kinds.length = 0;
        const seen = await (await startDecodeCover(bytes, width, height, 'auto', { detector })).decoded;
        expect(kinds, `${what}: its decode when seen`).toEqual(['crop']);
        expect([fresh.width, fresh.height, fresh.channels], what).toEqual([width, height, seen.channels]);
        expect(fresh.pixels.equals(seen.pixels), `${what}: the same pixels`).toBe(true);
      }
    } finally {
      decodeStarts.run = counting;
      await detector.close();
    }
  });
});
