/**
 * Canvas geometry: rectangles in px, the frame a card is drawn on (an aspect of docs/api.md#generate-options or a
 * template's own size), its safe zone (docs/api.md#generate-options: 5% margins, og's bottom 28% kept for the
 * mobile-card overlay of social networks), a layer's box in px, and the boxes of laid-out lines.
 */
import { ASPECTS, type Aspect } from '../design.js';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The reserved bottom band of `og` (docs/api.md#generate-options). */
export const OG_RESERVED_BOTTOM = 0.28;
/** The margin of every edge, as a fraction of that dimension (docs/api.md#generate-options). */
export const SAFE_MARGIN = 0.05;

/**
 * A canvas: one of the API's aspects, or a template's own `size` in px (docs/templates.md), whose
 * safe zone keeps the 5% margins and no bottom band (that band is og's, docs/api.md#generate-options).
 */
export type Frame = Aspect | { width: number; height: number };

/** What a laid-out line's box is made from (text/layout.ts `LaidLine`), px. */
export interface LineMetrics {
  /** Left edge of the line. */
  x: number;
  baseline: number;
  width: number;
  ascent: number;
  descent: number;
}

/** The text blocks a gradient reaches past (text/layout.ts `TextBlock`): their layer and lines. */
export interface LineBlock {
  /** Index of the text layer in the document. */
  layer: number;
  /** The block's box, px. */
  box: Rect;
  lines: LineMetrics[];
}

/** Decoded pixels to blend into: 8-bit sRGB, straight (not premultiplied) alpha when `channels` is 4. */
export interface Canvas {
  pixels: Buffer;
  width: number;
  height: number;
  channels: 3 | 4;
}

/** Where the gradient overlay goes: linear bands from an edge, or a radial glow behind the text. */
export type GradientGeometry =
  | {
      kind: 'linear';
      /**
       * Each band: full strength at `from`, 85% at `textAt` (0..1 along the band), zero at `to`;
       * `reach`, px from `from`: how far a deeper scrim's fade may go (paint/gradient.ts `fadedForDepth`);
       * default the canvas's far edge (to-center's bands: the middle).
       */
      bands: { from: [number, number]; to: [number, number]; textAt: number; reach?: number }[];
    }
  | { kind: 'radial'; cx: number; cy: number; rx: number; ry: number };

/** A line's box from its ascent to its descent, px. */
export function lineBox(line: LineMetrics): Rect {
  return { x: line.x, y: line.baseline - line.ascent, width: line.width, height: line.ascent + line.descent };
}

/** The smallest rectangle holding every one of `rects`, px; undefined for none. */
export function unionOf(rects: Rect[]): Rect | undefined {
  if (rects.length === 0) return undefined;
  const left = Math.min(...rects.map((r) => r.x));
  const top = Math.min(...rects.map((r) => r.y));
  const right = Math.max(...rects.map((r) => r.x + r.width));
  const bottom = Math.max(...rects.map((r) => r.y + r.height));
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/** The canvas size of a frame, px. */
export function sizeOf(frame: Frame): { width: number; height: number } {
  return typeof frame === 'string' ? ASPECTS[frame] : frame;
}

/** The safe zone of a frame (docs/api.md#generate-options), px. */
export function safeZoneOf(aspect: Frame): Rect {
  const { width, height } = sizeOf(aspect);
  const mx = width * SAFE_MARGIN;
  const my = height * SAFE_MARGIN;
  const bottom = aspect === 'og' ? height * (1 - OG_RESERVED_BOTTOM) : height - my;
  return { x: mx, y: my, width: width - 2 * mx, height: bottom - my };
}

/** A fraction of the canvas in px, to a millionth of a pixel (0.77 × 1200 is 924.0000000000001). */
const px = (fraction: number, side: number) => Math.round(fraction * side * 1e6) / 1e6;

/** A layer's box in px: its fractions of the canvas, clipped to the safe zone with `safeZone`. */
export function boxOf(
  box: { x: number; y: number; w: number; h: number },
  aspect: Frame,
  safe = false,
): Rect {
  const { width, height } = sizeOf(aspect);
  let x0 = px(box.x, width);
  let y0 = px(box.y, height);
  let x1 = px(box.x + box.w, width);
  let y1 = px(box.y + box.h, height);
  if (safe) {
    const zone = safeZoneOf(aspect);
    x0 = Math.max(x0, zone.x);
    y0 = Math.max(y0, zone.y);
    x1 = Math.min(x1, zone.x + zone.width);
    y1 = Math.min(y1, zone.y + zone.height);
  }
  return { x: x0, y: y0, width: Math.max(0, x1 - x0), height: Math.max(0, y1 - y0) };
}

/**
 * The resize-and-extract steps of a cover crop that keeps the point (`x`, `y`) (fractions of the
 * upright photo `w × h`) as near the centre of a `width × height` canvas as the photo allows.
 */
export function focusCrop(
  w: number,
  h: number,
  width: number,
  height: number,
  focus: { x: number; y: number },
) {
  const scale = Math.max(width / w, height / h);
  const rw = Math.max(width, Math.round(w * scale));
  const rh = Math.max(height, Math.round(h * scale));
  const clamp = (v: number, max: number) => Math.min(Math.max(0, Math.round(v)), max);
  return {
    resize: { width: rw, height: rh },
    extract: {
      left: clamp(focus.x * rw - width / 2, rw - width),
      top: clamp(focus.y * rh - height / 2, rh - height),
      width,
      height,
    },
  };
}
