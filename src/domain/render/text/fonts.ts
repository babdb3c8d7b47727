/**
 * The font set: the nine families of docs/api.md#generate-options as TrueType files in `fonts/`, loaded once per process
 * into HarfBuzz. Each family has Regular (400, subtitles) and Bold (700, titles). A chain of Noto
 * fallback fonts follows the chosen font for characters it does not cover (per-glyph fallback):
 * Arimo, then Noto Sans Hebrew, Arabic, Devanagari and Thai (small: loaded at start-up), then Noto
 * Sans SC, JP or KR and Noto Color Emoji (5 to 25 MB each: loaded once per process, on the first
 * title that needs them). The Noto fonts come from the npm packages `@expo-google-fonts/noto-*`,
 * each with its license (SIL OFL 1.1).
 */
import { readFileSync } from 'node:fs';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as hb from 'harfbuzzjs';
import { LRUCache } from 'lru-cache';
import type { FontName } from '../../design.js';
import { colorGlyphSvg } from './colr.js';
import { readWithoutTables, UNUSED_TABLES, withoutTables } from './sfnt.js';
import { GLYPH_CACHE_CHARS } from '../limits.js';

/** Where the bundled fonts are: `<package root>/fonts`. */
export const DEFAULT_FONTS_DIR = fileURLToPath(new URL('../../../../fonts', import.meta.url));

/** File stems of each family under `fonts/<dir>/<stem>_400Regular.ttf` and `_700Bold.ttf`. */
const FAMILY_FILES: Record<FontName, [dir: string, stem: string]> = {
  arial: ['arimo', 'Arimo'],
  inter: ['inter', 'Inter'],
  montserrat: ['montserrat', 'Montserrat'],
  'playfair-display': ['playfair-display', 'PlayfairDisplay'],
  oswald: ['oswald', 'Oswald'],
  lora: ['lora', 'Lora'],
  raleway: ['raleway', 'Raleway'],
  roboto: ['roboto', 'Roboto'],
  'source-sans-pro': ['source-sans-3', 'SourceSans3'],
};

export type Weight = 'regular' | 'bold';

/** One font file loaded into HarfBuzz, with its metrics in font units and its glyph outlines cached. */
const GLYPH_CACHE = new LRUCache<string, string>({
  maxSize: GLYPH_CACHE_CHARS,
  sizeCalculation: (value) => Math.max(1, value.length),
});
let nextFontKey = 0;

export class LoadedFont {
  readonly font: hb.Font;
  readonly upem: number;
  /** hhea ascender, font units, positive up. */
  readonly ascender: number;
  /** hhea descender, font units, positive down. */
  readonly descender: number;
  /** A COLRv1 colour font (emoji): glyphs are painted with {@link colorSvg}, not filled. */
  isColor = false;
  private readonly face: hb.Face;
  private coverage = new Set<number>();
  /** This font's part of the keys of {@link GLYPH_CACHE}. */
  private readonly cacheKey = `${nextFontKey++}:`;

  /**
   * Copies the font file into HarfBuzz (10 to 17 ms for a 10 to 25 MB CJK or emoji font), without
   * the tables the renderer never reads ({@link UNUSED_TABLES}: the emoji font's 20 MB of SVG
   * glyphs), and, unless `index` is false, reads its coverage and colour tables ({@link index}).
   * `data` stays the caller's; {@link fontOfFile} gives a file's bytes back once copied.
   */
  constructor(
    readonly name: string,
    data: Uint8Array,
    options: { index?: boolean } = {},
  ) {
    const file = withoutTables(data, UNUSED_TABLES);
    this.face = new hb.Face(new hb.Blob(file));
    if (file !== data) release(file);
    this.font = new hb.Font(this.face);
    this.upem = this.face.upem;
    const extents = this.font.hExtents();
    this.ascender = extents.ascender;
    this.descender = -extents.descender;
    if (options.index !== false) this.index();
  }

  /** Reads which characters the font covers and whether it paints in colour (5 to 8 ms for a large font). */
  index(): void {
    this.coverage = new Set(this.face.collectUnicodes());
    this.isColor = this.face.hasColorPaint();
  }

  /** The colour glyph as an SVG fragment in font units, y up (cached); ids are unique per font and glyph. */
  colorSvg(glyphId: number): string {
    const key = `${this.cacheKey}c${glyphId}`;
    let svg = GLYPH_CACHE.get(key);
    if (svg === undefined) {
      svg = colorGlyphSvg(this.font, glyphId, `${this.name.replace(/\W/g, '')}${glyphId}_`);
      GLYPH_CACHE.set(key, svg);
    }
    return svg;
  }

  /** Whether the font has a glyph for the code point. */
  covers(codePoint: number): boolean {
    return this.coverage.has(codePoint);
  }

  /** SVG path data of a glyph outline, in font units with y up (cached). */
  glyphPath(glyphId: number): string {
    const key = `${this.cacheKey}p${glyphId}`;
    let d = GLYPH_CACHE.get(key);
    if (d === undefined) {
      d = this.font.glyphToPath(glyphId);
      GLYPH_CACHE.set(key, d);
    }
    return d;
  }
}

export interface FontFamily {
  regular: LoadedFont;
  bold: LoadedFont;
}

type Fallback = 'hebrew' | 'arabic' | 'devanagari' | 'thai' | 'sc' | 'jp' | 'kr' | 'emoji';

/** npm package and file stem of each fallback; `eager` ones load at start-up. */
const FALLBACKS: Record<Fallback, { pkg: string; stem: string; eager: boolean; boldless?: boolean }> = {
  hebrew: { pkg: '@expo-google-fonts/noto-sans-hebrew', stem: 'NotoSansHebrew', eager: true },
  arabic: { pkg: '@expo-google-fonts/noto-sans-arabic', stem: 'NotoSansArabic', eager: true },
  devanagari: { pkg: '@expo-google-fonts/noto-sans-devanagari', stem: 'NotoSansDevanagari', eager: true },
  thai: { pkg: '@expo-google-fonts/noto-sans-thai', stem: 'NotoSansThai', eager: true },
  sc: { pkg: '@expo-google-fonts/noto-sans-sc', stem: 'NotoSansSC', eager: false },
  jp: { pkg: '@expo-google-fonts/noto-sans-jp', stem: 'NotoSansJP', eager: false },
  kr: { pkg: '@expo-google-fonts/noto-sans-kr', stem: 'NotoSansKR', eager: false },
  emoji: { pkg: '@expo-google-fonts/noto-color-emoji', stem: 'NotoColorEmoji', eager: false, boldless: true },
};
const EAGER: Fallback[] = ['hebrew', 'arabic', 'devanagari', 'thai'];

const HAN_KANA_HANGUL =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}]/u;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HANGUL = /\p{Script=Hangul}/u;
/** A grapheme that is an emoji (RGI_Emoji: includes ZWJ sequences, skin tones, flags, keycaps). */
export const EMOJI = /^\p{RGI_Emoji}$/v;
const ANY_EMOJI = /\p{RGI_Emoji}/v;

/**
 * The CJK font for a text: Korean when it has Hangul, Japanese when it has kana, otherwise
 * Simplified Chinese. Han characters alone cannot tell the language; these fonts differ in the
 * preferred shapes of some Han glyphs, not in coverage.
 */
function cjkFor(text: string): Fallback {
  if (HANGUL.test(text)) return 'kr';
  if (KANA.test(text)) return 'jp';
  return 'sc';
}

const require = createRequire(import.meta.url);

/** The file of a fallback font in its npm package. */
function fallbackFile(which: Fallback, weight: Weight): string {
  const spec = FALLBACKS[which];
  const dir = path.dirname(require.resolve(`${spec.pkg}/package.json`));
  const [folder, suffix] =
    weight === 'bold' && !spec.boldless ? ['700Bold', '700Bold'] : ['400Regular', '400Regular'];
  return path.join(dir, folder, `${spec.stem}_${suffix}.ttf`);
}

/** The lazy fallbacks a text needs beyond the eager ones: its CJK font, the emoji font. */
function lazyFallbacks(text: string): Fallback[] {
  const needed: Fallback[] = [];
  if (HAN_KANA_HANGUL.test(text)) needed.push(cjkFor(text));
  if (ANY_EMOJI.test(text)) needed.push('emoji');
  return needed;
}

/** All fonts of the process. Build it once at start-up with {@link loadFontLibrary}. */
export class FontLibrary {
  private readonly fallbacks = new Map<string, LoadedFont>();
  private readonly loading = new Map<string, Promise<void>>();
  /** Milliseconds spent loading each lazy fallback, for `npm run bench`. */
  readonly loadTimes = new Map<string, number>();

  constructor(
    private readonly families: Map<FontName, FontFamily>,
    private readonly arimo: FontFamily,
  ) {
    for (const which of EAGER)
      for (const weight of ['regular', 'bold'] as const) this.fallback(which, weight);
  }

  private keyOf(which: Fallback, weight: Weight): string {
    return FALLBACKS[which].boldless ? which : `${which}-${weight}`;
  }

  /**
   * The fallback font, loaded now unless it is: the eager ones at start-up, a lazy one when
   * {@link chain} is asked for text that {@link prepare} did not load first (the render report
   * does). Read whole and at once, on the main thread; its bytes are given back once copied.
   */
  private fallback(which: Fallback, weight: Weight): LoadedFont {
    const key = this.keyOf(which, weight);
    let font = this.fallbacks.get(key);
    if (!font) {
      const started = performance.now();
      const file = fallbackFile(which, weight);
      font = fontOfFile(file, readFileSync(file));
      this.fallbacks.set(key, font);
      this.loadTimes.set(key, performance.now() - started);
    }
    return font;
  }

  /**
   * Loads the large fallbacks `text` needs at `weight` (a CJK font, the emoji font: 5 to 25 MB)
   * unless loaded already, reading the file off the main thread; concurrent calls share one load.
   * Then {@link chain} finds them loaded. What stays on the main thread takes two turns of the
   * event loop: HarfBuzz's copy of the file (10 to 17 ms), then its coverage and colour tables.
   */
  async prepare(text: string, weight: Weight): Promise<void> {
    await Promise.all(
      lazyFallbacks(text).map((which) => {
        const key = this.keyOf(which, weight);
        if (this.fallbacks.has(key)) return Promise.resolve();
        let loading = this.loading.get(key);
        if (!loading) {
          const started = performance.now();
          const file = fallbackFile(which, weight);
          loading = readWithoutTables(file, UNUSED_TABLES)
            .then(async (data) => {
              if (this.fallbacks.has(key)) return release(data);
              // Two turns of the event loop, each under 20 ms: the copy into HarfBuzz, then the tables.
              const font = fontOfFile(file, data, { index: false });
              await yieldToEventLoop();
              font.index();
              if (!this.fallbacks.has(key)) this.fallbacks.set(key, font);
              this.loadTimes.set(key, performance.now() - started);
            })
            .finally(() => this.loading.delete(key));
          this.loading.set(key, loading);
        }
        return loading;
      }),
    );
  }

  /**
   * The fonts to try, in order, for the characters of `text`: the chosen family's face, Arimo, the
   * small Noto fallbacks, and the CJK and emoji fonts when `text` needs them (loaded on first use).
   * `name` may be an uploaded font (POST /fonts), used for both weights.
   * The chosen font keeps every glyph it has; emoji prefer the emoji font (see shaping.ts).
   */
  chain(name: FontName | LoadedFont, weight: Weight, text = ''): LoadedFont[] {
    // An uploaded font (one file) sets both weights; the fallbacks follow it as they follow a family.
    const family = typeof name === 'string' ? this.families.get(name) : { regular: name, bold: name };
    if (!family) throw new Error(`font ${typeof name === 'string' ? name : name.name} is not loaded`);
    const chain = [family[weight]];
    if (this.arimo[weight] !== family[weight]) chain.push(this.arimo[weight]);
    for (const which of EAGER) chain.push(this.fallback(which, weight));
    for (const which of lazyFallbacks(text)) chain.push(this.fallback(which, weight));
    return chain;
  }
}

function loadFile(file: string): LoadedFont {
  return fontOfFile(file, readFileSync(file));
}

/**
 * The font of `file` from its bytes `data`, read for it alone: once HarfBuzz holds its copy, `data`
 * is given back ({@link release}).
 */
function fontOfFile(file: string, data: Uint8Array, options?: { index?: boolean }): LoadedFont {
  const font = new LoadedFont(path.basename(file, '.ttf'), data, options);
  release(data);
  return font;
}

/**
 * Gives the memory of `bytes` back now rather than at V8's next full collection, which a server may
 * not run for minutes: `ArrayBuffer.prototype.transfer` detaches its buffer, whose memory is then
 * freed (a CJK font's file is 5 to 11 MB; loading the six left 49 to 51 MiB more resident instead of
 * 55, docs/performance.md). Only bytes that are the whole of their own buffer (not a slice of
 * Node's pool or of a larger buffer), which are then empty; others are left to the collector.
 */
export function release(bytes: Uint8Array): void {
  const { buffer } = bytes;
  if (buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength)
    buffer.transfer(0);
}

/**
 * Reads the nine families (18 files, about 4 MB) from `fontsDir` and the small Noto fallbacks
 * (Hebrew, Arabic, Devanagari, Thai: 1 MB). Throws if a file is missing.
 */
export function loadFontLibrary(fontsDir: string = DEFAULT_FONTS_DIR): FontLibrary {
  const families = new Map<FontName, FontFamily>();
  for (const [name, [dir, stem]] of Object.entries(FAMILY_FILES) as [FontName, [string, string]][]) {
    families.set(name, {
      regular: loadFile(path.join(fontsDir, dir, `${stem}_400Regular.ttf`)),
      bold: loadFile(path.join(fontsDir, dir, `${stem}_700Bold.ttf`)),
    });
  }
  return new FontLibrary(families, families.get('arial') as FontFamily);
}
