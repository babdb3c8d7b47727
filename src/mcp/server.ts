/** The MCP server of Titlecard, for either transport: its identity, instructions and tools. */
import { McpServer } from '@modelcontextprotocol/server';
import { VERSION } from '../version.js';
import { registerStudio } from './studio.js';
import { registerLinkPreviewApp } from './link-preview-app.js';
import { registerTools, type ToolContext } from './tools/index.js';

/** `serverInfo` of the MCP handshake: the package's name and version (src/version.ts). */
export const SERVER_INFO = { name: 'titlecard', version: VERSION };

/** Builds a server with every tool. Cheap: the HTTP transport builds one per request (stateless mode). */
export function buildMcpServer(context: ToolContext): McpServer {
  const server = new McpServer(SERVER_INFO, {
    instructions:
      'Titlecard lays a title over a photo to make link-preview (Open Graph) and share images. generate_image uses one unit of the monthly quota; get_usage shows what is left. check_link_preview shows how a link will preview on ten platforms, free.',
  });
  registerTools(server, context);
  registerStudio(server, context);
  registerLinkPreviewApp(server, context);
  return server;
}
