/**
 * Request and response schemas, defined once with zod and reused at every edge: the REST layer
 * validates with them, the MCP tools use them as `inputSchema`/`outputSchema`, and the OpenAPI
 * document is generated from them. Every rule cites docs/api.md unless marked as our choice.
 */
import { z } from 'zod';
import { TOKEN_PATTERN } from './kernel/ids.js';
import { IMAGE_SORTS, SORT_ORDERS } from './kernel/records.js';
import {
  ASPECT_NAMES,
  COLOR_MODES,
  FILE_FORMATS,
  FOCUS_NAMES,
  FONT_NAMES,
  LOGO,
  LOGO_CORNERS,
  LIMITS,
  POSITION_NAMES,
  TEMPLATES,
  TIERS,
  type FontName,
} from './design.js';
import { hexColourSchema, variableNameSchema } from './templates/document.js';
import { textSchema } from './text.js';
import { idPattern, type IdPrefix } from './kernel/ids.js';

const fontNameSchema = z.enum(FONT_NAMES);

/** An id of Titlecard's records: a prefix, `_`, and 22 base62 characters (src/domain/kernel/ids.ts). */
export const recordIdSchema = (prefix: IdPrefix) =>
  z
    .string()
    .regex(idPattern(prefix), `an id such as ${prefix}_3SJQtzQudCCNw7msvpESdd`)
    .describe(`An id such as ${prefix}_3SJQtzQudCCNw7msvpESdd.`);

/**
 * An http or https URL of at most 2048 characters (a webhook's, a batch's `webhookUrl`, MCP's
 * `imageUrl`): what is fetched or POSTed to. Whether its address may be reached is the SSRF-safe
 * fetcher's to decide (src/safe-fetch.ts), at each request.
 */
export const httpUrlSchema = () => z.url({ protocol: /^https?$/, error: 'an http or https URL' }).max(2048);

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

/** A template id: `tpl_` and 22 base62 characters (src/domain/kernel/ids.ts). */
const TEMPLATE_ID = idPattern('tpl');

/** Whether `value` is a template id (a template of a user's, not a built-in name). */
export function isTemplateId(value: unknown): value is string {
  return typeof value === 'string' && TEMPLATE_ID.test(value);
}
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
const generateShape = {
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
    .default('center')
    .describe(
      'What the cover crop keeps in frame: center (default), attention (the most salient region, libvips attention strategy), or {x, y}, fractions of the photo kept as near the centre as the crop allows.',
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
const customColourNeedsHex = (
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

/** Body of `POST /tokens` (docs/api.md#endpoints). Name rules are our choice: 1 to 100 characters, need not be unique. */
export const createTokenBodySchema = z.object({
  name: textSchema(LIMITS.tokenNameMaxLength).describe(
    'Descriptive name, 1 to 100 characters; need not be unique.',
  ),
});

const isoTimestamp = z.iso.datetime().describe('ISO 8601 UTC timestamp');

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

const tierSchema = z.enum(TIERS).describe('Subscription tier: free, pro or agency');

/** docs/api.md#endpoints. `period.end` is the first instant of the next month (exclusive). */
export const usageSchema = z.object({
  period: z.object({ start: isoTimestamp, end: isoTimestamp }),
  usage: z.object({
    generated: z.number().int(),
    limit: z.number().int(),
    remaining: z.number().int(),
    percentUsed: z.number().describe('0 to 100, two decimals'),
  }),
  tier: tierSchema,
});

/** docs/api.md#endpoints. */
export const userProfileSchema = z.object({
  id: z.string(),
  email: z.email(),
  displayName: z.string(),
  tier: tierSchema,
});

/** docs/api.md#endpoints. */
export const tokenValidationSchema = z.object({
  user: userProfileSchema,
  usage: z.object({
    month: z.string().regex(/^\d{4}-\d{2}$/),
    quota: z.number().int(),
    count: z.number().int(),
    remaining: z.number().int(),
  }),
});

/** docs/api.md#endpoints: the only response that carries the secret. */
export const createdTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  token: z.string().regex(TOKEN_PATTERN),
  createdAt: isoTimestamp,
});

/** docs/api.md#endpoints entries. `lastUsedAt` is null until first use. */
export const tokenListEntrySchema = z.object({
  id: z.string(),
  name: z.string(),
  lastUsedAt: isoTimestamp.nullable(),
  createdAt: isoTimestamp,
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
});
export type RenderReport = z.infer<typeof renderReportSchema>;

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

/** An upload as the API shows it (`POST /assets`, `POST /fonts`). */
export const assetSchema = z.object({
  id: z.string(),
  kind: z.enum(['background', 'logo', 'font']),
  name: z.string(),
  format: z.enum(['png', 'jpeg', 'webp', 'ttf', 'otf']),
  width: z.number().int().describe('Pixels; 0 for a font.'),
  height: z.number().int().describe('Pixels; 0 for a font.'),
  bytes: z.number().int(),
  createdAt: isoTimestamp,
});

/** Body of `POST /signing-keys`. */
export const createSigningKeyBodySchema = z.object({
  name: textSchema(100).describe('Descriptive name, 1 to 100 characters.'),
});

/** A signing key as listed (no secret). */
export const signingKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: isoTimestamp,
});

/** The one answer that carries a signing key's secret. */
export const createdSigningKeySchema = signingKeySchema.extend({
  secret: z.string().describe('The HMAC secret, shown once: tcs_ and 43 base62 characters.'),
});

/** Answer of `POST /render-urls` and of the MCP tool `create_render_url`. */
export const renderUrlSchema = z.object({
  url: z.url().describe('The signed link under PUBLIC_URL/r/: put it in <meta property="og:image">.'),
});

/** Body of `POST /render-urls`. */
export const renderUrlBodySchema = z
  .object({
    preset: recordIdSchema('pre'),
    title: textSchema(LIMITS.textMaxLength),
    subtitle: textSchema(LIMITS.textMaxLength).optional(),
    image: z
      .string()
      .max(2048)
      .refine((v) => idPattern('ast').test(v) || /^https:\/\/[^\s]+$/.test(v), {
        message: 'an asset id (ast_…) or an https URL',
      })
      .optional()
      .describe("An asset id (ast_…) or an https URL; default the preset's background."),
    fields: z
      .record(variableNameSchema, z.string().max(2000))
      .optional()
      .describe(
        "Values of the variables of the preset's template (tpl_…); the link carries each as f.<name>.",
      ),
    format: z.enum(FILE_FORMATS).optional().describe('png (default), jpeg or webp.'),
    expiresIn: z
      .number()
      .int()
      .min(60)
      .max(10 * 365 * 24 * 3600)
      .optional()
      .describe('Seconds until the link stops working; none: until its key is revoked.'),
    key: recordIdSchema('key').optional().describe('Signing key to sign with; default your newest.'),
  })
  .strict();

/** Body of `POST /sites` (src/domain/sites/sites.ts). */
export const siteBodySchema = z
  .object({
    origin: z
      .string()
      .max(2048)
      .regex(/^https?:\/\/[^\s/?#]+\/?$/, {
        message: 'an http or https origin such as https://blog.example.com',
      })
      // And a host the WHATWG URL parser takes, without credentials: the regex lets through hosts
      // it refuses, such as control characters.
      .refine(
        (v) => {
          try {
            const url = new URL(v);
            return !url.username && !url.password && url.pathname === '/';
          } catch {
            return false;
          }
        },
        { message: 'an http or https origin such as https://blog.example.com' },
      )
      .describe('The site: scheme, host and port, such as https://blog.example.com (no path).'),
    preset: recordIdSchema('pre').describe("The preset that gives every page's card its design."),
    name: textSchema(100)
      .optional()
      .describe("What the fallback card says, 1 to 100 characters; default the origin's host."),
    keepQuery: z
      .boolean()
      .optional()
      .describe(
        'Whether a page URL keeps its query string; default false (dropped, so ?utm_… variants are one page).',
      ),
    description: z
      .boolean()
      .optional()
      .describe("Whether a page's og:description becomes the subtitle; default false."),
  })
  .strict();

/** A site as the API shows it. */
export const siteSchema = z.object({
  id: z.string(),
  origin: z.string(),
  name: z.string(),
  preset: z.string(),
  keepQuery: z.boolean(),
  description: z.boolean(),
  verified: z.boolean(),
  verifiedAt: isoTimestamp.nullable(),
  createdAt: isoTimestamp,
  verification: z
    .object({
      token: z.string().describe('tcv_ and 32 base62 characters.'),
      meta: z.string().describe('The tag to put in the <head> of the home page.'),
      fileUrl: z.string().describe('Or: the file to serve, whose whole content is the token.'),
    })
    .describe('How to prove the origin is yours: either one, then POST /sites/{id}/verify.'),
  link: z.string().describe('The site link without its page: add the page URL, percent-encoded, after url=.'),
  snippet: z.string().describe('The tag for every page: replace PAGE_URL with the page URL in the theme.'),
});

/** A page of a site as the dashboard and `GET /sites/{id}/pages` show it. */
export const sitePageSchema = z.object({
  url: z.string(),
  title: z.string().nullable(),
  subtitle: z.string().nullable(),
  problem: z
    .string()
    .nullable()
    .describe('Why the last check gave the fallback card; null when it went well.'),
  checkedAt: isoTimestamp,
});
