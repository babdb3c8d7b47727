/** The warm-up renders what a request with the same texts would render (src/domain/render/warm-up.ts). */
import { describe, expect, it } from 'vitest';
import { WARM_UP_OPTIONS } from '../../src/domain/render/warm-up.js';
import { generateOptionsSchema } from '../../src/domain/images/schemas.js';

describe('warm-up', () => {
  it('warms the path of a real request: its options are the defaults the request schema fills in', () => {
    expect(WARM_UP_OPTIONS).toEqual(
      generateOptionsSchema.parse({ title: 'Warm-up card ✨', subtitle: 'Titlecard', fileFormat: 'jpeg' }),
    );
  });
});
