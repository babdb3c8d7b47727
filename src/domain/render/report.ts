/**
 * The layout report: what a layout came to, in words a CMS can check before publishing (see
 * `layoutReportSchema`). Pure: it reads the layout and the font chain, nothing else.
 */
import type { LayerReport, LayoutReport } from './types.js';
import type { TemplateDocument } from './document/document.js';
import type { FontName, Template } from '../design.js';
import type { FontLibrary, LoadedFont } from './text/fonts.js';
import { layerFontOf, type FilledTexts, type TextLayout } from './text/layout.js';
import { covers } from './text/shaping.js';

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** "NotoSansJP_700Bold" → "Noto Sans JP"; "Arimo_400Regular" → "Arimo". */
export function familyName(fontFileStem: string): string {
  return fontFileStem
    .replace(/_\d{3}\w*$/, '')
    .replace(/([a-z])([A-Z0-9])/g, '$1 $2')
    .trim();
}

export function reportLayout(
  layout: TextLayout,
  fonts: FontLibrary,
  request: {
    title: string;
    subtitle?: string | undefined;
    font: FontName | LoadedFont;
    template: Template | undefined;
  },
): LayoutReport {
  const block = (role: 'title' | 'subtitle') => layout.blocks.find((b) => b.role === role);
  const title = block('title');
  const subtitle = block('subtitle');
  const chosen = new Set(
    [fonts.chain(request.font, 'bold')[0], fonts.chain(request.font, 'regular')[0]].map((f) => f?.name),
  );
  const used = new Set<string>();
  for (const b of layout.blocks)
    for (const line of b.lines)
      for (const g of line.glyphs) if (!chosen.has(g.font.name)) used.add(familyName(g.font.name));
  const missing = new Set<string>();
  for (const [text, weight] of [
    [request.title, 'bold'],
    [request.subtitle ?? '', 'regular'],
  ] as const) {
    const chain = fonts.chain(request.font, weight, text);
    for (const { segment } of graphemes.segment(text))
      if (!/^\s+$/u.test(segment) && !chain.some((f) => covers(f, segment))) missing.add(segment);
  }
  const lines = (b: typeof title) => (b ? b.lines.map((l) => l.text.trimEnd()) : []);
  return {
    template: request.template ?? null,
    fontSize: Math.round(layout.titleSize),
    subtitleFontSize: subtitle ? Math.round(subtitle.size) : null,
    lines: { title: lines(title), subtitle: lines(subtitle) },
    lineCount: layout.blocks.reduce((n, b) => n + b.lines.length, 0),
    truncated: layout.truncated,
    fallbackFonts: [...used].sort(),
    missingCharacters: [...missing],
  };
}

/**
 * Each text layer's report (`layers` of a template's layout report): its size, lines, whether it was
 * cut, the fallback fonts that drew it and what no font covers; `contrast` is filled by a render.
 */
export function reportLayers(
  layout: TextLayout,
  fonts: FontLibrary,
  document: TemplateDocument,
  texts: FilledTexts,
  font: FontName | LoadedFont,
  layerFonts: Map<number, FontName | LoadedFont>,
): LayerReport[] {
  const reports: LayerReport[] = [];
  document.layers.forEach((layer, i) => {
    if (layer.type !== 'text') return;
    const own = layerFontOf(layer, i, layerFonts, font);
    const blocks = layout.blocks.filter((b) => b.layer === i);
    const chosen = new Set([fonts.chain(own, 'bold')[0]?.name, fonts.chain(own, 'regular')[0]?.name]);
    const used = new Set<string>();
    for (const b of blocks)
      for (const line of b.lines)
        for (const g of line.glyphs) if (!chosen.has(g.font.name)) used.add(familyName(g.font.name));
    const missing = new Set<string>();
    const filled = texts.get(i);
    for (const [text, weight] of [
      [filled?.content ?? '', layer.weight],
      [filled?.below ?? '', layer.below?.weight ?? 'regular'],
    ] as const) {
      const chain = fonts.chain(own, weight, text);
      for (const { segment } of graphemes.segment(text))
        if (!/^\s+$/u.test(segment) && !chain.some((f) => covers(f, segment))) missing.add(segment);
    }
    reports.push({
      layer: i,
      fontSize: Math.round(blocks[0]?.size ?? 0),
      lines: blocks.flatMap((b) => b.lines.map((l) => l.text.trimEnd())),
      truncated: layout.truncatedLayers.has(i),
      fallbackFonts: [...used].sort(),
      missingCharacters: [...missing],
      contrast: null,
    });
  });
  return reports;
}
