/**
 * Gradient geometry: where the gradient overlay goes for each placement, linear bands from the
 * edge the text sits on or a radial glow behind it. Computed, not rasterised: blend.ts evaluates a
 * band's opacity as a function of one coordinate.
 */
import type { GRADIENT_DIRECTIONS, TemplateDocument } from '../templates/document.js';
import type { TextBlock } from './layout.js';
import { boxOf, type Frame, lineBox, type Rect, sizeOf, unionOf } from './geometry.js';

export type GradientDirection = (typeof GRADIENT_DIRECTIONS)[number];

/** Where the gradient overlay goes: linear bands from an edge, or a radial glow behind the text. */
export type GradientGeometry =
  | {
      kind: 'linear';
      /** Each band: full strength at `from`, 85% at `textAt` (0..1 along the band), zero at `to`. */
      bands: { from: [number, number]; to: [number, number]; textAt: number }[];
    }
  | { kind: 'radial'; cx: number; cy: number; rx: number; ry: number };

/**
 * How far a linear band fades out beyond the text, as fractions of the canvas dimension it runs
 * along (issue 42, item 2: the scrim keeps the photo). It fades over at most `max` (30% of the
 * height, 20% of the width) and ends by `boundary` (the middle of the card; for `to-center`, halfway
 * from the text to the middle), so that the half of the card away from the text keeps its photo;
 * but over at least `min` (10%, 120 px of an `og` card's width) and `minPx` (128 px: sixteen 8 px
 * bands), so that the fade stays gradual where the text reaches the middle or beyond. With
 * smoothstep's steepest slope, 1.5 times the mean, a scrim that changes the photo by 85 levels at
 * the text's end then changes by at most 8 between adjacent 8 px bands (issue 42's bound for no
 * visible edge; coral text at the strongest scrim changes flat grey by 78).
 */
export const BAND_FADE = {
  max: { height: 0.3, width: 0.2 },
  min: 0.1,
  minPx: 128,
  boundary: 0.5,
} as const;

/**
 * The geometry of a gradient layer going `direction`, reaching past the text `blocks` painted above
 * it (`boxes`: those text layers' boxes, for a side with no text): a linear band from the edge,
 * 85% strong where the text ends, fading out beyond it as {@link BAND_FADE} says; to-center, one
 * band from each side, reaching the text on its half; radial, a glow behind the text.
 */
export function gradientFor(
  direction: GradientDirection,
  width: number,
  height: number,
  blocks: TextBlock[],
  boxes: Rect[],
): GradientGeometry {
  const lines = blocks.flatMap((b) => b.lines);
  /** The edges of the lines `ls`, else of the boxes `within`, else the canvas's centre. */
  const extent = (ls: typeof lines, within: Rect[]) => {
    const r = unionOf(ls.map(lineBox)) ??
      unionOf(within) ?? { x: width / 2, y: height / 2, width: 0, height: 0 };
    return { left: r.x, right: r.x + r.width, top: r.y, bottom: r.y + r.height };
  };
  const all = extent(lines, boxes);
  /**
   * The fade beyond text that ends `depth` px from the band's edge, px: up to `boundary` (a fraction
   * of `size` from that edge), within {@link BAND_FADE}'s bounds.
   */
  const fade = (depth: number, size: number, max: number, boundary: number) =>
    Math.max(BAND_FADE.min * size, BAND_FADE.minPx, Math.min(max * size, boundary * size - depth));
  const fromTop = (textEnd: number, boundary: number = BAND_FADE.boundary) => {
    const to = Math.min(height, textEnd + fade(textEnd, height, BAND_FADE.max.height, boundary));
    return { from: [0, 0] as [number, number], to: [0, to] as [number, number], textAt: textEnd / to };
  };
  const fromBottom = (textStart: number, boundary: number = BAND_FADE.boundary) => {
    const depth = height - textStart;
    const to = Math.max(0, textStart - fade(depth, height, BAND_FADE.max.height, boundary));
    return {
      from: [0, height] as [number, number],
      to: [0, to] as [number, number],
      textAt: depth / (height - to),
    };
  };
  const fromLeft = (textEnd: number, boundary: number = BAND_FADE.boundary) => {
    const to = Math.min(width, textEnd + fade(textEnd, width, BAND_FADE.max.width, boundary));
    return { from: [0, 0] as [number, number], to: [to, 0] as [number, number], textAt: textEnd / to };
  };
  const fromRight = (textStart: number, boundary: number = BAND_FADE.boundary) => {
    const depth = width - textStart;
    const to = Math.max(0, textStart - fade(depth, width, BAND_FADE.max.width, boundary));
    return {
      from: [width, 0] as [number, number],
      to: [to, 0] as [number, number],
      textAt: depth / (width - to),
    };
  };
  /** Halfway from text `depth` px deep to the middle, as a fraction of `size` from the edge. */
  const halfwayToMiddle = (depth: number, size: number) => (depth / size + 0.5) / 2;
  switch (direction) {
    case 'to-top':
      return { kind: 'linear', bands: [fromBottom(all.top)] };
    case 'to-bottom':
      return { kind: 'linear', bands: [fromTop(all.bottom)] };
    case 'to-right':
      return { kind: 'linear', bands: [fromLeft(all.right)] };
    case 'to-left':
      return { kind: 'linear', bands: [fromRight(all.left)] };
    case 'to-center': {
      // Each side's text: the blocks (and, for a side with none, the boxes) on that half.
      const leftHalf = (x0: number, x1: number) => (x0 + x1) / 2 < width / 2;
      const onLeft = blocks.filter((b) => leftHalf(b.box.x, b.box.x + b.box.width));
      const onRight = blocks.filter((b) => !leftHalf(b.box.x, b.box.x + b.box.width));
      const left = extent(
        onLeft.flatMap((b) => b.lines),
        boxes.filter((b) => leftHalf(b.x, b.x + b.width)),
      );
      const right = extent(
        onRight.flatMap((b) => b.lines),
        boxes.filter((b) => !leftHalf(b.x, b.x + b.width)),
      );
      return {
        kind: 'linear',
        bands: [
          fromLeft(left.right, halfwayToMiddle(left.right, width)),
          fromRight(right.left, halfwayToMiddle(width - right.left, width)),
        ],
      };
    }
    case 'radial': {
      // An elliptical glow whose 75% contour circumscribes the text (√2 × half-sides).
      const w = all.right - all.left;
      const h = all.bottom - all.top;
      return {
        kind: 'radial',
        cx: all.left + w / 2,
        cy: all.top + h / 2,
        rx: Math.max(1, (Math.SQRT2 * w) / 2 / 0.75),
        ry: Math.max(1, (Math.SQRT2 * h) / 2 / 0.75),
      };
    }
  }
}

/**
 * The text layers a gradient layer at `index` lies under: those painted after it (up to the next
 * gradient) whose box overlaps no rect or image painted between them. A text on a pill or a panel
 * reads against that, not against the gradient.
 */
export function textsOver(
  document: TemplateDocument,
  index: number,
  aspect: Frame,
  boxes: Map<number, Rect>,
): number[] {
  const texts: number[] = [];
  const between: Rect[] = [];
  const overlap = (a: Rect, b: Rect) =>
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  for (let k = index + 1; k < document.layers.length; k++) {
    const layer = document.layers[k];
    if (!layer || layer.type === 'gradient') break;
    const box = boxes.get(k);
    if (layer.type === 'text' && box && !between.some((b) => overlap(box, b))) texts.push(k);
    if ((layer.type === 'rect' || layer.type === 'image') && layer.box)
      between.push(boxOf(layer.box, aspect));
  }
  return texts;
}

/**
 * The geometry of the gradient layer at `index` (none: an empty linear gradient): it reaches past
 * the text layers it lies under ({@link textsOver}).
 */
export function gradientOfLayer(
  document: TemplateDocument,
  index: number,
  aspect: Frame,
  blocks: TextBlock[],
  boxes: Map<number, Rect>,
): GradientGeometry {
  const layer = document.layers[index];
  if (layer?.type !== 'gradient') return { kind: 'linear', bands: [] };
  const { width, height } = sizeOf(aspect);
  const under = new Set(textsOver(document, index, aspect, boxes));
  const above = blocks.filter((b) => under.has(b.layer));
  const aboveBoxes = [...boxes].filter(([i]) => under.has(i)).map(([, box]) => box);
  return gradientFor(layer.direction, width, height, above, aboveBoxes);
}
