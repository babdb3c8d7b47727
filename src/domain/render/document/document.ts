/**
 * The template document: a card's layout as JSON layers (docs/templates.md). It is the public
 * contract of `POST /templates`, the `template` of `/generate` when it names a `tpl_…` id, and the
 * form the four built-in templates take (built-ins.ts): one layout engine reads them all.
 *
 * Geometry is in fractions of the canvas (`box: {x, y, w, h}`, 0 to 1), so one template serves every
 * aspect; sizes (`fontSize`) are px at the canvas size of the aspect (docs/api.md#generate-options, `aspect`).
 * The limits (our choice, docs/templates.md) keep a template's render within the built-ins' time
 * budget: `npm run bench -- --templates`.
 */
import { z } from 'zod';
import { ASPECT_NAMES, FONT_NAMES } from '../../design.js';
import { ValidationError } from '../../kernel/errors.js';
import { parseOrThrow } from '../../kernel/validate.js';
import { textSchema } from '../../text.js';
import { idPattern } from '../../kernel/ids.js';
import { TEMPLATE_LIMITS } from '../limits.js';

/** Variables every template has: the API's own texts (docs/api.md#generate-options). */
export const BUILT_IN_VARIABLES = ['title', 'subtitle'] as const;

const fraction = z.number().min(0).max(1);
/** A hex colour, `#RGB` or `#RRGGBB`: a template's colours and a request's `colorHex` (schemas.ts). */
export const hexColourSchema = z
  .string()
  .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'a hex colour #RGB or #RRGGBB')
  .describe('A hex colour, #RGB or #RRGGBB.');
const colour = z
  .union([z.literal('auto'), hexColourSchema])
  .describe('A hex colour, or auto: chosen on the pixels beneath (WCAG 2 contrast ratio ≥ 4.5:1).');
/** `{{name}}`: a variable in a text's content or an image's source. */
export const VARIABLE_REFERENCE = /\{\{\s*([A-Za-z][A-Za-z0-9_]{0,31})\s*\}\}/g;
/** A variable's name: a template's `variables` and a render link's `fields` (schemas.ts). */
export const variableNameSchema = z
  .string()
  .regex(
    /^[A-Za-z][A-Za-z0-9_]{0,31}$/,
    'a variable name: a letter, then up to 31 letters, digits or underscores',
  );

const boxSchema = z
  .object({
    x: fraction.describe('Left edge, fraction of the canvas width.'),
    y: fraction.describe('Top edge, fraction of the canvas height.'),
    w: z.number().gt(0).max(1).describe('Width, fraction of the canvas width.'),
    h: z.number().gt(0).max(1).describe('Height, fraction of the canvas height.'),
  })
  .strict()
  .superRefine((b, ctx) => {
    // A thousandth of slack: 0.7 + 0.3 is 1.0000000000000002 in binary floating point.
    if (b.x + b.w > 1.001)
      ctx.addIssue({
        code: 'too_big',
        origin: 'number',
        maximum: 1 - b.x,
        inclusive: true,
        input: b.w,
        path: ['w'],
      });
    if (b.y + b.h > 1.001)
      ctx.addIssue({
        code: 'too_big',
        origin: 'number',
        maximum: 1 - b.y,
        inclusive: true,
        input: b.h,
        path: ['h'],
      });
  })
  .describe('A rectangle in fractions of the canvas: {x, y, w, h}, each 0 to 1, within the canvas.');
export type Box = z.infer<typeof boxSchema>;

const radius = z
  .number()
  .min(0)
  .max(0.5)
  .default(0)
  .describe('Corner radius, fraction of the shorter side (0.5: a circle or pill).');
const opacity = z.number().min(0).max(1).default(1).describe('Opacity, 0 to 1.');
const safeZone = z
  .boolean()
  .default(false)
  .describe(
    'Clip the box to the safe zone of the aspect (docs/api.md#generate-options: 5% margins, and the bottom 28% of og kept clear).',
  );

const imageLayer = z
  .object({
    type: z.literal('image'),
    source: z
      .string()
      .min(1)
      .max(60)
      .describe(
        'background (the photo of the request), an uploaded asset id (ast_…), or an image variable {{name}}.',
      ),
    box: boxSchema.optional().describe('Where the image goes; the whole canvas when unset.'),
    fit: z
      .enum(['cover', 'contain'])
      .default('cover')
      .describe('cover crops to fill the box; contain fits inside it.'),
    radius,
    opacity,
  })
  .strict()
  .meta({ title: 'ImageLayer' });

const rectLayer = z
  .object({
    type: z.literal('rect'),
    box: boxSchema,
    fill: colour
      .default('#000000')
      .describe("A hex colour, or auto: the photo's dominant colour, shaded for text."),
    radius,
    opacity,
  })
  .strict()
  .meta({ title: 'RectLayer' });

export const GRADIENT_DIRECTIONS = [
  'to-top',
  'to-bottom',
  'to-left',
  'to-right',
  'to-center',
  'radial',
] as const;
const gradientLayer = z
  .object({
    type: z.literal('gradient'),
    direction: z
      .enum(GRADIENT_DIRECTIONS)
      .default('to-top')
      .describe(
        'to-top: from the bottom edge up past the text above it; to-bottom, to-left, to-right likewise; to-center: from both sides in (split); radial: a glow behind the text.',
      ),
    color: colour
      .default('auto')
      .describe(
        "A hex colour, or auto: the photo's dominant colour shaded, at the weakest strength that gives the text above it 4.5:1.",
      ),
    opacity,
  })
  .strict()
  .meta({ title: 'GradientLayer' });

const sizeRange = z
  .object({
    min: z.number().int().min(8).max(240),
    max: z.number().int().min(8).max(240),
  })
  .strict()
  .refine((r) => r.min <= r.max, { message: 'a minimum no larger than max', path: ['min'] });
/** A text layer's size when it sets none: the largest from 12 to 120 px that fits. */
export const DEFAULT_TEXT_SIZE = { min: 12, max: 120 } as const;
const fontSize = z
  .union([z.number().int().min(8).max(240), sizeRange])
  .describe(
    'Size in px: a number, or {min, max} for the largest size in that range at which the text fits its box.',
  );
const fontChoice = z
  .union([
    z.enum(FONT_NAMES),
    z.object({ system: z.enum(FONT_NAMES) }).strict(),
    z
      .object({
        custom: z.string().regex(idPattern('fnt'), 'an id such as fnt_3SJQtzQudCCNw7msvpESdd'),
      })
      .strict(),
  ])
  .describe("As `font` in /generate; the request's font when unset.");
const content = z.string().min(1).max(TEMPLATE_LIMITS.contentLength).describe('Text with {{variables}}.');

const belowSchema = z
  .object({
    content,
    scale: z.number().min(0.2).max(1).default(0.45).describe('Size as a fraction of the text above.'),
    minSize: z.number().int().min(8).max(240).default(18).describe('Smallest size, px.'),
    maxLines: z.number().int().min(1).max(20).default(3),
    weight: z.enum(['regular', 'bold']).default('regular'),
    lineHeight: z.number().min(0.8).max(3).default(1.3).describe('Multiple of the size.'),
    gap: z
      .number()
      .min(0)
      .max(3)
      .default(0.4)
      .describe('Space above it, multiple of the size of the text above.'),
  })
  .strict()
  .describe("A second paragraph set below the first in the same box (the built-ins' subtitle).");

const textLayer = z
  .object({
    type: z.literal('text'),
    content,
    box: boxSchema,
    safeZone,
    font: fontChoice.optional(),
    weight: z.enum(['regular', 'bold']).default('bold'),
    // The default ({min: 12, max: 120}, DEFAULT_TEXT_SIZE) is applied by the layout: an object as a
    // union's default is more than openapi-python-client reads.
    fontSize: fontSize.optional(),
    maxLines: z.number().int().min(1).max(20).default(4).describe('Most lines before the size goes down.'),
    lineHeight: z.number().min(0.8).max(3).default(1.15).describe('Multiple of the size.'),
    align: z
      .enum(['start', 'center', 'end', 'left', 'right'])
      .default('start')
      .describe('start and end are mirrored for right-to-left text; left and right are not.'),
    verticalAlign: z.enum(['top', 'center', 'bottom']).default('top'),
    color: colour.default('auto'),
    shadow: z.boolean().optional().describe("A soft shadow; the request's textShadow when unset."),
    below: belowSchema.optional(),
    group: z
      .string()
      .max(40)
      .optional()
      .describe('Text layers of one group share one size: the largest at which all of them fit.'),
    scale: z
      .number()
      .min(0.2)
      .max(1)
      .default(1)
      .describe("In a group: size as a fraction of the group's size."),
    minSize: z.number().int().min(8).max(240).optional().describe('In a group: smallest size, px.'),
    anchor: z
      .object({ x: fraction, y: fraction })
      .strict()
      .optional()
      .describe('Centre the text on this point of the canvas, moved inside its box where needed.'),
  })
  .strict()
  .meta({ title: 'TextLayer' });

const logoLayer = z
  .object({
    type: z.literal('logo'),
    box: boxSchema.optional().describe("Where the logo goes (contained); the preset's corner when unset."),
  })
  .strict()
  .describe("The preset's logo; nothing when the request has none. Text layers keep out of it.")
  .meta({ title: 'LogoLayer' });

export const layerSchema = z.discriminatedUnion('type', [
  imageLayer,
  rectLayer,
  gradientLayer,
  textLayer,
  logoLayer,
]);
export type Layer = z.output<typeof layerSchema>;
export type TextLayer = z.output<typeof textLayer>;
export type ImageLayer = z.output<typeof imageLayer>;
export type GradientLayer = z.output<typeof gradientLayer>;

const variableSchema = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('text'),
      required: z.boolean().default(false),
      default: z.string().max(TEMPLATE_LIMITS.textLength).optional(),
      maxLength: z.number().int().min(1).max(TEMPLATE_LIMITS.textLength).default(TEMPLATE_LIMITS.textLength),
    })
    .strict()
    .meta({ title: 'TextVariable' }),
  z
    .object({
      type: z.literal('image'),
      required: z.boolean().default(false),
    })
    .strict()
    .meta({ title: 'ImageVariable' }),
]);

export const templateDocumentSchema = z
  .object({
    name: z.string().trim().min(1).max(TEMPLATE_LIMITS.nameLength),
    aspect: z.enum(ASPECT_NAMES).default('og').describe('The aspect used when the request names none.'),
    size: z
      .object({
        width: z.number().int().min(TEMPLATE_LIMITS.sideMin).max(TEMPLATE_LIMITS.sideMax),
        height: z.number().int().min(TEMPLATE_LIMITS.sideMin).max(TEMPLATE_LIMITS.sideMax),
      })
      .strict()
      .superRefine((s, ctx) => {
        if (s.width * s.height > TEMPLATE_LIMITS.pixelsMax)
          ctx.addIssue({
            code: 'too_big',
            origin: 'number',
            maximum: Math.floor(TEMPLATE_LIMITS.pixelsMax / s.width),
            inclusive: true,
            input: s.height,
            path: ['height'],
          });
      })
      .optional()
      .describe(
        'A canvas of its own instead of aspect, px: each side 200 to 2400, at most 4 megapixels. Used when the request names no aspect; its safe zone keeps 5% margins.',
      ),
    background: hexColourSchema.default('#ffffff').describe('The canvas before the first layer paints.'),
    variables: z
      .record(variableNameSchema, variableSchema)
      .default({})
      .describe('Variables filled by `fields`; title and subtitle always exist.'),
    layers: z.array(layerSchema).min(1).max(TEMPLATE_LIMITS.layers).describe('Painted in order.'),
  })
  .strict();
export type TemplateDocument = z.output<typeof templateDocumentSchema>;
export type TemplateDocumentInput = z.input<typeof templateDocumentSchema>;

/** The variables named in `text`, in order of appearance. */
export function referencedVariables(text: string): string[] {
  return [...text.matchAll(VARIABLE_REFERENCE)].map((m) => m[1] as string);
}

/** `text` with each `{{name}}` replaced by `values[name]` (the empty string when it has none). */
export function fillVariables(text: string, values: Record<string, string | undefined>): string {
  return text.replace(VARIABLE_REFERENCE, (_, name: string) => values[name] ?? '');
}

/** Whether a text layer's content sets the API's title (`{{title}}`): the request's `fontSize` sizes it. */
export function setsTitle(content: string): boolean {
  return referencedVariables(content).includes('title');
}

/** An image layer's `source` that is one variable, `{{avatar}}`. */
const IMAGE_VARIABLE = /^\{\{\s*([A-Za-z][A-Za-z0-9_]{0,31})\s*\}\}$/;

/** The variable an image layer's `source` names (`{{avatar}}` → avatar); undefined for any other source. */
export function imageVariableOf(source: string): string | undefined {
  return IMAGE_VARIABLE.exec(source)?.[1];
}

/**
 * Parses and checks a template document: the schema, the limits, and every `{{variable}}` declared
 * with the right type. Throws ValidationError naming the path (`layers[3].box.w`, `variables.x`).
 */
export function parseTemplateDocument(input: unknown): TemplateDocument {
  if (Buffer.byteLength(JSON.stringify(input ?? null)) > TEMPLATE_LIMITS.bytes)
    throw new ValidationError(
      'body',
      'maxLength',
      `Expected a template of at most ${TEMPLATE_LIMITS.bytes} bytes of JSON`,
    );
  const doc = parseOrThrow(templateDocumentSchema, input);
  const names = Object.keys(doc.variables);
  if (names.length > TEMPLATE_LIMITS.variables)
    throw new ValidationError(
      'variables',
      'max',
      `Expected at most ${TEMPLATE_LIMITS.variables} variables but received ${names.length}`,
    );
  for (const name of names)
    if ((BUILT_IN_VARIABLES as readonly string[]).includes(name))
      throw new ValidationError(
        `variables.${name}`,
        'enum',
        `Expected a variable name other than title and subtitle, which every template has`,
      );
  const images = doc.layers.filter((l) => l.type === 'image').length;
  if (images > TEMPLATE_LIMITS.imageLayers)
    throw new ValidationError(
      'layers',
      'max',
      `Expected at most ${TEMPLATE_LIMITS.imageLayers} image layers but received ${images}`,
    );
  doc.layers.forEach((layer, i) => {
    const check = (text: string, field: string, type: 'text' | 'image') => {
      for (const name of referencedVariables(text)) {
        const declared = (BUILT_IN_VARIABLES as readonly string[]).includes(name)
          ? 'text'
          : doc.variables[name]?.type;
        if (!declared)
          throw new ValidationError(
            field,
            'enum',
            `Expected a declared variable in ${field} but received {{${name}}}: declare it in variables`,
          );
        if (declared !== type)
          throw new ValidationError(
            field,
            'type',
            `Expected a ${type} variable in ${field} but {{${name}}} is a ${declared} variable`,
          );
      }
    };
    if (layer.type === 'text') {
      check(layer.content, `layers[${i}].content`, 'text');
      if (layer.below) check(layer.below.content, `layers[${i}].below.content`, 'text');
    }
    if (layer.type === 'image') {
      const field = `layers[${i}].source`;
      if (/\{\{/.test(layer.source)) {
        if (imageVariableOf(layer.source) === undefined)
          throw new ValidationError(
            field,
            'format',
            `Expected background, an asset id or one {{variable}} for ${field}`,
          );
        check(layer.source, field, 'image');
      } else if (layer.source !== 'background' && !idPattern('ast').test(layer.source))
        throw new ValidationError(
          field,
          'format',
          `Expected background, an asset id (ast_…) or an image {{variable}} for ${field} but received "${layer.source.slice(0, 40)}"`,
        );
    }
  });
  return doc;
}

/**
 * The values of a document's text variables for a render: `title` and `subtitle`, then each text
 * variable from `fields` (trimmed), else its default. Throws ValidationError on `fields.<name>`: a
 * name the document does not declare (`enum`), a required variable missing (`required`), a value
 * past its `maxLength` (`maxLength`) or with control characters (`format`). Image variables are
 * checked by the caller, which reads them.
 */
export function fieldValues(
  document: TemplateDocument,
  {
    title,
    subtitle,
    fields = {},
    lenient = false,
  }: {
    title: string;
    subtitle?: string | undefined;
    fields?: Record<string, unknown> | undefined;
    /** A stand-in (the fallback card of a site or link): a required variable may be missing. */
    lenient?: boolean;
  },
): Record<string, string | undefined> {
  const declared = Object.keys(document.variables);
  for (const name of Object.keys(fields))
    if (!declared.includes(name))
      throw new ValidationError(
        `fields.${name}`,
        'enum',
        declared.length
          ? `Expected only the template's variables (${declared.join(', ')}) in fields but received ${name}`
          : `Expected no fields: the template declares no variables, but received ${name}`,
      );
  const values: Record<string, string | undefined> = { title, subtitle };
  for (const [name, variable] of Object.entries(document.variables)) {
    if (variable.type !== 'text') continue;
    const field = `fields.${name}`;
    const given = fields[name];
    if (given === undefined || given === null || (typeof given === 'string' && given.trim() === '')) {
      if (variable.required && !lenient)
        throw new ValidationError(
          field,
          'required',
          `Expected a value for ${field} but received nothing: the template requires ${name}`,
        );
      values[name] = variable.default;
      continue;
    }
    // The rules of the API's title (docs/api.md#generate-options): no control characters but line feed, trimmed,
    // at most maxLength grapheme clusters.
    values[name] = parseOrThrow(textSchema(variable.maxLength), given, ['fields', name]);
  }
  return values;
}

/** A request's `fields` over a preset's, name by name; undefined when neither has any. */
export function mergeFields(preset: unknown, own: unknown): unknown {
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isObject(preset) && isObject(own)) return { ...preset, ...own };
  return own ?? preset;
}
