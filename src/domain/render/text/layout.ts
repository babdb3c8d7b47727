/**
 * Text layout: where each text layer of a template document goes on the canvas, at what size,
 * broken into which lines. One engine for every template: the built-ins are documents too
 * (src/domain/render/document/built-ins.ts, where their geometry is), and so are the API's positions.
 *
 * Geometry (docs/api.md#generate-options): the safe zone keeps 5% of each dimension free on every edge; with `og` the
 * bottom 28% is reserved for the mobile-card overlay of social networks. A text layer with
 * `safeZone` has its box clipped to it. Text keeps out of a logo and its gap (`reserve`).
 *
 * Sizing: a layer with `fontSize {min, max}` gets the largest whole size in that range at which its
 * text fits its box in at most `maxLines` lines with no word split, and its `below` paragraph fits
 * too (`scale` of that size, at least `minSize`); layers of one `group` share one size. When that
 * size is under {@link LEGIBLE_TITLE_FRACTION} of the canvas height, `maxLines` gives way to the
 * largest size at which the text fits the box in any number of lines. Lines break
 * as line-breaking.ts says. Text that still does not fit is cut with an ellipsis: nothing is ever
 * drawn outside the box. A size the request fixes (`fontSize`, docs/api.md#generate-options) applies to the layers that
 * set `{{title}}`, and then only the box cuts.
 */
import type { FontName, Template } from '../../design.js';
import {
  DEFAULT_TEXT_SIZE,
  fillVariables,
  setsTitle,
  type TemplateDocument,
  type TextLayer,
} from '../document/document.js';
import type { FontLibrary, LoadedFont } from './fonts.js';
import { gradientOfLayer } from '../paint/gradient.js';
import type { GradientGeometry } from '../geometry.js';
import {
  balanced,
  paragraph,
  HYPHEN,
  splitOverwide,
  widestSegment,
  widestWord,
  type Paragraph,
  type Segment,
} from './line-breaking.js';
import { shapeLine, type ShapedText } from './shaping.js';
import { boxOf, type Frame, lineBox, type Rect, safeZoneOf, sizeOf, unionOf } from '../geometry.js';

/**
 * The size, as a fraction of the canvas height, above which a layer's `maxLines` holds (7%: 44 px on
 * an `og` card, 76 px square). A title that `maxLines` would shrink below it takes more lines instead,
 * up to what its box holds. Issue 42's legibility target: a 60-character title at no less than 7% of
 * the card's height, a 200-character one at no less than 4%, where the box can hold them.
 */
export const LEGIBLE_TITLE_FRACTION = 0.07;

export type Align = 'left' | 'center' | 'right';

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
  /** The paragraph's ascender and descender at this size, px: the largest of the fonts it is drawn in. */
  ascent: number;
  descent: number;
  glyphs: PlacedGlyph[];
}

export interface TextBlock {
  /** title: a layer's first paragraph; subtitle: its `below` paragraph, or a grouped layer's. */
  role: 'title' | 'subtitle';
  /** Index of the text layer in the document. */
  layer: number;
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
  /** The first gradient layer's geometry (built-ins have one); a document's others are the renderer's. */
  gradient: GradientGeometry;
  /** Size of the first text layer's first paragraph, px (the built-ins' title). */
  titleSize: number;
  /** True when text was cut with an ellipsis. */
  truncated: boolean;
  /** Each text layer's box, px, by layer index (after the safe zone and the logo's reserve). */
  boxes: Map<number, Rect>;
  /** The text layers whose text was cut, by index. */
  truncatedLayers: Set<number>;
}

/** The texts of a document's layers filled in: layer index → its content and `below` content. */
export type FilledTexts = Map<number, { content: string; below?: string | undefined }>;

export interface DocumentLayoutRequest {
  aspect: Frame;
  document: TemplateDocument;
  /** The text layers' contents with their variables filled ({@link fillTexts}). */
  texts: FilledTexts;
  /** The request's font: for layers that name none. */
  font: FontName | LoadedFont;
  /** Layers' uploaded fonts, loaded, by layer index (a bundled family is read from the layer). */
  layerFonts?: Map<number, FontName | LoadedFont> | undefined;
  /** The request's size for the layers that set `{{title}}`, px; their own range when undefined. */
  fontSize?: number | undefined;
  reserve?: Rect | undefined;
}

/** One paragraph of a column: what it says, in which fonts, and how it is sized. */
interface BlockSpec {
  role: 'title' | 'subtitle';
  /** The text shaped and segmented once, for every size tried ({@link paragraph}). */
  paragraph: Paragraph;
  lineHeight: number;
  maxLines: number;
  /** Size as a fraction of the column's size, and its floor in px (1 and 0 for the first paragraph). */
  scale: number;
  minSize: number;
  /** Space above it, a multiple of the column's size. */
  gap: number;
}

interface Column {
  layer: number;
  box: Rect;
  align: TextLayer['align'];
  valign: TextLayer['verticalAlign'];
  group: string;
  /** The size range of its group, or one size. */
  size: { min: number; max: number } | number;
  /** A size fixed by the request: `maxLines` no longer limits, only the box cuts. */
  fixedByRequest: boolean;
  /** It sets `{{title}}`: its group's `maxLines` gives way below {@link LEGIBLE_TITLE_FRACTION}. */
  setsTitle: boolean;
  /** Its size as a fraction of its group's, and the floor (a grouped layer's `scale`, `minSize`). */
  scale: number;
  minSize: number;
  anchor: { x: number; y: number } | undefined;
  blocks: BlockSpec[];
}

/**
 * Fills `{{name}}` in every text layer from `values` (a missing or empty value is the empty string);
 * a text that comes to white space only is left out.
 */
export function fillTexts(
  document: TemplateDocument,
  values: Record<string, string | undefined>,
): FilledTexts {
  const fill = (text: string) => fillVariables(text, values).trim();
  const texts: FilledTexts = new Map();
  document.layers.forEach((layer, i) => {
    if (layer.type !== 'text') return;
    const below = layer.below ? fill(layer.below.content) : undefined;
    texts.set(i, { content: fill(layer.content), below: below || undefined });
  });
  return texts;
}

/**
 * Columns kept out of `reserve` (a logo in a corner of the safe zone): a column whose width it
 * overlaps gives up the band from its edge to the far side of the rectangle.
 */
function avoid(box: Rect, reserve: Rect | undefined): Rect {
  if (!reserve) return box;
  if (reserve.x >= box.x + box.width || reserve.x + reserve.width <= box.x) return box;
  if (reserve.y >= box.y + box.height || reserve.y + reserve.height <= box.y) return box;
  const top = reserve.y - box.y < box.y + box.height - (reserve.y + reserve.height);
  return top
    ? { ...box, y: reserve.y + reserve.height, height: box.y + box.height - (reserve.y + reserve.height) }
    : { ...box, height: reserve.y - box.y };
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

interface BlockPlan {
  role: 'title' | 'subtitle';
  paragraph: Paragraph;
  size: number;
  lineHeight: number;
  gap: number;
  lines: [number, number][];
  ellipsisAfter: number | undefined;
}

function blockHeight(
  plan: { paragraph: Paragraph; size: number; lineHeight: number },
  lineCount: number,
): number {
  const p = plan.paragraph;
  return (lineCount - 1) * plan.lineHeight + (p.ascent + p.descent) * plan.size;
}

function columnHeight(plans: BlockPlan[]): number {
  let h = 0;
  plans.forEach((p, i) => {
    if (i > 0) h += p.gap;
    h += blockHeight(p, p.lines.length);
  });
  return h;
}

/**
 * The font a text layer is set in: its uploaded font (loaded by the domain, in `layerFonts`), else
 * its bundled family by name, else the request's `font`.
 */
export function layerFontOf(
  layer: TextLayer,
  index: number,
  layerFonts: Map<number, FontName | LoadedFont> | undefined,
  font: FontName | LoadedFont,
): FontName | LoadedFont {
  const named =
    typeof layer.font === 'string'
      ? layer.font
      : layer.font && 'system' in layer.font
        ? layer.font.system
        : undefined;
  return layerFonts?.get(index) ?? named ?? font;
}

/** The columns of a document's text layers that have something to say, in layer order. */
function columnsOf(fonts: FontLibrary, req: DocumentLayoutRequest): Column[] {
  const columns: Column[] = [];
  const groupSize = new Map<string, { size: Column['size']; fixedByRequest: boolean }>();
  req.document.layers.forEach((layer, i) => {
    if (layer.type !== 'text') return;
    const filled = req.texts.get(i);
    const font = layerFontOf(layer, i, req.layerFonts, req.font);
    const title = setsTitle(layer.content);
    const group = layer.group ?? `#${i}`;
    // A group takes the size of its first layer: the request's when that layer sets the title.
    if (!groupSize.has(group))
      groupSize.set(
        group,
        title && req.fontSize !== undefined
          ? { size: req.fontSize, fixedByRequest: true }
          : { size: layer.fontSize ?? DEFAULT_TEXT_SIZE, fixedByRequest: false },
      );
    const sized = groupSize.get(group) as { size: Column['size']; fixedByRequest: boolean };
    const grouped = layer.group !== undefined && columns.some((c) => c.group === group);
    const blocks: BlockSpec[] = [];
    if (filled?.content) {
      blocks.push({
        role: grouped ? 'subtitle' : 'title',
        paragraph: paragraph(filled.content, fonts.chain(font, layer.weight, filled.content)),
        lineHeight: layer.lineHeight,
        maxLines: layer.maxLines,
        scale: 1,
        minSize: 0,
        gap: 0,
      });
      if (layer.below && filled.below)
        blocks.push({
          role: 'subtitle',
          paragraph: paragraph(filled.below, fonts.chain(font, layer.below.weight, filled.below)),
          lineHeight: layer.below.lineHeight,
          maxLines: layer.below.maxLines,
          scale: layer.below.scale,
          minSize: layer.below.minSize,
          gap: layer.below.gap,
        });
    }
    const box = avoid(boxOf(layer.box, req.aspect, layer.safeZone), req.reserve);
    const { width, height } = sizeOf(req.aspect);
    columns.push({
      layer: i,
      box,
      align: layer.align,
      valign: layer.verticalAlign,
      group,
      size: sized.size,
      fixedByRequest: sized.fixedByRequest,
      setsTitle: title,
      scale: grouped ? layer.scale : 1,
      minSize: layer.minSize ?? 0,
      anchor: layer.anchor && { x: layer.anchor.x * width, y: layer.anchor.y * height },
      blocks,
    });
  });
  return columns;
}

/** Lays out the text layers of a document; see the module comment for the rules. Pure: no I/O. */
export function layoutDocument(fonts: FontLibrary, req: DocumentLayoutRequest): TextLayout {
  const { width, height } = sizeOf(req.aspect);
  const columns = columnsOf(fonts, req);
  /** A column's size at its group's size `s`, px. */
  const sizeIn = (col: Column, s: number) =>
    col.scale === 1 ? s : Math.max(col.minSize, Math.round(s * col.scale));

  /**
   * A column's paragraphs at group size `s`. `strict`: undefined unless every word fits the width,
   * the lines fit the box's height and, with `lineLimit`, each paragraph its `maxLines`.
   */
  const planColumn = (col: Column, s: number, strict: boolean, lineLimit = true): BlockPlan[] | undefined => {
    const plans: BlockPlan[] = [];
    const columnSize = sizeIn(col, s);
    for (const spec of col.blocks) {
      const size =
        spec.scale === 1 ? columnSize : Math.max(spec.minSize, Math.round(columnSize * spec.scale));
      const maxEm = col.box.width / size;
      let p = spec.paragraph;
      if (strict && (lineLimit ? widestSegment(p) : widestWord(p)) > maxEm) return undefined;
      p = splitOverwide(p, maxEm);
      const lines = balanced(p.segments, maxEm);
      if (strict && lineLimit && lines.length > spec.maxLines) return undefined;
      plans.push({
        role: spec.role,
        paragraph: p,
        size,
        lineHeight: size * spec.lineHeight,
        gap: spec.gap * columnSize,
        lines,
        ellipsisAfter: undefined,
      });
    }
    if (strict && columnHeight(plans) > col.box.height) return undefined;
    return plans;
  };

  const plans = new Map<Column, BlockPlan[]>();
  const groupSizes = new Map<string, number>();
  const truncatedLayers = new Set<number>();
  for (const group of new Set(columns.map((c) => c.group))) {
    const members = columns.filter((c) => c.group === group);
    const range = (members[0] as Column).size;
    let chosen: number | undefined;
    /** The largest size in `[low, range.max]` at which every member fits, or undefined. */
    const largest = (r: { min: number; max: number }, low: number, lineLimit: boolean) => {
      for (let s = r.max; s >= low; s--) {
        const attempt = members.map((c) => planColumn(c, s, true, lineLimit));
        if (attempt.every((a) => a !== undefined)) {
          members.forEach((c, k) => plans.set(c, attempt[k] as BlockPlan[]));
          return s;
        }
      }
      return undefined;
    };
    if (typeof range === 'object') {
      chosen = largest(range, range.min, true);
      // maxLines is a default, not a reason to shrink a long title below legibility: under the
      // floor, the text takes as many lines as the box holds at the largest size that fits it.
      // Only for the title's group: a kicker of at most one line at 12 to 24 px stays so.
      const floor = Math.ceil(LEGIBLE_TITLE_FRACTION * height);
      if (members.some((c) => c.setsTitle) && (chosen === undefined || chosen < floor))
        chosen = largest(range, (chosen ?? range.min - 1) + 1, false) ?? chosen;
    }
    if (chosen === undefined) {
      // A fixed size, or nothing fits even at the smallest: keep the size, cut what overflows.
      chosen = typeof range === 'object' ? range.min : range;
      for (const c of members) {
        const colPlans = planColumn(c, chosen, false) as BlockPlan[];
        c.blocks.forEach((spec, k) => {
          const plan = colPlans[k] as BlockPlan;
          const maxLines = c.fixedByRequest ? Infinity : spec.maxLines;
          if (plan.lines.length > maxLines) {
            plan.lines = plan.lines.slice(0, maxLines);
            plan.ellipsisAfter = plan.lines.length - 1;
            truncatedLayers.add(c.layer);
          }
        });
        // Drop lines from the end (the paragraph below first) until the column fits its box height.
        while (colPlans.length > 0 && columnHeight(colPlans) > c.box.height) {
          const last = colPlans.at(-1) as BlockPlan;
          if (last.lines.length > 1) {
            last.lines = last.lines.slice(0, -1);
            last.ellipsisAfter = last.lines.length - 1;
          } else if (colPlans.length > 1) colPlans.pop();
          else break;
          truncatedLayers.add(c.layer);
        }
        plans.set(c, colPlans);
      }
    }
    groupSizes.set(group, chosen);
  }

  const blocks: TextBlock[] = [];
  // The columns of a group share one top edge: the tallest is placed and the others align to it.
  const heightOf = (c: Column) => columnHeight(plans.get(c) ?? []);
  for (const col of columns) {
    const colPlans = plans.get(col) ?? [];
    if (colPlans.length === 0) continue;
    const members = columns.filter((c) => c.group === col.group && (plans.get(c) ?? []).length > 0);
    const h = Math.max(...members.map(heightOf));
    let top: number;
    if (col.valign === 'top') top = col.box.y;
    else if (col.valign === 'bottom') top = col.box.y + col.box.height - h;
    else top = col.box.y + (col.box.height - h) / 2;
    if (col.anchor) {
      top = col.anchor.y - h / 2;
      top = Math.min(Math.max(top, col.box.y), col.box.y + col.box.height - h);
    }
    let y = top;
    const placed: TextBlock[] = [];
    colPlans.forEach((plan, bi) => {
      if (bi > 0) y += plan.gap;
      placed.push(placeBlock(plan, col, y));
      y += blockHeight(plan, plan.lines.length);
    });
    if (col.anchor) centreOn(placed, col.anchor.x, col.box);
    blocks.push(...placed);
  }

  const bounds = unionOf(blocks.flatMap((b) => b.lines.map(lineBox))) ?? {
    x: width / 2,
    y: height / 2,
    width: 0,
    height: 0,
  };
  const boxes = new Map(columns.map((c) => [c.layer, c.box]));
  const gradientIndex = req.document.layers.findIndex((l) => l.type === 'gradient');
  const first = columns.find((c) => (plans.get(c) ?? []).length > 0);
  return {
    width,
    height,
    safeZone: safeZoneOf(req.aspect),
    blocks,
    bounds,
    gradient: gradientOfLayer(req.document, gradientIndex, req.aspect, blocks, boxes),
    titleSize: first ? (plans.get(first)?.[0]?.size ?? 0) : 0,
    truncated: truncatedLayers.size > 0,
    boxes,
    truncatedLayers,
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

/** A layer's `align` on the page: start and end are mirrored for a right-to-left paragraph. */
function physical(align: TextLayer['align'], rtl: boolean): Align {
  if (align === 'start') return rtl ? 'right' : 'left';
  if (align === 'end') return rtl ? 'left' : 'right';
  return align;
}

function placeBlock(plan: BlockPlan, col: Column, top: number): TextBlock {
  const p = plan.paragraph;
  const ascent = p.ascent * plan.size;
  const descent = p.descent * plan.size;
  const maxWidth = col.box.width;
  const lines: LaidLine[] = plan.lines.map(([a, b], i) => {
    const start = (p.segments[a] as Segment).start;
    const last = p.segments[b - 1] as Segment;
    // A line that ends inside a hyphenated word shows the hyphen (line-breaking.ts).
    let text = p.text.slice(start, last.end).trimEnd() + (last.hyphen !== undefined ? HYPHEN : '');
    let shaped: ShapedText = shapeLine(text, p.chain, p.rtl);
    if (plan.ellipsisAfter === i) {
      // Remove whole graphemes from the end until the text and the ellipsis fit (a hyphen first:
      // the ellipsis ends the word instead).
      if (last.hyphen !== undefined) text = text.slice(0, -HYPHEN.length);
      const parts = [...graphemes.segment(text)].map((s) => s.segment);
      for (;;) {
        text = parts.join('').trimEnd() + ELLIPSIS;
        shaped = shapeLine(text, p.chain, p.rtl);
        if (shaped.width * plan.size <= maxWidth || parts.length === 0) break;
        parts.pop();
      }
    }
    const width = shaped.width * plan.size;
    const align = physical(col.align, p.rtl);
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
  return {
    role: plan.role,
    layer: col.layer,
    size: plan.size,
    align: physical(col.align, p.rtl),
    box: col.box,
    lines,
  };
}
