/**
 * What `generate_image` and the studio's `preview_card` take (src/mcp/studio.ts): one input schema,
 * and the split of a call's arguments into the background's bytes and the options.
 */
import { z } from 'zod';
import type { GenerateRequest } from '../../backend/port.js';
import { ValidationError } from '../../domain/kernel/errors.js';
import { generateOptionsSchema } from '../../domain/images/schemas.js';
import { presetOptionsShape } from '../../domain/presets/schemas.js';
import { httpUrlSchema, recordIdSchema } from '../../domain/schemas.js';
import type { ImageSource } from '../sources.js';

/**
 * The input of `generate_image` (and of the studio's `preview_card`): the options without their
 * defaults (a preset's apply first, then the defaults of docs/api.md#generate-options; the domain
 * fills them in after merging), `preset`, and the background as `imageUrl`, `asset` or one of the
 * transport's byte sources (`imageBase64`; over stdio `imagePath` too).
 */
export function generateInputSchema(imageSources: ImageSource[]) {
  return z.object({
    title: generateOptionsSchema.shape.title,
    subtitle: generateOptionsSchema.shape.subtitle,
    ...presetOptionsShape,
    preset: recordIdSchema('pre')
      .optional()
      .describe(
        'A preset (list_presets): its options and background apply; the fields given here override them.',
      ),
    imageUrl: httpUrlSchema()
      .optional()
      .describe(
        'Background image URL (http or https). Fetched by the server; private and local addresses are refused.',
      ),
    asset: recordIdSchema('ast')
      .optional()
      .describe('Background: an image uploaded to Titlecard (POST /assets).'),
    ...Object.fromEntries(imageSources.map((s) => [s.name, s.schema])),
  });
}

/**
 * Splits a tool's arguments into the background's bytes (the one byte source given, read when the
 * domain asks) and the rest. Throws ValidationError when two byte sources are given.
 */
export function backgroundOf(
  args: Record<string, unknown>,
  imageSources: ImageSource[],
): { bytes: { field: string; read: (() => Promise<Buffer>) | undefined }; options: GenerateRequest } {
  const byteSources = imageSources.map((s) => s.name);
  const names = ['imageUrl', ...byteSources, 'asset'];
  // The domain decides between the bytes, `asset`, `imageUrl` and a preset's background (one
  // rule, one SSRF-safe fetcher); this edge only refuses two of its own byte arguments at once.
  const given = imageSources.filter((s) => args[s.name] !== undefined);
  if (given.length > 1)
    throw new ValidationError(
      given[1]?.name ?? 'imageBase64',
      'type',
      `Expected one background but received ${given.map((s) => s.name).join(' and ')}: give only one of ${names.join(', ')}`,
    );
  const source = given[0];
  const options = Object.fromEntries(
    Object.entries(args).filter(([k]) => !byteSources.includes(k)),
  ) as GenerateRequest;
  return {
    bytes: {
      field: source?.name ?? byteSources[0] ?? 'image',
      read: source && (() => source.read(args[source.name] as string)),
    },
    options,
  };
}
