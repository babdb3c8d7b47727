/**
 * Shaping: text to positioned glyphs with HarfBuzz (kerning, ligatures, mark positioning, Arabic
 * joining, Indic reordering), with per-glyph font fallback and the Unicode bidirectional algorithm
 * (UAX #9, bidi-js) for mixed left-to-right and right-to-left text.
 *
 * Fallback: each grapheme cluster goes to the first font of the chain that covers all of its code
 * points; an emoji (RGI_Emoji) goes to the colour emoji font first. Runs of one font and one bidi
 * embedding level are shaped together, each in its own direction, then placed in visual order.
 */
import bidiModule, { type Bidi } from 'bidi-js';
import * as hb from 'harfbuzzjs';
import { EMOJI, type LoadedFont } from './fonts.js';

// bidi-js is a UMD module whose module.exports is the factory; its types call it the default export.
const bidi = (bidiModule as unknown as () => Bidi)();

/** A shaped glyph. Advances and offsets are in em (font units / upem), so they scale with any size. */
export interface ShapedGlyph {
  font: LoadedFont;
  glyphId: number;
  /** UTF-16 index in the shaped text of the cluster this glyph belongs to. */
  cluster: number;
  xAdvance: number;
  xOffset: number;
  yOffset: number;
}

export interface ShapedText {
  /** In visual order (left to right as drawn). */
  glyphs: ShapedGlyph[];
  /** Sum of advances, em. */
  width: number;
  /** The paragraph's base direction is right to left (its first strong character is). */
  rtl: boolean;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Code points that never need a glyph of their own (ZWJ, ZWNJ, variation selectors). */
function isDefaultIgnorable(cp: number): boolean {
  return cp === 0x200c || cp === 0x200d || (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef);
}

/** Whether `font` has a glyph for every character of `grapheme` (default-ignorables aside). */
export function covers(font: LoadedFont, grapheme: string): boolean {
  for (const ch of grapheme) {
    const cp = ch.codePointAt(0) ?? 0;
    if (!isDefaultIgnorable(cp) && !font.covers(cp)) return false;
  }
  return true;
}

function pickFont(grapheme: string, chain: LoadedFont[]): LoadedFont {
  if (EMOJI.test(grapheme)) {
    const color = chain.find((f) => f.isColor && covers(f, grapheme));
    if (color) return color;
  }
  for (const font of chain) if (!font.isColor && covers(font, grapheme)) return font;
  // No font covers it: keep the chosen font (it draws its .notdef glyph).
  return chain[0] as LoadedFont;
}

interface Run {
  start: number;
  end: number;
  font: LoadedFont;
  level: number;
}

/** Characters of no script of their own: spaces, punctuation, digits, symbols, combining marks. */
const NEUTRAL = /^[\p{Script=Common}\p{Script=Inherited}]+$/u;

/**
 * Splits text into maximal runs of one font of the chain and one bidi embedding level.
 * Neutral characters (script Common or Inherited: spaces, punctuation, digits) stay in the font of
 * the run they follow when it has them, as browsers do, so that an Arabic or Hebrew run keeps its
 * own colon and spaces; the colour emoji font is never extended this way (its space is far wider).
 */
export function itemize(text: string, chain: LoadedFont[], levels?: Uint8Array): Run[] {
  const runs: Run[] = [];
  for (const { segment, index } of graphemes.segment(text)) {
    const last = runs.at(-1);
    const keep = last && !last.font.isColor && NEUTRAL.test(segment) && covers(last.font, segment);
    const font = keep ? last.font : pickFont(segment, chain);
    const level = levels?.[index] ?? 0;
    if (last && last.font === font && last.level === level) last.end = index + segment.length;
    else runs.push({ start: index, end: index + segment.length, font, level });
  }
  return runs;
}

function shapeRun(text: string, run: Run, rtl: boolean | undefined): ShapedGlyph[] {
  const buffer = new hb.Buffer();
  // Variation selectors and joiners draw nothing; without this flag they stay as blank glyphs.
  buffer.setFlags(hb.BufferFlag.REMOVE_DEFAULT_IGNORABLES);
  buffer.addText(text.slice(run.start, run.end));
  buffer.guessSegmentProperties();
  if (rtl !== undefined) buffer.setDirection(rtl ? hb.Direction.RTL : hb.Direction.LTR);
  hb.shape(run.font.font, buffer);
  const positions = buffer.getGlyphPositions();
  const k = 1 / run.font.upem;
  return buffer.getGlyphInfos().map((info, i) => {
    const pos = positions[i] as hb.GlyphPosition;
    return {
      font: run.font,
      glyphId: info.codepoint,
      cluster: run.start + info.cluster,
      xAdvance: pos.xAdvance * k,
      xOffset: pos.xOffset * k,
      yOffset: pos.yOffset * k,
    };
  });
}

const sum = (glyphs: ShapedGlyph[]) => glyphs.reduce((w, g) => w + g.xAdvance, 0);

/**
 * Shapes `text` for measuring: runs in logical order, each in the direction HarfBuzz guesses from
 * its script. The width equals that of {@link shapeLine} for the same text.
 */
export function shape(text: string, chain: LoadedFont[]): ShapedText {
  const glyphs = itemize(text, chain).flatMap((run) => shapeRun(text, run, undefined));
  return { glyphs, width: sum(glyphs), rtl: false };
}

/** Whether the paragraph's base direction is right to left (UAX #9 rules P2–P3). */
export function isRtlParagraph(text: string): boolean {
  return ((bidi.getEmbeddingLevels(text).paragraphs[0]?.level ?? 0) & 1) === 1;
}

/**
 * Shapes one line for drawing: bidi embedding levels from the line's paragraph direction
 * (`rtl`, from {@link isRtlParagraph} of the whole paragraph), runs shaped in their own direction
 * and placed in visual order (UAX #9 rule L2).
 */
export function shapeLine(text: string, chain: LoadedFont[], rtl: boolean): ShapedText {
  if (text.length === 0) return { glyphs: [], width: 0, rtl };
  const embedding = bidi.getEmbeddingLevels(text, rtl ? 'rtl' : 'ltr');
  const runs = itemize(text, chain, embedding.levels);
  const visual = bidi.getReorderedIndices(text, embedding, 0, text.length - 1);
  const position = new Map<number, number>();
  visual.forEach((logical: number, i: number) => position.set(logical, i));
  runs.sort((a, b) => (position.get(a.start) ?? 0) - (position.get(b.start) ?? 0));
  const glyphs = runs.flatMap((run) => shapeRun(text, run, (run.level & 1) === 1));
  return { glyphs, width: sum(glyphs), rtl };
}
