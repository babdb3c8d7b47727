/** `list_images`: docs/api.md#endpoints as a tool, paged with an opaque cursor in place of the offset. */
import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ValidationError } from '../../domain/kernel/errors.js';
import { IMAGE_SORTS, SORT_ORDERS } from '../../domain/kernel/records.js';
import { imageListEntrySchema, listImagesQuerySchema } from '../../domain/images/schemas.js';
import { READ_ONLY, type ToolContext } from './context.js';
import { safely, structuredResult } from './results.js';

/** The cursor: where the next page starts, with the ordering and page size it belongs to. */
const cursorSchema = z.object({
  o: z.number().int().min(0),
  s: z.enum(IMAGE_SORTS),
  d: z.enum(SORT_ORDERS),
  l: z.number().int(),
});
type Cursor = z.infer<typeof cursorSchema>;

const encodeCursor = (c: Cursor) => Buffer.from(JSON.stringify(c)).toString('base64url');

function decodeCursor(cursor: string): Cursor {
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

export function registerListImages(server: McpServer, { backend, logger }: ToolContext): void {
  // The REST list query, with an opaque cursor in place of the offset.
  const inputSchema = listImagesQuerySchema.omit({ offset: true }).extend({
    cursor: z
      .string()
      .optional()
      .describe("nextCursor of the previous page; it keeps that page's sort and order."),
  });
  const outputSchema = z.object({
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
      inputSchema,
      outputSchema,
      annotations: READ_ONLY,
    },
    safely(logger, async (args: z.output<typeof inputSchema>) => {
      const at = args.cursor
        ? decodeCursor(args.cursor)
        : { o: 0, s: args.sort, d: args.order, l: args.limit };
      const page = await backend.listImages({ limit: at.l, offset: at.o, sort: at.s, order: at.d });
      const next = page.pagination.hasMore
        ? encodeCursor({ ...at, o: at.o + page.images.length })
        : undefined;
      return structuredResult({
        images: page.images,
        total: page.pagination.total,
        ...(next ? { nextCursor: next } : {}),
      });
    }),
  );
}
