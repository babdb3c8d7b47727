/**
 * The font tables the renderer leaves out before a font goes into HarfBuzz (sfnt.ts): the emoji
 * font loses its SVG glyphs and nothing it paints.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as hb from 'harfbuzzjs';
import { afterAll, describe, expect, it } from 'vitest';
import { colorGlyphSvg } from '../../src/domain/render/text/colr.js';
import { release } from '../../src/domain/render/text/fonts.js';
import { readWithoutTables, UNUSED_TABLES, withoutTables } from '../../src/domain/render/text/sfnt.js';

const require = createRequire(import.meta.url);
const EMOJI_FILE = path.join(
  path.dirname(require.resolve('@expo-google-fonts/noto-color-emoji/package.json')),
  '400Regular/NotoColorEmoji_400Regular.ttf',
);
const ARIMO_FILE = new URL('../../fonts/arimo/Arimo_700Bold.ttf', import.meta.url);

/** The table directory of a font file, read independently of sfnt.ts: tag → the table's bytes. */
function tables(data: Uint8Array): Map<string, Buffer> {
  const file = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const out = new Map<string, Buffer>();
  for (let i = 0; i < file.readUInt16BE(4); i++) {
    const at = 12 + 16 * i;
    const offset = file.readUInt32BE(at + 8);
    out.set(file.toString('latin1', at, at + 4), file.subarray(offset, offset + file.readUInt32BE(at + 12)));
  }
  return out;
}

/** The glyph ids HarfBuzz shapes `text` into with the font file `data`, and each one's colour paint as SVG. */
function paint(data: Uint8Array, text: string): { ids: number[]; svgs: string[]; colour: boolean } {
  const face = new hb.Face(new hb.Blob(data));
  const font = new hb.Font(face);
  const buffer = new hb.Buffer();
  buffer.addText(text);
  buffer.guessSegmentProperties();
  hb.shape(font, buffer);
  const ids = buffer.getGlyphInfos().map((g) => g.codepoint);
  return { ids, svgs: ids.map((id) => colorGlyphSvg(font, id, 'e')), colour: face.hasColorPaint() };
}

describe('font tables left out', () => {
  const emoji = readFileSync(EMOJI_FILE);
  const slim = withoutTables(emoji, UNUSED_TABLES);

  it("drops the emoji font's SVG glyphs and keeps every other table byte for byte", () => {
    const before = tables(emoji);
    const after = tables(slim);
    expect(before.has('SVG ')).toBe(true);
    expect([...after.keys()].sort()).toEqual([...before.keys()].filter((t) => t !== 'SVG ').sort());
    for (const [tag, bytes] of after) expect(bytes.equals(before.get(tag) as Buffer), tag).toBe(true);
    // The memory a process saves: the file is 25 MB, its SVG table 20 of them.
    expect(slim.length).toBeLessThan(emoji.length - 19_000_000);
    // Each table starts on a 4-byte boundary, as the OpenType directory requires.
    const view = Buffer.from(slim.buffer, slim.byteOffset, slim.byteLength);
    for (let i = 0; i < view.readUInt16BE(4); i++) expect(view.readUInt32BE(12 + 16 * i + 8) % 4).toBe(0);
  });

  it('paints the same colour glyphs from what is left', () => {
    const text = '✨👩🏽‍💻🇯🇵';
    const full = paint(emoji, text);
    const left = paint(slim, text);
    expect(left.colour).toBe(true);
    expect(left.ids).toEqual(full.ids);
    expect(left.ids.length).toBe(3);
    expect(left.svgs).toEqual(full.svgs);
    expect(left.svgs.every((svg) => svg.includes('fill'))).toBe(true);
  });

  it('answers the same bytes, not a copy, for a font without those tables or for what is not a font', () => {
    const arimo = readFileSync(ARIMO_FILE);
    expect(withoutTables(arimo, UNUSED_TABLES)).toBe(arimo);
    const notAFont = Buffer.from('wOFF and more bytes than a header');
    expect(withoutTables(notAFont, UNUSED_TABLES)).toBe(notAFont);
    // A directory that points past the file's end is left for HarfBuzz to refuse.
    const cut = emoji.subarray(0, 4096);
    expect(withoutTables(cut, UNUSED_TABLES)).toBe(cut);
  });
});

describe('a font file read without those tables', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'titlecard-sfnt-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives the bytes withoutTables gives from the whole file', async () => {
    const slim = await readWithoutTables(EMOJI_FILE, UNUSED_TABLES);
    expect(
      Buffer.from(slim).equals(Buffer.from(withoutTables(readFileSync(EMOJI_FILE), UNUSED_TABLES))),
    ).toBe(true);
    expect(tables(slim).has('SVG ')).toBe(false);
    expect(paint(slim, '✨').colour).toBe(true);
  });

  it('reads the whole file when there is nothing to leave out or it is not a single font', async () => {
    const arimo = readFileSync(ARIMO_FILE);
    expect(Buffer.from(await readWithoutTables(fileURLToPath(ARIMO_FILE), UNUSED_TABLES)).equals(arimo)).toBe(
      true,
    );
    const notAFont = path.join(dir, 'not-a-font.ttf');
    writeFileSync(notAFont, 'wOFF and more bytes than a header');
    expect(Buffer.from(await readWithoutTables(notAFont, UNUSED_TABLES)).toString()).toBe(
      'wOFF and more bytes than a header',
    );
    const tiny = path.join(dir, 'tiny.ttf');
    writeFileSync(tiny, 'OTTO');
    expect(Buffer.from(await readWithoutTables(tiny, UNUSED_TABLES)).toString()).toBe('OTTO');
    // A directory that points past the file's end: the file as it is, for HarfBuzz to refuse.
    const cut = path.join(dir, 'cut.ttf');
    writeFileSync(cut, readFileSync(EMOJI_FILE).subarray(0, 4096));
    expect(Buffer.from(await readWithoutTables(cut, UNUSED_TABLES)).equals(readFileSync(cut))).toBe(true);
  });

  it('rejects a file that is not there', async () => {
    await expect(readWithoutTables(path.join(dir, 'missing.ttf'), UNUSED_TABLES)).rejects.toThrow(/ENOENT/);
  });
});

describe("a font file's bytes given back", () => {
  it('empties bytes that are the whole of their buffer, and leaves a slice of a larger one', () => {
    const whole = readFileSync(EMOJI_FILE);
    expect(whole.byteOffset).toBe(0);
    release(whole);
    expect(whole.buffer.byteLength).toBe(0);
    const larger = new Uint8Array(64);
    const slice = larger.subarray(8, 16);
    release(slice);
    expect(slice.length).toBe(8);
    expect(larger.buffer.byteLength).toBe(64);
    // A small Buffer is a slice of Node's shared pool, which other Buffers use.
    const pooled = Buffer.from('small');
    release(pooled);
    expect(pooled.toString()).toBe('small');
  });
});
