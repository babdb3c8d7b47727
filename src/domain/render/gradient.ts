/**
 * Gradient geometry: where the gradient overlay goes for each placement, linear bands from the
 * edge the text sits on or a radial glow behind it. Computed, not rasterised: blend.ts evaluates a
 * band's opacity as a function of one coordinate.
 */
import type { Placement, Rect, TextBlock } from './layout.js';

/** Where the gradient overlay goes: linear bands from an edge, or a radial glow behind the text. */
export type GradientGeometry =
  | {
      kind: 'linear';
      /** Each band: full strength at `from`, 85% at `textAt` (0..1 along the band), zero at `to`. */
      bands: { from: [number, number]; to: [number, number]; textAt: number }[];
    }
  | { kind: 'radial'; cx: number; cy: number; rx: number; ry: number };

export function gradientFor(
  placement: Placement,
  width: number,
  height: number,
  bounds: Rect,
  blocks: TextBlock[],
): GradientGeometry {
  const vertical = (fromTop: boolean): GradientGeometry => {
    if (fromTop) {
      const textEnd = bounds.y + bounds.height;
      const to = Math.min(height, textEnd + 0.3 * height);
      return { kind: 'linear', bands: [{ from: [0, 0], to: [0, to], textAt: textEnd / to }] };
    }
    const to = Math.max(0, bounds.y - 0.3 * height);
    return {
      kind: 'linear',
      bands: [{ from: [0, height], to: [0, to], textAt: (height - bounds.y) / (height - to) }],
    };
  };
  const fromLeft = (textEnd: number) => {
    const to = Math.min(width, textEnd + 0.2 * width);
    return { from: [0, 0] as [number, number], to: [to, 0] as [number, number], textAt: textEnd / to };
  };
  const fromRight = (textStart: number) => {
    const to = Math.max(0, textStart - 0.2 * width);
    return {
      from: [width, 0] as [number, number],
      to: [to, 0] as [number, number],
      textAt: (width - textStart) / (width - to),
    };
  };
  const extent = (role: 'title' | 'subtitle') => {
    const ls = blocks.filter((b) => b.role === role).flatMap((b) => b.lines);
    return {
      left: Math.min(...ls.map((l) => l.x)),
      right: Math.max(...ls.map((l) => l.x + l.width)),
    };
  };
  if ('template' in placement) {
    switch (placement.template) {
      case 'bottom-left':
        return vertical(false);
      case 'left':
        return { kind: 'linear', bands: [fromLeft(bounds.x + bounds.width)] };
      case 'right':
        return { kind: 'linear', bands: [fromRight(bounds.x)] };
      case 'split': {
        const title = extent('title');
        const hasSubtitle = blocks.some((b) => b.role === 'subtitle');
        const subtitleLeft = hasSubtitle ? extent('subtitle').left : width * 0.7;
        return { kind: 'linear', bands: [fromLeft(title.right), fromRight(subtitleLeft)] };
      }
    }
  }
  if (placement.position === 'top') return vertical(true);
  if (placement.position === 'bottom') return vertical(false);
  // Centre or a point: an elliptical glow whose 75% contour circumscribes the text (√2 × half-sides).
  return {
    kind: 'radial',
    cx: bounds.x + bounds.width / 2,
    cy: bounds.y + bounds.height / 2,
    rx: (Math.SQRT2 * bounds.width) / 2 / 0.75,
    ry: (Math.SQRT2 * bounds.height) / 2 / 0.75,
  };
}
