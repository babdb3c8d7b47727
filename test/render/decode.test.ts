/**
 * The decode's memory budget (src/domain/render/photo/decode.ts): what it estimates for the fixture
 * photos, and that a decode larger than the whole budget still runs (alone) beside others.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { checkImage, decodeCover, decodeMemory } from '../../src/domain/render/photo/decode.js';
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
