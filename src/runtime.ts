/**
 * Assembling Titlecard from its configuration: storage adapters, the font library, the renderer,
 * the domain services and the SSRF-safe image fetcher. `titlecard serve`, `titlecard mcp`, the other
 * CLI commands and the tests all start here, so none of them wires the parts by hand. Fonts are
 * loaded once here, never per request.
 */
import { availableParallelism } from 'node:os';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Clock } from './domain/ports.js';
import { loadFontLibrary, type FontLibrary } from './domain/render/fonts.js';
import { createRenderer } from './domain/render/index.js';
import { createMetrics, measuredRenderer, type Metrics } from './metrics.js';
import { createServices, type Services } from './domain/services.js';
import { createImageFetcher, type ImageFetcher, type ImageFetcherOptions } from './fetch-image.js';
import { createLogMailer, createSmtpMailer } from './mail.js';
import { rm } from 'node:fs/promises';
import { openStorage } from './storage/index.js';
import { openUploadDir } from './uploads.js';
import { createMemoryThrottle, createSignInThrottle } from './storage/throttle.js';
import { PREVIEW_LIMIT } from './domain/images.js';

/** What tests may replace; production passes none of these. */
export interface RuntimeOverrides {
  /** Default the system clock. */
  clock?: Clock;
  /** An already loaded font library (tests share one per file; loading takes about 300 ms). */
  fonts?: FontLibrary;
  /** Options of the imageUrl fetcher; default from `FETCH_ALLOW_ADDRESSES`. */
  fetcher?: ImageFetcherOptions;
}

/** A running Titlecard without any edge: what every edge is built on. */
export interface Runtime {
  config: Config;
  logger: Logger;
  /** Base URL the public reaches the service at, without trailing slash. */
  publicUrl: string;
  services: Services;
  /** Fetches an `imageUrl` (MCP), refusing private and local addresses. */
  fetchImage: ImageFetcher;
  /** This process's directory for uploads in flight (src/uploads.ts). */
  uploadDir: string;
  /** Prometheus metrics of this process (src/metrics.ts). */
  metrics: Metrics;
  /** Closes the stores. */
  close(): Promise<void>;
}

/**
 * Opens the configured stores and builds the services. `publicUrl` defaults to `config.publicUrl`,
 * else `http://localhost:<config.port>`. Throws ConfigError when a store cannot be reached.
 */
export async function createRuntime(
  config: Config,
  logger: Logger,
  options: RuntimeOverrides & { publicUrl?: string } = {},
): Promise<Runtime> {
  const publicUrl = options.publicUrl ?? config.publicUrl ?? `http://localhost:${config.port}`;
  const { store, blobs } = await openStorage(config);
  const base = createRenderer(options.fonts ?? loadFontLibrary(), { concurrency: config.renderConcurrency });
  const metrics = createMetrics(base);
  const renderer = measuredRenderer(base, metrics);
  const mailer = config.smtpUrl
    ? await createSmtpMailer(
        config.smtpUrl,
        config.mailFrom ?? `Titlecard <no-reply@${new URL(publicUrl).hostname}>`,
      )
    : createLogMailer(logger);
  const services = createServices({
    store,
    blobs,
    renderer,
    logger,
    publicUrl,
    mailer,
    throttle: createSignInThrottle(),
    previewThrottle: createMemoryThrottle({
      points: () => PREVIEW_LIMIT.points,
      windowSeconds: PREVIEW_LIMIT.windowSeconds,
    }),
    signUpMode: config.signUp,
    maxInFlight: (config.renderConcurrency ?? availableParallelism()) + config.renderQueue,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const uploadDir = await openUploadDir(config.dataDir, logger);
  return {
    config,
    logger,
    publicUrl,
    services,
    uploadDir,
    metrics,
    fetchImage: createImageFetcher(options.fetcher ?? { allowAddresses: config.fetchAllowAddresses }),
    async close() {
      await services.close();
      await rm(uploadDir, { recursive: true, force: true });
    },
  };
}
