/**
 * Gradient geometry: where the gradient overlay goes for each placement, linear bands from the
 * edge the text sits on or a radial glow behind it. Computed, not rasterised: blend.ts evaluates a
 * band's opacity as a function of one coordinate.
 */
import type { GRADIENT_DIRECTIONS, TemplateDocument } from '../document/document.js';
import {
  boxOf,
  type Frame,
  type GradientGeometry,
  type LineBlock,
  lineBox,
  type Rect,
  sizeOf,
  unionOf,
} from '../geometry.js';
import { FADE_STEEPEST } from './tones.js';

export type GradientDirection = (typeof GRADIENT_DIRECTIONS)[number];

/**
 * How far a linear band fades out beyond the text, as fractions of the canvas dimension it runs
 * along (issue 42, item 2: the scrim keeps the photo). It fades over at most `max` (30% of the
 * height, 20% of the width) and ends by `boundary` (the middle of the card; for `to-center`, halfway
 * from the text to the middle), so that the half of the card away from the text keeps its photo;
 * but over at least `min` (10%, 120 px of an `og` card's width) and `minPx` (128 px: sixteen 8 px
 * bands), so that the fade stays gradual where the text reaches the middle or beyond. A deeper
 * scrim's fade is lengthened past these bounds as its depth needs ({@link fadedForDepth}).
 */
export const BAND_FADE = {
  max: { height: 0.3, width: 0.2 },
  min: 0.1,
  minPx: 128,
  boundary: 0.5,
} as const;

/**
 * Most the scrim may change the photo between adjacent 8 px bands across its fade, in levels of
 * luma (of 255): issue 42's bound for no visible edge is 8; 7 leaves room for rounding.
 */
export const FADE_STEP_LEVELS = 7;

/**
 * `geometry` with each linear band's fade beyond the text lengthened, where it must be, so that a
 * scrim that changes the photo by `depth` levels where the text ends (its strength × its colour's
 * distance from the photo there: {@link scrimDepth} in tones.ts) changes it by at most
 * {@link FADE_STEP_LEVELS} between adjacent 8 px bands: the fade's steepest slope is
 * {@link FADE_STEEPEST} times its mean (tones.ts `fadeCurve`), so it needs
 * FADE_STEEPEST × depth × 8 / 7 px (issue 55, item 8: coral text on a flat grey 192 took the photo
 * down to 43 and back in 128 px, a step of 12). The text's own part of the band is kept; the fade
 * goes at most to the band's `reach` (default the far edge; to-center's bands, the middle). The
 * half away from the text still changes by at most 12 levels on the test photos (issue 42;
 * test/render/scrim.test.ts). Radial glows are unchanged.
 */
export function fadedForDepth(
  geometry: GradientGeometry,
  depth: number,
  width: number,
  height: number,
): GradientGeometry {
  if (geometry.kind !== 'linear') return geometry;
  const needed = (FADE_STEEPEST * depth * 8) / FADE_STEP_LEVELS;
  return {
    kind: 'linear',
    bands: geometry.bands.map((band) => {
      const dx = band.to[0] - band.from[0];
      const dy = band.to[1] - band.from[1];
      const length = Math.hypot(dx, dy);
      const textEnd = band.textAt * length;
      if (length === 0 || length - textEnd >= needed) return band;
      // Along the band's axis (horizontal or vertical), up to its reach.
      const edge =
        dx !== 0
          ? dx > 0
            ? width - band.from[0]
            : band.from[0]
          : dy > 0
            ? height - band.from[1]
            : band.from[1];
      const room = Math.min(edge, Math.max(length, band.reach ?? edge));
      if (room <= length) return band;
      const longer = Math.min(textEnd + needed, room);
      const scale = longer / length;
      return {
        ...band,
        to: [band.from[0] + dx * scale, band.from[1] + dy * scale] as [number, number],
        textAt: textEnd / longer,
      };
    }),
  };
}

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
  blocks: LineBlock[],
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
        // A deeper scrim's fade stops at the middle, where the other side's begins.
        bands: [
          { ...fromLeft(left.right, halfwayToMiddle(left.right, width)), reach: width / 2 },
          { ...fromRight(right.left, halfwayToMiddle(width - right.left, width)), reach: width / 2 },
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
  blocks: LineBlock[],
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
