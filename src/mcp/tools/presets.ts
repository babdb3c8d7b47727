/** `list_presets` and `create_render_url`: saved designs, and signed links that render on first fetch. */
import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { presetSchema } from '../../domain/presets/schemas.js';
import { renderUrlBodySchema, renderUrlSchema } from '../../domain/render-links/schemas.js';
import { READ_ONLY, type ToolContext } from './context.js';
import { safely, structuredResult } from './results.js';

export function registerPresetTools(server: McpServer, { backend, logger }: ToolContext): void {
  server.registerTool(
    'list_presets',
    {
      title: 'List presets',
      description:
        'The saved designs of this account (options, background, logo), newest first. Use an id as preset in generate_image or create_render_url. Free: uses no quota.',
      inputSchema: z.object({}),
      outputSchema: z.object({ presets: z.array(presetSchema) }),
      annotations: READ_ONLY,
    },
    safely(logger, async () => structuredResult({ presets: await backend.listPresets() })),
  );
  server.registerTool(
    'create_render_url',
    {
      title: 'Create a render link',
      description:
        'A signed URL for a page\'s <meta property="og:image">: the image is rendered from the preset on its first fetch (one unit of quota then) and served from the store after. Free until fetched. Needs a signing key on the account (dashboard → Render links).',
      inputSchema: renderUrlBodySchema,
      outputSchema: renderUrlSchema,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    safely(logger, async (args: Record<string, unknown>) =>
      structuredResult(await backend.createRenderUrl(args)),
    ),
  );
}
