/**
 * `titlecard mcp`: the connector over stdio, for Claude Desktop and other local clients.
 * The command line chooses the backend (src/cli-backend.ts): the API token comes from
 * TITLECARD_TOKEN; with TITLECARD_API_URL set the tools call that server's REST API, otherwise the
 * local embedded store under DATA_DIR. stdout carries nothing but the protocol; logs go to stderr.
 * Over stdio the background may also be a file on this computer (`imagePath`).
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Logger } from 'pino';
import type { TitlecardBackend } from '../backend/port.js';
import { buildMcpServer } from './server.js';
import { base64Source, pathSource } from './sources.js';

/**
 * Serves MCP on stdin/stdout with `backend` until stdin closes, then calls `close`. `localFileOf`
 * (local stores on local disk) lets a result name the file of an image on this computer.
 */
export async function runStdio({
  backend,
  close,
  localFileOf,
  logger,
}: {
  backend: TitlecardBackend;
  close: () => Promise<void>;
  localFileOf?: ((url: string) => string | undefined) | undefined;
  logger: Logger;
}): Promise<void> {
  const server = buildMcpServer({
    backend,
    imageSources: [base64Source, pathSource],
    logger,
    ...(localFileOf ? { localFileOf } : {}),
  });
  const transport = new StdioServerTransport();
  transport.onclose = () => {
    close().catch((err: unknown) => logger.error({ err }, 'closing the store failed'));
  };
  await server.connect(transport);
}
