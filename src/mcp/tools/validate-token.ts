/** `validate_token`: docs/api.md#endpoints as a tool. */
import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { tokenValidationSchema } from '../../domain/accounts/schemas.js';
import { READ_ONLY, type ToolContext } from './context.js';
import { safely, structuredResult } from './results.js';

export function registerValidateToken(server: McpServer, { backend, logger }: ToolContext): void {
  server.registerTool(
    'validate_token',
    {
      title: 'Validate the API token',
      description:
        "Checks the API token in use and returns its account profile and this month's usage. Free: uses no quota.",
      inputSchema: z.object({}),
      outputSchema: tokenValidationSchema,
      annotations: READ_ONLY,
    },
    safely(logger, async () => structuredResult(await backend.validateToken())),
  );
}
