/**
 * The MCP server of Titlecard: four tools over a {@link TitlecardBackend}. Input and output schemas
 * are the domain's zod schemas (the same ones the REST API validates with). Errors the model can act
 * on (a bad field, the quota, an unreachable URL) come back as `isError` results with a clear
 * message; protocol errors are left for protocol faults.
 */
import { readFile, stat } from 'node:fs/promises';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import sharp from 'sharp';
import { z } from 'zod';
import { FileTooLargeError, TitlecardError, ValidationError } from '../domain/errors.js';
import { IMAGE_SORTS, SORT_ORDERS } from '../domain/model.js';
import {
  generateOptionsSchema,
  imageListEntrySchema,
  imageRecordSchema,
  LIMITS,
  listImagesQuerySchema,
  tokenValidationSchema,
  usageSchema,
  type GenerateOptions,
} from '../domain/schemas.js';
import type { TitlecardBackend } from './backend.js';
import type { ImageFetcher } from './fetch-image.js';

export const SERVER_INFO = { name: 'titlecard', version: '1.0.0' };

/** Inline preview: JPEG, at most 1568 px on the long side (what assistants downscale to), about 100 KB at most. */
const PREVIEW_MAX_PX = 1568;
const PREVIEW_MAX_BYTES = 100 * 1024;

export interface McpOptions {
  backend: TitlecardBackend;
  fetchImage: ImageFetcher;
  /** `stdio` adds `imagePath` (a file on the user's own machine); never offered over HTTP. */
  mode: 'http' | 'stdio';
  logger: Logger;
}

const sourceFields = {
  imageUrl: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe(
      'Background image URL (http or https). Fetched by the server; private and local addresses are refused.',
    ),
  imageBase64: z
    .string()
    .max(Math.ceil((LIMITS.imageBytes * 4) / 3) + 4)
    .optional()
    .describe('Background image bytes in base64, for small images (at most 10 MB decoded).'),
};
const pathField = {
  imagePath: z.string().min(1).optional().describe('Path of a background image file on this computer.'),
};

/** Opaque list cursor: where the next page starts, with the ordering it belongs to. */
const cursorSchema = z.object({
  o: z.number().int().min(0),
  s: z.enum(IMAGE_SORTS),
  d: z.enum(SORT_ORDERS),
  l: z.number().int(),
});
const encodeCursor = (c: z.infer<typeof cursorSchema>) =>
  Buffer.from(JSON.stringify(c)).toString('base64url');
function decodeCursor(cursor: string): z.infer<typeof cursorSchema> {
  try {
    return cursorSchema.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch {
    throw new ValidationError(
      'cursor',
      'format',
      'Expected a cursor returned by list_images for cursor but received an unknown one',
    );
  }
}

function textResult(
  structured: Record<string, unknown>,
  extra: CallToolResult['content'] = [],
): CallToolResult {
  return {
    structuredContent: structured,
    content: [{ type: 'text', text: JSON.stringify(structured) }, ...extra],
  };
}

/** Maps an error to a tool result the model can act on, or rethrows a fault of ours as a generic one. */
function toolError(err: unknown, logger: Logger): CallToolResult {
  let text: string;
  if (err instanceof ValidationError) text = `Invalid ${err.field} (${err.constraint}): ${err.message}`;
  else if (err instanceof FileTooLargeError) text = err.message;
  else if (err instanceof TitlecardError) text = err.message;
  else {
    const id = crypto.randomUUID();
    logger.error({ err, id }, 'MCP tool failed');
    text = `Internal error (id ${id}); try again later.`;
  }
  return { isError: true, content: [{ type: 'text', text }] };
}

/**
 * Reads an `imagePath` (stdio only: a file on the user's own machine). Only a regular file of at
 * most 10 MB is read; the size is checked before reading, so a huge file or a device is never
 * pulled into memory. Throws ValidationError (`imagePath`) or FileTooLargeError.
 */
async function readLocalImage(file: string): Promise<Buffer> {
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
}

/** The inline preview: the thumbnail as JPEG, at most 1568 px and 100 KB (quality lowered until it fits). */
async function previewOf(backend: TitlecardBackend, thumbnailUrl: string): Promise<Buffer | undefined> {
  const thumbnail = await backend.readFile(thumbnailUrl);
  if (!thumbnail) return undefined;
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

/** Builds the server for one caller. Cheap: build one per HTTP request (stateless mode). */
export function buildMcpServer({ backend, fetchImage, mode, logger }: McpOptions): McpServer {
  const server = new McpServer(SERVER_INFO, {
    instructions:
      'Titlecard lays a title over a photo to make link-preview (Open Graph) and share images. generate_image uses one unit of the monthly quota; get_usage shows what is left.',
  });
  const safely =
    <A>(fn: (args: A) => Promise<CallToolResult>) =>
    async (args: A): Promise<CallToolResult> => {
      try {
        return await fn(args);
      } catch (err) {
        return toolError(err, logger);
      }
    };

  const generateInput = generateOptionsSchema.safeExtend(
    mode === 'stdio' ? { ...sourceFields, ...pathField } : sourceFields,
  );
  server.registerTool(
    'generate_image',
    {
      title: 'Generate a titled image',
      description:
        'Lays a title (and optional subtitle) over a background photo and publishes a PNG, JPEG or WebP for link previews (og 1200×630, square 1080×1080, portrait 1080×1350). Costs one unit of the monthly quota (free 10, pro 500, agency 2000). Give the background as exactly one of imageUrl, imageBase64' +
        (mode === 'stdio' ? ', or imagePath.' : '.') +
        ' Returns the image record, a small preview and a link to the full image.',
      inputSchema: generateInput,
      outputSchema: imageRecordSchema,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
    safely(async (args: z.output<typeof generateInput> & { imagePath?: string }) => {
      const { imageUrl, imageBase64, imagePath, ...options } = args;
      const sources = [imageUrl, imageBase64, imagePath].filter((s) => s !== undefined);
      if (sources.length !== 1)
        throw new ValidationError(
          'imageUrl',
          sources.length ? 'type' : 'required',
          `Expected exactly one of imageUrl, imageBase64${mode === 'stdio' ? ', imagePath' : ''} but received ${sources.length}`,
        );
      let image: Buffer;
      if (imageUrl !== undefined) image = await fetchImage(imageUrl);
      else if (imageBase64 !== undefined) {
        image = Buffer.from(imageBase64, 'base64');
        if (image.length > LIMITS.imageBytes) throw new FileTooLargeError(LIMITS.imageBytes);
      } else {
        image = await readLocalImage(imagePath as string);
      }
      const record = await backend.generate(image, options as GenerateOptions);
      // The image is made and charged: a failed preview must not turn that into an error (a retry
      // would be charged again), so the preview is best-effort.
      const content: CallToolResult['content'] = [];
      const preview = await previewOf(backend, record.thumbnailUrl).catch((err: unknown) => {
        logger.warn({ err, id: record.id }, 'MCP preview failed');
        return undefined;
      });
      if (preview) content.push({ type: 'image', data: preview.toString('base64'), mimeType: 'image/jpeg' });
      const ext = new URL(record.url).pathname.split('.').pop() ?? 'png';
      content.push({
        type: 'resource_link',
        uri: record.url,
        name: `${record.id}.${ext}`,
        mimeType: ext === 'jpg' ? 'image/jpeg' : `image/${ext}`,
        description: `The full ${record.width}×${record.height} image`,
      });
      return textResult(record, content);
    }),
  );

  // The REST list query, with an opaque cursor in place of the offset.
  const listInput = listImagesQuerySchema.omit({ offset: true }).extend({
    cursor: z
      .string()
      .optional()
      .describe("nextCursor of the previous page; it keeps that page's sort and order."),
  });
  const listOutput = z.object({
    images: z.array(imageListEntrySchema),
    total: z.number().int(),
    nextCursor: z.string().optional().describe('Absent on the last page.'),
  });
  server.registerTool(
    'list_images',
    {
      title: 'List generated images',
      description:
        'Lists the images this account generated, newest first by default, a page at a time. Free: uses no quota.',
      inputSchema: listInput,
      outputSchema: listOutput,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    safely(async (args: z.output<typeof listInput>) => {
      const at = args.cursor
        ? decodeCursor(args.cursor)
        : { o: 0, s: args.sort, d: args.order, l: args.limit };
      const page = await backend.listImages({ limit: at.l, offset: at.o, sort: at.s, order: at.d });
      const next = page.pagination.hasMore
        ? encodeCursor({ ...at, o: at.o + page.images.length })
        : undefined;
      return textResult({
        images: page.images,
        total: page.pagination.total,
        ...(next ? { nextCursor: next } : {}),
      });
    }),
  );

  const usageOutput = usageSchema.extend({
    resetsAt: z.iso.datetime().describe('When the quota resets (first instant of next UTC month).'),
  });
  server.registerTool(
    'get_usage',
    {
      title: 'Get monthly usage',
      description:
        'How many images this account generated this month, its quota and tier, and when the quota resets. Free: uses no quota.',
      inputSchema: z.object({}),
      outputSchema: usageOutput,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    safely(async () => {
      const usage = await backend.usage();
      return textResult({ ...usage, resetsAt: usage.period.end });
    }),
  );

  server.registerTool(
    'validate_token',
    {
      title: 'Validate the API token',
      description:
        "Checks the API token in use and returns its account profile and this month's usage. Free: uses no quota.",
      inputSchema: z.object({}),
      outputSchema: tokenValidationSchema,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    safely(async () => textResult(await backend.validateToken())),
  );
  return server;
}
