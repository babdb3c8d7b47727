/**
 * Colour glyphs (emoji) from COLRv1 fonts such as Noto Color Emoji, as SVG. HarfBuzz walks the
 * glyph's paint graph (OpenType COLR version 1) and calls us back; each callback becomes SVG:
 *   push/pop transform   → <g transform>
 *   push clip glyph/rect → <g clip-path> with a <clipPath> of the glyph outline or rectangle
 *   colour               → a rectangle covering the clip, filled with the colour
 *   linear/radial        → a rectangle filled with an SVG gradient (COLRv1's three-point linear
 *                          gradient is reduced to two points as the OpenType spec describes)
 *   sweep gradient       → approximated by the mean colour of its stops (SVG has none)
 *   groups               → <g>; composite modes other than source-over are drawn as source-over
 * Coordinates are font units, y up, like glyph outlines. resvg rasterises the result with the rest
 * of the overlay (it draws no colour glyphs of its own).
 */
import * as hb from 'harfbuzzjs';
import { ValidationError } from '../../kernel/errors.js';
import { COLOR_GLYPH_MAX_CHARS } from '../limits.js';

interface PaintState {
  extent: number;
  out: string[];
  defs: string[];
  ids: number;
  prefix: string;
  font: hb.Font;
  /** Characters written so far; past {@link COLOR_GLYPH_MAX_CHARS} nothing more is (`over`). */
  size: number;
  over: boolean;
}

/** Appends `text` to `list` unless the glyph's SVG is over its budget (then it only counts). */
function emit(state: PaintState, list: string[], text: string): void {
  if (state.over) return;
  state.size += text.length;
  if (state.size > COLOR_GLYPH_MAX_CHARS) state.over = true;
  else list.push(text);
}

/**
 * Half the side of the rectangle a fill paints, in units per em: it only has to cover the clip
 * (the glyph's box). Far larger ones (10^5 units) make resvg drop the drawing (measured).
 */
const EXTENT_EM = 2;

const rgba = (c: hb.Color) => `rgba(${c.red},${c.green},${c.blue},${(c.alpha / 255).toFixed(3)})`;
/** A coordinate for SVG text: rounded to 1/100 of a unit, shortest form. */
export const svgNumber = (v: number) => (Math.round(v * 100) / 100).toString();

function stops(line: hb.ColorLine): string {
  return [...line.colorStops]
    .sort((a, b) => a.offset - b.offset)
    .map(
      (s) =>
        `<stop offset="${svgNumber(s.offset)}" stop-color="rgb(${s.color.red},${s.color.green},${s.color.blue})" stop-opacity="${(s.color.alpha / 255).toFixed(3)}"/>`,
    )
    .join('');
}

const SPREAD = ['pad', 'repeat', 'reflect'];

function fillRect(state: PaintState, fill: string): void {
  const e = state.extent;
  emit(state, state.out, `<rect x="${-e}" y="${-e}" width="${2 * e}" height="${2 * e}" fill="${fill}"/>`);
}

let funcs: hb.PaintFuncs | undefined;

function paintFuncs(): hb.PaintFuncs {
  if (funcs) return funcs;
  const f = new hb.PaintFuncs();
  const st = (d: unknown) => d as PaintState;
  f.setPushTransformFunc((xx, yx, xy, yy, dx, dy, d) => {
    emit(
      st(d),
      st(d).out,
      `<g transform="matrix(${[xx, yx, xy, yy, dx, dy].map((v) => v.toFixed(5)).join(' ')})">`,
    );
  });
  f.setPopTransformFunc((d) => emit(st(d), st(d).out, '</g>'));
  f.setColorGlyphFunc(() => false);
  f.setPushClipGlyphFunc((glyph, _font, d) => {
    const s = st(d);
    if (s.over) return; // the outline is not even drawn
    const id = `${s.prefix}c${s.ids++}`;
    emit(s, s.defs, `<clipPath id="${id}"><path d="${s.font.glyphToPath(glyph)}"/></clipPath>`);
    emit(s, s.out, `<g clip-path="url(#${id})">`);
  });
  f.setPushClipRectangleFunc((xmin, ymin, xmax, ymax, d) => {
    const s = st(d);
    const id = `${s.prefix}c${s.ids++}`;
    emit(
      s,
      s.defs,
      `<clipPath id="${id}"><rect x="${svgNumber(xmin)}" y="${svgNumber(ymin)}" width="${svgNumber(xmax - xmin)}" height="${svgNumber(ymax - ymin)}"/></clipPath>`,
    );
    emit(s, s.out, `<g clip-path="url(#${id})">`);
  });
  f.setPopClipFunc((d) => emit(st(d), st(d).out, '</g>'));
  f.setColorFunc((_fg, color, d) => fillRect(st(d), rgba(color)));
  f.setLinearGradientFunc((line, x0, y0, x1, y1, x2, y2, d) => {
    const s = st(d);
    // OpenType COLRv1: the gradient runs from p0 towards p1 projected onto the normal of p0→p2.
    const q2x = x2 - x0;
    const q2y = y2 - y0;
    const k = ((x1 - x0) * q2x + (y1 - y0) * q2y) / (q2x * q2x + q2y * q2y || 1);
    const ex = x1 - k * q2x;
    const ey = y1 - k * q2y;
    const id = `${s.prefix}g${s.ids++}`;
    emit(
      s,
      s.defs,
      `<linearGradient id="${id}" gradientUnits="userSpaceOnUse" x1="${svgNumber(x0)}" y1="${svgNumber(y0)}" x2="${svgNumber(ex)}" y2="${svgNumber(ey)}" spreadMethod="${SPREAD[line.extend] ?? 'pad'}">${stops(line)}</linearGradient>`,
    );
    fillRect(s, `url(#${id})`);
  });
  f.setRadialGradientFunc((line, x0, y0, r0, x1, y1, r1, d) => {
    const s = st(d);
    const id = `${s.prefix}g${s.ids++}`;
    emit(
      s,
      s.defs,
      `<radialGradient id="${id}" gradientUnits="userSpaceOnUse" fx="${svgNumber(x0)}" fy="${svgNumber(y0)}" fr="${svgNumber(r0)}" cx="${svgNumber(x1)}" cy="${svgNumber(y1)}" r="${svgNumber(r1)}" spreadMethod="${SPREAD[line.extend] ?? 'pad'}">${stops(line)}</radialGradient>`,
    );
    fillRect(s, `url(#${id})`);
  });
  f.setSweepGradientFunc((line, _x, _y, _a0, _a1, d) => {
    const n = line.colorStops.length || 1;
    const mean = (k: 'red' | 'green' | 'blue' | 'alpha') =>
      Math.round(line.colorStops.reduce((a, s) => a + s.color[k], 0) / n);
    fillRect(
      st(d),
      rgba({ red: mean('red'), green: mean('green'), blue: mean('blue'), alpha: mean('alpha') }),
    );
  });
  f.setPushGroupFunc((d) => emit(st(d), st(d).out, '<g>'));
  f.setPopGroupFunc((_mode, d) => emit(st(d), st(d).out, '</g>'));
  funcs = f;
  return f;
}

/**
 * The colour glyph `glyphId` of `font` as an SVG fragment in font units (y up): `<defs>` and the
 * painted shapes. Element ids start with `prefix`, which must be unique within one SVG document.
 * Throws ValidationError on `font` (constraint `max`) when the SVG would pass
 * {@link COLOR_GLYPH_MAX_CHARS}: the render fails, at once, rather than drawing it.
 */
export function colorGlyphSvg(font: hb.Font, glyphId: number, prefix: string): string {
  const state: PaintState = {
    extent: font.face.upem * EXTENT_EM,
    out: [],
    defs: [],
    ids: 0,
    prefix,
    font,
    size: 0,
    over: false,
  };
  font.paintGlyph(glyphId, paintFuncs(), state, 0);
  if (state.over)
    throw new ValidationError(
      'font',
      'max',
      `Expected colour glyphs of at most ${COLOR_GLYPH_MAX_CHARS} characters of SVG, but glyph ${glyphId} of this font makes more`,
    );
  return `<defs>${state.defs.join('')}</defs>${state.out.join('')}`;
}
