/**
 * Line breaking: where a title may break, and which breaks it takes. Break opportunities follow
 * Unicode UAX #14 (the `linebreak` package) with the rules a typesetter of each script applies to
 * headlines: Korean at spaces only (CSS `word-break: keep-all`); Japanese and Chinese between BudouX
 * phrases; Thai, Lao, Khmer and Myanmar at dictionary word boundaries (`Intl.Segmenter`). Lines are
 * balanced (the narrowest width that keeps the line count). A word wider than the box alone is
 * hyphenated where the patterns of its language allow (hyphenation.ts: Latin, Cyrillic and Greek
 * words, with a visible hyphen at the break), and split between graphemes only where that is not
 * enough, never before a closing mark or small kana.
 */
import { createRequire } from 'node:module';
import type { Parser, jaModel } from 'budoux';
import LineBreaker from 'linebreak';
import type { LoadedFont } from './fonts.js';
import { hyphenationPoints, patternsFor } from './hyphenation.js';
import { isRtlParagraph, shape } from './shaping.js';

/** A piece of text between two break opportunities, measured in em. */
export interface Segment {
  start: number;
  end: number;
  /** Advance without trailing white space, em. */
  width: number;
  /** Advance of the trailing white space, em. */
  trailing: number;
  /** A line must end after this segment (line feed). */
  required: boolean;
  /**
   * Set on a piece of a hyphenated word (all but its last): the width of the hyphen drawn when a
   * line ends after it, em.
   */
  hyphen?: number;
}

export interface Paragraph {
  text: string;
  chain: LoadedFont[];
  segments: Segment[];
  /**
   * A line's extent above and below the baseline, em: the primary font's hhea ascender and
   * descender, or the glyphs' own ink where it reaches further (a fallback font's marks: the two
   * dots under a final ي in Noto Sans Arabic hang 0.42 em below the baseline, twice Arimo's 0.212
   * em descender). Lines are then spaced, and their box sized, for everything they draw, and the
   * layer's box no longer cuts the dots off (issue 42).
   */
  ascent: number;
  descent: number;
  /** Base direction right to left (UAX #9): lines align to the right edge of the box. */
  rtl: boolean;
}

/** Scripts written without spaces between words, which UAX #14 leaves to a dictionary (class SA). */
const DICTIONARY_SCRIPT = /[\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const words = new Intl.Segmenter(undefined, { granularity: 'word' });
/** Hangul: Korean words are kept whole (CSS `word-break: keep-all`). */
const HANGUL = /\p{Script=Hangul}/u;
/** Japanese and Chinese letters: lines break between BudouX phrases, not inside them. */
const CJK_LETTER = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー々〆〤]/u;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;

/**
 * BudouX's parser and its Japanese and Simplified Chinese models, from the package's own files:
 * its entry point also loads its HTML processor, and with it `linkedom`, though only the parser is
 * used. Importing this module into a fresh Node took 16 to 18 MiB less resident memory this way
 * (29 against 45 to 47 MiB, `process.memoryUsage().rss`). The package's `exports` names only its
 * entry point, so the files are required by path from its `dist` folder, and package.json pins
 * its version; test/render/international.test.ts breaks Japanese and Chinese titles with them.
 */
const budouxDist = createRequire(createRequire(import.meta.url).resolve('budoux'));
const { Parser: PhraseParser } = budouxDist('./parser.js') as { Parser: typeof Parser };
const modelOf = (language: 'ja' | 'zh-hans') =>
  (budouxDist(`./data/models/${language}.js`) as { model: typeof jaModel }).model;
const phraseParsers = { ja: new PhraseParser(modelOf('ja')), zh: new PhraseParser(modelOf('zh-hans')) };

/** The character that ends just before UTF-16 index `i`, and the one that starts there. */
function around(text: string, i: number): [string, string] {
  const before = text.codePointAt(i - 1);
  const lowSurrogate = before !== undefined && before >= 0xdc00 && before <= 0xdfff;
  return [
    String.fromCodePoint(text.codePointAt(lowSurrogate ? i - 2 : i - 1) ?? 0),
    String.fromCodePoint(text.codePointAt(i) ?? 0),
  ];
}

/** UTF-16 indices where a BudouX phrase starts (Japanese when there is kana, else Simplified Chinese). */
function phraseStarts(text: string): Set<number> {
  const starts = new Set<number>();
  let at = 0;
  for (const phrase of (KANA.test(text) ? phraseParsers.ja : phraseParsers.zh).parse(text)) {
    starts.add(at);
    at += phrase.length;
  }
  return starts;
}

/**
 * Break opportunities (UTF-16 indices where a line may start), with `required` for forced breaks:
 * UAX #14 from the linebreak package, then
 * - word boundaries from ICU's dictionaries (Intl.Segmenter) inside Thai, Lao, Khmer and Myanmar
 *   text, where UAX #14 finds none;
 * - none between two Hangul syllables: Korean breaks at spaces (`word-break: keep-all`, as Korean
 *   headline typesetting does);
 * - none inside a Japanese or Chinese phrase found by BudouX (Google's phrase segmenter), so that
 *   リリース or 产品 is never cut.
 * A phrase or word wider than the box is still split, by {@link splitOverwide}.
 */
function breakOpportunities(text: string): Map<number, boolean> {
  const breaks = new Map<number, boolean>();
  const breaker = new LineBreaker(text);
  for (let bk = breaker.nextBreak(); bk; bk = breaker.nextBreak()) breaks.set(bk.position, bk.required);
  if (DICTIONARY_SCRIPT.test(text)) {
    for (const { index } of words.segment(text)) {
      if (index === 0 || breaks.has(index)) continue;
      const before = text[index - 1] ?? '';
      const after = text[index] ?? '';
      if (DICTIONARY_SCRIPT.test(before) && DICTIONARY_SCRIPT.test(after)) breaks.set(index, false);
    }
  }
  const hangul = HANGUL.test(text);
  const phrases = CJK_LETTER.test(text) ? phraseStarts(text) : undefined;
  if (hangul || phrases) {
    for (const [position, required] of breaks) {
      if (required || position >= text.length) continue;
      const [before, after] = around(text, position);
      const insideKoreanWord = hangul && HANGUL.test(before) && HANGUL.test(after);
      const insidePhrase =
        phrases && CJK_LETTER.test(before) && CJK_LETTER.test(after) && !phrases.has(position);
      if (insideKoreanWord || insidePhrase) breaks.delete(position);
    }
  }
  return new Map([...breaks].sort((a, b) => a[0] - b[0]));
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The furthest ink above and below the baseline of a run of glyphs, em (y up, as the fonts). */
interface Ink {
  top: number;
  bottom: number;
}

function measure(text: string, chain: LoadedFont[], ink?: Ink): { width: number; trailing: number } {
  const trimmed = text.trimEnd();
  const shaped = shape(text, chain);
  let width = 0;
  let trailing = 0;
  for (const g of shaped.glyphs) {
    const extents = ink && g.font.font.glyphExtents(g.glyphId);
    if (ink && extents && extents.height !== 0) {
      ink.top = Math.max(ink.top, g.yOffset + extents.yBearing / g.font.upem);
      ink.bottom = Math.min(ink.bottom, g.yOffset + (extents.yBearing + extents.height) / g.font.upem);
    }
    if (g.cluster < trimmed.length) width += g.xAdvance;
    else trailing += g.xAdvance;
  }
  // A line feed is not drawn and takes no room.
  if (/\n/.test(text.slice(trimmed.length))) trailing = 0;
  return { width, trailing };
}

export function paragraph(text: string, chain: LoadedFont[]): Paragraph {
  const segments: Segment[] = [];
  const primary = chain[0] as LoadedFont;
  const ink: Ink = { top: primary.ascender / primary.upem, bottom: -primary.descender / primary.upem };
  let start = 0;
  for (const [position, required] of breakOpportunities(text)) {
    if (position === start) continue;
    const piece = text.slice(start, position);
    segments.push({ start, end: position, ...measure(piece, chain, ink), required });
    start = position;
  }
  return { text, chain, segments, rtl: isRtlParagraph(text), ascent: ink.top, descent: -ink.bottom };
}

/**
 * Characters that must not start a line (UAX #14 classes CL, CP, EX, IS, NS: closing brackets and
 * quotes, ideographic comma and full stop, small kana, iteration marks): when a segment has to be
 * split, they stay with the character before them.
 */
const NO_LINE_START =
  /^[\p{Pe}\p{Pf}、。，．！？：；!?,.:;…‥ーゝゞ々〻ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰ-ㇿ]/u;

/** Word segmenters for the scripts whose phrases can outgrow a line: ICU's dictionaries per language. */
const wordsIn = {
  ja: new Intl.Segmenter('ja', { granularity: 'word' }),
  ko: new Intl.Segmenter('ko', { granularity: 'word' }),
  zh: new Intl.Segmenter('zh', { granularity: 'word' }),
};

/** The word segmenter for `text`: Japanese with kana, Korean with Hangul, Chinese for Han alone. */
function wordSegmenterFor(text: string): Intl.Segmenter | undefined {
  if (KANA.test(text)) return wordsIn.ja;
  if (HANGUL.test(text)) return wordsIn.ko;
  if (CJK_LETTER.test(text)) return wordsIn.zh;
  return undefined;
}

/** `text` cut into `segmenter`'s pieces, a piece that must not start a line kept with the one before. */
function piecesOf(text: string, segmenter: Intl.Segmenter): { segment: string; index: number }[] {
  const pieces: { segment: string; index: number }[] = [];
  for (const { segment, index } of segmenter.segment(text)) {
    const prev = pieces.at(-1);
    if (prev && NO_LINE_START.test(segment)) prev.segment += segment;
    else pieces.push({ segment, index });
  }
  return pieces;
}

/**
 * Splits every segment wider than `maxWidth` em, last resort when one phrase or word alone does
 * not fit: a Japanese, Chinese or Korean phrase first at the word boundaries inside it
 * (`Intl.Segmenter` with `granularity: 'word'`: `新しいリリースのお知らせ` keeps リリース whole), and
 * what is still too wide into graphemes.
 */
export function splitOverwide(p: Paragraph, maxWidth: number): Paragraph {
  if (!p.segments.some((s) => s.width > maxWidth)) return p;
  const segments: Segment[] = [];
  let patterns: string | undefined;
  let hyphenWidth: number | undefined;
  const hyphen = () => (hyphenWidth ??= measure(HYPHEN, p.chain).width);
  for (const s of p.segments) {
    if (s.width <= maxWidth) {
      segments.push(s);
      continue;
    }
    const text = p.text.slice(s.start, s.end);
    const byWord = wordSegmenterFor(text);
    const words = byWord
      ? piecesOf(text, byWord).map((w) => ({ ...w, hyphen: false }))
      : hyphenated(text, (patterns ??= patternsFor(p.text) ?? ''));
    const pieces = words.flatMap((w) =>
      measure(w.segment, p.chain).width + (w.hyphen ? hyphen() : 0) <= maxWidth
        ? [w]
        : piecesOf(w.segment, graphemes).map((g, i, all) => ({
            segment: g.segment,
            index: w.index + g.index,
            // The last grapheme of a hyphenated piece still ends at its hyphenation point.
            hyphen: w.hyphen && i === all.length - 1,
          })),
    );
    pieces.forEach(({ segment, index, hyphen: hyphenates }, i) => {
      const start = s.start + index;
      const last = i === pieces.length - 1;
      segments.push({
        start,
        end: start + segment.length,
        ...measure(segment, p.chain),
        required: last && s.required,
        ...(hyphenates ? { hyphen: hyphen() } : {}),
      });
    });
  }
  return { ...p, segments };
}

/** The hyphen drawn at a hyphenation break (U+002D: every bundled font has it). */
export const HYPHEN = '-';

/**
 * `text` (a segment: a word and its trailing space) cut at its hyphenation points, each piece but
 * the last marked `hyphen`; one piece when it has none (or `patterns` is empty).
 */
function hyphenated(text: string, patterns: string): { segment: string; index: number; hyphen: boolean }[] {
  const word = text.trimEnd();
  const points = patterns ? hyphenationPoints(word, patterns) : [];
  const bounds = [0, ...points, text.length];
  return bounds.slice(0, -1).map((from, i) => ({
    segment: text.slice(from, bounds[i + 1]),
    index: from,
    hyphen: i < bounds.length - 2,
  }));
}

/** Greedy line filling at `maxWidth` em: returns [first, end) segment ranges. */
function greedy(segments: Segment[], maxWidth: number): [number, number][] {
  const lines: [number, number][] = [];
  greedyFill(segments, maxWidth, lines);
  return lines;
}

/**
 * Greedy line filling at `maxWidth` em: pushes the lines' [first, end) segment ranges onto `lines`
 * when given, and answers how many lines there are. Without `lines` it builds nothing: the search
 * of {@link balanced} probes up to 25 widths per paragraph and size, and the line arrays it built
 * and dropped each time outlived V8's young collections (about 300 KiB per render in V8's sampling
 * heap profiler), so that only a full collection reclaimed them.
 */
function greedyFill(segments: Segment[], maxWidth: number, lines?: [number, number][]): number {
  let count = 0;
  let first = 0;
  let used = 0; // em, including trailing space of segments placed so far
  const close = (end: number) => {
    lines?.push([first, end]);
    count++;
    first = end;
    used = 0;
  };
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i] as Segment;
    // A hyphenated piece needs room for its hyphen, in case the line ends after it.
    if (i > first && used + s.width + (s.hyphen ?? 0) > maxWidth + 1e-9) close(i);
    used += s.width + s.trailing;
    if (s.required) close(i + 1);
  }
  if (first < segments.length) close(segments.length);
  return count;
}

export function widestSegment(p: Paragraph): number {
  return p.segments.reduce((m, s) => Math.max(m, s.width), 0);
}

const widestWords = new WeakMap<Paragraph, number>();

/**
 * The widest piece that automatic sizing keeps whole, em: a word, or, in Japanese, Chinese and
 * Korean, a word inside a phrase ({@link splitOverwide} splits a phrase at its words before it
 * splits a word). A size at which this fits splits no word. Measured once per paragraph.
 */
export function widestWord(p: Paragraph): number {
  let widest = widestWords.get(p);
  if (widest !== undefined) return widest;
  widest = 0;
  for (const s of p.segments) {
    const text = p.text.slice(s.start, s.end);
    const byWord = wordSegmenterFor(text);
    widest = Math.max(
      widest,
      byWord ? Math.max(...piecesOf(text, byWord).map((w) => measure(w.segment, p.chain).width)) : s.width,
    );
  }
  widestWords.set(p, widest);
  return widest;
}

/** The narrowest width (em) that keeps the same number of lines: balanced lines, no lone last word. */
export function balanced(segments: Segment[], maxWidth: number): [number, number][] {
  const lines = greedy(segments, maxWidth);
  if (lines.length < 2) return lines;
  let lo = segments.reduce((m, s) => Math.max(m, s.width + (s.hyphen ?? 0)), 0);
  let hi = maxWidth;
  for (let i = 0; i < 24 && hi - lo > 1e-4; i++) {
    const mid = (lo + hi) / 2;
    if (greedyFill(segments, mid) <= lines.length) hi = mid;
    else lo = mid;
  }
  return greedy(segments, hi);
}
