/**
 * Contrast measured from the outside, on a finished image alone, with none of the renderer's code:
 * its own WCAG 2.2 relative luminance and contrast ratio, glyphs found by their colour, and the
 * background read where a reader sees it, in a ring 3 to 6 px outside the glyphs.
 */
import sharp from 'sharp';

type Rgb = readonly [number, number, number];

/** WCAG 2.2, "relative luminance": sRGB channels linearised and weighted (0.2126, 0.7152, 0.0722). */
function luminance(r: number, g: number, b: number): number {
  const lin = (v: number) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** WCAG 2.2, "contrast ratio": (L1 + 0.05) / (L2 + 0.05), the lighter over the darker. */
function ratio(a: number, b: number): number {
  return a > b ? (a + 0.05) / (b + 0.05) : (b + 0.05) / (a + 0.05);
}

export interface OutsideContrast {
  /** Pixels taken as glyph interior (within `tolerance` of the text colour on every channel). */
  glyphPixels: number;
  /** Pixels of the ring 3–6 px outside the glyphs. */
  ringPixels: number;
  /** 10th-percentile (worst tenth) contrast ratio of the text colour against the ring's pixels. */
  p10: number;
}

type Region = { x: number; y: number; width: number; height: number };

/**
 * Measures `image` (any format sharp reads; transparency is flattened on white) inside `regions`
 * (px; the lines' boxes with a margin): the glyphs are the pixels of `text` colour, the background
 * the ring 3 to 6 px (chessboard distance) outside them. Pixels outside every region count for
 * neither, so a dark patch of the photo elsewhere is not taken for black text.
 */
export async function outsideContrast(
  image: Buffer,
  regions: Region | Region[],
  text: Rgb,
  tolerance = 10,
): Promise<OutsideContrast> {
  const list = Array.isArray(regions) ? regions : [regions];
  const region = {
    x: Math.min(...list.map((r) => r.x)),
    y: Math.min(...list.map((r) => r.y)),
    width: Math.max(...list.map((r) => r.x + r.width)) - Math.min(...list.map((r) => r.x)),
    height: Math.max(...list.map((r) => r.y + r.height)) - Math.min(...list.map((r) => r.y)),
  };
  const inside = (px: number, py: number) =>
    list.some((r) => px >= r.x && px < r.x + r.width && py >= r.y && py < r.y + r.height);
  const { data, info } = await sharp(image)
    .flatten({ background: '#ffffff' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const x0 = Math.max(0, Math.floor(region.x));
  const y0 = Math.max(0, Math.floor(region.y));
  const x1 = Math.min(info.width, Math.ceil(region.x + region.width));
  const y1 = Math.min(info.height, Math.ceil(region.y + region.height));
  const w = x1 - x0;
  const h = y1 - y0;
  const at = (x: number, y: number) => ((y0 + y) * info.width + x0 + x) * 3;

  // Chessboard distance to the nearest glyph pixel, two passes (Rosenfeld and Pfaltz, 1966).
  const far = 1 << 20;
  const dist = new Int32Array(w * h).fill(far);
  let glyphPixels = 0;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = at(x, y);
      const glyph =
        inside(x0 + x, y0 + y) &&
        Math.abs((data[i] as number) - text[0]) <= tolerance &&
        Math.abs((data[i + 1] as number) - text[1]) <= tolerance &&
        Math.abs((data[i + 2] as number) - text[2]) <= tolerance;
      if (glyph) {
        dist[y * w + x] = 0;
        glyphPixels++;
      }
    }
  const d = (x: number, y: number) =>
    x < 0 || y < 0 || x >= w || y >= h ? far : (dist[y * w + x] as number);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      dist[y * w + x] = Math.min(
        d(x, y),
        d(x - 1, y) + 1,
        d(x, y - 1) + 1,
        d(x - 1, y - 1) + 1,
        d(x + 1, y - 1) + 1,
      );
  for (let y = h - 1; y >= 0; y--)
    for (let x = w - 1; x >= 0; x--)
      dist[y * w + x] = Math.min(
        d(x, y),
        d(x + 1, y) + 1,
        d(x, y + 1) + 1,
        d(x + 1, y + 1) + 1,
        d(x - 1, y + 1) + 1,
      );

  const lt = luminance(text[0], text[1], text[2]);
  const ratios: number[] = [];
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const k = dist[y * w + x] as number;
      if (k < 3 || k > 6 || !inside(x0 + x, y0 + y)) continue;
      const i = at(x, y);
      ratios.push(ratio(lt, luminance(data[i] as number, data[i + 1] as number, data[i + 2] as number)));
    }
  ratios.sort((a, b) => a - b);
  return {
    glyphPixels,
    ringPixels: ratios.length,
    p10: ratios.length ? (ratios[Math.floor(ratios.length * 0.1)] as number) : 0,
  };
}
