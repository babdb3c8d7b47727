/**
 * A font file's table directory (OpenType 1.9, "Organization of an OpenType font"): the renderer
 * leaves out the tables it never reads before a font is copied into HarfBuzz, so that they take no
 * memory for the life of the process.
 */
import { open } from 'node:fs/promises';

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

/** Where the tables kept go in the file without the dropped ones. */
interface Layout {
  /** Bytes of the new file. */
  size: number;
  /** Each kept table: its old record and bytes, its new offset. */
  kept: { record: number; offset: number; length: number; at: number }[];
}

/** `n` rounded up to a multiple of 4: every table starts on a 4-byte boundary. */
const pad = (n: number) => (n + 3) & ~3;

/**
 * The layout of a file of `fileSize` bytes without the tables named in `drop`, from `head`: its
 * first bytes, at least its directory. Undefined when there is nothing to drop, or when it is not a
 * single sfnt font (a collection, WOFF, anything unknown), or its directory reaches past `head` or
 * a table past the file's end.
 */
function layoutOf(head: Uint8Array, fileSize: number, drop: readonly string[]): Layout | undefined {
  if (head.length < HEADER) return undefined;
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  if (!SFNT_VERSIONS.has(view.getUint32(0))) return undefined;
  const count = view.getUint16(4);
  if (HEADER + count * RECORD > head.length) return undefined;
  const kept: Layout['kept'] = [];
  for (let i = 0; i < count; i++) {
    const record = HEADER + i * RECORD;
    const tag = String.fromCharCode(...head.subarray(record, record + 4));
    const offset = view.getUint32(record + 8);
    const length = view.getUint32(record + 12);
    if (offset + length > fileSize) return undefined;
    if (!drop.includes(tag)) kept.push({ record, offset, length, at: 0 });
  }
  if (kept.length === count) return undefined;
  let size = pad(HEADER + kept.length * RECORD);
  for (const table of kept) {
    table.at = size;
    size += pad(table.length);
  }
  return { size, kept };
}

/**
 * The new file of `layout`, its directory written from the old one in `head` (tags, checksums and
 * lengths as they were, the new offsets, the search fields recomputed), its tables' bytes left for
 * the caller to copy in.
 */
function directoryOf(layout: Layout, head: Uint8Array): Uint8Array {
  const out = new Uint8Array(layout.size);
  const write = new DataView(out.buffer);
  const count = layout.kept.length;
  const log2 = Math.floor(Math.log2(Math.max(1, count)));
  out.set(head.subarray(0, 4));
  write.setUint16(4, count);
  write.setUint16(6, 2 ** log2 * RECORD);
  write.setUint16(8, log2);
  write.setUint16(10, count * RECORD - 2 ** log2 * RECORD);
  for (const [i, table] of layout.kept.entries()) {
    const record = HEADER + i * RECORD;
    out.set(head.subarray(table.record, table.record + 8), record);
    write.setUint32(record + 8, table.at);
    write.setUint32(record + 12, table.length);
  }
  return out;
}

/**
 * `data` without the tables named in `drop` (four-character tags): a new file with the other
 * tables' bytes as they were (each still 4-byte aligned, their checksums unchanged) and the
 * directory's search fields recomputed; `head.checkSumAdjustment` is left stale (HarfBuzz does not
 * check it). Answers `data` itself, not a copy, when it holds none of them, or when it is not a single
 * sfnt font (a collection, WOFF, anything unknown) or its directory points past its end.
 */
export function withoutTables(data: Uint8Array, drop: readonly string[]): Uint8Array {
  const layout = layoutOf(data, data.length, drop);
  if (!layout) return data;
  const out = directoryOf(layout, data);
  for (const table of layout.kept)
    out.set(data.subarray(table.offset, table.offset + table.length), table.at);
  return out;
}

/**
 * The font file at `file` without the tables named in `drop`, as {@link withoutTables} would give
 * it, read table by table so that the dropped bytes are never read into memory: the emoji font is
 * 25 MB on disk, and a buffer of the whole file stayed resident until V8's next full collection,
 * which an idle server had not run (24 MiB of its memory: docs/performance.md, "Memory, short of
 * 256 MiB"). Reads the whole file when there is nothing to drop or it is not a single sfnt font.
 * Rejects as `fs.promises.open` and `read` do (ENOENT, EACCES, ...), or when the file ends before
 * its size.
 */
export async function readWithoutTables(file: string, drop: readonly string[]): Promise<Uint8Array> {
  const handle = await open(file);
  try {
    const { size } = await handle.stat();
    const readAt = async (into: Uint8Array, position: number): Promise<Uint8Array> => {
      for (let done = 0; done < into.length;) {
        const { bytesRead } = await handle.read(into, done, into.length - done, position + done);
        if (bytesRead === 0) throw new Error(`${file} ends at byte ${position + done}, before its size`);
        done += bytesRead;
      }
      return into;
    };
    const first = await readAt(new Uint8Array(Math.min(size, HEADER)), 0);
    const view = new DataView(first.buffer);
    // The directory's size only for a single sfnt font; anything else is read whole.
    const sfnt = first.length === HEADER && SFNT_VERSIONS.has(view.getUint32(0));
    const head = sfnt
      ? await readAt(new Uint8Array(Math.min(size, HEADER + view.getUint16(4) * RECORD)), 0)
      : first;
    const layout = layoutOf(head, size, drop);
    if (!layout) return await readAt(new Uint8Array(size), 0);
    const out = directoryOf(layout, head);
    for (const table of layout.kept)
      await readAt(out.subarray(table.at, table.at + table.length), table.offset);
    return out;
  } finally {
    await handle.close();
  }
}
