/**
 * Reading rendered cards back with OCR: Debian's `tesseract-ocr` (5.x) and its language data
 * (`tesseract-ocr-ara`, `-jpn`, … installed by .ci/run). Used to check from the pixels that every
 * script is drawn as typed, not only that the layout picked the right glyph ids.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Tesseract's language data installed on this machine (`tesseract --list-langs`), empty without tesseract. */
export const tesseractLanguages: ReadonlySet<string> = (() => {
  try {
    const out = execFileSync('tesseract', ['--list-langs'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new Set(
      out
        .split('\n')
        .slice(1)
        .map((l) => l.trim())
        .filter(Boolean),
    );
  } catch {
    return new Set<string>();
  }
})();

/**
 * The text Tesseract reads in a PNG or JPEG, as one block of text (`--psm 6`: a single uniform block,
 * which suits a card's text box; the automatic page segmentation drops lines on plain cards).
 *
 * @param image encoded image bytes
 * @param language Tesseract language code(s), e.g. `ara` or `chi_sim`
 */
export async function ocr(image: Buffer, language: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'titlecard-ocr-'));
  try {
    const file = join(dir, 'card.png');
    await writeFile(file, image);
    const { stdout } = await run('tesseract', [file, '-', '-l', language, '--psm', '6'], {
      encoding: 'utf8',
    });
    return stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Text compared as letters: Unicode NFKC (so `ﬁ` is `fi` and `：` is `:`), in lower case (a capital
 * and its small letter that share a shape, as Greek Τ and τ at a line's start, are read either
 * way), without punctuation, symbols or white space, which OCR reads unreliably and which carry no
 * spelling.
 */
export const letters = (text: string): string =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\p{P}\p{S}\s]/gu, '');
