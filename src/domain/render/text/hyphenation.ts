/**
 * Hyphenation of a word wider than its line (issue 42): where it may break, by Knuth–Liang patterns
 * (Liang's 1983 thesis, the algorithm of TeX), the patterns of the `hyphen` package (TeX's
 * hyphenation patterns from CTAN, ported to JavaScript), in the language of the paragraph as
 * `franc-min` detects it (trigram language identification). The line breaker (line-breaking.ts)
 * then breaks such a word at the last point that fits, with a visible hyphen.
 *
 * Only words of the Latin, Cyrillic and Greek scripts are hyphenated; Japanese, Chinese, Korean,
 * Thai and the rest keep their own rules. Undetermined Latin text is hyphenated as English,
 * Cyrillic as Russian, Greek as monotonic Greek.
 */
import { createRequire } from 'node:module';
import { franc } from 'franc-min';
import type { HyphenationFunctionSync } from 'hyphen';

const require = createRequire(import.meta.url);

/** franc's ISO 639-3 codes → the `hyphen` package's pattern modules (its language tags). */
const PATTERNS: Readonly<Record<string, string>> = {
  eng: 'en-us',
  deu: 'de',
  fra: 'fr',
  spa: 'es',
  por: 'pt',
  ita: 'it',
  nld: 'nl',
  swe: 'sv',
  pol: 'pl',
  ces: 'cs',
  hun: 'hu',
  ron: 'ro',
  hrv: 'hr',
  bos: 'sh-latn',
  srp: 'sh-latn',
  ell: 'el-monoton',
  tur: 'tr',
  ind: 'id',
  rus: 'ru',
  ukr: 'uk',
  bul: 'bg',
  bel: 'be',
};

/** The default pattern module per script, for text franc cannot place. */
const BY_SCRIPT: readonly [RegExp, string][] = [
  [/\p{Script=Latin}/u, 'en-us'],
  [/\p{Script=Cyrillic}/u, 'ru'],
  [/\p{Script=Greek}/u, 'el-monoton'],
];

/** A word this module hyphenates: letters of the Latin, Cyrillic or Greek script only. */
const HYPHENATABLE = /^[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}\p{M}'’-]+$/u;

const loaded = new Map<string, HyphenationFunctionSync>();

function hyphenatorFor(module: string): HyphenationFunctionSync {
  let fn = loaded.get(module);
  if (!fn) {
    // The pattern modules are CommonJS, loaded on first use (up to about a megabyte: Hungarian).
    fn = (require(`hyphen/${module}`) as { hyphenateSync: HyphenationFunctionSync }).hyphenateSync;
    loaded.set(module, fn);
  }
  return fn;
}

/**
 * The `hyphen` pattern module for `paragraph`: franc's language when it has patterns for it, else
 * the script's default; undefined for a script this module does not hyphenate.
 */
export function patternsFor(paragraph: string): string | undefined {
  const script = BY_SCRIPT.find(([re]) => re.test(paragraph));
  if (!script) return undefined;
  const language = franc(paragraph, { minLength: 3 });
  // Serbian and Bosnian are written in both alphabets: Cyrillic text takes the Cyrillic patterns.
  if ((language === 'srp' || language === 'bos') && /\p{Script=Cyrillic}/u.test(paragraph)) return 'sh-cyrl';
  return PATTERNS[language] ?? script[1];
}

/**
 * UTF-16 offsets inside `word` (never 0 nor its length) where it may be hyphenated, by the patterns
 * of `module` (see {@link patternsFor}); none for a word of another script, or shorter than 5
 * letters (the package's minimum). A hard hyphen's own break is the line breaker's, not one of these.
 */
export function hyphenationPoints(word: string, module: string): number[] {
  // Punctuation around the word (quotes, a comma, «»): the letters between are hyphenated.
  const [, before = '', core = ''] = /^([^\p{L}\p{M}]*)(.*?)[^\p{L}\p{M}]*$/su.exec(word) ?? [];
  if (!core || !HYPHENATABLE.test(core)) return [];
  const marked = hyphenatorFor(module)(core, { hyphenChar: '\u00ad' });
  const points: number[] = [];
  let offset = 0;
  for (const ch of marked) {
    if (ch === '\u00ad') points.push(offset);
    else offset += ch.length;
  }
  return points.filter((p) => p > 0 && p < core.length).map((p) => p + before.length);
}
