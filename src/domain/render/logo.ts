/** A preset's logo on the card: its corners, its size and where it goes in the safe zone. */
import { type Frame, safeZoneOf, sizeOf, type Rect } from './geometry.js';

/** Corners a logo can sit in (a preset's `logo.corner`). */
export const LOGO_CORNERS = ['top-left', 'top-right', 'bottom-left', 'bottom-right'] as const;
export type LogoCorner = (typeof LOGO_CORNERS)[number];

/** A logo laid over the card: its decoded bytes (PNG, JPEG or WebP, alpha kept) and where it goes. */
export interface LogoOverlay {
  image: Buffer;
  /** Natural size of `image`, px. */
  width: number;
  height: number;
  corner: LogoCorner;
  /** Logo width as a fraction of the canvas width, 0.05 to 0.3. */
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
