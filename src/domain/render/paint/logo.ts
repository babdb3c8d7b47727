/** A preset's logo on the card: its corners, its size and where it goes in the safe zone. */
import type { LogoCorner } from '../../design.js';
import { type Frame, safeZoneOf, sizeOf, type Rect } from '../geometry.js';

/** A logo laid over the card: its decoded bytes (PNG, JPEG or WebP, alpha kept) and where it goes. */
export interface LogoOverlay {
  image: Buffer;
  /** Natural size of `image`, px. */
  width: number;
  height: number;
  corner: LogoCorner;
  /** Logo width as a fraction of the canvas width, LOGO.sizeMin to LOGO.sizeMax (design.ts). */
  size: number;
}

/** Gap kept between a logo and the text, as a fraction of the canvas width. */
export const LOGO_GAP = 0.02;
/** A logo is never taller than this fraction of the canvas height (a tall logo is scaled down). */
const LOGO_MAX_HEIGHT = 0.25;

/**
 * Where a logo goes, px: `size` × the canvas width wide (height by its aspect, at most
 * {@link LOGO_MAX_HEIGHT} of the canvas), in its corner of the safe zone (docs/api.md#generate-options).
 */
export function logoRect(aspect: Frame, logo: Omit<LogoOverlay, 'image'>): Rect {
  const canvas = sizeOf(aspect);
  const safe = safeZoneOf(aspect);
  let width = Math.round(canvas.width * logo.size);
  let height = Math.round((width * logo.height) / logo.width);
  const maxHeight = Math.round(canvas.height * LOGO_MAX_HEIGHT);
  if (height > maxHeight) {
    width = Math.max(1, Math.round((width * maxHeight) / height));
    height = maxHeight;
  }
  const left = logo.corner.endsWith('left') ? safe.x : safe.x + safe.width - width;
  const top = logo.corner.startsWith('top') ? safe.y : safe.y + safe.height - height;
  return { x: Math.round(left), y: Math.round(top), width, height };
}

/**
 * Where a logo goes on `frame` and the rectangle text keeps out of, px: contained and centred in
 * `box` (a template's logo layer's box) when given, else in its corner of the safe zone
 * ({@link logoRect}); the text keeps {@link LOGO_GAP} of the canvas width away from it on every side.
 */
export function logoPlacement(
  frame: Frame,
  logo: Omit<LogoOverlay, 'image'>,
  box?: Rect,
): { rect: Rect; reserve: Rect } {
  let rect: Rect;
  if (box) {
    const k = Math.min(box.width / logo.width, box.height / logo.height);
    const width = Math.max(1, Math.round(logo.width * k));
    const height = Math.max(1, Math.round(logo.height * k));
    rect = {
      x: Math.round(box.x + (box.width - width) / 2),
      y: Math.round(box.y + (box.height - height) / 2),
      width,
      height,
    };
  } else rect = logoRect(frame, logo);
  const gap = sizeOf(frame).width * LOGO_GAP;
  return {
    rect,
    reserve: { x: rect.x - gap, y: rect.y - gap, width: rect.width + 2 * gap, height: rect.height + 2 * gap },
  };
}
