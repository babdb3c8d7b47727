/**
 * Shaping: text to positioned glyphs with HarfBuzz (kerning, ligatures, mark positioning), with
 * per-glyph font fallback. Each grapheme cluster goes to the first font of the chain that covers all
 * of its code points; runs of the same font are shaped together.
 */
import * as hb from 'harfbuzzjs';
import type { LoadedFont } from './fonts.js';

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
  glyphs: ShapedGlyph[];
  /** Sum of advances, em. */
  width: number;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Code points that never need a glyph of their own (ZWJ, ZWNJ, variation selectors). */
function isDefaultIgnorable(cp: number): boolean {
  return cp === 0x200c || cp === 0x200d || (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef);
}

function pickFont(grapheme: string, chain: LoadedFont[]): LoadedFont {
  for (const font of chain) {
    let ok = true;
    for (const ch of grapheme) {
      const cp = ch.codePointAt(0) ?? 0;
      if (!isDefaultIgnorable(cp) && !font.covers(cp)) {
        ok = false;
        break;
      }
    }
    if (ok) return font;
  }
  // No font covers it: keep the chosen font (it draws its .notdef glyph).
  return chain[0] as LoadedFont;
}

/** Splits text into maximal runs that one font of the chain covers. */
export function itemize(
  text: string,
  chain: LoadedFont[],
): { start: number; end: number; font: LoadedFont }[] {
  const runs: { start: number; end: number; font: LoadedFont }[] = [];
  for (const { segment, index } of graphemes.segment(text)) {
    const font =
      /^\s+$/.test(segment) && runs.length
        ? (runs.at(-1) as { font: LoadedFont }).font
        : pickFont(segment, chain);
    const last = runs.at(-1);
    if (last && last.font === font) last.end = index + segment.length;
    else runs.push({ start: index, end: index + segment.length, font });
  }
  return runs;
}

/** Shapes `text` with the chain; glyphs in logical run order, em units. */
export function shape(text: string, chain: LoadedFont[]): ShapedText {
  const glyphs: ShapedGlyph[] = [];
  let width = 0;
  for (const run of itemize(text, chain)) {
    const buffer = new hb.Buffer();
    buffer.addText(text.slice(run.start, run.end));
    buffer.guessSegmentProperties();
    hb.shape(run.font.font, buffer);
    const infos = buffer.getGlyphInfos();
    const positions = buffer.getGlyphPositions();
    const k = 1 / run.font.upem;
    infos.forEach((info, i) => {
      const pos = positions[i] as hb.GlyphPosition;
      glyphs.push({
        font: run.font,
        glyphId: info.codepoint,
        cluster: run.start + info.cluster,
        xAdvance: pos.xAdvance * k,
        xOffset: pos.xOffset * k,
        yOffset: pos.yOffset * k,
      });
      width += pos.xAdvance * k;
    });
  }
  return { glyphs, width };
}
