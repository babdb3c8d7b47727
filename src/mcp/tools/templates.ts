/** `list_templates` and `get_template`: the built-in templates and the account's own (docs/templates.md). */
import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { templateSchema } from '../../domain/templates/schemas.js';
import { READ_ONLY, type ToolContext } from './context.js';
import { safely, structuredResult } from './results.js';

/** A template in a list: its document's variables, not its layers (get_template has those). */
const templateSummarySchema = templateSchema.omit({ document: true }).extend({
  variables: z
    .record(z.string(), z.unknown())
    .describe('The variables to fill with fields (title and subtitle are always there).'),
});

export function registerTemplateTools(server: McpServer, { backend, logger }: ToolContext): void {
  server.registerTool(
    'list_templates',
    {
      title: 'List templates',
      description:
        'The four built-in templates and this account\'s own, with the variables each takes. Use an id as template in generate_image, with fields filling its variables (e.g. {"author": "Ada"}). Free: uses no quota.',
      inputSchema: z.object({}),
      outputSchema: z.object({ templates: z.array(templateSummarySchema) }),
      annotations: READ_ONLY,
    },
    safely(logger, async () =>
      structuredResult({
        templates: (await backend.listTemplates()).map(({ document, ...rest }) => ({
          ...rest,
          variables: (document.variables ?? {}) as Record<string, unknown>,
        })),
      }),
    ),
  );
  server.registerTool(
    'get_template',
    {
      title: 'Get a template',
      description:
        "One template with its whole document (layers, boxes, variables): a built-in by name (bottom-left, left, right, split) or one of this account's by id (tpl_…). Free.",
      inputSchema: z.object({
        id: z.string().min(1).max(60).describe('bottom-left, left, right, split, or a template id tpl_….'),
      }),
      outputSchema: templateSchema,
      annotations: READ_ONLY,
    },
    safely(logger, async ({ id }: { id: string }) => structuredResult(await backend.getTemplate(id))),
  );
}
