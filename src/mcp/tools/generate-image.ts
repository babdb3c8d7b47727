/** `generate_image`: spec 4.1 as a tool, with an inline preview and a link to the full image. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import sharp from 'sharp';
import { ValidationError } from '../../domain/errors.js';
import { FILE_TYPES } from '../../domain/files.js';
import { generateOptionsSchema, imageRecordSchema, type GenerateOptions } from '../../domain/schemas.js';
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
  { backend, imageSources, logger }: ToolContext,
): void {
  const names = imageSources.map((s) => s.name);
  const inputSchema = generateOptionsSchema.safeExtend(
    Object.fromEntries(imageSources.map((s) => [s.name, s.schema])),
  );
  server.registerTool(
    'generate_image',
    {
      title: 'Generate a titled image',
      description:
        'Lays a title (and optional subtitle) over a background photo and publishes a PNG, JPEG or WebP for link previews (og 1200×630, square 1080×1080, portrait 1080×1350). Costs one unit of the monthly quota (free 10, pro 500, agency 2000). ' +
        `Give the background as exactly one of ${names.join(', ')}. Returns the image record, a small preview and a link to the full image.`,
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
      const given = imageSources.filter((s) => args[s.name] !== undefined);
      const source = given[0];
      if (given.length !== 1 || !source)
        throw new ValidationError(
          names[0] ?? 'image',
          given.length ? 'type' : 'required',
          `Expected exactly one of ${names.join(', ')} but received ${given.length}`,
        );
      const options = Object.fromEntries(
        Object.entries(args).filter(([k]) => !names.includes(k)),
      ) as GenerateOptions;
      const { image, thumbnail } = await backend.generate(
        () => source.read(args[source.name] as string),
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
      const type = FILE_TYPES[options.fileFormat];
      content.push({
        type: 'resource_link',
        uri: image.url,
        name: `${image.id}.${type.extension}`,
        mimeType: type.contentType,
        description: `The full ${image.width}×${image.height} image`,
      });
      return structuredResult(image, content);
    }),
  );
}
