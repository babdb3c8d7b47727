/**
 * Which template a text takes: `template` wins over `position`, the default is bottom-left (spec
 * 4.1 rule 1), and `auto` (ours) picks the calmest of the one-box templates on the cropped photo.
 */
import type { Template } from '../../design.js';
import type { TextLayout } from '../text/layout.js';
import { lineBox, type Rect } from '../geometry.js';
import { meanOver, saliencyMap } from './saliency.js';

/** The templates `auto` chooses from: those with one text box (split keeps two apart). */
export const AUTO_CANDIDATES = ['bottom-left', 'left', 'right'] as const;
/**
 * The template `auto` also tries when every one of {@link AUTO_CANDIDATES} covers a subject: split's
 * two narrow columns leave the middle of the card clear (issue 55, item 9: a cat under `right`'s
 * title, 15% of it, where split covered none).
 */
export const AUTO_LAST_RESORT = 'split';

/** Pixels of the rectangles `rects` that lie over any of `boxes` (overlaps between boxes counted once each). */
function coveredArea(rects: Rect[], boxes: Rect[]): number {
  let area = 0;
  for (const r of rects)
    for (const b of boxes) {
      const w = Math.min(r.x + r.width, b.x + b.width) - Math.max(r.x, b.x);
      const h = Math.min(r.y + r.height, b.y + b.height) - Math.max(r.y, b.y);
      if (w > 0 && h > 0) area += w * h;
    }
  return area;
}

/**
 * `template=auto`: lays the text out in each of {@link AUTO_CANDIDATES} and keeps the one whose lines
 * cover no subject (faces, people, cats, dogs found on the card, subjects.ts) and the calmest,
 * least salient part of the cropped photo (lowest mean of the saliency map over the line boxes,
 * saliency.ts). When every candidate covers a subject, {@link AUTO_LAST_RESORT} is tried too, and
 * the one that covers the least of them is kept: `auto` never covers more of a subject than
 * another built-in would. Ties keep the earlier candidate, bottom-left first.
 */
export function chooseTemplate(
  canvas: { pixels: Buffer; width: number; height: number; channels: number },
  layOut: (template: Template) => TextLayout,
  subjects: { box: Rect }[] = [],
): { template: Template; layout: TextLayout; scores: Record<string, number> } {
  const map = saliencyMap(canvas.pixels, canvas.width, canvas.height, canvas.channels);
  const boxes = subjects.map((s) => s.box);
  const scores: Record<string, number> = {};
  let best: { template: Template; layout: TextLayout; covered: number; score: number } | undefined;
  for (const template of [...AUTO_CANDIDATES, AUTO_LAST_RESORT] as const) {
    if (template === AUTO_LAST_RESORT && best && best.covered <= 1e-9) break;
    const layout = layOut(template);
    const rects = layout.blocks.flatMap((b) => b.lines.map(lineBox));
    const score = meanOver(map, rects);
    const covered = coveredArea(rects, boxes);
    scores[template] = score;
    const better =
      !best ||
      covered < best.covered - 1e-9 ||
      (Math.abs(covered - best.covered) <= 1e-9 && score < best.score - 1e-9);
    if (better) best = { template, layout, covered, score };
  }
  const chosen = best as { template: Template; layout: TextLayout };
  return { template: chosen.template, layout: chosen.layout, scores };
}
