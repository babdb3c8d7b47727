/** `check_layout`: the free fit check of `POST /layout` as a tool. */
import type { McpServer } from '@modelcontextprotocol/server';
import {
  generateOptionsSchema,
  layoutReportSchema,
  type GenerateOptions,
} from '../../domain/images/schemas.js';
import type { ToolContext } from './context.js';
import { READ_ONLY } from './context.js';
import { safely, structuredResult } from './results.js';

export function registerCheckLayout(server: McpServer, { backend, logger }: ToolContext): void {
  server.registerTool(
    'check_layout',
    {
      title: 'Check a title layout',
      description:
        'Shows how a title (and subtitle) would be set with these options, without a photo: font size, the lines, whether anything would be cut with an ellipsis, fallback fonts, characters no font covers. Free: uses no quota. Use it to shorten a title before generate_image.',
      inputSchema: generateOptionsSchema,
      outputSchema: layoutReportSchema,
      annotations: READ_ONLY,
    },
    safely(logger, async (options: GenerateOptions) => structuredResult(await backend.checkLayout(options))),
  );
}
