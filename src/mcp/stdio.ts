/**
 * `titlecard mcp`: the connector over stdio, for Claude Desktop and other local clients.
 * The API token comes from TITLECARD_TOKEN. With TITLECARD_API_URL set (a remote Titlecard's
 * `{base_url}`, e.g. https://cards.example.com/api) the tools call that server's REST API; otherwise
 * they work on the local embedded store under DATA_DIR. stdout carries nothing but the protocol;
 * logs go to stderr. Over stdio the background may also be a file on this computer (`imagePath`).
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { backendFromEnvironment } from './backend.js';
import { buildMcpServer } from './server.js';
import { base64Source, pathSource } from './sources.js';

/** Serves MCP on stdin/stdout until stdin closes. Throws ConfigError for a missing token or a bad URL. */
export async function runStdio(
  config: Config,
  logger: Logger,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const { backend, close, services } = await backendFromEnvironment(config, logger, env);
  let localFileOf: ((url: string) => string | undefined) | undefined;
  if (services) {
    services.background.start();
    // Files on local disk (no S3): the file's key is the last segment of its URL; the store says
    // where it is, if on this disk.
    localFileOf = (url) =>
      services.images.localFile(decodeURIComponent(new URL(url).pathname.split('/').at(-1) ?? ''));
  }
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
