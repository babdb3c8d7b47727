/**
 * Reference images: a fixed matrix (templates × aspects, each font, each script, emoji) compared with
 * committed images at a perceptual tolerance (pixelmatch: YIQ colour distance 0.1, anti-aliased
 * edges ignored; at most 0.5% of pixels may differ). After an intended change, regenerate them with
 * `npx tsx scripts/reference-images.ts` and look at them before committing.
 */
import { existsSync, readFileSync } from 'node:fs';
import pixelmatch from 'pixelmatch';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRenderer } from '../../src/domain/render/index.js';
import {
  REFERENCE_DIR,
  referenceBackground,
  referenceCases,
  renderCase,
} from '../support/reference-cases.js';
import { testFonts } from '../support/server.js';

const renderer = createRenderer(testFonts());
let background: Buffer;
beforeAll(async () => {
  background = await referenceBackground();
});

describe('reference images', () => {
  for (const c of referenceCases()) {
    it(`${c.name} matches its reference`, async () => {
      const file = new URL(`${c.name}.png`, REFERENCE_DIR);
      expect(existsSync(file), `missing ${c.name}.png: run npx tsx scripts/reference-images.ts`).toBe(true);
      const reference = await sharp(readFileSync(file))
        .ensureAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      const actual = await renderCase(renderer, background, c);
      expect([actual.width, actual.height]).toEqual([reference.info.width, reference.info.height]);
      const differing = pixelmatch(actual.rgba, reference.data, undefined, actual.width, actual.height, {
        threshold: 0.1,
      });
      expect(differing / (actual.width * actual.height), `${differing} pixels differ`).toBeLessThanOrEqual(
        0.005,
      );
    });
  }
});
