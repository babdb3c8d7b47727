/**
 * The images' schemas: the options of `POST /generate` (docs/api.md#generate-options), the list's
 * query, the image records as the API shows them, and the layout and render reports.
 */
import { z } from 'zod';
import {
  ASPECT_NAMES,
  COLOR_MODES,
  FILE_FORMATS,
  FOCUS_NAMES,
  FONT_NAMES,
  type FontName,
  LIMITS,
  POSITION_NAMES,
  TEMPLATES,
} from '../design.js';
import { IMAGE_SORTS, SORT_ORDERS } from '../kernel/records.js';
import { TEMPLATE_ID, isTemplateId, isoTimestamp, recordIdSchema } from '../schemas.js';
import { hexColourSchema } from '../render/index.js';
import { textSchema } from '../text.js';
import type * as Renderer from '../render/index.js';

const fontNameSchema = z.enum(FONT_NAMES);

/** `font`: a bundled family by name or `{system}`, or an uploaded font `{custom: id}`; a bare name becomes the name. */
const fontChoiceSchema = z
  .union([
    fontNameSchema,
    z.object({ system: fontNameSchema }).strict(),
    z.object({ custom: recordIdSchema('fnt') }).strict(),
  ])
  .transform((f): FontName | { custom: string } =>
    typeof f === 'string' ? f : 'system' in f ? f.system : { custom: f.custom },
  );

/**
 * `template`: a built-in name (docs/api.md#generate-options), auto (ours), or a template id (POST /templates). One
 * string with one check, so that a wrong name is an `enum` refusal listing the names.
 */
const templateChoiceSchema = z
  .string()
  .superRefine((value, ctx) => {
    if (!(TEMPLATES as readonly string[]).includes(value) && value !== 'auto' && !TEMPLATE_ID.test(value))
      ctx.addIssue({
        code: 'invalid_value',
        values: [...TEMPLATES, 'auto', 'a template id tpl_…'],
        input: value,
      });
  })
  .meta({
    anyOf: [
      // A title names the enum's class in generated clients (the Python package's TemplateName).
      { title: 'TemplateName', type: 'string', enum: [...TEMPLATES, 'auto'] },
      { type: 'string', pattern: TEMPLATE_ID.source },
    ],
  });

/**
 * Options of `POST /generate` (docs/api.md#generate-options), typed. The REST edge decodes form text into these types
 * first (`src/http/form.ts`); MCP clients send them typed.
 */
export const generateShape = {
  title: textSchema(LIMITS.textMaxLength).describe(
    'Title, 1 to 200 characters. A line feed forces a line break.',
  ),
  subtitle: textSchema(LIMITS.textMaxLength).optional().describe('Subtitle, 1 to 200 characters.'),
  position: z
    .union([
      z.enum(POSITION_NAMES),
      z
        .object({
          x: z.number().min(0).max(1).describe('Horizontal centre of the text block, 0 (left) to 1 (right).'),
          y: z.number().min(0).max(1).describe('Vertical centre of the text block, 0 (top) to 1 (bottom).'),
        })
        .strict(),
    ])
    .optional()
    .describe(
      'Where the text goes when no template is given: top, center, bottom, or {x, y} as fractions 0 to 1 of the canvas (the centre of the text block, kept inside the safe zone). Ignored when template is set.',
    ),
  template: templateChoiceSchema
    .optional()
    .describe(
      'Layout template; bottom-left when neither template nor position is given. auto: Titlecard picks bottom-left, left or right, whichever text box covers the least busy, least salient part of the cropped photo (the choice is in the render report). A template id (tpl_…, POST /templates): your own layout, its variables filled by fields.',
    ),
  fields: z
    .record(z.string(), z.string().max(2000))
    .optional()
    .describe(
      "With a template id: the values of the template's variables, a JSON object. Text variables take text; image variables an asset id (ast_…) or an http or https URL. title and subtitle are the request's own.",
    ),
  focus: z
    .union([
      z.enum(FOCUS_NAMES),
      z
        .object({
          x: z
            .number()
            .min(0)
            .max(1)
            .describe('Horizontal point to keep in frame, 0 (left) to 1 (right) of the photo.'),
          y: z
            .number()
            .min(0)
            .max(1)
            .describe('Vertical point to keep in frame, 0 (top) to 1 (bottom) of the photo.'),
        })
        .strict(),
    ])
    .default('auto')
    .describe(
      'What the cover crop keeps in frame: auto (default: the centre, moved the least that keeps the faces, people, cats and dogs found in the photo whole), center, attention (the most salient region, libvips attention strategy), or {x, y}, fractions of the photo kept as near the centre as the crop allows.',
    ),
  colorMode: z
    .enum(COLOR_MODES)
    .default('auto')
    .describe('Text colour: auto picks white or black by WCAG contrast.'),
  colorHex: hexColourSchema
    .optional()
    .describe('Text colour as #RGB or #RRGGBB; required when colorMode is custom, ignored otherwise.'),
  gradient: z.boolean().default(true).describe('Gradient overlay behind the text, coloured from the photo.'),
  textShadow: z.boolean().default(true).describe('Soft shadow under the text.'),
  fontSize: z
    .number()
    .min(LIMITS.fontSizeMin)
    .max(LIMITS.fontSizeMax)
    .optional()
    .describe('Title size in px, 24 to 120; chosen automatically when unset.'),
  font: fontChoiceSchema
    .default('arial')
    .describe(
      'Font: {"system": name} or a bare name (one of the nine bundled families), or {"custom": fontId} (a font uploaded with POST /fonts). Characters it lacks come from the bundled fallback fonts.',
    ),
  aspect: z.enum(ASPECT_NAMES).default('og').describe('og 1200×630, square 1080×1080, portrait 1080×1350.'),
  fileFormat: z.enum(FILE_FORMATS).default('png').describe('png (lossless), jpeg or webp (quality 85).'),
};

/** `colorHex` is required when `colorMode` is custom (docs/api.md#generate-options). */
export const customColourNeedsHex = (
  o: { colorMode?: string | undefined; colorHex?: string | undefined },
  ctx: z.RefinementCtx,
) => {
  if (o.colorMode === 'custom' && o.colorHex === undefined)
    ctx.addIssue({
      code: 'invalid_type',
      expected: 'string',
      path: ['colorHex'],
      input: undefined,
      message: 'colorHex is required when colorMode is custom',
    });
};

/** `fields` fill a template of the user's; the built-in templates have no variables (ours, docs/templates.md). */
const fieldsNeedTemplate = (o: { template?: string | undefined; fields?: unknown }, ctx: z.RefinementCtx) => {
  if (o.fields !== undefined && !isTemplateId(o.template))
    ctx.addIssue({
      code: 'invalid_format',
      format: 'fields only with a template id (tpl_…)',
      path: ['fields'],
      input: JSON.stringify(o.fields),
      message: 'fields fill a template of yours (tpl_…); the built-in templates have no variables',
    });
};

export const generateOptionsSchema = z.object(generateShape).superRefine((o, ctx) => {
  customColourNeedsHex(o, ctx);
  fieldsNeedTemplate(o, ctx);
});

export type GenerateOptionsInput = z.input<typeof generateOptionsSchema>;

export type GenerateOptions = z.output<typeof generateOptionsSchema>;

/** Query of `GET /images` (docs/api.md#endpoints). */
export const listImagesQuerySchema = z.object({
  limit: z
    .number()
    .int()
    .min(1)
    .max(LIMITS.pageSizeMax)
    .default(LIMITS.pageSizeDefault)
    .describe('Results per page, 1 to 100.'),
  offset: z.number().int().min(0).default(0).describe('Number of results skipped.'),
  sort: z.enum(IMAGE_SORTS).default('createdAt').describe('Sort key.'),
  order: z.enum(SORT_ORDERS).default('desc').describe('Sort order.'),
});

/** docs/api.md#endpoints: the creation response record. */
export const imageRecordSchema = z.object({
  id: z.string(),
  url: z.url(),
  thumbnailUrl: z.url(),
  width: z.number().int(),
  height: z.number().int(),
  createdAt: isoTimestamp,
});

/** docs/api.md#endpoints: an entry of the image list. */
export const imageListEntrySchema = z.object({
  id: z.string(),
  title: z.string(),
  url: z.url(),
  thumbnailUrl: z.url(),
  createdAt: isoTimestamp,
});

/**
 * `GET /images/{id}` (ours, beside its list): the record with its texts and
 * format, the fields of docs/api.md#endpoints that the list leaves out.
 */
export const imageDetailSchema = z.object({
  id: z.string(),
  title: z.string(),
  subtitle: z.string().nullable().describe('null when the image has none.'),
  url: z.url(),
  thumbnailUrl: z.url(),
  width: z.number().int(),
  height: z.number().int(),
  format: z.enum(FILE_FORMATS),
  createdAt: isoTimestamp,
});

export const imagePageSchema = z.object({
  images: z.array(imageListEntrySchema),
  pagination: z.object({
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
    hasMore: z.boolean(),
  }),
});

/** What one text layer of a template came to (`layers` of a layout report). */
export const layerReportSchema = z.object({
  layer: z.number().int().describe("Index of the layer in the template's layers."),
  fontSize: z.number().int().describe('Size of its first paragraph, px.'),
  lines: z.array(z.string()).describe('Its text as set, one string a line (a `below` paragraph after).'),
  truncated: z.boolean().describe('True when its text was cut with an ellipsis to fit its box.'),
  fallbackFonts: z.array(z.string()).describe('Fonts other than its own that drew some glyph.'),
  missingCharacters: z.array(z.string()).describe('Characters no bundled font covers.'),
  contrast: z
    .number()
    .nullable()
    .describe(
      'WCAG 2 contrast ratio reached behind it (10th percentile); null from POST /layout, which has no photo.',
    ),
});

export type LayerReport = z.infer<typeof layerReportSchema>;

/**
 * What a layout came to (`POST /layout`, the `check_layout` tool, and the `Titlecard-Render-Report`
 * header of `POST /generate`): sizes, lines as set, whether anything was cut, which fallback fonts
 * were used, and any character no bundled font covers.
 */
export const layoutReportSchema = z.object({
  template: z
    .union([z.enum(TEMPLATES), recordIdSchema('tpl')])
    .nullable()
    .describe(
      'The template laid out: a built-in (the one chosen for auto) or a template id; null when a position was used.',
    ),
  fontSize: z.number().int().describe('Title size, px.'),
  subtitleFontSize: z.number().int().nullable().describe('Subtitle size, px; null without a subtitle.'),
  lines: z.object({
    title: z.array(z.string()).describe('The title as set, one string a line.'),
    subtitle: z.array(z.string()).describe('The subtitle as set; empty without one.'),
  }),
  lineCount: z.number().int().describe('Lines of title and subtitle together.'),
  truncated: z.boolean().describe('True when text was cut with an ellipsis to fit.'),
  fallbackFonts: z
    .array(z.string())
    .describe(
      'Fonts other than the chosen one that drew some glyph (another script, emoji), e.g. "Noto Sans JP".',
    ),
  missingCharacters: z
    .array(z.string())
    .describe('Characters no bundled font covers: drawn as an empty box.'),
  layers: z
    .array(layerReportSchema)
    .optional()
    .describe(
      "With a template id: each text layer's report, in layer order. The fields above then describe the layer that sets {{title}}.",
    ),
});

export type LayoutReport = z.infer<typeof layoutReportSchema>;

/** The render report of a generation: the layout report and the contrast reached. */
export const renderReportSchema = layoutReportSchema.extend({
  contrast: z
    .number()
    .describe(
      'The WCAG 2 contrast ratio reached behind the text (10th percentile of its pixels, lowest block).',
    ),
  backgroundScale: z
    .number()
    .describe(
      'How much the background photo was enlarged to cover the whole card (ours): 1 = its own size, 1.9 = each photo pixel spread over 1.9 × 1.9 card pixels; below 1, shrunk. A template that boxes the photo draws it at another scale, and gets no warning from this.',
    ),
  subjects: z
    .array(
      z.object({
        kind: z.enum(['face', 'person', 'cat', 'dog']),
        score: z.number().describe("The detector's confidence, 0 to 1."),
        box: z
          .object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() })
          .describe('Where it is on the card, px (the part the crop kept).'),
      }),
    )
    .nullable()
    .describe(
      'Faces, people, cats and dogs found in the photo (ours): the default cover crop (focus auto) keeps them whole where it can, and template auto keeps the text off them. Empty when looked for and none found (a flat photo is not looked at: empty too). null when not looked for: focus center, attention or {x, y} without template auto, attention with it, focus auto on a photo the crop does not cut; or when the detector was busy with 16 other photos, failed, or took over 15 s.',
    ),
  warnings: z
    .array(z.string())
    .describe(
      'What makes the card worse than it could be, in words to show a person (ours): a background enlarged more than 1.5× to cover the card (it looks soft), text under the 4.5:1 contrast ratio of WCAG AA (a custom colour no gradient up to 0.9 made legible, or no gradient). Empty when nothing does. The same text is in the Titlecard-Warning header.',
    ),
});

export type RenderReport = z.infer<typeof renderReportSchema>;

/** True when `A` and `B` are the same type. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;
/**
 * Compile-time checks that the API's options and reports are the renderer's own
 * (src/domain/render/types.ts): validated options are what the renderer draws, and the reports it
 * makes are what the API documents.
 */
export type SchemasMatchRenderer = [
  Holds<
    Omit<GenerateOptions, 'fields'> extends Omit<Renderer.RenderOptions, 'logo' | 'design'> ? true : false
  >,
  Holds<Same<LayerReport, Renderer.LayerReport>>,
  Holds<Same<LayoutReport, Renderer.LayoutReport>>,
  Holds<Same<RenderReport, Renderer.RenderReport>>,
];
