/**
 * The font set: the nine families of spec 4.1 as TrueType files in `fonts/`, loaded once per process
 * into HarfBuzz. Each family has Regular (400, subtitles) and Bold (700, titles). A fallback chain
 * follows the chosen font for characters it does not cover (per-glyph fallback).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as hb from 'harfbuzzjs';
import type { FontName } from '../schemas.js';

/** Where the bundled fonts are: `<package root>/fonts`. */
export const DEFAULT_FONTS_DIR = fileURLToPath(new URL('../../../fonts', import.meta.url));

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
export class LoadedFont {
  readonly font: hb.Font;
  readonly upem: number;
  /** hhea ascender, font units, positive up. */
  readonly ascender: number;
  /** hhea descender, font units, positive down. */
  readonly descender: number;
  private readonly coverage: Set<number>;
  private readonly paths = new Map<number, string>();

  constructor(
    readonly name: string,
    data: Uint8Array,
  ) {
    const face = new hb.Face(new hb.Blob(data));
    this.font = new hb.Font(face);
    this.upem = face.upem;
    const extents = this.font.hExtents();
    this.ascender = extents.ascender;
    this.descender = -extents.descender;
    this.coverage = new Set(face.collectUnicodes());
  }

  /** Whether the font has a glyph for the code point. */
  covers(codePoint: number): boolean {
    return this.coverage.has(codePoint);
  }

  /** SVG path data of a glyph outline, in font units with y up (cached). */
  glyphPath(glyphId: number): string {
    let d = this.paths.get(glyphId);
    if (d === undefined) {
      d = this.font.glyphToPath(glyphId);
      this.paths.set(glyphId, d);
    }
    return d;
  }
}

export interface FontFamily {
  regular: LoadedFont;
  bold: LoadedFont;
}

/** All fonts of the process. Build it once at start-up with {@link loadFontLibrary}. */
export class FontLibrary {
  constructor(
    private readonly families: Map<FontName, FontFamily>,
    private readonly fallbackFamilies: FontFamily[],
  ) {}

  /**
   * The fonts to try, in order, for a character: the chosen family's face, then the fallback fonts.
   * The chosen font keeps every glyph it has.
   */
  chain(name: FontName, weight: Weight): LoadedFont[] {
    const family = this.families.get(name);
    if (!family) throw new Error(`font ${name} is not loaded`);
    const chain = [family[weight]];
    for (const fallback of this.fallbackFamilies) {
      if (fallback[weight] !== family[weight]) chain.push(fallback[weight]);
    }
    return chain;
  }
}

function loadFile(file: string): LoadedFont {
  return new LoadedFont(path.basename(file, '.ttf'), readFileSync(file));
}

/**
 * Reads the nine families (18 files, about 4 MB) from `fontsDir`. Throws if a file is missing.
 * Fallback chain today: Arimo (Latin, Cyrillic, Greek, Hebrew).
 */
export function loadFontLibrary(fontsDir: string = DEFAULT_FONTS_DIR): FontLibrary {
  const families = new Map<FontName, FontFamily>();
  for (const [name, [dir, stem]] of Object.entries(FAMILY_FILES) as [FontName, [string, string]][]) {
    families.set(name, {
      regular: loadFile(path.join(fontsDir, dir, `${stem}_400Regular.ttf`)),
      bold: loadFile(path.join(fontsDir, dir, `${stem}_700Bold.ttf`)),
    });
  }
  const arimo = families.get('arial');
  return new FontLibrary(families, arimo ? [arimo] : []);
}
