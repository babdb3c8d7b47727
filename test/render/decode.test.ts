/**
 * The decode's memory budget (src/domain/render/decode.ts): what it estimates for the fixture
 * photos, and that a decode larger than the whole budget still runs (alone) beside others.
 */
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  checkImage,
  decodeCover,
  decodeMemory,
  DECODE_MEMORY_BUDGET,
} from '../../src/domain/render/decode.js';

const PHOTOS = new URL('../../../shared/fixtures/photos/', import.meta.url);
const estimate = async (file: string) => {
  const { format, meta } = await checkImage(readFileSync(new URL(file, PHOTOS)));
  return decodeMemory(format, meta);
};

describe('decode memory budget', () => {
  it('lets two progressive JPEGs of 13 megapixels decode at once, not two of 16, and baseline ones share', async () => {
    // Progressive: every coefficient held before the shrink (about 56 MiB for 13.4 megapixels,
    // measured). Two of Dragonfly (13.4 megapixels) fit the budget, so both cores decode; two of
    // seeding (15.9) do not.
    expect(await estimate('Dragonfly_by_Bolly.jpg')).toBeLessThanOrEqual(DECODE_MEMORY_BUDGET / 2);
    expect(await estimate('Dragonfly_by_Bolly.jpg')).toBeGreaterThan(DECODE_MEMORY_BUDGET / 3);
    expect(await estimate('seeding_by_Clements_Engelhardt.jpg')).toBeGreaterThan(DECODE_MEMORY_BUDGET / 2);
    // Baseline JPEG (20 megapixels) and a non-interlaced PNG stream: several fit the budget.
    expect(await estimate('Kleiber_by_Lukas_Baubkus.jpg')).toBeLessThan(DECODE_MEMORY_BUDGET / 4);
    expect(await estimate('plasma_Canopee_3840x2160.png')).toBeLessThan(DECODE_MEMORY_BUDGET / 2);
  });

  it('decodes a photo estimated above the whole budget, alone, while smaller ones wait and then run', async () => {
    const huge = await sharp({ create: { width: 8000, height: 4000, channels: 3, background: '#335577' } })
      .jpeg({ progressive: true })
      .toBuffer();
    const { format, meta } = await checkImage(huge);
    expect(decodeMemory(format, meta)).toBeGreaterThan(DECODE_MEMORY_BUDGET);
    const small = readFileSync(new URL('mate_RainDrops.jpg', PHOTOS));
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
