/** The presets' schemas: a preset's design options, its logo, its body and its view (docs/render-links.md). */
import { z } from 'zod';
import { LOGO, LOGO_CORNERS } from '../design.js';
import { customColourNeedsHex, generateShape } from '../images/schemas.js';
import { isoTimestamp, recordIdSchema } from '../schemas.js';
import { textSchema } from '../text.js';

/** A field of {@link generateShape} as optional and without its default (a preset stores only what it sets). */
function withoutDefault(field: z.ZodType): z.ZodType {
  const inner = field instanceof z.ZodDefault ? (field.unwrap() as z.ZodType) : field;
  return inner.optional().describe(field.description ?? '');
}

const { title: _title, subtitle: _subtitle, ...designShape } = generateShape;

/** The design options of a preset: every generate option but the texts, each optional, no defaults. */
export const presetOptionsShape = Object.fromEntries(
  Object.entries(designShape).map(([name, field]) => [name, withoutDefault(field as z.ZodType)]),
) as {
  [K in keyof typeof designShape]: z.ZodOptional<
    z.ZodType<z.output<(typeof designShape)[K]>, z.input<(typeof designShape)[K]>>
  >;
};

/** Where a preset's logo sits: an uploaded image, a corner of the safe zone, a width fraction. */
export const presetLogoSchema = z
  .object({
    asset: recordIdSchema('ast').describe(
      'An image uploaded with POST /assets (kind logo keeps its transparency).',
    ),
    corner: z
      .enum(LOGO_CORNERS)
      .default(LOGO.corner)
      .describe('Corner of the safe zone; the text keeps out of the logo and a gap around it.'),
    size: z
      .number()
      .min(LOGO.sizeMin)
      .max(LOGO.sizeMax)
      .default(LOGO.size)
      .describe(
        'Logo width as a fraction of the canvas width, 0.05 to 0.3 (at most a quarter of the height).',
      ),
  })
  .strict();

/** Body of `POST /presets` and `PUT /presets/{id}`: a name, design options, a background and a logo. */
export const presetBodySchema = z
  .object({
    name: textSchema(100).describe('Name, 1 to 100 characters.'),
    ...presetOptionsShape,
    background: recordIdSchema('ast')
      .nullable()
      .optional()
      .describe(
        'Default background: an image uploaded with POST /assets; a request or link may give its own.',
      ),
    logo: presetLogoSchema.nullable().optional(),
  })
  .strict()
  .superRefine(customColourNeedsHex);

/** A preset as the API shows it. */
export const presetSchema = z.object({
  id: z.string(),
  name: z.string(),
  version: z.number().int().describe('1 at creation, one more on every edit.'),
  options: z.record(z.string(), z.unknown()).describe('The generate options it sets, as given.'),
  background: z.string().nullable(),
  logo: z.object({ asset: z.string(), corner: z.string(), size: z.number() }).nullable(),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
});
