/**
 * Which template a text takes: `template` wins over `position`, the default is bottom-left (spec
 * 4.1 rule 1), and `auto` (ours) picks the calmest of the one-box templates on the cropped photo.
 */
import type { Template } from '../design.js';
import type { TextLayout } from './layout.js';
import { lineBox } from './geometry.js';
import { meanOver, saliencyMap } from './saliency.js';

/** The templates `auto` chooses from: those with one text box (split keeps two apart). */
export const AUTO_CANDIDATES = ['bottom-left', 'left', 'right'] as const;

/**
 * `template=auto`: lays the text out in each of {@link AUTO_CANDIDATES} and keeps the one whose lines
 * cover the calmest, least salient part of the cropped photo (lowest mean of the saliency map over
 * the line boxes, saliency.ts). Ties keep the earlier candidate, bottom-left first.
 */
export function chooseTemplate(
  canvas: { pixels: Buffer; width: number; height: number; channels: number },
  layOut: (template: Template) => TextLayout,
): { template: Template; layout: TextLayout; scores: Record<string, number> } {
  const map = saliencyMap(canvas.pixels, canvas.width, canvas.height, canvas.channels);
  const scores: Record<string, number> = {};
  let best: { template: Template; layout: TextLayout; score: number } | undefined;
  for (const template of AUTO_CANDIDATES) {
    const layout = layOut(template);
    const rects = layout.blocks.flatMap((b) => b.lines.map(lineBox));
    const score = meanOver(map, rects);
    scores[template] = score;
    if (!best || score < best.score - 1e-9) best = { template, layout, score };
  }
  const chosen = best as { template: Template; layout: TextLayout };
  return { template: chosen.template, layout: chosen.layout, scores };
}
