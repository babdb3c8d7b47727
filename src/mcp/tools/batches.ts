/** `start_batch` and `get_batch`: many images from one call, rendered in the background (docs/batches.md). */
import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { batchBodySchema, batchDetailSchema, batchSchema } from '../../domain/batches/schemas.js';
import { READ_ONLY, type ToolContext } from './context.js';
import { safely, structuredResult } from './results.js';

export function registerBatchTools(server: McpServer, { backend, logger }: ToolContext): void {
  server.registerTool(
    'start_batch',
    {
      title: 'Start a batch of images',
      description:
        'Starts rendering up to 1,000 images in the background, each item what generate_image takes without image bytes (a preset with a background, an asset id or an imageUrl, plus title and options). Every item is checked first: a bad one refuses the batch, naming it (items[7].title). Each image uses one unit of quota when rendered. Answers the batch id: follow it with get_batch.',
      inputSchema: batchBodySchema,
      outputSchema: batchSchema,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
    safely(logger, async (args: Record<string, unknown>) => structuredResult(await backend.startBatch(args))),
  );
  server.registerTool(
    'get_batch',
    {
      title: 'Get a batch',
      description:
        "A batch's progress (status, done, failed) and each item's image URL or error. Free: uses no quota.",
      inputSchema: z.object({ id: z.string().describe('The batch id (bat_…) that start_batch answered.') }),
      outputSchema: batchDetailSchema,
      annotations: READ_ONLY,
    },
    safely(logger, async ({ id }: { id: string }) => structuredResult(await backend.getBatch(id))),
  );
}
