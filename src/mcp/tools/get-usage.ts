/** `get_usage`: docs/api.md#endpoints as a tool, with the reset instant spelled out. */
import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { usageSchema } from '../../domain/accounts/schemas.js';
import { READ_ONLY, type ToolContext } from './context.js';
import { safely, structuredResult } from './results.js';

export function registerGetUsage(server: McpServer, { backend, logger }: ToolContext): void {
  const outputSchema = usageSchema.extend({
    resetsAt: z.iso.datetime().describe('When the quota resets (first instant of next UTC month).'),
  });
  server.registerTool(
    'get_usage',
    {
      title: 'Get monthly usage',
      description:
        'How many images this account generated this month, its quota and tier, and when the quota resets. Free: uses no quota.',
      inputSchema: z.object({}),
      outputSchema,
      annotations: READ_ONLY,
    },
    safely(logger, async () => {
      const usage = await backend.usage();
      return structuredResult({ ...usage, resetsAt: usage.period.end });
    }),
  );
}
