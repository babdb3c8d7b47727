/**
 * Composition root: builds storage, fonts, renderer and services from the configuration, and serves
 * the Express app. Fonts are loaded once here, never per request.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { createApp } from './api/app.js';
import type { Config } from './config.js';
import { loadFontLibrary } from './domain/render/fonts.js';
import { createRenderer } from './domain/render/index.js';
import { createServices, type Services } from './domain/services.js';
import { createImageFetcher } from './mcp/fetch-image.js';
import { mountMcp } from './mcp/http.js';
import { openStorage } from './storage/index.js';

/** Builds the services of the configured storage. The caller closes them. */
export async function createRuntime(config: Config, logger: Logger, publicUrl?: string): Promise<Services> {
  const { store, blobs } = await openStorage(config);
  const renderer = createRenderer(loadFontLibrary(), { concurrency: config.renderConcurrency });
  return createServices({
    store,
    blobs,
    renderer,
    logger,
    publicUrl: publicUrl ?? config.publicUrl ?? `http://localhost:${config.port}`,
  });
}

export interface RunningServer {
  server: Server;
  /** e.g. `http://127.0.0.1:3000`. */
  url: string;
  close(): Promise<void>;
}

/** Starts the HTTP server; resolves once it listens. */
export async function startServer(config: Config, logger: Logger): Promise<RunningServer> {
  const server = createServer();
  // Uploads are small; slow clients must not hold connections for ever.
  server.requestTimeout = 120_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const publicUrl = config.publicUrl ?? `http://localhost:${port}`;
  let services: Services;
  try {
    services = await createRuntime(config, logger, publicUrl);
  } catch (err) {
    server.close();
    throw err;
  }
  const fetchImage = createImageFetcher({ allowAddresses: config.fetchAllowAddresses });
  server.on(
    'request',
    createApp(services, {
      logger,
      mount: (app) =>
        mountMcp(app, {
          services,
          fetchImage,
          logger,
          publicUrl,
          allowedHosts: config.mcpAllowedHosts,
          allowedOrigins: config.mcpAllowedOrigins,
        }),
    }),
  );
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  logger.info({ url, publicUrl, dataDir: config.dataDir }, 'titlecard listening');
  return {
    server,
    url,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await closed;
      await services.close();
    },
  };
}
