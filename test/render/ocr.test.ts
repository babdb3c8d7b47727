/**
 * Every script spelled as typed, in both weights, read back from the pixels with OCR (Tesseract):
 * the title (bold) and the subtitle (regular) of each script that docs/typography.md claims, black
 * on a white card, with no gradient or shadow to read through. A glyph drawn from the wrong font or
 * shaped with the wrong features reads as another letter: a final ي without its dots reads ى.
 */
import { describe, expect, it } from 'vitest';
import { createRenderer } from '../../src/domain/render/index.js';
import { generateOptionsSchema } from '../../src/domain/images/schemas.js';
import { solid } from '../support/images.js';
import { letters, ocr, tesseractLanguages } from '../support/ocr.js';
import { SCRIPT_SAMPLES } from '../support/samples.js';
import { testFonts } from '../support/server.js';

/** The scripts docs/typography.md claims, each with its Tesseract language data. */
const LANGUAGES: Record<string, string> = {
  latin: 'eng',
  cyrillic: 'rus',
  greek: 'ell',
  arabic: 'ara',
  hebrew: 'heb',
  devanagari: 'hin',
  thai: 'tha',
  japanese: 'jpn',
  chinese: 'chi_sim',
  korean: 'kor',
};
/** Extra words per script where a known misspelling would show: word-final ي (issue 42, item 3). */
const HARD_WORDS: Record<string, string> = { arabic: 'في بي عربي ' };

const missing = Object.values(LANGUAGES).filter((l) => !tesseractLanguages.has(l));
if (process.env.CI === 'true' && missing.length > 0)
  throw new Error(
    `CI=true but Tesseract or its data for ${missing.join(', ')} is missing: .ci/run installs them`,
  );

describe.skipIf(missing.length > 0)('OCR reads every script as typed, in both weights', () => {
  const renderer = createRenderer(testFonts());
  const card = (title: string, subtitle: string | undefined, fontSize: number) =>
    solid([255, 255, 255], 'png', 1200, 630).then((white) =>
      renderer.render(
        white,
        generateOptionsSchema.parse({
          title,
          subtitle,
          fontSize,
          template: 'left',
          aspect: 'og',
          colorMode: 'black',
          gradient: false,
          textShadow: false,
          fileFormat: 'png',
        }),
      ),
    );

  it.each(Object.entries(LANGUAGES))('%s (tesseract -l %s)', async (script, language) => {
    const typed = SCRIPT_SAMPLES[script]!;
    // The bold title, at sizes where each line is a few words. Tesseract misreads a letter now and
    // then at one size (Greek at 40 px, Arabic at 44), so the title is read at two: a glyph drawn
    // wrong is misread at both.
    const readings: string[] = [];
    for (const fontSize of [40, 44]) {
      readings.push(letters(await ocr((await card(typed, undefined, fontSize)).image, language)));
      if (readings.at(-1)!.includes(letters(typed))) break;
    }
    expect(readings.at(-1), `the title, read at 40 px as ${readings[0]}`).toContain(letters(typed));
    // The regular subtitle, under a one-letter title, at a size Tesseract reads.
    const subtitleText = (HARD_WORDS[script] ?? '') + typed;
    const subtitle = await card('·', subtitleText, 72);
    expect(subtitle.report.subtitleFontSize).toBeGreaterThanOrEqual(30);
    expect(letters(await ocr(subtitle.image, language)), 'the subtitle').toContain(letters(subtitleText));
  });
});
