/**
 * `titlecard serve`: the HTTP server. Builds the {@link Runtime}, serves {@link createHttpApp} and
 * closes both on request. Only the command line imports this module (and the tests, which start real
 * servers through it).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Server as NetServer, type AddressInfo, type Socket } from 'node:net';
import type { Logger } from 'pino';
import { ConfigError, type Config } from './config.js';
import { createHttpApp } from './app.js';
import { createRuntime, recordPublicUrl, type Runtime, type RuntimeOverrides } from './runtime.js';

/**
 * How long a shutdown waits for requests in flight, the accepting moment ({@link ShutdownOptions})
 * included: 25 s, under the usual 30 s a container platform gives after SIGTERM.
 */
export const SHUTDOWN_GRACE_MS = 25_000;

/** How a {@link RunningServer} stops. */
export interface ShutdownOptions {
  /**
   * Milliseconds to keep accepting connections after the stop begins, `/readyz` answering 503
   * meanwhile, so that a load balancer notices before the port closes (`SHUTDOWN_DELAY`,
   * docs/configuration.md). Default 0: stop accepting at once.
   */
  delayMs?: number;
  /** Milliseconds, from the stop's start, after which open connections are cut. Default {@link SHUTDOWN_GRACE_MS}. */
  graceMs?: number;
}

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
   * Graceful shutdown: keeps accepting for `delayMs`, then stops listening. Every connection
   * accepted gets an answer: one whose request has not arrived yet is served when it does (its
   * headers are due within {@link TIMEOUTS}`.headersMs`), then closed; a keep-alive connection
   * closes after its answer, an idle one at once. Requests in flight (and their renders) finish,
   * until `graceMs` after the start, when what is left is cut. Then the stores close.
   */
  close(options?: ShutdownOptions): Promise<void>;
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
  // Each open connection: how many of its requests are unanswered, and whether one was answered.
  // Node's closeIdleConnections() would also cut a connection whose first request has not arrived.
  const connections = new Map<Socket, { active: number; answered: boolean }>();
  server.on('connection', (socket: Socket) => {
    connections.set(socket, { active: 0, answered: false });
    socket.once('close', () => connections.delete(socket));
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const state = connections.get(req.socket);
    if (state) {
      state.active += 1;
      res.once('close', () => {
        state.active -= 1;
        state.answered = true;
        // An answer whose headers went out before the stop began kept its connection alive.
        if (stopping && state.active === 0) req.socket.end();
      });
    }
    // While shutting down, a keep-alive connection is closed after its answer.
    if (stopping) res.setHeader('Connection', 'close');
    app.then(
      (handle) => handle(req, res),
      () => res.destroy(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'EADDRINUSE' || err.code === 'EACCES'
          ? new ConfigError(
              `Cannot listen on ${config.host} port ${config.port}: ${err.code === 'EADDRINUSE' ? 'another program (another titlecard serve?) is using it' : 'this user may not use it'}. Stop that program, or choose another port with PORT`,
            )
          : err,
      ),
    );
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
  ready(createHttpApp(runtime, () => stopping));
  await recordPublicUrl(config, runtime.publicUrl, logger);
  runtime.services.background.start();
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  logger.info({ url, publicUrl: runtime.publicUrl, dataDir: config.dataDir }, 'titlecard listening');
  return {
    server,
    runtime,
    url,
    async close({ delayMs = 0, graceMs = SHUTDOWN_GRACE_MS }: ShutdownOptions = {}) {
      stopping = true;
      const cut = setTimeout(() => server.closeAllConnections(), graceMs);
      cut.unref();
      // Meanwhile every answer says `Connection: close`, so keep-alive clients reconnect elsewhere.
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(delayMs, graceMs)));
      // net.Server's close, not http.Server's: since Node 19 the latter also cuts every connection
      // without a request in flight, those whose first request has not arrived yet included.
      const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
      // Idle keep-alive connections close now; a connection not yet answered stays for its answer.
      for (const [socket, state] of connections) if (state.answered && state.active === 0) socket.end();
      await closed;
      clearTimeout(cut);
      await runtime.close();
    },
  };
}
