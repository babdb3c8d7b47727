/**
 * The overlay: gradient, text shadow and text, each an SVG of its own built from glyph outlines (no
 * SVG <text>: resvg's own text layout is not used), rasterised by resvg on libuv's thread pool, all
 * three at once. The smooth layers are rasterised small and scaled up, which looks the same and costs
 * far less: the gradient at 1/4 scale, the blurred shadow at 1/2 (measured on a 1200×630 card:
 * gradient + shadow + text 76 ms at full scale, see the closing note of the core issue and
 * `npm run bench`). resvg returns premultiplied RGBA.
 */
import { renderAsync } from '@resvg/resvg-js';
import { svgNumber } from './colr.js';
import type { GradientGeometry, TextLayout } from './layout.js';
import { BAND_TEXT_ALPHA, RADIAL_TEXT_AT, toHex, type ToneChoice } from './tones.js';

const n = svgNumber;

/** Scale at which each layer is rasterised before being stretched to the canvas. */
export const LAYER_SCALE = { gradient: 0.25, shadow: 0.5, text: 1 } as const;
/** Shadow look, as fractions of the block's font size: blur σ, downward offset; and its opacity. */
const SHADOW_SIGMA = 0.06;
const SHADOW_OFFSET = 0.03;
const SHADOW_OPACITY = 0.55;

function gradientBody(
  geometry: GradientGeometry,
  colour: string,
  strength: number,
): { defs: string; body: string } {
  const stop = (offset: number, opacity: number) =>
    `<stop offset="${n(offset)}" stop-color="${colour}" stop-opacity="${(opacity * strength).toFixed(4)}"/>`;
  if (geometry.kind === 'radial') {
    const { cx, cy, rx, ry } = geometry;
    return {
      defs: `<radialGradient id="g0" gradientUnits="userSpaceOnUse" cx="0" cy="0" r="1" gradientTransform="translate(${n(cx)} ${n(cy)}) scale(${n(rx)} ${n(ry)})">${stop(0, 1)}${stop(RADIAL_TEXT_AT, 0.9)}${stop(1, 0)}</radialGradient>`,
      body: `<rect width="100%" height="100%" fill="url(#g0)"/>`,
    };
  }
  let defs = '';
  let body = '';
  geometry.bands.forEach((band, i) => {
    const textAt = Math.min(Math.max(band.textAt, 0.01), 0.99);
    defs += `<linearGradient id="g${i}" gradientUnits="userSpaceOnUse" x1="${n(band.from[0])}" y1="${n(band.from[1])}" x2="${n(band.to[0])}" y2="${n(band.to[1])}">${stop(0, 1)}${stop(textAt, BAND_TEXT_ALPHA)}${stop(1, 0)}</linearGradient>`;
    body += `<rect width="100%" height="100%" fill="url(#g${i})"/>`;
  });
  return { defs, body };
}

const svg = (width: number, height: number, defs: string, body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><defs>${defs}</defs>${body}</svg>`;

/** The SVG documents of the overlay's layers, bottom to top; absent layers are off. */
export interface OverlaySvgs {
  gradient: string | undefined;
  shadow: string | undefined;
  text: string;
}

/** Builds the layers: gradient (when on), soft shadow of each block (when on), text. */
export function buildOverlaySvgs(layout: TextLayout, tones: ToneChoice, textShadow: boolean): OverlaySvgs {
  const { width, height } = layout;
  const fill = toHex(tones.text);
  let text = '';
  let shadowDefs = '';
  let shadow = '';
  layout.blocks.forEach((block, bi) => {
    let paths = '';
    let colour = '';
    for (const line of block.lines) {
      for (const g of line.glyphs) {
        const k = g.size / g.font.upem;
        const matrix = `matrix(${k.toFixed(6)} 0 0 ${(-k).toFixed(6)} ${n(g.x)} ${n(g.y)})`;
        // Colour glyphs (emoji) keep their own colours and cast no shadow of the text colour.
        if (g.font.isColor) colour += `<g transform="${matrix}">${g.font.colorSvg(g.glyphId)}</g>`;
        else {
          const d = g.font.glyphPath(g.glyphId);
          if (d) paths += `<path transform="${matrix}" d="${d}"/>`;
        }
      }
    }
    text += `<g fill="${fill}">${paths}</g>${colour}`;
    if (textShadow) {
      shadowDefs += `<filter id="s${bi}" x="-25%" y="-25%" width="150%" height="150%"><feGaussianBlur stdDeviation="${n(block.size * SHADOW_SIGMA)}"/></filter>`;
      shadow += `<g fill="${toHex(tones.shadow)}" opacity="${SHADOW_OPACITY}" filter="url(#s${bi})" transform="translate(0 ${n(block.size * SHADOW_OFFSET)})">${paths}</g>`;
    }
  });
  let gradient: string | undefined;
  if (tones.gradient) {
    const g = gradientBody(layout.gradient, toHex(tones.gradient.colour), tones.gradient.strength);
    gradient = svg(width, height, g.defs, g.body);
  }
  return {
    gradient,
    shadow: textShadow ? svg(width, height, shadowDefs, shadow) : undefined,
    text: svg(width, height, '', text),
  };
}

/** A rasterised layer: premultiplied RGBA of `width × height`, to be stretched to the canvas. */
export interface RasterLayer {
  pixels: Buffer;
  width: number;
  height: number;
}

/**
 * Rasterises an SVG with resvg at `scale` on libuv's thread pool. Only known option keys are passed:
 * resvg-js 2.6 silently drops every option when one key is unknown (and then loads all system fonts).
 */
export async function rasterise(source: string, scale = 1): Promise<RasterLayer> {
  const image = await renderAsync(source, {
    fitTo: scale === 1 ? { mode: 'original' } : { mode: 'zoom', value: scale },
    font: { loadSystemFonts: false },
  });
  return { pixels: image.pixels, width: image.width, height: image.height };
}
