/**
 * What the REST API and the dashboard share for batches: a CSV upload read into batch items, and a
 * batch's images streamed as a zip.
 */
import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import type { Request, Response } from 'express';
import type { ArchiveEntry } from '../domain/batches/batches.js';
import { BATCH_ITEM_FIELDS, BATCH_MAX_ITEMS } from '../domain/batches/schemas.js';
import { ValidationError } from '../domain/kernel/errors.js';
import { decodeFields } from './form.js';
import { receiveForm } from './multipart.js';

/** Largest CSV upload (ours): 1,000 rows of a few hundred bytes. */
export const CSV_MAX_BYTES = 2 * 1024 * 1024;

/** Longest CSV record (row), bytes: a title and subtitle of 200 characters and every option fit many times over. */
export const CSV_MAX_RECORD_BYTES = 16 * 1024;
/** Most `fields.<name>` columns: a template's variables. */
export const CSV_MAX_FIELD_COLUMNS = 32;

/**
 * The header row's column names, checked before any row is read: each must be a field of a batch
 * item (BATCH_ITEM_FIELDS) or `fields.<name>`, at most {@link CSV_MAX_FIELD_COLUMNS} of those.
 * ValidationError on `file` naming the first column that is not.
 */
function checkedHeader(header: string[]): string[] {
  let fieldColumns = 0;
  for (const [i, name] of header.entries()) {
    const column = `column ${i + 1} (${JSON.stringify(name.slice(0, 60))})`;
    if (name.startsWith('fields.') && name.length > 'fields.'.length) {
      if (++fieldColumns > CSV_MAX_FIELD_COLUMNS)
        throw new ValidationError(
          'file',
          'max',
          `Expected at most ${CSV_MAX_FIELD_COLUMNS} fields.<name> columns; ${column} is one more`,
        );
    } else if (!BATCH_ITEM_FIELDS.includes(name))
      throw new ValidationError(
        'file',
        'enum',
        `Unknown ${column} in the header row: expected the fields of POST /generate (${BATCH_ITEM_FIELDS.join(', ')}) or fields.<name>`,
      );
  }
  return header;
}

/** A row with the form's other fields (a row's own cell winning) as a batch item. */
function itemOf(row: Record<string, string>, common: Record<string, string>): Record<string, unknown> {
  // A column `fields.<name>` is the value of a template's variable: they gather into `fields`.
  const given = { ...common, ...Object.fromEntries(Object.entries(row).filter(([, v]) => v !== '')) };
  const fields = Object.fromEntries(
    Object.entries(given)
      .filter(([name]) => name.startsWith('fields.'))
      .map(([name, value]) => [name.slice('fields.'.length), value]),
  );
  const item = decodeFields(
    Object.fromEntries(Object.entries(given).filter(([name]) => !name.startsWith('fields.'))),
  );
  if (Object.keys(fields).length > 0)
    item.fields = {
      ...(typeof item.fields === 'object' && item.fields !== null ? item.fields : {}),
      ...fields,
    };
  return item;
}

/**
 * The rows of a CSV file as batch items: a header row names the fields of `/generate`; `common`
 * (the form's other fields) applies to every row, a row's own cell winning; an empty cell is not
 * sent; cells are decoded as form fields are (form.ts).
 *
 * The file is parsed as a stream, 64 KiB at a time (csv-parse), so that other requests are served
 * between chunks, and bounded: the header is checked first ({@link checkedHeader}), a record is at
 * most {@link CSV_MAX_RECORD_BYTES}, and reading stops after BATCH_MAX_ITEMS + 1 rows (the batch's
 * own check then names the limit). ValidationError on `file` when it is not such a CSV, or on the
 * form field that is not a batch item's.
 */
export async function csvItems(
  file: string,
  common: Record<string, string>,
): Promise<Record<string, unknown>[]> {
  for (const name of Object.keys(common))
    if (!BATCH_ITEM_FIELDS.includes(name) && !name.startsWith('fields.'))
      throw new ValidationError(
        name.slice(0, 60),
        'enum',
        `Unknown form field ${JSON.stringify(name.slice(0, 60))}: expected file, webhookUrl and the fields of POST /generate`,
      );
  const source = createReadStream(file, { highWaterMark: 64 * 1024 });
  const parser = source.pipe(
    parse({
      columns: checkedHeader,
      skip_empty_lines: true,
      trim: true,
      bom: true,
      max_record_size: CSV_MAX_RECORD_BYTES,
      to: BATCH_MAX_ITEMS + 1,
    }),
  );
  const items: Record<string, unknown>[] = [];
  try {
    for await (const row of parser as AsyncIterable<Record<string, string>>) items.push(itemOf(row, common));
  } catch (err) {
    if (err instanceof ValidationError) throw err;
    throw new ValidationError('file', 'format', `Expected CSV with a header row: ${(err as Error).message}`);
  } finally {
    source.destroy();
  }
  return items;
}

/**
 * The body of `POST /batches` from a multipart CSV upload: the file `file` as items, the form's
 * other fields applying to every row, `webhookUrl` apart. ValidationError on `file`.
 */
export async function batchBodyOfCsvForm(req: Request): Promise<Record<string, unknown>> {
  const form = await receiveForm(req, 'file', CSV_MAX_BYTES);
  try {
    if (!form.image)
      throw new ValidationError('file', 'required', 'Expected a CSV file in the form field file');
    const { webhookUrl, ...common } = form.fields;
    return { items: await csvItems(form.image.path, common), ...(webhookUrl ? { webhookUrl } : {}) };
  } finally {
    await form.cleanup();
  }
}

/**
 * Streams `entries` as `<name>.zip`, stored (images are compressed already), with archiver. It is
 * imported on the first download, not at start-up, where it held about 7 MiB of every server's
 * memory though only bulk downloads use it (docs/performance.md, "Memory, short of 256 MiB"); the
 * first download waits for it (75 ms here), and a broken install shows there, not at start-up.
 */
export async function sendZip(res: Response, name: string, entries: ArchiveEntry[]): Promise<void> {
  const { ZipArchive } = await import('archiver');
  res.set({ 'Content-Type': 'application/zip', 'Content-Disposition': `attachment; filename="${name}.zip"` });
  const zip = new ZipArchive({ store: true });
  zip.on('error', (err: Error) => res.destroy(err));
  zip.pipe(res);
  for (const entry of entries) {
    const stream = await entry.open();
    if (stream) zip.append(stream, { name: entry.name });
  }
  await zip.finalize();
}
