/**
 * Titles in any language: a sample of each script and of emoji sequences through the layout, checked
 * against HarfBuzz itself, plus line breaking per script and bidi order.
 */
import * as hb from 'harfbuzzjs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { LoadedFont } from '../../src/domain/render/text/fonts.js';
import { createRenderer } from '../../src/domain/render/index.js';
import type { LaidLine, TextLayout } from '../../src/domain/render/text/layout.js';
import { layoutText } from '../support/layout.js';
import { generateOptionsSchema } from '../../src/domain/images/schemas.js';
import { decode, solid } from '../support/images.js';
import { SCRIPT_SAMPLES } from '../support/samples.js';
import { testFonts } from '../support/server.js';

const fonts = testFonts();

/** One title per script; each line set in one font, so HarfBuzz alone can shape it the same way. */
const SAMPLES = SCRIPT_SAMPLES;

const lay = (title: string, over: Partial<Parameters<typeof layoutText>[1]> = {}): TextLayout =>
  layoutText(fonts, { aspect: 'og', placement: { template: 'bottom-left' }, title, font: 'arial', ...over });

/** HarfBuzz on its own: the line's text, one font, direction guessed from the script, default ignorables removed. */
function harfbuzz(text: string, font: LoadedFont): { ids: number[]; width: number } {
  const buffer = new hb.Buffer();
  buffer.setFlags(hb.BufferFlag.REMOVE_DEFAULT_IGNORABLES);
  buffer.addText(text);
  buffer.guessSegmentProperties();
  hb.shape(font.font, buffer);
  return {
    ids: buffer.getGlyphInfos().map((g) => g.codepoint),
    width: buffer.getGlyphPositions().reduce((w, p) => w + p.xAdvance, 0) / font.upem,
  };
}

const linesOf = (l: TextLayout) => l.blocks.flatMap((b) => b.lines);

describe('every script and emoji', () => {
  for (const [script, title] of Object.entries(SAMPLES)) {
    it(`${script}: no missing glyph, and each line is HarfBuzz's shaping of it, width within 1%`, () => {
      for (const template of ['bottom-left', 'left', 'split'] as const) {
        const layout = lay(title, { placement: { template } });
        for (const line of linesOf(layout)) {
          expect(
            line.glyphs.filter((g) => g.glyphId === 0),
            `${script} ${template}: .notdef in "${line.text}"`,
          ).toEqual([]);
          const used = [...new Set(line.glyphs.map((g) => g.font))];
          expect(used, `${script}: one font per line`).toHaveLength(1);
          const reference = harfbuzz(line.text, used[0] as LoadedFont);
          expect(line.glyphs.map((g) => g.glyphId)).toEqual(reference.ids);
          const ours = line.width / line.size;
          expect(Math.abs(ours - reference.width) / reference.width).toBeLessThan(0.01);
        }
      }
    });
  }

  it('the chosen font keeps every glyph it has; other characters fall back per glyph', () => {
    const layout = lay('Inter and العربية and 中文 😀', { font: 'inter' });
    const names = new Set(linesOf(layout).flatMap((l) => l.glyphs.map((g) => g.font.name)));
    expect([...names].sort()).toEqual([
      'Inter_700Bold',
      'NotoColorEmoji_400Regular',
      'NotoSansArabic_700Bold',
      'NotoSansSC_700Bold',
    ]);
    // Latin letters stay in Inter, spaces included.
    const latin = linesOf(layout)
      .flatMap((l) => l.glyphs)
      .filter((g) => g.font.name.startsWith('Inter'));
    expect(latin.length).toBeGreaterThanOrEqual('Inter and  and '.replaceAll(' ', '').length);
  });

  it('emoji sequences (skin tones, ZWJ families, flags) are one glyph each', () => {
    const title = '👍🏽👨‍👩‍👧🇫🇷🏳️‍🌈';
    const glyphs = linesOf(lay(title)).flatMap((l) => l.glyphs);
    expect(glyphs.every((g) => g.font.isColor)).toBe(true);
    expect(glyphs).toHaveLength(4);
  });
});

describe('right to left and bidi', () => {
  it('right-to-left lines end at the right edge of their box in every template', () => {
    for (const title of [SAMPLES.arabic as string, SAMPLES.hebrew as string]) {
      for (const template of ['bottom-left', 'left', 'right', 'split'] as const) {
        for (const line of linesOf(lay(title, { placement: { template } }))) {
          const block = lay(title, { placement: { template } }).blocks[0];
          const box = block?.box as { x: number; width: number };
          expect(
            Math.abs(line.x + line.width - (box.x + box.width)),
            `${template} "${line.text}"`,
          ).toBeLessThan(0.01);
        }
      }
    }
  });

  it('mixed text follows the Unicode bidirectional algorithm: "React 19 في الإنتاج"', () => {
    const title = 'React 19 في الإنتاج';
    const line = linesOf(lay(title, { fontSize: 40 }))[0] as LaidLine;
    expect(line.text).toBe(title);
    // Left-to-right paragraph (first strong letter R): "React 19" first, then the Arabic run, drawn right to left.
    const ids = line.glyphs.map((g) => g.glyphId);
    const arabicFont = line.glyphs.at(-1)?.font as LoadedFont;
    expect(arabicFont.name).toBe('NotoSansArabic_700Bold');
    const arabic = harfbuzz('في الإنتاج', arabicFont);
    expect(ids.slice(-arabic.ids.length)).toEqual(arabic.ids); // the Arabic run, shaped right to left, drawn last (rightmost)
    const latin = line.glyphs.filter((g) => g.font.name.startsWith('Arimo'));
    expect(latin.map((g) => g.glyphId)).toEqual(harfbuzz('React 19 ', latin[0]?.font as LoadedFont).ids);
    expect(Math.max(...latin.map((g) => g.x))).toBeLessThan(
      Math.min(...line.glyphs.filter((g) => g.font === arabicFont).map((g) => g.x)),
    );
  });
});

describe('line breaking per script', () => {
  it('Thai breaks only at word boundaries (dictionary segmentation)', () => {
    const title = SAMPLES.thai as string;
    const words = new Set(
      [...new Intl.Segmenter('th', { granularity: 'word' }).segment(title)]
        .map((s) => s.index)
        .concat(title.length),
    );
    const layout = lay(title, { placement: { template: 'split' }, fontSize: 48 });
    const lines = linesOf(layout);
    expect(lines.length).toBeGreaterThan(1);
    let at = 0;
    for (const line of lines) {
      at = title.indexOf(line.text, at) + line.text.length;
      expect(words.has(at), `break after "${line.text}"`).toBe(true);
    }
  });

  /** Where each line after the first starts, as UTF-16 indices into `title`. */
  const lineStarts = (title: string, layout: TextLayout) => {
    const starts: number[] = [];
    let at = 0;
    for (const line of linesOf(layout)) {
      const i = title.indexOf(line.text.trimEnd(), at);
      starts.push(i);
      at = i + line.text.trimEnd().length;
    }
    return starts.slice(1);
  };

  it('Korean breaks at spaces, never between the syllables of a word (keep-all)', () => {
    const title = '우리 팀의 새 얼굴들';
    for (const template of ['left', 'right', 'split', 'bottom-left'] as const) {
      const layout = lay(title, { placement: { template } });
      expect(linesOf(layout).map((l) => l.text.trim())).not.toContain('의 새');
      for (const at of lineStarts(title, layout))
        expect(title[at - 1], `${template}: break at ${at}`).toBe(' ');
    }
    expect(linesOf(lay(title, { placement: { template: 'left' } })).map((l) => l.text.trim())).toEqual([
      '우리 팀의',
      '새 얼굴들',
    ]);
  });

  it('Japanese breaks between phrases: 新しいリリースのお知らせ keeps リリース whole', () => {
    const title = '新しいリリースのお知らせ';
    for (const template of ['left', 'right', 'split'] as const) {
      const lines = linesOf(lay(title, { placement: { template } })).map((l) => l.text);
      expect(lines.join(''), template).toBe(title);
      expect(
        lines.some((l) => l.includes('リリース')),
        `${template}: ${lines.join(' / ')}`,
      ).toBe(true);
    }
    expect(linesOf(lay(title, { placement: { template: 'left' } })).map((l) => l.text)).toEqual([
      '新しい',
      'リリースの',
      'お知らせ',
    ]);
  });

  it('a phrase wider than its line breaks at a word boundary inside it, not inside a word', () => {
    // In split at 72 px, the phrase リリースの does not fit a line: it breaks between its words
    // (新しい / リリース / の / お知らせ), never inside リリース, as the fit check reports it.
    const title = '新しいリリースのお知らせ';
    const layout = lay(title, { placement: { template: 'split' }, fontSize: 72 });
    const lines = linesOf(layout).map((l) => l.text);
    expect(lines.join('')).toBe(title);
    expect(lines).toContain('リリース');
    const words = new Set(
      [...new Intl.Segmenter('ja', { granularity: 'word' }).segment(title)].map((s) => s.index),
    );
    for (const at of lineStarts(title, layout))
      expect(words.has(at), `break at ${at}: ${lines.join(' / ')}`).toBe(true);
  });

  it("Chinese breaks between words (every break is a word boundary of ICU's dictionary)", () => {
    const title = '我们的新产品今天正式发布了欢迎大家试用';
    const words = new Set(
      [...new Intl.Segmenter('zh', { granularity: 'word' }).segment(title)].map((s) => s.index),
    );
    for (const template of ['left', 'split'] as const) {
      const layout = lay(title, { placement: { template } });
      expect(linesOf(layout).length).toBeGreaterThan(1);
      for (const at of lineStarts(title, layout))
        expect(words.has(at), `${template}: break before ${title.slice(at)}`).toBe(true);
    }
  });

  it('a word or phrase wider than the box still splits, and no piece starts with a closing mark', () => {
    for (const title of [
      '아주아주아주아주아주아주긴단어입니다',
      'リリースリリースリリースリリース、リリース。',
    ]) {
      const layout = lay(title, { placement: { template: 'split' }, fontSize: 120 });
      const lines = linesOf(layout);
      expect(lines.length, title).toBeGreaterThan(1);
      for (const line of lines) expect(line.text, title).not.toMatch(/^[、。，．」』）！？：；ー]/);
    }
  });

  it('Chinese and Japanese break between characters, and no line starts with a closing mark', () => {
    for (const title of [
      SAMPLES.chinese as string,
      SAMPLES.japanese as string,
      '「引用」、句読点。』）！？が続く、長い、文章。',
    ]) {
      const layout = lay(title, { placement: { template: 'split' }, fontSize: 56 });
      const lines = linesOf(layout);
      expect(lines.length).toBeGreaterThan(2);
      for (const line of lines) expect(line.text, title).not.toMatch(/^[、。，．」』）！？：；]/);
    }
  });
});

describe('pixels', () => {
  it('emoji are drawn in colour, text in the text colour', async () => {
    const renderer = createRenderer(fonts);
    const out = await renderer.render(
      await solid([255, 255, 255], 'png', 1200, 630),
      generateOptionsSchema.parse({
        title: 'Hi 🍎🍀🔵',
        colorMode: 'black',
        gradient: false,
        textShadow: false,
        fontSize: 100,
      }),
    );
    const img = await decode(out.image);
    let red = 0;
    let green = 0;
    let blue = 0;
    for (let i = 0; i < img.width * img.height; i++) {
      const [r, g, b] = [
        img.data[i * img.channels],
        img.data[i * img.channels + 1],
        img.data[i * img.channels + 2],
      ] as number[];
      if ((r as number) > 180 && (g as number) < 90 && (b as number) < 90) red++;
      if ((g as number) > 140 && (r as number) < 120 && (b as number) < 120) green++;
      if ((b as number) > 160 && (r as number) < 120) blue++;
    }
    expect(red).toBeGreaterThan(500);
    expect(green).toBeGreaterThan(500);
    expect(blue).toBeGreaterThan(500);
    expect((await sharp(out.image).metadata()).format).toBe('png');
  });

  it('a final ي keeps its two dots in the subtitle too (regular weight): the card differs from one with ى (issue 42)', async () => {
    // Noto Sans Arabic draws the dots as a mark 0.42 em below the baseline, deeper than the primary
    // font's descender: the layer's box cut them off the subtitle's last line, so في بي عربي was
    // drawn as فى بى عربى, another spelling.
    const renderer = createRenderer(fonts);
    const card = async (subtitle: string) => {
      const out = await renderer.render(
        await solid([30, 40, 60], 'png', 1200, 630),
        generateOptionsSchema.parse({ title: 'عنوان', subtitle, gradient: false, textShadow: false }),
      );
      return decode(out.image);
    };
    // Both start with في, so both lines reach as deep and are laid out alike: only the last word's
    // two dots can differ.
    const [yeh, alefMaksura] = await Promise.all([card('في كتاب عربي'), card('في كتاب عربى')]);
    let differing = 0;
    for (let i = 0; i < yeh.data.length; i += yeh.channels)
      if (Math.abs((yeh.data[i] as number) - (alefMaksura.data[i] as number)) > 64) differing++;
    console.info(`arabic: ${differing} pixels differ between في كتاب عربي and في كتاب عربى`);
    // One pair of dots at the subtitle's size (about 40 px): tens of pixels, and nothing else.
    expect(differing).toBeGreaterThan(20);
    expect(differing).toBeLessThan(1000);
  });
});
