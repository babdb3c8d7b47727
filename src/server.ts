/**
 * `titlecard serve`: the HTTP server. Builds the {@link Runtime}, serves {@link createHttpApp} and
 * closes both on request. Only the command line imports this module (and the tests, which start real
 * servers through it).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { createHttpApp } from './app.js';
import { createRuntime, type Runtime, type RuntimeOverrides } from './runtime.js';

/** How long a shutdown waits for requests in flight: 25 s, under the usual 30 s a container platform gives after SIGTERM. */
export const SHUTDOWN_GRACE_MS = 25_000;

/**
 * Connection limits (Node's http server): a client has 10 s to send its headers and 120 s for the
 * whole request (a 10 MB upload at 1 Mbit/s takes 84 s); an idle keep-alive connection is closed
 * after 5 s; the limits are checked every 2 s. Past MAX_CONNECTIONS open connections, new ones are
 * refused at once.
 */
export const TIMEOUTS = {
  headersMs: 10_000,
  requestMs: 120_000,
  keepAliveMs: 5_000,
  checkEveryMs: 2_000,
} as const;

export interface RunningServer {
  server: Server;
  runtime: Runtime;
  /** Where it listens, e.g. `http://127.0.0.1:3000`. */
  url: string;
  /**
   * Graceful shutdown: stops accepting connections, lets requests in flight (and their renders)
   * finish, for at most `graceMs` (default {@link SHUTDOWN_GRACE_MS}), then cuts what is left and
   * closes the stores.
   */
  close(graceMs?: number): Promise<void>;
}

/**
 * Starts the HTTP server; resolves once it listens and its stores are open. With `PORT=0` and no
 * `PUBLIC_URL`, the public URL is `http://localhost:<the port bound>`. Requests that arrive before
 * the stores are open wait for them (the handler is attached before listening). Throws ConfigError
 * when a store cannot be reached, or the listen error (EADDRINUSE…).
 */
export async function startServer(
  config: Config,
  logger: Logger,
  overrides: RuntimeOverrides = {},
): Promise<RunningServer> {
  // Slow or idle clients must not hold connections: see TIMEOUTS.
  const server = createServer({
    headersTimeout: TIMEOUTS.headersMs,
    requestTimeout: TIMEOUTS.requestMs,
    keepAliveTimeout: TIMEOUTS.keepAliveMs,
    connectionsCheckingInterval: TIMEOUTS.checkEveryMs,
  });
  server.maxConnections = config.maxConnections;
  type Handler = (req: IncomingMessage, res: ServerResponse) => void;
  let ready!: (app: Handler) => void;
  let failed!: (err: unknown) => void;
  const app = new Promise<Handler>((resolve, reject) => {
    ready = resolve;
    failed = reject;
  });
  app.catch(() => undefined); // a start-up failure is reported by the caller, not as an unhandled rejection
  let stopping = false;
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    // While shutting down, a keep-alive connection is closed after its answer.
    if (stopping) res.setHeader('Connection', 'close');
    app.then(
      (handle) => handle(req, res),
      () => res.destroy(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  let runtime: Runtime;
  try {
    runtime = await createRuntime(config, logger, {
      ...overrides,
      publicUrl: config.publicUrl ?? `http://localhost:${port}`,
    });
  } catch (err) {
    failed(err);
    server.close();
    throw err;
  }
  ready(createHttpApp(runtime));
  runtime.services.background.start();
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  logger.info({ url, publicUrl: runtime.publicUrl, dataDir: config.dataDir }, 'titlecard listening');
  return {
    server,
    runtime,
    url,
    async close(graceMs = SHUTDOWN_GRACE_MS) {
      stopping = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const cut = setTimeout(() => server.closeAllConnections(), graceMs);
      cut.unref();
      await closed;
      clearTimeout(cut);
      await runtime.close();
    },
  };
}
