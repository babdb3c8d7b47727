/**
 * `titlecard mcp`: the connector over stdio, for Claude Desktop and other local clients.
 * The command line chooses the backend (src/cli/backend.ts): the API token comes from
 * TITLECARD_TOKEN; with TITLECARD_API_URL set the tools call that server's REST API, otherwise the
 * local embedded store under DATA_DIR. stdout carries nothing but the protocol; logs go to stderr.
 * Over stdio the background may also be a file on this computer (`imagePath`).
 */
import { serveStdio } from '@modelcontextprotocol/server/stdio';
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
  // The opening exchange picks the revision (an `initialize` for 2025-11-25 and older, or a request
  // with the 2026-07-28 `_meta` envelope); one server serves the connection after it.
  const handle = serveStdio(
    () =>
      buildMcpServer({
        backend,
        imageSources: [base64Source, pathSource],
        logger,
        ...(localFileOf ? { localFileOf } : {}),
      }),
    { onerror: (err) => logger.warn({ err }, 'an MCP message failed') },
  );
  // The client closes stdin when it is done (or gone): close the connection, then the stores.
  process.stdin.once('close', () => {
    handle
      .close()
      .then(close)
      .catch((err: unknown) => logger.error({ err }, 'closing the store failed'));
  });
}
