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

/** One way of giving the background: a tool argument and how to read the image from its value. */
export interface ImageSource {
  /** The argument's name, e.g. `imageBase64`. */
  name: string;
  /** Its schema (optional: exactly one source is given per call), with a description for the model. */
  schema: z.ZodOptional<z.ZodType<string>>;
  /** The image's bytes, at most 10 MB. Throws ValidationError naming the argument, or FileTooLargeError. */
  read(value: string): Promise<Buffer>;
}

/** `imageBase64`: the bytes inline, for small images (at most 10 MB decoded, spec section 8). */
export const base64Source: ImageSource = {
  name: 'imageBase64',
  schema: z
    .string()
    .max(Math.ceil((LIMITS.imageBytes * 4) / 3) + 4)
    .optional()
    .describe('Background image bytes in base64, for small images (at most 10 MB decoded).'),
  async read(value) {
    const image = Buffer.from(value, 'base64');
    if (image.length > LIMITS.imageBytes) throw new FileTooLargeError(LIMITS.imageBytes);
    return image;
  },
};

/**
 * `imagePath` (stdio only): a file on the user's own machine. Only a regular file of at most 10 MB is
 * read; the size is checked before reading, so a huge file or a device is never pulled into memory.
 */
export const pathSource: ImageSource = {
  name: 'imagePath',
  schema: z.string().min(1).optional().describe('Path of a background image file on this computer.'),
  async read(file) {
    const info = await stat(file).catch((e: NodeJS.ErrnoException) => {
      throw new ValidationError(
        'imagePath',
        'format',
        `Expected a readable file for imagePath but ${e.code ?? e.message}`,
      );
    });
    if (!info.isFile())
      throw new ValidationError('imagePath', 'format', 'Expected a regular file for imagePath');
    if (info.size > LIMITS.imageBytes) throw new FileTooLargeError(LIMITS.imageBytes);
    return readFile(file);
  },
};
