/**
 * Titles as large as their box allows (issue 42, item 1): on every built-in template × aspect, a
 * 60-character title is set at no less than 7% of the card's height and a 200-character one at no
 * less than 4%, wherever the box can hold the title at that size (no word split, nothing cut), and
 * the subtitle never below 60% of the smallest title size (docs/api.md#limits: 24 px). Measured twice
 * from outside: the layout report's size, and the line pitch of the drawn title in the pixels.
 */
import { describe, expect, it } from 'vitest';
import type { Aspect, Template } from '../../src/domain/design.js';
import { LIMITS } from '../../src/domain/design.js';
import { createRenderer } from '../../src/domain/render/index.js';
import { generateOptionsSchema } from '../../src/domain/images/schemas.js';
import { decode, solid } from '../support/images.js';
import { testFonts } from '../support/server.js';

const HEIGHT: Record<Aspect, number> = { og: 630, square: 1080, portrait: 1350 };
const WIDTH: Record<Aspect, number> = { og: 1200, square: 1080, portrait: 1080 };
const TEMPLATES: Template[] = ['bottom-left', 'left', 'right', 'split'];
/** Headlines of the two lengths, in everyday words. */
const TITLES = {
  60: 'Why our small team rebuilt the whole release pipeline in May',
  200:
    'How a small team of four rebuilt its release pipeline in one month, cut build times in half, ' +
    'and learned to ship on Fridays again without any fear: the tools, the habits and the mistakes we made on it',
} as const;
const SUBTITLE = 'Notes from the platform team';
/** The target per length, a fraction of the card's height. */
const TARGET = { 60: 0.07, 200: 0.04 } as const;

const renderer = createRenderer(testFonts());
const options = (template: Template, aspect: Aspect, title: string, fontSize?: number) =>
  generateOptionsSchema.parse({
    title,
    subtitle: SUBTITLE,
    template,
    aspect,
    fontSize,
    colorMode: 'black',
    gradient: false,
    textShadow: false,
    fileFormat: 'png',
  });

/** Whether the lines are the title's words, each whole (a split word leaves a piece that is none). */
const wordsWhole = (lines: string[], title: string) =>
  lines.join(' ').split(/\s+/).join(' ') === title.split(/\s+/).join(' ');

/**
 * The title's size read from the pixels: the distance between the tops of its lines of ink (the
 * median step), divided by the built-ins' line height (1.15 of the size), px.
 */
async function drawnSize(template: Template, aspect: Aspect, title: string): Promise<number> {
  const white = await solid([255, 255, 255], 'png', WIDTH[aspect], HEIGHT[aspect]);
  const card = await decode((await renderer.render(white, options(template, aspect, title))).image);
  // The title's column: split's left 30%, else the whole width (its lines come before the subtitle's).
  const x1 = template === 'split' ? Math.round(card.width * 0.3) : card.width;
  const tops: number[] = [];
  let inInk = false;
  for (let y = 0; y < card.height; y++) {
    let ink = false;
    for (let x = 0; x < x1 && !ink; x++)
      ink = (card.data[(y * card.width + x) * card.channels] as number) < 128;
    if (ink && !inInk) tops.push(y);
    inInk = ink;
  }
  expect(tops.length, 'lines of ink').toBeGreaterThanOrEqual(2);
  // The median step: a line without capitals or ascenders (`our`) starts lower than the rest.
  const steps = tops
    .slice(1)
    .map((t, i) => t - (tops[i] as number))
    .sort((a, b) => a - b);
  return (steps[Math.floor(steps.length / 2)] as number) / 1.15;
}

describe('titles as large as their box allows', () => {
  for (const aspect of ['og', 'square', 'portrait'] as const)
    for (const template of TEMPLATES)
      for (const length of [60, 200] as const)
        it(`${template} ${aspect}, ${length} characters`, async () => {
          const title = TITLES[length];
          expect(title).toHaveLength(length);
          const target = Math.ceil(TARGET[length] * HEIGHT[aspect]);
          const report = await renderer.layout(options(template, aspect, title));
          // The subtitle stays readable: 60% of the smallest title size, or more.
          expect(report.subtitleFontSize).toBeGreaterThanOrEqual(0.6 * LIMITS.fontSizeMin);
          expect(report.truncated).toBe(false);
          // Can the box hold the title at the target size? Asked with the size fixed.
          const atTarget = await renderer.layout(options(template, aspect, title, target));
          const holds = !atTarget.truncated && wordsWhole(atTarget.lines.title, title);
          if (holds) expect(report.fontSize, `the box holds ${target} px`).toBeGreaterThanOrEqual(target);
          else
            expect(report.fontSize, 'the largest size that splits no word').toBeGreaterThanOrEqual(
              target * 0.6,
            );
          // The pixels agree with the report, within the ink's rounding.
          const drawn = await drawnSize(template, aspect, title);
          expect(Math.abs(drawn - report.fontSize) / report.fontSize).toBeLessThan(0.05);
        });
});
