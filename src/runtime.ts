/**
 * Assembling Titlecard from its configuration: storage adapters, the font library, the renderer,
 * the domain services and the SSRF-safe image fetcher. `titlecard serve`, `titlecard mcp`, the other
 * CLI commands and the tests all start here, so none of them wires the parts by hand. Fonts are
 * loaded once here, never per request.
 */
import { availableParallelism } from 'node:os';
import type { Logger } from 'pino';
import { ConfigError, type Config } from './config.js';
import type { Clock, Mailer } from './domain/kernel/ports.js';
import { loadFontLibrary, type FontLibrary } from './domain/render/index.js';
import { createRenderer, createSubjectDetector } from './domain/render/index.js';
import { warmUp } from './domain/render/index.js';
import { facebookRescrape } from './adapters/facebook.js';
import { createMetrics, measuredRenderer, type Metrics } from './adapters/metrics.js';
import { createServices, type Services } from './domain/services.js';
import { openItemQueue, redisOutage } from './adapters/queue.js';
import { mongoOutage } from './adapters/storage/mongo/outage.js';
import { s3Outage } from './adapters/storage/s3.js';
import { recognizeOutages } from './domain/kernel/errors.js';
import {
  createImageFetcher,
  createMetadataDocumentFetcher,
  createPageFetcher,
  createProbeFetcher,
  createWebhookPoster,
  type ImageFetcher,
  type ImageFetcherOptions,
} from './adapters/safe-fetch.js';
import { createLogMailer, createSmtpMailer } from './adapters/mail.js';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SECRETS_KEY_BYTES } from './domain/kernel/secrets.js';
import { openStorage, sqliteFileOf } from './adapters/storage/index.js';
import { openUploadDir } from './uploads.js';
import { openLimits, type SharedLimits } from './adapters/storage/limits.js';
import { createServiceThrottles } from './adapters/storage/throttle.js';

/**
 * The key that seals secrets at rest (src/domain/kernel/secrets.ts): SECRETS_KEY, else `DATA_DIR/secrets.key`,
 * made on first start with 32 random bytes (mode 0600; created exclusively, so two processes
 * starting together agree on one).
 */
export async function loadSecretsKey(config: Pick<Config, 'secretsKey' | 'dataDir'>): Promise<Buffer> {
  if (config.secretsKey) return config.secretsKey;
  const file = path.join(config.dataDir, 'secrets.key');
  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  try {
    await writeFile(file, randomBytes(SECRETS_KEY_BYTES), { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as { code?: string }).code !== 'EEXIST') throw err;
  }
  // A file just created by another process may still be empty for an instant.
  for (let attempt = 0; ; attempt++) {
    const key = await readFile(file);
    if (key.length === SECRETS_KEY_BYTES) return key;
    if (attempt >= 20)
      throw new ConfigError(`${file} must hold ${SECRETS_KEY_BYTES} bytes: delete it or set SECRETS_KEY`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The file in DATA_DIR where `titlecard serve` records the address it serves at ({@link recordPublicUrl}). */
const PUBLIC_URL_FILE = 'public-url';

/**
 * Records `publicUrl` in DATA_DIR, so that a stdio connector on the same store (`titlecard mcp`
 * without TITLECARD_API_URL) gives its images the server's address, whatever its port (issue 55,
 * item 13). A failure is not the server's: it is logged.
 */
export async function recordPublicUrl(config: Pick<Config, 'dataDir'>, publicUrl: string, logger: Logger) {
  await writeFile(path.join(config.dataDir, PUBLIC_URL_FILE), `${publicUrl}\n`).catch((err: unknown) =>
    logger.warn({ err }, 'the public URL was not recorded in DATA_DIR'),
  );
}

/**
 * The local store a command acting on this configuration's stores would use, checked before it is
 * opened: an embedded store (no MONGODB_URI) that has no records file at DATA_DIR is refused with
 * ConfigError, not made anew and empty (a connector started from another folder then answered
 * every token as invalid). Answers the address `titlecard serve` recorded there, if any.
 */
export async function existingLocalStore(
  config: Pick<Config, 'dataDir' | 'mongo'>,
  dataDirGiven: boolean,
): Promise<{ publicUrl: string | undefined }> {
  const file = sqliteFileOf(config);
  if (file && !(await stat(file).catch(() => undefined)))
    throw new ConfigError(
      `No Titlecard store at ${config.dataDir} (${dataDirGiven ? 'DATA_DIR' : `DATA_DIR unset: ./data of the folder this command started in, ${process.cwd()}`}). Set DATA_DIR to the folder titlecard serve keeps its store in (data/ of its checkout under npm start), or TITLECARD_API_URL to a running Titlecard's address`,
    );
  const recorded = await readFile(path.join(config.dataDir, PUBLIC_URL_FILE), 'utf8').catch(() => '');
  return { publicUrl: /^https?:\/\/\S+$/.test(recorded.trim()) ? recorded.trim() : undefined };
}

/** What tests may replace; production passes none of these. */
export interface RuntimeOverrides {
  /** Default the system clock. */
  clock?: Clock;
  /** An already loaded font library (tests share one per file; loading takes about 300 ms). */
  fonts?: FontLibrary;
  /** Options of the imageUrl fetcher; default from `FETCH_ALLOW_ADDRESSES`. */
  fetcher?: ImageFetcherOptions;
  /** Render a few throw-away cards before serving (`warmUp` of the renderer; `titlecard serve` does). */
  warmUp?: boolean;
  /** Sends the account emails instead of SMTP_URL's server or the log (tests read them). */
  mailer?: Mailer;
  /**
   * Fetches OAuth Client ID Metadata Documents instead of the SSRF-safe fetcher (tests: a loopback
   * https server with a test certificate; src/web/oauth/). Never set in production.
   */
  oauthFetch?: typeof globalThis.fetch;
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
  /** Prometheus metrics of this process (src/adapters/metrics.ts). */
  metrics: Metrics;
  /** Where the limits are counted: this process, or Redis (REDIS_URL); the OAuth router's too. */
  limits: SharedLimits;
  /**
   * Fetches OAuth Client ID Metadata Documents: the SSRF-safe fetcher (src/adapters/safe-fetch.ts, which
   * follows `FETCH_ALLOW_ADDRESSES`), or {@link RuntimeOverrides.oauthFetch}.
   */
  oauthFetch: typeof globalThis.fetch;
  /** Closes the stores, the queue, the shared limits and the subject detector. */
  close(): Promise<void>;
}

/**
 * The domain's settings that come from the configuration (ServiceDeps): the admission's bounds
 * (RENDER_CONCURRENCY + RENDER_QUEUE under way, RENDER_MAX_WAIT in ms), SIGNUP and SITE_RECHECK;
 * their defaults are the configuration table's, stated there only.
 */
export function serviceSettingsOf(
  config: Pick<Config, 'renderConcurrency' | 'renderQueue' | 'renderMaxWait' | 'signUp' | 'siteRecheck'>,
) {
  return {
    maxInFlight: (config.renderConcurrency ?? availableParallelism()) + config.renderQueue,
    maxWaitMs: config.renderMaxWait * 1000,
    signUpMode: config.signUp,
    siteRecheckSeconds: config.siteRecheck,
  };
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
  // Each adapter reads its own driver's errors; the domain's outageOf asks them (a 503, not a 500).
  recognizeOutages(mongoOutage, s3Outage, redisOutage);
  const { store, blobs } = await openStorage(config);
  const limits = await openLimits(config.redisUrl, logger);
  // The subject detector is made here, one per runtime, reports its health through the renderer,
  // and ends with the runtime.
  const detector = createSubjectDetector();
  const base = createRenderer(options.fonts ?? loadFontLibrary(), {
    concurrency: config.renderConcurrency,
    detector,
  });
  if (options.warmUp) await warmUp(base);
  const metrics = createMetrics(base);
  const renderer = measuredRenderer(base, metrics);
  const mailer =
    options.mailer ??
    (config.smtpUrl
      ? await createSmtpMailer(
          config.smtpUrl,
          config.mailFrom ?? `Titlecard <no-reply@${new URL(publicUrl).hostname}>`,
        )
      : createLogMailer(logger));
  const itemQueue =
    config.queue === 'redis' && config.redisUrl
      ? await openItemQueue(config.redisUrl, metrics.registry, {
          generations: config.generateOnWorkers,
          generationWaitMs: config.generateWaitSeconds * 1000,
        })
      : undefined;
  const fetcherOptions = options.fetcher ?? { allowAddresses: config.fetchAllowAddresses };
  const fetchImage = createImageFetcher(fetcherOptions);
  const billing = config.billing
    ? {
        gateway: await (await import('./adapters/stripe.js')).openStripeGateway(config.billing),
        prices: config.billing.prices,
      }
    : undefined;
  const services = createServices({
    store,
    ...(billing ? { billing } : {}),
    secretsKey: await loadSecretsKey(config),
    fetchImage,
    fetchPage: createPageFetcher(fetcherOptions),
    // FETCH_ALLOW_ADDRESSES admits an intranet's images and sites: not its pages to anyone who asks
    // for a link preview (a test's own fetcher options stay as given).
    probe: createProbeFetcher(options.fetcher ?? { ...fetcherOptions, allowAddresses: [] }),
    ...(config.facebookAppToken
      ? { rescrape: facebookRescrape(config.facebookAppToken, config.facebookGraphUrl) }
      : {}),
    postWebhook: createWebhookPoster(fetcherOptions),
    ...(itemQueue ? { itemQueue } : {}),
    ...(itemQueue?.generations ? { generationQueue: itemQueue.generations } : {}),
    ...createServiceThrottles(limits.limiters),
    ...serviceSettingsOf(config),
    blobs,
    renderer,
    logger,
    publicUrl,
    mailer,
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
    fetchImage,
    limits,
    oauthFetch: options.oauthFetch ?? createMetadataDocumentFetcher(fetcherOptions),
    async close() {
      await services.close();
      await itemQueue?.close();
      await limits.close();
      await detector.close();
      await rm(uploadDir, { recursive: true, force: true });
    },
  };
}
