/**
 * The decoder's use of the allocator trim (decode.ts, malloc-trim.ts): a decode expected to hold
 * 16 MiB or more first asks for glibc's free pages to go back; a small one does not.
 */
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { beforeLargeDecode, decodeCover } from '../../src/domain/render/photo/decode.js';
import { enlarged, photo } from '../support/images.js';

const trimFreeMemory = vi.fn();

describe('free memory given back before a large decode', () => {
  const real = beforeLargeDecode.run;
  beforeEach(() => {
    trimFreeMemory.mockClear();
    beforeLargeDecode.run = trimFreeMemory;
  });
  afterEach(() => {
    beforeLargeDecode.run = real;
  });

  it('trims before a 13-megapixel progressive JPEG (about 52 MiB), not before a small photo', async () => {
    const large = await enlarged('Dragonfly_by_Bolly.jpg', 4224, 3168, 'jpeg', { progressive: true });
    await decodeCover(photo('mate_RainDrops.jpg'), 120, 63);
    expect(trimFreeMemory).not.toHaveBeenCalled();
    await decodeCover(large, 120, 63);
    expect(trimFreeMemory).toHaveBeenCalledTimes(1);
  });

  it('does not trim for a photo refused before it decodes', async () => {
    const cut = (
      await sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#888' } })
        .jpeg({ progressive: true })
        .toBuffer()
    ).subarray(0, 20_000);
    await expect(decodeCover(cut, 120, 63)).rejects.toMatchObject({ field: 'image' });
    expect(trimFreeMemory).not.toHaveBeenCalled();
  });
});
