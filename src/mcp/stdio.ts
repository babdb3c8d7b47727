/**
 * `titlecard mcp`: the connector over stdio, for Claude Desktop and other local clients.
 * The API token comes from TITLECARD_TOKEN. With TITLECARD_API_URL set (a remote Titlecard's
 * `{base_url}`, e.g. https://cards.example.com/api) the tools call that server's REST API; otherwise
 * they work on the local embedded store under DATA_DIR. stdout carries nothing but the protocol;
 * logs go to stderr. Over stdio the background may also be a file on this computer (`imagePath`).
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Logger } from 'pino';
import { ConfigError, type Config } from '../config.js';
import { createRuntime } from '../runtime.js';
import { localBackend, remoteBackend, type TitlecardBackend } from './backend.js';
import { buildMcpServer } from './server.js';
import { base64Source, pathSource } from './sources.js';

/** Serves MCP on stdin/stdout until stdin closes. Throws ConfigError for a missing token or a bad URL. */
export async function runStdio(
  config: Config,
  logger: Logger,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const token = env.TITLECARD_TOKEN?.trim();
  if (!token) throw new ConfigError('TITLECARD_TOKEN is required: the API token the MCP tools act with');
  let backend: TitlecardBackend;
  let localFileOf: ((url: string) => string | undefined) | undefined;
  let close = async () => {};
  const apiUrl = env.TITLECARD_API_URL?.trim();
  if (apiUrl) {
    if (!/^https?:\/\//.test(apiUrl))
      throw new ConfigError(
        `Invalid TITLECARD_API_URL=${JSON.stringify(apiUrl)}: expected an http or https URL`,
      );
    backend = remoteBackend(apiUrl, token);
    logger.info({ apiUrl }, 'MCP over stdio, remote Titlecard');
  } else {
    const runtime = await createRuntime(config, logger);
    backend = localBackend(runtime.services, () => runtime.services.accounts.authenticate(`Bearer ${token}`));
    runtime.services.background.start();
    close = () => runtime.close();
    // Files on local disk (no S3): DATA_DIR/files/<key>, the key being the URL's last segment.
    // The file's key is the last segment of its URL; the store says where it is, if on this disk.
    localFileOf = (url) =>
      runtime.services.images.localFile(decodeURIComponent(new URL(url).pathname.split('/').at(-1) ?? ''));
    logger.info({ dataDir: config.dataDir }, 'MCP over stdio, local store');
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
