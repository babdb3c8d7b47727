/**
 * How `generate_image` may send a background's bytes. Each transport passes in the sources it
 * offers: over HTTP `imageBase64`; over stdio also `imagePath`, a file on the user's own computer
 * (never offered over HTTP, where the "computer" would be the server). `imageUrl`, `asset` and a
 * preset's background are not sources here: the tool passes them to the domain, whose one rule
 * (exactly one background) and one SSRF-safe fetcher decide, as for `POST /generate`.
 */
import { readFile, stat } from 'node:fs/promises';
import { z } from 'zod';
import { FileTooLargeError, ValidationError } from '../domain/kernel/errors.js';
import { LIMITS } from '../domain/design.js';
import { checkImage } from '../domain/render/index.js';

/** One way of giving the background: a tool argument and how to read the image from its value. */
export interface ImageSource {
  /** The argument's name, e.g. `imageBase64`. */
  name: string;
  /** Its schema (optional: exactly one source is given per call), with a description for the model. */
  schema: z.ZodOptional<z.ZodType<string>>;
  /** The image's bytes, at most 10 MB. Throws ValidationError naming the argument, or FileTooLargeError. */
  read(value: string): Promise<Buffer>;
}

/**
 * The bytes of an `imageBase64` value: base64 in the standard or the URL-safe alphabet (RFC 4648
 * sections 4 and 5), padded or not, with line breaks and spaces ignored (MIME's 76-character
 * lines), optionally as a data URL (`data:image/png;base64,…`, RFC 2397), which assistants often
 * send: its media type is ignored, the bytes decide the format. Throws ValidationError on
 * `imageBase64` (`format`) naming the first character that is not base64. Node's decoder alone
 * would skip such characters and hand on bytes that fail later as "an unknown format".
 */
export function base64Bytes(value: string): Buffer {
  const dataUrl = /^data:([^,]*),/i.exec(value);
  if (dataUrl && !/;base64$/i.test(dataUrl[1] ?? ''))
    throw new ValidationError(
      'imageBase64',
      'format',
      'Expected base64 for imageBase64 but received a data: URL without ;base64',
    );
  const body = dataUrl ? value.slice(dataUrl[0].length) : value;
  const bytes = Buffer.from(body, 'base64');
  // Node's decoder skips what is not base64. When it kept as many bytes as the length promises
  // (Buffer.byteLength counts characters, not validity), nothing was skipped, except for a length
  // of 4k + 1, which no base64 has and one skipped character can hide in. Else one scan, without
  // copies (12 ms for 10 MB; the decode alone takes 6): whitespace passes, anything else is named.
  if (bytes.length === Buffer.byteLength(body, 'base64') && body.length % 4 !== 1) return bytes;
  if (!/^[A-Za-z0-9+/_\s-]*(?:=\s*){0,2}$/.test(body)) {
    const bad = /[^A-Za-z0-9+/_\s=-]|=(?=\s*[^=\s])/.exec(body);
    const at = bad ? `${JSON.stringify(bad[0])} at character ${bad.index + 1}` : 'too much padding';
    throw new ValidationError(
      'imageBase64',
      'format',
      `Expected base64 for imageBase64 but received ${at}${dataUrl ? ' of its data' : ''}`,
    );
  }
  return bytes;
}

/**
 * `imageBase64`: the bytes inline ({@link base64Bytes}), for small images (at most 10 MB decoded,
 * docs/api.md#limits), checked as an upload is (checkImage) on this argument's name.
 */
export const base64Source: ImageSource = {
  name: 'imageBase64',
  schema: z
    .string()
    // Room for 10 MB as base64 (4/3), its line breaks (MIME: 2 in 78) and a data: URL's prefix;
    // the decoded size is what counts (read).
    .max(Math.ceil(LIMITS.imageBytes * 1.4))
    .optional()
    .describe('Background image bytes in base64 (or a data: URL), for small images (at most 10 MB decoded).'),
  async read(value) {
    const image = base64Bytes(value);
    if (image.length > LIMITS.imageBytes) throw new FileTooLargeError(LIMITS.imageBytes, 'imageBase64');
    await checkImage(image, 'imageBase64');
    return image;
  },
};

/** The refusal of a path that cannot be read, in words from its errno code (ENOENT, EACCES…). */
function unreadable(file: string, err: NodeJS.ErrnoException): ValidationError {
  const why =
    err.code === 'ENOENT'
      ? `nothing exists at ${file}`
      : err.code === 'EACCES' || err.code === 'EPERM'
        ? `${file} may not be read (permission denied)`
        : err.code === 'ENOTDIR'
          ? `a part of ${file} is not a folder`
          : `${file} could not be read (${err.message})`;
  return new ValidationError(
    'imagePath',
    'format',
    `Expected a readable image file for imagePath but ${why}`,
  );
}

/**
 * `imagePath` (stdio only): a file on the user's own machine. Only a regular file of at most 10 MB is
 * read; the size is checked before reading, so a huge file or a device is never pulled into memory.
 * Throws ValidationError on `imagePath` (`format`: missing, unreadable, not a file, not an image)
 * or FileTooLargeError.
 */
export const pathSource: ImageSource = {
  name: 'imagePath',
  schema: z.string().min(1).optional().describe('Path of a background image file on this computer.'),
  async read(file) {
    const info = await stat(file).catch((e: NodeJS.ErrnoException) => {
      throw unreadable(file, e);
    });
    if (!info.isFile())
      throw new ValidationError(
        'imagePath',
        'format',
        `Expected an image file for imagePath but ${file} is ${info.isDirectory() ? 'a folder' : 'not a regular file'}`,
      );
    if (info.size > LIMITS.imageBytes) throw new FileTooLargeError(LIMITS.imageBytes, 'imagePath');
    const image = await readFile(file).catch((e: NodeJS.ErrnoException) => {
      throw unreadable(file, e);
    });
    await checkImage(image, 'imagePath');
    return image;
  },
};
