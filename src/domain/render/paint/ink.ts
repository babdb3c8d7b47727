/**
 * Where the text's ink fell on the finished card and the contrast it reached, measured on the pixels
 * the production path blended (the bands of index.ts), for tests and `npm run bench`. Tests of what a
 * person sees measure the output from outside as well (test/support/contrast.ts).
 */
import type { Backdrop } from './blend.js';
import type { TextMasks } from '../text/overlay.js';
import { contrastRatio, relativeLuminance, type Rgb } from './tones.js';

/**
 * What the text looks like on the finished image, measured on its pixels (opt-in: it costs one more
 * composite, about 20 ms): the pixels where the text layer has ink (alpha ≥ 50%), and the backdrop
 * behind them (photo + gradient, no shadow, no text).
 */
export interface InkMeasurement {
  /** Bounding box of the ink, px, or undefined when nothing was drawn. */
  box: { left: number; top: number; right: number; bottom: number } | undefined;
  /** WCAG 2 contrast ratio of the text colour against the backdrop at ink pixels: 10th percentile and minimum. */
  contrastP10: number;
  contrastMin: number;
}

/** See {@link InkMeasurement}: over the text's box, the ink is where a glyph (outline or colour) covers ≥ 50%. */
export function measureInk(masks: TextMasks, backdrop: Backdrop, text: Rgb): InkMeasurement {
  const lt = relativeLuminance(text);
  const { box } = masks;
  const { rgb } = backdrop;
  const ratios: number[] = [];
  let ink: InkMeasurement['box'];
  for (let y = 0; y < box.height; y++) {
    for (let x = 0; x < box.width; x++) {
      const i = y * box.width + x;
      const coverage = Math.max(masks.text[i * 4 + 3] as number, (masks.colour?.[i * 4 + 3] as number) ?? 0);
      if (coverage < 128) continue;
      const lb = relativeLuminance([
        rgb[i * 3] as number,
        rgb[i * 3 + 1] as number,
        rgb[i * 3 + 2] as number,
      ]);
      ratios.push(contrastRatio(lt, lb));
      const cx = box.x + x;
      const cy = box.y + y;
      if (!ink) ink = { left: cx, top: cy, right: cx, bottom: cy };
      else {
        ink.left = Math.min(ink.left, cx);
        ink.right = Math.max(ink.right, cx);
        ink.top = Math.min(ink.top, cy);
        ink.bottom = Math.max(ink.bottom, cy);
      }
    }
  }
  ratios.sort((a, b) => a - b);
  return {
    box: ink,
    contrastP10: ratios[Math.floor(ratios.length * 0.1)] ?? 21,
    contrastMin: ratios[0] ?? 21,
  };
}
