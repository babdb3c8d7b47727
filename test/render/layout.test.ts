/**
 * Text layout (src/domain/render/text/layout.ts) as a pure function: line breaking, automatic size,
 * ellipsis, boxes and safe zones.
 */
import { describe, expect, it } from 'vitest';
import type { TextLayout } from '../../src/domain/render/text/layout.js';
import { layoutText } from '../support/layout.js';
import { safeZoneOf } from '../../src/domain/render/geometry.js';
import { testFonts } from '../support/server.js';

const fonts = testFonts();
const lay = (over: Partial<Parameters<typeof layoutText>[1]> = {}): TextLayout =>
  layoutText(fonts, {
    aspect: 'og',
    placement: { template: 'bottom-left' },
    title: 'Hello',
    font: 'arial',
    ...over,
  });
const lineTexts = (l: TextLayout, role = 'title') =>
  l.blocks.filter((b) => b.role === role).flatMap((b) => b.lines.map((x) => x.text));

describe('line breaking', () => {
  it('never splits a word when a break opportunity exists', () => {
    const title = 'Internationalization considerations for multilingual typography engines';
    for (const aspect of ['og', 'square', 'portrait'] as const)
      for (const template of ['bottom-left', 'left', 'right', 'split'] as const) {
        const l = lay({ title, aspect, placement: { template } });
        expect(
          lineTexts(l).flatMap((t) => t.split(' ')),
          `${template} ${aspect}`,
        ).toEqual(title.split(' '));
      }
  });

  it('balances lines: the last line does not hold a lone word when a better break exists', () => {
    // At 75 px four of these words fit a line of the 864 px box: greedy filling gives 4 + 4 + 1.
    const l = lay({ title: Array(9).fill('abcd').join(' '), fontSize: 75 });
    expect(lineTexts(l)).toEqual(['abcd abcd abcd', 'abcd abcd abcd', 'abcd abcd abcd']);
  });

  it('a line feed forces a line break', () => {
    expect(lineTexts(lay({ title: 'First line\nSecond line', fontSize: 40 }))).toEqual([
      'First line',
      'Second line',
    ]);
  });

  it('a single word wider than the box is split only as a last resort', () => {
    const l = lay({
      title: 'Pneumonoultramicroscopicsilicovolcanoconiosis',
      placement: { template: 'split' },
      fontSize: 120,
    });
    for (const line of l.blocks[0]?.lines ?? [])
      expect(line.x + line.width).toBeLessThanOrEqual(1200 * 0.3 + 0.5);
  });
});

describe('automatic size', () => {
  it('a short title gets the largest size, 120 px', () => {
    expect(lay({ title: 'Hi' }).titleSize).toBe(120);
  });

  it('a longer title gets a smaller size, within 24 to 120 px, and fits its box', () => {
    const long = lay({
      title: 'A considerably longer title that has to wrap over several lines at any size',
    });
    expect(long.titleSize).toBeLessThan(120);
    expect(long.titleSize).toBeGreaterThanOrEqual(24);
    expect(long.truncated).toBe(false);
    expect(lineTexts(long).length).toBeLessThanOrEqual(4);
  });

  it('the subtitle is 45% of the title size, at least 18 px', () => {
    const l = lay({ title: 'Hi', subtitle: 'There' });
    expect(l.blocks.find((b) => b.role === 'subtitle')?.size).toBe(54);
    const small = lay({ title: 'x '.repeat(90).trim(), subtitle: 'There' });
    expect(small.blocks.find((b) => b.role === 'subtitle')?.size).toBeGreaterThanOrEqual(18);
  });

  it('an explicit fontSize is kept and the text wraps, cut with an ellipsis only if it cannot fit', () => {
    const l = lay({ title: 'Kept at exactly this size', fontSize: 100 });
    expect(l.titleSize).toBe(100);
    expect(l.blocks[0]?.size).toBe(100);
    const over = lay({ title: 'word '.repeat(40).trim(), fontSize: 120, placement: { template: 'left' } });
    expect(over.truncated).toBe(true);
    expect(lineTexts(over).at(-1)).toMatch(/\u2026$/);
    expect(over.bounds.y + over.bounds.height).toBeLessThanOrEqual(630 * 0.72 + 0.5);
  });

  it('a 200-character title still fits at some size in every template without an ellipsis', () => {
    const title =
      'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut a';
    expect(title.length).toBe(200);
    for (const aspect of ['og', 'square', 'portrait'] as const)
      for (const template of ['bottom-left', 'left', 'right', 'split'] as const) {
        const l = lay({ title, aspect, placement: { template } });
        expect(l.truncated, `${template} ${aspect}`).toBe(false);
      }
  });
});

describe('boxes and safe zones', () => {
  it('every line stays inside the safe zone for every template, position and aspect', () => {
    const placements = [
      { template: 'bottom-left' as const },
      { template: 'left' as const },
      { template: 'right' as const },
      { template: 'split' as const },
      { position: 'top' as const },
      { position: 'center' as const },
      { position: 'bottom' as const },
      { position: { x: 0, y: 0 } },
      { position: { x: 1, y: 1 } },
    ];
    for (const aspect of ['og', 'square', 'portrait'] as const) {
      const safe = safeZoneOf(aspect);
      for (const placement of placements) {
        const l = lay({
          aspect,
          placement,
          title: 'Something worth reading about today',
          subtitle: 'and a subtitle under it',
        });
        for (const line of l.blocks.flatMap((b) => b.lines)) {
          const where = `${JSON.stringify(placement)} ${aspect}`;
          expect(line.x, where).toBeGreaterThanOrEqual(safe.x - 0.5);
          expect(line.x + line.width, where).toBeLessThanOrEqual(safe.x + safe.width + 0.5);
          expect(line.baseline - line.ascent, where).toBeGreaterThanOrEqual(safe.y - 0.5);
          expect(line.baseline + line.descent, where).toBeLessThanOrEqual(safe.y + safe.height + 0.5);
        }
      }
    }
  });

  it('og keeps the bottom 28% free; square and portrait keep a 5% margin', () => {
    expect(safeZoneOf('og')).toEqual({ x: 60, y: 31.5, width: 1080, height: 630 * 0.72 - 31.5 });
    expect(safeZoneOf('square')).toEqual({ x: 54, y: 54, width: 972, height: 972 });
    expect(safeZoneOf('portrait')).toEqual({ x: 54, y: 67.5, width: 972, height: 1215 });
  });
});
