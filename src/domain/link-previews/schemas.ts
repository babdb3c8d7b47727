/**
 * The link-preview check's request and report (docs/previews.md#the-report), as zod schemas: the
 * REST API validates and describes with them (OpenAPI), the MCP tool `check_link_preview` answers
 * with them.
 */
import { z } from 'zod';
import { PROBLEM_CODES } from './check.js';
import { PLATFORM_IDS } from './platforms.js';

export const previewBodySchema = z.strictObject({
  url: z.string().max(2048).url().describe('The page to check: an http or https URL, as people share it.'),
});

const cropSchema = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int(),
  height: z.number().int(),
});

export const problemSchema = z.object({
  code: z.enum(PROBLEM_CODES).describe('Stable code (docs/previews.md#problems).'),
  severity: z.enum(['error', 'warning', 'info']),
  message: z.string().describe('What is wrong and how to fix it.'),
  platforms: z.array(z.enum(PLATFORM_IDS)).describe('The platforms it concerns.'),
});

export const platformPreviewSchema = z.object({
  platform: z.enum(PLATFORM_IDS),
  name: z.string(),
  card: z
    .enum(['large', 'small', 'text', 'none'])
    .describe(
      'large: the image wide above the text; small: a thumbnail beside it; text: no image; none: no preview.',
    ),
  title: z.string().nullable().describe('The title as the platform cuts it (an ellipsis past its length).'),
  description: z.string().nullable(),
  domain: z.string(),
  image: z
    .object({
      url: z.string(),
      width: z.number().int(),
      height: z.number().int(),
      crop: cropSchema.describe('The part of the image the platform shows at its aspect, px of the image.'),
    })
    .nullable(),
  problems: z.array(z.enum(PROBLEM_CODES)),
  mockupUrl: z
    .string()
    .describe('GET it (same token) for a PNG of the preview as the platform will show it; kept a day.'),
});

export const previewReportSchema = z.object({
  id: z.string().describe('lpv_…'),
  url: z.string(),
  finalUrl: z.string().describe('The page after redirects.'),
  checkedAt: z.string(),
  expiresAt: z.string().describe('A day after the check: the report and its mock-ups are gone then.'),
  page: z.object({
    status: z.number().int().describe('The HTTP status; 0 when there was no answer.'),
    contentType: z.string().nullable(),
    bytes: z.number().int(),
    ms: z.number().int(),
    error: z.string().nullable(),
  }),
  tags: z
    .object({
      title: z.string().nullable().describe('The <title> element.'),
      description: z.string().nullable().describe('<meta name="description">.'),
      canonical: z.string().nullable().describe('<link rel="canonical">.'),
      meta: z
        .record(z.string(), z.string())
        .describe('Every og:* and twitter:* tag, by name, the first of each.'),
    })
    .nullable(),
  images: z.array(
    z.object({
      url: z.string(),
      status: z.number().int().nullable(),
      contentType: z.string().nullable(),
      format: z
        .string()
        .nullable()
        .describe('What its bytes are (jpeg, png, webp, gif…); null when not an image.'),
      width: z.number().int().nullable(),
      height: z.number().int().nullable(),
      bytes: z.number().int().nullable(),
      ms: z.number().int(),
      error: z.string().nullable(),
    }),
  ),
  platforms: z.array(platformPreviewSchema),
  problems: z.array(problemSchema),
});

export type PreviewReport = z.infer<typeof previewReportSchema>;
