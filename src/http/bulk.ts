/**
 * What the REST API and the dashboard share for batches: a CSV upload read into batch items, and a
 * batch's images streamed as a zip.
 */
import { readFile } from 'node:fs/promises';
import { ZipArchive } from 'archiver';
import { parse } from 'csv-parse/sync';
import type { Request, Response } from 'express';
import type { ArchiveEntry } from '../domain/batches/batches.js';
import { BATCH_MAX_ITEMS } from '../domain/batches/schemas.js';
import { ValidationError } from '../domain/kernel/errors.js';
import { decodeFields } from './form.js';
import { receiveForm } from './multipart.js';

/** Largest CSV upload (ours): 1,000 rows of a few hundred bytes. */
export const CSV_MAX_BYTES = 2 * 1024 * 1024;

/**
 * The rows of a CSV file as batch items: a header row names the fields of `/generate`; `common`
 * (the form's other fields) applies to every row, a row's own cell winning; an empty cell is not
 * sent; cells are decoded as form fields are (form.ts). ValidationError on `file` when it is not CSV.
 */
export async function csvItems(
  file: string,
  common: Record<string, string>,
): Promise<Record<string, unknown>[]> {
  let rows: Record<string, string>[];
  try {
    rows = parse(await readFile(file), {
      columns: true,
      skip_empty_lines: true,
      trim: true,
      bom: true,
      to: BATCH_MAX_ITEMS + 1,
    });
  } catch (err) {
    throw new ValidationError('file', 'format', `Expected CSV with a header row: ${(err as Error).message}`);
  }
  return rows.map((row) => {
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
  });
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

/** Streams `entries` as `<name>.zip`, stored (images are compressed already), with archiver. */
export async function sendZip(res: Response, name: string, entries: ArchiveEntry[]): Promise<void> {
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
