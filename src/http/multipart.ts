/**
 * Receives the `multipart/form-data` body of `POST /generate` with busboy. The image is streamed to a
 * temporary file, never held in memory; the moment it crosses 10 MB the promise rejects with
 * FileTooLargeError, so the 413 goes out while the client is still sending (see drainAfterResponse).
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import type { Request } from 'express';
import { FileTooLargeError, ValidationError } from '../domain/kernel/errors.js';
import { LIMITS } from '../domain/design.js';
import type { Metrics } from '../adapters/metrics.js';

export interface ReceivedForm {
  /** Text fields by name (each sent at most once). */
  fields: Record<string, string>;
  /** The uploaded file (`image`, or the form's own file field), on disk, or undefined when none was sent. */
  image: { path: string; bytes: number } | undefined;
  /** The file's name as the client sent it (without a directory), if any. */
  fileName: string | undefined;
  /** Deletes the temporary file. Always call it. */
  cleanup(): Promise<void>;
}

/** Limits on the form's parts (our choice): 16 KB per text field, 32 fields, one file. */
const FIELD_BYTES = 16 * 1024;

/**
 * Reads a multipart form whose one file is `field` (default `image`, at most `limitBytes`, default
 * 10 MB) into a temporary file, and its text fields.
 */
export function receiveForm(
  req: Request,
  field = 'image',
  limitBytes: number = LIMITS.imageBytes,
): Promise<ReceivedForm> {
  const type = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data/i.test(type))
    return Promise.reject(
      new ValidationError(
        'body',
        'format',
        `Expected a multipart/form-data body but received ${type ? JSON.stringify(type) : 'no Content-Type'}`,
      ),
    );
  // Titlecard's own upload directory (src/uploads.ts), so that a crash leaves nothing in the OS's.
  const dir = (req.app.locals as { uploadDir?: string }).uploadDir ?? os.tmpdir();
  const tmpPath = path.join(dir, `upload-${randomBytes(12).toString('hex')}`);
  const fields: Record<string, string> = {};
  let image: ReceivedForm['image'];
  let fileName: string | undefined;
  let written: Promise<void> | undefined;
  /** The image's stream while it is being written; destroyed when the request is refused midway. */
  let upload: (NodeJS.ReadableStream & { destroy(error?: Error): void }) | undefined;
  // Deletes the temporary file once nothing writes to it any more.
  const cleanup = async () => {
    await written?.catch(() => undefined);
    await rm(tmpPath, { force: true });
  };

  return new Promise<ReceivedForm>((resolve, reject) => {
    let settled = false;
    let bb: busboy.Busboy;
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      req.unpipe(bb);
      // Unpiped, busboy never ends the file stream: destroy it, so the write to the temporary file
      // stops and its descriptor is closed (the pipeline settles, then cleanup deletes the file).
      upload?.destroy(err);
      // cleanup never rejects: it waits for the write to settle, then removes the file with force.
      cleanup().catch(() => undefined);
      reject(err);
    };
    try {
      bb = busboy({
        headers: req.headers,
        // One byte over the limit, so that a file of exactly 10 MB passes and the next byte trips it.
        // Two files, not one: busboy announces a file past its limit only as `filesLimit`, without
        // its name, so the second file part reaches the `file` handler below, which names its field
        // (a text field sent as a file, or the image twice).
        limits: { fileSize: limitBytes + 1, files: 2, fields: 32, parts: 33, fieldSize: FIELD_BYTES },
      });
    } catch {
      reject(new ValidationError('body', 'format', 'Expected a multipart/form-data body with a boundary'));
      return;
    }
    const unnamed = () =>
      new ValidationError('body', 'format', 'Expected every form part to have a name but one has none');
    bb.on('file', (name, stream, info) => {
      if (!name) {
        stream.resume();
        fail(unnamed());
        return;
      }
      if (name !== field) {
        stream.resume();
        fail(new ValidationError(name, 'type', `Expected a text value for ${name} but received a file`));
        return;
      }
      if (upload) {
        stream.resume();
        fail(new ValidationError(field, 'type', `Expected a single file for ${field} but received several`));
        return;
      }
      fileName = info.filename ? info.filename.split(/[\\/]/).pop()?.slice(0, 100) || undefined : undefined;
      let bytes = 0;
      stream.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > limitBytes) fail(new FileTooLargeError(limitBytes, field));
      });
      upload = stream;
      const metrics = (req.app.locals as { metrics?: Metrics }).metrics;
      stream.on('data', (chunk: Buffer) => metrics?.uploadBytes.inc(chunk.length));
      written = pipeline(stream, createWriteStream(tmpPath)).then(() => {
        image = { path: tmpPath, bytes };
      });
      written.catch(() => undefined);
    });
    bb.on('field', (name, value, info) => {
      if (!name) {
        fail(unnamed());
        return;
      }
      if (info.valueTruncated) {
        fail(new ValidationError(name, 'maxLength', `Expected at most ${FIELD_BYTES} bytes for ${name}`));
        return;
      }
      if (name === field) {
        fail(new ValidationError(field, 'type', `Expected a file for ${field} but received a text value`));
        return;
      }
      if (Object.hasOwn(fields, name)) {
        fail(new ValidationError(name, 'type', `Expected a single value for ${name} but received several`));
        return;
      }
      fields[name] = value;
    });
    // Reached only past the second file, which the handler above has refused already.
    bb.on('filesLimit', () =>
      fail(new ValidationError(field, 'type', `Expected a single file for ${field} but received several`)),
    );
    bb.on('fieldsLimit', () =>
      fail(new ValidationError('body', 'maxLength', 'Expected at most 32 form fields')),
    );
    bb.on('partsLimit', () =>
      fail(new ValidationError('body', 'maxLength', 'Expected at most 33 form parts')),
    );
    bb.on('error', () =>
      fail(new ValidationError('body', 'format', 'Expected a well-formed multipart/form-data body')),
    );
    bb.on('close', () => {
      (written ?? Promise.resolve()).then(
        () => {
          if (settled) return;
          settled = true;
          resolve({ fields, image, fileName, cleanup });
        },
        (err: unknown) => fail(err instanceof Error ? err : new Error(String(err))),
      );
    });
    req.on('aborted', () => fail(new ValidationError('body', 'format', 'The request body was cut short')));
    req.pipe(bb);
  });
}
