/**
 * The pixels of a template's image, rect and logo layers: straight-alpha RGBA over the layer's box,
 * rounded (`radius`) and faded (`opacity`), for blend.ts to lay over the canvas. Images are resized
 * by libvips (cover crops to fill the box, contain letterboxes it); rounding is ours: a pixel's
 * coverage is the area of it inside the rounded rectangle, estimated at 4 × 4 points, so an edge is
 * anti-aliased as resvg would draw it.
 */
import sharp from 'sharp';
import type { Rect } from '../geometry.js';
import type { Rgb } from './tones.js';
import { MAX_INPUT_PIXELS } from '../limits.js';

/** A layer's pixels and where they go: `rgba` is straight alpha, `rect.width × rect.height`. */
export interface LayerPixels {
  rect: Rect;
  rgba: Buffer;
}

/** `box` snapped to whole pixels (edges rounded), for pixels to be laid on the canvas grid. */
export function pixelRect(box: Rect): Rect {
  const x = Math.round(box.x);
  const y = Math.round(box.y);
  return {
    x,
    y,
    width: Math.max(1, Math.round(box.x + box.width) - x),
    height: Math.max(1, Math.round(box.y + box.height) - y),
  };
}

/**
 * Multiplies the alpha of `rgba` (`width × height`) by the coverage of a rectangle with corners of
 * radius `radius` (px) and by `opacity` (0..1). A radius of half the shorter side makes a circle or a
 * pill. Pixels wholly inside keep their alpha; only those near a corner are sampled.
 */
export function roundAndFade(
  rgba: Buffer,
  width: number,
  height: number,
  radius: number,
  opacity: number,
): void {
  const r = Math.min(radius, width / 2, height / 2);
  if (r <= 0 && opacity >= 1) return;
  const inside = (x: number, y: number): boolean => {
    const cx = x < r ? r : x > width - r ? width - r : x;
    const cy = y < r ? r : y > height - r ? height - r : y;
    const dx = x - cx;
    const dy = y - cy;
    return dx * dx + dy * dy <= r * r;
  };
  for (let y = 0; y < height; y++) {
    const nearY = y < r || y + 1 > height - r;
    for (let x = 0; x < width; x++) {
      let coverage = 1;
      if (nearY && (x < r || x + 1 > width - r)) {
        let hits = 0;
        for (let sy = 0; sy < 4; sy++)
          for (let sx = 0; sx < 4; sx++) if (inside(x + (sx + 0.5) / 4, y + (sy + 0.5) / 4)) hits++;
        coverage = hits / 16;
      }
      const k = coverage * opacity;
      if (k < 1) {
        const i = (y * width + x) * 4 + 3;
        rgba[i] = Math.round((rgba[i] as number) * k);
      }
    }
  }
}

/**
 * An image decoded and resized into `rect` (cover: cropped to fill it, centred; contain: fitted
 * inside it on transparency), rounded and faded. Throws what sharp throws for bytes it cannot decode:
 * the domain checked every image before the render.
 */
export async function imagePixels(
  image: Buffer,
  rect: Rect,
  options: { fit: 'cover' | 'contain'; radius: number; opacity: number },
): Promise<LayerPixels> {
  const rgba = await sharp(image, { limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .resize(rect.width, rect.height, {
      fit: options.fit,
      position: 'centre',
      background: { r: 0, g: 0, b: 0, alpha: 0 },
    })
    .ensureAlpha()
    .raw()
    .toBuffer();
  roundAndFade(
    rgba,
    rect.width,
    rect.height,
    options.radius * Math.min(rect.width, rect.height),
    options.opacity,
  );
  return { rect, rgba };
}

/** A filled rectangle of `colour` over `rect`, rounded and faded. */
export function rectPixels(rect: Rect, colour: Rgb, radius: number, opacity: number): LayerPixels {
  // Buffer.alloc repeats a fill of several bytes: one opaque pixel's RGBA.
  const rgba = Buffer.alloc(rect.width * rect.height * 4, Buffer.from([...colour, 255]));
  roundAndFade(rgba, rect.width, rect.height, radius * Math.min(rect.width, rect.height), opacity);
  return { rect, rgba };
}
