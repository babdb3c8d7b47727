/** `delete_image`: deletes one of the account's images (record and files), as `DELETE /images/{id}`. */
import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { ToolContext } from './context.js';
import { safely, structuredResult } from './results.js';

export function registerDeleteImage(server: McpServer, { backend, logger }: ToolContext): void {
  const inputSchema = z.object({
    id: z.string().min(1).max(100).describe('The id of the image, from generate_image or list_images.'),
  });
  server.registerTool(
    'delete_image',
    {
      title: 'Delete an image',
      description:
        "Deletes one of this account's images for good: its record and its files, whose URLs stop working at once (pages that show it lose their preview image). Does not give the quota unit back.",
      inputSchema,
      outputSchema: z.object({ deleted: z.string().describe('The id of the deleted image.') }),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    safely(logger, async ({ id }: z.output<typeof inputSchema>) => {
      await backend.deleteImage(id);
      return structuredResult({ deleted: id });
    }),
  );
}
