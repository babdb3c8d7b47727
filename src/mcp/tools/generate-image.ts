/** `generate_image`: docs/api.md#generate-options as a tool, with an inline preview and a link to the full image. */
import type { McpServer } from '@modelcontextprotocol/server';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { ValidationError } from '../../domain/kernel/errors.js';
import { contentTypeOfKey } from '../../domain/images/files.js';
import { z } from 'zod';
import { generateOptionsSchema, imageRecordSchema } from '../../domain/images/schemas.js';
import { presetOptionsShape } from '../../domain/presets/schemas.js';
import { httpUrlSchema, recordIdSchema } from '../../domain/schemas.js';
import type { GenerateRequest } from '../../backend/port.js';
import type { ToolContext } from './context.js';
import { safely, structuredResult } from './results.js';

/**
 * The inline preview: JPEG, at most 1568 px on the long side (what assistants downscale images to)
 * and about 100 KB (quality lowered in steps of 15 until it fits, not below 35).
 */
const PREVIEW_MAX_PX = 1568;
const PREVIEW_MAX_BYTES = 100 * 1024;

async function previewOf(thumbnail: Buffer): Promise<Buffer> {
  let quality = 80;
  let preview = await sharp(thumbnail)
    .resize(PREVIEW_MAX_PX, PREVIEW_MAX_PX, { fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality })
    .toBuffer();
  while (preview.length > PREVIEW_MAX_BYTES && quality > 30) {
    quality -= 15;
    preview = await sharp(preview).jpeg({ quality }).toBuffer();
  }
  return preview;
}

export function registerGenerateImage(
  server: McpServer,
  { backend, imageSources, logger, localFileOf }: ToolContext,
): void {
  const byteSources = imageSources.map((s) => s.name);
  const names = ['imageUrl', ...byteSources, 'asset'];
  // The options without their defaults: a preset's apply first, then the defaults of docs/api.md#generate-options
  // (the domain fills them in after merging).
  const inputSchema = z.object({
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
  server.registerTool(
    'generate_image',
    {
      title: 'Generate a titled image',
      description:
        'Lays a title (and optional subtitle) over a background photo and publishes a PNG, JPEG or WebP for link previews (og 1200×630, square 1080×1080, portrait 1080×1350). Costs one unit of the monthly quota (free 10, pro 500, agency 2000). ' +
        `Give the background as one of ${names.join(', ')}, or name a preset that has one. template takes a built-in or one of the account's templates (list_templates), whose variables fields fills. Returns the image record, a small preview and a link to the full image.`,
      inputSchema,
      outputSchema: imageRecordSchema,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
    safely(logger, async (args: Record<string, unknown>) => {
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
      const { image, thumbnail } = await backend.generate(
        {
          field: source?.name ?? byteSources[0] ?? 'image',
          read: source && (() => source.read(args[source.name] as string)),
        },
        options,
      );

      // The image is made and charged: a failed preview must not turn that into an error (a retry
      // would be charged again), so the preview is best-effort.
      const content: CallToolResult['content'] = [];
      const preview = await (thumbnail ? previewOf(thumbnail) : Promise.resolve(undefined)).catch(
        (err: unknown) => {
          logger.warn({ err, id: image.id }, 'MCP preview failed');
          return undefined;
        },
      );
      if (preview) content.push({ type: 'image', data: preview.toString('base64'), mimeType: 'image/jpeg' });
      // Over stdio on the embedded store the file is on this computer: say where, and that the URL
      // works only while a server runs from the same DATA_DIR.
      const local = localFileOf?.(image.url);
      if (local)
        content.push({
          type: 'text',
          text: `The image is saved on this computer at ${local}. Its URL ${image.url} is served only while \`titlecard serve\` runs with the same DATA_DIR.`,
        });
      // The format may come from a preset: the file's extension says which.
      content.push({
        type: 'resource_link',
        uri: local ? pathToFileURL(local).href : image.url,
        name: `${image.id}${image.url.slice(image.url.lastIndexOf('.'))}`,
        mimeType: contentTypeOfKey(image.url),
        description: `The full ${image.width}×${image.height} image`,
      });
      return structuredResult(image, content);
    }),
  );
}
