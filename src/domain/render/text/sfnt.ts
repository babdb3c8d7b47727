/**
 * A font file's table directory (OpenType 1.9, "Organization of an OpenType font"): the renderer
 * leaves out the tables it never reads before a font is copied into HarfBuzz, so that they take no
 * memory for the life of the process.
 */

/** The sfnt versions of a single font: TrueType outlines (1.0 and Apple's 'true') and CFF ('OTTO'). */
const SFNT_VERSIONS = new Set([0x00010000, 0x74727565, 0x4f54544f]);
/** Bytes of the directory's header (version, numTables, searchRange, entrySelector, rangeShift). */
const HEADER = 12;
/** Bytes of one table record (tag, checksum, offset, length). */
const RECORD = 16;

/**
 * Tables a font may carry that the renderer never reads: `SVG ` (OpenType SVG glyphs). Colour
 * glyphs are painted from COLR version 1 (colr.ts), which HarfBuzz tries before SVG, and outlines
 * come from `glyf` or `CFF `. Noto Color Emoji carries both COLR and SVG: its `SVG ` table is 20 of
 * its 25 MB, and without it a server holds about 20 MiB less from the first emoji on.
 */
export const UNUSED_TABLES: readonly string[] = ['SVG '];

/**
 * `data` without the tables named in `drop` (four-character tags): a new file with the other
 * tables' bytes as they were (each still 4-byte aligned, their checksums unchanged) and the
 * directory's search fields recomputed; `head.checkSumAdjustment` is left stale (HarfBuzz does not
 * check it). Answers `data` itself, not a copy, when it holds none of them, or when it is not a single
 * sfnt font (a collection, WOFF, anything unknown) or its directory points past its end.
 */
export function withoutTables(data: Uint8Array, drop: readonly string[]): Uint8Array {
  if (data.length < HEADER) return data;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (!SFNT_VERSIONS.has(view.getUint32(0))) return data;
  const count = view.getUint16(4);
  if (HEADER + count * RECORD > data.length) return data;
  const kept: { record: number; offset: number; length: number }[] = [];
  for (let i = 0; i < count; i++) {
    const record = HEADER + i * RECORD;
    const tag = String.fromCharCode(...data.subarray(record, record + 4));
    const offset = view.getUint32(record + 8);
    const length = view.getUint32(record + 12);
    if (offset + length > data.length) return data;
    if (!drop.includes(tag)) kept.push({ record, offset, length });
  }
  if (kept.length === count) return data;
  const pad = (n: number) => (n + 3) & ~3;
  let size = pad(HEADER + kept.length * RECORD);
  for (const table of kept) size += pad(table.length);
  const out = new Uint8Array(size);
  const write = new DataView(out.buffer);
  const log2 = Math.floor(Math.log2(Math.max(1, kept.length)));
  write.setUint32(0, view.getUint32(0));
  write.setUint16(4, kept.length);
  write.setUint16(6, 2 ** log2 * RECORD);
  write.setUint16(8, log2);
  write.setUint16(10, kept.length * RECORD - 2 ** log2 * RECORD);
  let at = pad(HEADER + kept.length * RECORD);
  for (const [i, table] of kept.entries()) {
    const record = HEADER + i * RECORD;
    // Tag and checksum as they were; the new offset; the length as it was.
    out.set(data.subarray(table.record, table.record + 8), record);
    write.setUint32(record + 8, at);
    write.setUint32(record + 12, table.length);
    out.set(data.subarray(table.offset, table.offset + table.length), at);
    at += pad(table.length);
  }
  return out;
}
