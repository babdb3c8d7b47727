/**
 * The overlay: gradient and text as one SVG of glyph outlines (no SVG <text>: resvg's own text layout
 * is not used), rasterised by resvg off the main thread. resvg returns premultiplied RGBA.
 */
import { renderAsync } from '@resvg/resvg-js';
import type { GradientGeometry, TextLayout } from './layout.js';
import { BAND_TEXT_ALPHA, RADIAL_TEXT_AT, toHex, type ToneChoice } from './tones.js';

const n = (v: number) => (Math.round(v * 100) / 100).toString();

function gradientSvg(
  geometry: GradientGeometry,
  colour: string,
  strength: number,
): { defs: string; body: string } {
  const stop = (offset: number, opacity: number) =>
    `<stop offset="${n(offset)}" stop-color="${colour}" stop-opacity="${(opacity * strength).toFixed(4)}"/>`;
  if (geometry.kind === 'radial') {
    const { cx, cy, rx, ry } = geometry;
    // Only the ellipse's bounding box is painted: beyond it the glow is fully transparent.
    return {
      defs: `<radialGradient id="g0" gradientUnits="userSpaceOnUse" cx="0" cy="0" r="1" gradientTransform="translate(${n(cx)} ${n(cy)}) scale(${n(rx)} ${n(ry)})">${stop(0, 1)}${stop(RADIAL_TEXT_AT, 0.9)}${stop(1, 0)}</radialGradient>`,
      body: `<rect x="${n(cx - rx)}" y="${n(cy - ry)}" width="${n(2 * rx)}" height="${n(2 * ry)}" fill="url(#g0)"/>`,
    };
  }
  let defs = '';
  let body = '';
  geometry.bands.forEach((band, i) => {
    const textAt = Math.min(Math.max(band.textAt, 0.01), 0.99);
    defs += `<linearGradient id="g${i}" gradientUnits="userSpaceOnUse" x1="${n(band.from[0])}" y1="${n(band.from[1])}" x2="${n(band.to[0])}" y2="${n(band.to[1])}">${stop(0, 1)}${stop(textAt, BAND_TEXT_ALPHA)}${stop(1, 0)}</linearGradient>`;
    // Only the band between its edge and its fade-out end is painted: beyond it the band is transparent.
    const [x0, y0] = band.from;
    const [x1, y1] = band.to;
    const rect =
      x0 === x1
        ? `x="0" y="${n(Math.min(y0, y1))}" width="100%" height="${n(Math.abs(y1 - y0))}"`
        : `x="${n(Math.min(x0, x1))}" y="0" width="${n(Math.abs(x1 - x0))}" height="100%"`;
    body += `<rect ${rect} fill="url(#g${i})"/>`;
  });
  return { defs, body };
}

/**
 * Builds the overlay SVG: gradient (when on), then the text, each block with its own soft shadow
 * (blur σ = 6% of its font size, offset 3%, 55% opacity) when `textShadow` is on.
 */
export function buildOverlaySvg(layout: TextLayout, tones: ToneChoice, textShadow: boolean): string {
  const { width, height } = layout;
  let defs = '';
  let body = '';
  if (tones.gradient) {
    const g = gradientSvg(layout.gradient, toHex(tones.gradient.colour), tones.gradient.strength);
    defs += g.defs;
    body += g.body;
  }
  const fill = toHex(tones.text);
  layout.blocks.forEach((block, bi) => {
    let paths = '';
    for (const line of block.lines) {
      for (const g of line.glyphs) {
        const d = g.font.glyphPath(g.glyphId);
        if (!d) continue;
        const k = g.size / g.font.upem;
        paths += `<path transform="matrix(${k.toFixed(6)} 0 0 ${(-k).toFixed(6)} ${n(g.x)} ${n(g.y)})" d="${d}"/>`;
      }
    }
    let filter = '';
    if (textShadow) {
      const sigma = block.size * 0.06;
      // The filter region is the block's lines plus 3σ and the offset: blurring the whole canvas costs ~40× more.
      const pad = 3 * sigma + block.size * 0.03;
      const x0 = Math.max(0, Math.min(...block.lines.map((l) => l.x)) - pad);
      const y0 = Math.max(0, Math.min(...block.lines.map((l) => l.baseline - l.ascent)) - pad);
      const x1 = Math.min(width, Math.max(...block.lines.map((l) => l.x + l.width)) + pad);
      const y1 = Math.min(height, Math.max(...block.lines.map((l) => l.baseline + l.descent)) + pad);
      defs += `<filter id="s${bi}" filterUnits="userSpaceOnUse" x="${n(x0)}" y="${n(y0)}" width="${n(x1 - x0)}" height="${n(y1 - y0)}"><feDropShadow dx="0" dy="${n(block.size * 0.03)}" stdDeviation="${n(sigma)}" flood-color="${toHex(tones.shadow)}" flood-opacity="0.55"/></filter>`;
      filter = ` filter="url(#s${bi})"`;
    }
    body += `<g fill="${fill}"${filter}>${paths}</g>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><defs>${defs}</defs>${body}</svg>`;
}

/**
 * Rasterises the overlay with resvg on libuv's thread pool. Returns premultiplied RGBA, `width × height × 4` bytes.
 * Only known option keys are passed: resvg-js 2.6 silently drops every option when one key is unknown.
 */
export async function rasterise(svg: string): Promise<Buffer> {
  const image = await renderAsync(svg, { fitTo: { mode: 'original' }, font: { loadSystemFonts: false } });
  return image.pixels;
}
