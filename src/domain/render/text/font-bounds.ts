/**
 * Bounds on an uploaded font (`POST /fonts`), checked once at upload so that no title set in it can
 * take a render's time or memory: a crafted colour font (issue 41) of 62 KB, one 19,000-point glyph
 * clipped by 1,000 layers in each of 40 emoji, made one emoji an SVG of 150 million characters.
 *
 * Every glyph's outline is drawn by HarfBuzz and its points counted; every colour glyph's COLRv1
 * paint graph is walked (HarfBuzz's paint callbacks, nothing drawn) and its operations, its nesting
 * and the outline points its clips draw are counted. The walk yields to the event loop every
 * {@link GLYPHS_PER_SLICE} glyphs, so a large font's check holds up no other request.
 *
 * The limits sit above the fonts Titlecard ships (measured with HarfBuzz's callbacks, as here): the
 * largest text glyph has 1,492 points (Noto Sans Arabic; Noto Sans SC 763), and Noto Color Emoji,
 * at 25 MB more than an upload may be, has glyphs of up to 14,697 points and colour glyphs of up to
 * 9,943 paint operations, 9 deep, clipping with 80,626 points. The crafted font's emoji clip with
 * 19 million.
 */
import * as hb from 'harfbuzzjs';
import { ValidationError } from '../../kernel/errors.js';
import type { LoadedFont } from './fonts.js';
import { FONT_BOUNDS } from '../limits.js';

/** Glyphs checked between two yields to the event loop. */
const GLYPHS_PER_SLICE = 256;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The number of glyphs: `maxp.numGlyphs` (OpenType spec, "maxp"), 0 when the table is missing. */
function glyphCount(font: LoadedFont): number {
  const maxp = font.font.face.referenceTable('maxp');
  return maxp && maxp.length >= 6 ? (maxp[4]! << 8) | maxp[5]! : 0;
}

interface Counter {
  n: number;
}
let drawFuncs: hb.DrawFuncs | undefined;
/** HarfBuzz draw callbacks that only count the points drawn. */
function counting(): hb.DrawFuncs {
  if (drawFuncs) return drawFuncs;
  const f = new hb.DrawFuncs();
  const one = (_x: number, _y: number, c: unknown) => void ((c as Counter).n += 1);
  f.setMoveToFunc(one);
  f.setLineToFunc(one);
  f.setQuadraticToFunc((_cx, _cy, _x, _y, c) => void ((c as Counter).n += 2));
  f.setCubicToFunc((_c1x, _c1y, _c2x, _c2y, _x, _y, c) => void ((c as Counter).n += 3));
  f.setClosePathFunc(() => undefined);
  drawFuncs = f;
  return f;
}

interface PaintCount {
  ops: number;
  depth: number;
  maxDepth: number;
  clipPoints: number;
  points: (glyph: number) => number;
}
let paintFuncs: hb.PaintFuncs | undefined;
/** HarfBuzz paint callbacks that count operations, nesting and clip points, and draw nothing. */
function paintCounting(): hb.PaintFuncs {
  if (paintFuncs) return paintFuncs;
  const f = new hb.PaintFuncs();
  const st = (d: unknown) => d as PaintCount;
  const push = (d: unknown) => {
    const s = st(d);
    s.ops += 1;
    s.depth += 1;
    s.maxDepth = Math.max(s.maxDepth, s.depth);
  };
  const pop = (d: unknown) => void (st(d).depth -= 1);
  const op = (d: unknown) => void (st(d).ops += 1);
  f.setPushTransformFunc((_a, _b, _c, _d, _e, _f, d) => push(d));
  f.setPopTransformFunc(pop);
  f.setColorGlyphFunc(() => false);
  f.setPushClipGlyphFunc((glyph, _font, d) => {
    push(d);
    st(d).clipPoints += st(d).points(glyph);
  });
  f.setPushClipRectangleFunc((_x0, _y0, _x1, _y1, d) => push(d));
  f.setPopClipFunc(pop);
  f.setColorFunc((_fg, _c, d) => op(d));
  f.setLinearGradientFunc((_l, _x0, _y0, _x1, _y1, _x2, _y2, d) => op(d));
  f.setRadialGradientFunc((_l, _x0, _y0, _r0, _x1, _y1, _r1, d) => op(d));
  f.setSweepGradientFunc((_l, _x, _y, _a0, _a1, d) => op(d));
  f.setPushGroupFunc(push);
  f.setPopGroupFunc((_mode, d) => pop(d));
  paintFuncs = f;
  return f;
}

/**
 * Checks `font` against {@link FONT_BOUNDS}. Throws ValidationError on `font` (constraint `max`)
 * naming the glyph and the limit it passes.
 */
export async function checkFontBounds(font: LoadedFont): Promise<void> {
  const count = glyphCount(font);
  const points = new Map<number, number>();
  const pointsOf = (glyph: number) => {
    let n = points.get(glyph);
    if (n === undefined) {
      const c: Counter = { n: 0 };
      font.font.drawGlyph(glyph, counting(), c);
      n = c.n;
      points.set(glyph, n);
    }
    return n;
  };
  const refuse = (message: string) => {
    throw new ValidationError(
      'font',
      'max',
      `Expected a font within Titlecard's limits for font, but ${message}`,
    );
  };
  for (let glyph = 0; glyph < count; glyph++) {
    if (glyph % GLYPHS_PER_SLICE === 0 && glyph > 0) await nextTurn();
    const n = pointsOf(glyph);
    if (n > FONT_BOUNDS.pointsPerGlyph)
      refuse(`glyph ${glyph} has ${n} outline points (at most ${FONT_BOUNDS.pointsPerGlyph})`);
  }
  if (!font.isColor) return;
  for (let glyph = 0; glyph < count; glyph++) {
    if (glyph % GLYPHS_PER_SLICE === 0 && glyph > 0) await nextTurn();
    const state: PaintCount = { ops: 0, depth: 0, maxDepth: 0, clipPoints: 0, points: pointsOf };
    font.font.paintGlyph(glyph, paintCounting(), state, 0);
    if (state.ops > FONT_BOUNDS.paintsPerGlyph)
      refuse(
        `colour glyph ${glyph} has ${state.ops} paint operations (at most ${FONT_BOUNDS.paintsPerGlyph})`,
      );
    if (state.maxDepth > FONT_BOUNDS.paintDepth)
      refuse(
        `colour glyph ${glyph} nests its paints ${state.maxDepth} deep (at most ${FONT_BOUNDS.paintDepth})`,
      );
    if (state.clipPoints > FONT_BOUNDS.clipPointsPerGlyph)
      refuse(
        `colour glyph ${glyph} clips with ${state.clipPoints} outline points in all (at most ${FONT_BOUNDS.clipPointsPerGlyph})`,
      );
  }
}
