/**
 * Text layout: where the title and subtitle go on the canvas, at what size, broken into which lines.
 *
 * Geometry (spec 4.1): the safe zone keeps 5% of each dimension free on every edge; with `og` the
 * bottom 28% is reserved for the mobile-card overlay of social networks, so no text goes below 72% of
 * the height. Templates place a text box inside the safe zone:
 *   bottom-left: left-aligned, anchored to the bottom of the safe zone, 80% of its width;
 *   left / right: the left or right 45% of the canvas, vertically centred, right-aligned for `right`;
 *   split: title in the left 30%, subtitle in the right 30% (right-aligned), both blocks top-aligned
 *          to each other and centred together;
 *   position top | center | bottom: centred text, 80% of the safe width, at the top, middle or bottom;
 *   position {x, y}: centred text, 60% of the safe width, block centred at (x·width, y·height) and
 *          moved inside the safe zone where needed.
 *
 * Sizing: without `fontSize`, the title gets the largest size from 120 down to 24 px at which it fits
 * its box in at most {@link maxLinesFor} lines with no word split, and the subtitle fits too; the
 * subtitle is 45% of the title size (at least 18 px). Lines break as line-breaking.ts says. Text
 * that still does not fit is cut with an ellipsis: nothing is ever drawn outside the box. The
 * gradient's geometry for each placement is gradient.ts's.
 */
import type { Aspect, FontName, Template } from '../design.js';
import { ASPECTS, LIMITS } from '../design.js';
import type { FontLibrary, LoadedFont } from './fonts.js';
import { gradientFor, type GradientGeometry } from './gradient.js';
import {
  balanced,
  paragraph,
  splitOverwide,
  widestSegment,
  type Paragraph,
  type Segment,
} from './line-breaking.js';
import { shapeLine, type ShapedText } from './shaping.js';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export type Align = 'left' | 'center' | 'right';

/**
 * Most lines before the automatic size goes down, by the column's width as a fraction of the canvas:
 * wide boxes (bottom-left, positions) 4 title / 3 subtitle lines; half-width columns (left, right)
 * 6 / 4; the narrow columns of split 10 / 8. Narrow columns hold fewer words a line, so they need more
 * lines for the same title at a readable size.
 */
export function maxLinesFor(role: 'title' | 'subtitle', boxWidthFraction: number): number {
  if (boxWidthFraction >= 0.55) return role === 'title' ? 4 : 3;
  if (boxWidthFraction >= 0.35) return role === 'title' ? 6 : 4;
  return role === 'title' ? 10 : 8;
}
/** Line height as a multiple of the font size. */
export const TITLE_LINE_HEIGHT = 1.15;
export const SUBTITLE_LINE_HEIGHT = 1.3;
/** Space between title and subtitle, as a multiple of the title size. */
const BLOCK_GAP = 0.4;
/** Subtitle size as a fraction of the title size, and its floor in px. */
const SUBTITLE_RATIO = 0.45;
const SUBTITLE_MIN_PX = 18;

/** The reserved bottom band of `og` (spec 4.1 rule 3). */
export const OG_RESERVED_BOTTOM = 0.28;
/** The margin of every edge, as a fraction of that dimension (spec 4.1 rule 3). */
export const SAFE_MARGIN = 0.05;

export type Placement =
  { template: Template } | { position: 'top' | 'center' | 'bottom' | { x: number; y: number } };

export interface PlacedGlyph {
  font: LoadedFont;
  glyphId: number;
  /** Pen position of the glyph origin, px. */
  x: number;
  /** Baseline, px from the top. */
  y: number;
  /** Font size, px. */
  size: number;
}

export interface LaidLine {
  text: string;
  /** Left edge of the line, px. */
  x: number;
  baseline: number;
  width: number;
  size: number;
  /** Ascender and descender of the primary font at this size, px. */
  ascent: number;
  descent: number;
  glyphs: PlacedGlyph[];
}

export interface TextBlock {
  role: 'title' | 'subtitle';
  size: number;
  align: Align;
  box: Rect;
  lines: LaidLine[];
}

export interface TextLayout {
  width: number;
  height: number;
  safeZone: Rect;
  blocks: TextBlock[];
  /** Union of the line boxes (ascent to descent), px. */
  bounds: Rect;
  gradient: GradientGeometry;
  titleSize: number;
  /** True when text was cut with an ellipsis. */
  truncated: boolean;
}

export interface LayoutRequest {
  aspect: Aspect;
  placement: Placement;
  title: string;
  subtitle?: string | undefined;
  /** A bundled family, or an uploaded font (both weights). */
  font: FontName | LoadedFont;
  /** Title size in px; automatic when undefined. */
  fontSize?: number | undefined;
  /** A rectangle the text must keep out of (a logo and its gap), px; the columns shrink vertically. */
  reserve?: Rect | undefined;
}

interface Column {
  roles: ('title' | 'subtitle')[];
  box: Rect;
  align: Align;
  valign: 'top' | 'center' | 'bottom';
}

/** The safe zone of an aspect (spec 4.1 rule 3), px. */
export function safeZoneOf(aspect: Aspect): Rect {
  const { width, height } = ASPECTS[aspect];
  const mx = width * SAFE_MARGIN;
  const my = height * SAFE_MARGIN;
  const bottom = aspect === 'og' ? height * (1 - OG_RESERVED_BOTTOM) : height - my;
  return { x: mx, y: my, width: width - 2 * mx, height: bottom - my };
}

function columnsFor(aspect: Aspect, placement: Placement, hasSubtitle: boolean): Column[] {
  const { width } = ASPECTS[aspect];
  const safe = safeZoneOf(aspect);
  const right = safe.x + safe.width;
  const both: ('title' | 'subtitle')[] = hasSubtitle ? ['title', 'subtitle'] : ['title'];
  const full = (x0: number, x1: number): Rect => ({ x: x0, y: safe.y, width: x1 - x0, height: safe.height });
  if ('template' in placement) {
    switch (placement.template) {
      case 'bottom-left':
        return [
          { roles: both, box: full(safe.x, safe.x + safe.width * 0.8), align: 'left', valign: 'bottom' },
        ];
      case 'left':
        return [{ roles: both, box: full(safe.x, width * 0.45), align: 'left', valign: 'center' }];
      case 'right':
        return [{ roles: both, box: full(width * 0.55, right), align: 'right', valign: 'center' }];
      case 'split': {
        const cols: Column[] = [
          { roles: ['title'], box: full(safe.x, width * 0.3), align: 'left', valign: 'center' },
        ];
        if (hasSubtitle)
          cols.push({ roles: ['subtitle'], box: full(width * 0.7, right), align: 'right', valign: 'center' });
        return cols;
      }
    }
  }
  const position = placement.position;
  if (typeof position === 'string') {
    const inset = safe.width * 0.1;
    return [
      {
        roles: both,
        box: full(safe.x + inset, right - inset),
        align: 'center',
        valign: position === 'center' ? 'center' : position,
      },
    ];
  }
  const boxWidth = safe.width * 0.6;
  const x0 = Math.min(Math.max(position.x * width - boxWidth / 2, safe.x), right - boxWidth);
  return [{ roles: both, box: full(x0, x0 + boxWidth), align: 'center', valign: 'center' }];
}

/**
 * Columns kept out of `reserve` (a logo in a corner of the safe zone): a column whose width it
 * overlaps gives up the band from its edge to the far side of the rectangle.
 */
function avoid(columns: Column[], reserve: Rect | undefined): Column[] {
  if (!reserve) return columns;
  return columns.map((c) => {
    const { box } = c;
    if (reserve.x >= box.x + box.width || reserve.x + reserve.width <= box.x) return c;
    const top = reserve.y - box.y < box.y + box.height - (reserve.y + reserve.height);
    const next = top
      ? { ...box, y: reserve.y + reserve.height, height: box.y + box.height - (reserve.y + reserve.height) }
      : { ...box, height: reserve.y - box.y };
    return { ...c, box: next };
  });
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

interface BlockPlan {
  role: 'title' | 'subtitle';
  paragraph: Paragraph;
  size: number;
  lineHeight: number;
  lines: [number, number][];
  ellipsisAfter: number | undefined;
}

function primary(p: Paragraph): LoadedFont {
  return p.chain[0] as LoadedFont;
}

function blockHeight(
  plan: { paragraph: Paragraph; size: number; lineHeight: number },
  lineCount: number,
): number {
  const f = primary(plan.paragraph);
  return (lineCount - 1) * plan.lineHeight + ((f.ascender + f.descender) / f.upem) * plan.size;
}

function columnHeight(plans: BlockPlan[], titleSize: number): number {
  let h = 0;
  plans.forEach((p, i) => {
    if (i > 0) h += BLOCK_GAP * titleSize;
    h += blockHeight(p, p.lines.length);
  });
  return h;
}

/** Lays out title and subtitle; see the module comment for the rules. Pure: no I/O. */
export function layoutText(fonts: FontLibrary, req: LayoutRequest): TextLayout {
  const { width, height } = ASPECTS[req.aspect];
  const hasSubtitle = req.subtitle !== undefined && req.subtitle.length > 0;
  const columns = avoid(columnsFor(req.aspect, req.placement, hasSubtitle), req.reserve);
  const paragraphs = {
    title: paragraph(req.title, fonts.chain(req.font, 'bold', req.title)),
    subtitle: hasSubtitle
      ? paragraph(req.subtitle as string, fonts.chain(req.font, 'regular', req.subtitle))
      : undefined,
  };
  const subtitleSize = (t: number) => Math.max(SUBTITLE_MIN_PX, Math.round(t * SUBTITLE_RATIO));

  const planColumn = (col: Column, titleSize: number, strict: boolean): BlockPlan[] | undefined => {
    const plans: BlockPlan[] = [];
    for (const role of col.roles) {
      const size = role === 'title' ? titleSize : subtitleSize(titleSize);
      const maxEm = col.box.width / size;
      let p = paragraphs[role] as Paragraph;
      if (strict && widestSegment(p) > maxEm) return undefined;
      p = splitOverwide(p, maxEm);
      const lines = balanced(p.segments, maxEm);
      const maxLines = maxLinesFor(role, col.box.width / width);
      if (strict && lines.length > maxLines) return undefined;
      plans.push({
        role,
        paragraph: p,
        size,
        lineHeight: size * (role === 'title' ? TITLE_LINE_HEIGHT : SUBTITLE_LINE_HEIGHT),
        lines,
        ellipsisAfter: undefined,
      });
    }
    if (strict && columnHeight(plans, titleSize) > col.box.height) return undefined;
    return plans;
  };

  let titleSize: number = req.fontSize ?? LIMITS.fontSizeMin;
  let plans: BlockPlan[][] | undefined;
  if (req.fontSize === undefined) {
    for (let s = LIMITS.fontSizeMax; s >= LIMITS.fontSizeMin; s--) {
      const attempt = columns.map((c) => planColumn(c, s, true));
      if (attempt.every((a) => a !== undefined)) {
        plans = attempt;
        titleSize = s;
        break;
      }
    }
  }
  let truncated = false;
  if (!plans) {
    // Explicit size, or nothing fits even at 24 px: keep the size, cut what overflows with an ellipsis.
    plans = columns.map((c) => planColumn(c, titleSize, false) as BlockPlan[]);
    plans.forEach((colPlans, ci) => {
      const box = (columns[ci] as Column).box;
      const limitLines = req.fontSize === undefined;
      for (const plan of colPlans) {
        const maxLines = limitLines ? maxLinesFor(plan.role, box.width / width) : Infinity;
        if (plan.lines.length > maxLines) {
          plan.lines = plan.lines.slice(0, maxLines);
          plan.ellipsisAfter = plan.lines.length - 1;
          truncated = true;
        }
      }
      // Drop lines from the end (subtitle first) until the column fits its box height.
      while (columnHeight(colPlans, titleSize) > box.height) {
        const last = colPlans.at(-1) as BlockPlan;
        if (last.lines.length > 1) {
          last.lines = last.lines.slice(0, -1);
          last.ellipsisAfter = last.lines.length - 1;
        } else if (colPlans.length > 1) colPlans.pop();
        else break;
        truncated = true;
      }
    });
  }

  const blocks: TextBlock[] = [];
  // Split columns share one top edge: the tallest block is centred and the other aligns to it.
  const heights = plans.map((p) => columnHeight(p, titleSize));
  const sharedHeight = Math.max(...heights);
  plans.forEach((colPlans, ci) => {
    const col = columns[ci] as Column;
    const h = columns.length > 1 ? sharedHeight : (heights[ci] as number);
    let top: number;
    if (col.valign === 'top') top = col.box.y;
    else if (col.valign === 'bottom') top = col.box.y + col.box.height - h;
    else top = col.box.y + (col.box.height - h) / 2;
    if (!('template' in req.placement) && typeof req.placement.position === 'object') {
      top = req.placement.position.y * height - h / 2;
      top = Math.min(Math.max(top, col.box.y), col.box.y + col.box.height - h);
    }
    let y = top;
    colPlans.forEach((plan, bi) => {
      if (bi > 0) y += BLOCK_GAP * titleSize;
      blocks.push(placeBlock(plan, col, y));
      y += blockHeight(plan, plan.lines.length);
    });
  });

  const point =
    'position' in req.placement && typeof req.placement.position === 'object'
      ? req.placement.position
      : undefined;
  if (point) centreOn(blocks, point.x * width, safeZoneOf(req.aspect));

  const lines = blocks.flatMap((b) => b.lines);
  const left = Math.min(...lines.map((l) => l.x));
  const top = Math.min(...lines.map((l) => l.baseline - l.ascent));
  const right = Math.max(...lines.map((l) => l.x + l.width));
  const bottom = Math.max(...lines.map((l) => l.baseline + l.descent));
  const bounds = { x: left, y: top, width: right - left, height: bottom - top };
  return {
    width,
    height,
    safeZone: safeZoneOf(req.aspect),
    blocks,
    bounds,
    gradient: gradientFor(req.placement, width, height, bounds, blocks),
    titleSize,
    truncated,
  };
}

/**
 * Moves the text horizontally so that its lines are centred on `cx`, as far as the safe zone allows
 * (position {x, y}: the block, not its wrapping box, is what the caller points at).
 */
function centreOn(blocks: TextBlock[], cx: number, safe: Rect): void {
  const lines = blocks.flatMap((b) => b.lines);
  const left = Math.min(...lines.map((l) => l.x));
  const right = Math.max(...lines.map((l) => l.x + l.width));
  const shift = Math.min(Math.max(cx - (left + right) / 2, safe.x - left), safe.x + safe.width - right);
  for (const line of lines) {
    line.x += shift;
    for (const g of line.glyphs) g.x += shift;
  }
}

const ELLIPSIS = '\u2026';

function placeBlock(plan: BlockPlan, col: Column, top: number): TextBlock {
  const p = plan.paragraph;
  const f = primary(p);
  const ascent = (f.ascender / f.upem) * plan.size;
  const descent = (f.descender / f.upem) * plan.size;
  const maxWidth = col.box.width;
  const lines: LaidLine[] = plan.lines.map(([a, b], i) => {
    const start = (p.segments[a] as Segment).start;
    const end = (p.segments[b - 1] as Segment).end;
    let text = p.text.slice(start, end).trimEnd();
    let shaped: ShapedText = shapeLine(text, p.chain, p.rtl);
    if (plan.ellipsisAfter === i) {
      // Remove whole graphemes from the end until the text and the ellipsis fit.
      const parts = [...graphemes.segment(text)].map((s) => s.segment);
      for (;;) {
        text = parts.join('').trimEnd() + ELLIPSIS;
        shaped = shapeLine(text, p.chain, p.rtl);
        if (shaped.width * plan.size <= maxWidth || parts.length === 0) break;
        parts.pop();
      }
    }
    const width = shaped.width * plan.size;
    // Right-to-left paragraphs align to the right edge of the box in every template.
    const align = p.rtl ? 'right' : col.align;
    const x =
      align === 'left'
        ? col.box.x
        : align === 'right'
          ? col.box.x + col.box.width - width
          : col.box.x + (col.box.width - width) / 2;
    const baseline = top + ascent + i * plan.lineHeight;
    let pen = x;
    const glyphs: PlacedGlyph[] = shaped.glyphs.map((g) => {
      const placed = {
        font: g.font,
        glyphId: g.glyphId,
        x: pen + g.xOffset * plan.size,
        y: baseline - g.yOffset * plan.size,
        size: plan.size,
      };
      pen += g.xAdvance * plan.size;
      return placed;
    });
    return { text, x, baseline, width, size: plan.size, ascent, descent, glyphs };
  });
  return { role: plan.role, size: plan.size, align: p.rtl ? 'right' : col.align, box: col.box, lines };
}
