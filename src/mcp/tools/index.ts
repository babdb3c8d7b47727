/**
 * Every tool of the Titlecard MCP server, one file each, registered on a server by
 * {@link registerTools}. Input and output schemas are the domain's zod schemas, the same ones the
 * REST API validates with.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import { registerBatchTools } from './batches.js';
import { registerCheckLayout } from './check-layout.js';
import type { ToolContext } from './context.js';
import { registerDeleteImage } from './delete-image.js';
import { registerGenerateImage } from './generate-image.js';
import { registerGetUsage } from './get-usage.js';
import { registerListImages } from './list-images.js';
import { registerPresetTools } from './presets.js';
import { registerTemplateTools } from './templates.js';
import { registerValidateToken } from './validate-token.js';

export type { ToolContext } from './context.js';

export function registerTools(server: McpServer, context: ToolContext): void {
  registerGenerateImage(server, context);
  registerListImages(server, context);
  registerGetUsage(server, context);
  registerValidateToken(server, context);
  registerDeleteImage(server, context);
  registerCheckLayout(server, context);
  registerPresetTools(server, context);
  registerTemplateTools(server, context);
  registerBatchTools(server, context);
}
