/**
 * The backend of a command that acts with an API token (`titlecard mcp`, `titlecard templates`),
 * chosen from the environment: a remote Titlecard's REST API with TITLECARD_API_URL, else this
 * configuration's own stores. The command line composes it: this module opens the stores
 * (createRuntime), which the backend adapters (src/backend) never do.
 */
import type { Logger } from 'pino';
import { ConfigError, type Config } from '../config.js';
import { localBackend } from '../backend/local.js';
import type { TitlecardBackend } from '../backend/port.js';
import { remoteBackend } from '../backend/remote.js';
import { createRuntime, existingLocalStore } from '../runtime.js';

/** A backend chosen from the environment, and what its caller must do with it. */
export interface EnvironmentBackend {
  backend: TitlecardBackend;
  /** Closes the local stores (nothing for a remote server). */
  close: () => Promise<void>;
  /**
   * With the local stores: starts their background work (batches, webhook deliveries), as a
   * long-running connector needs; nothing for a remote server.
   */
  startBackground: () => void;
  /**
   * With the local stores on local disk: where the file of a published image URL is on this
   * computer (the stdio connector's `imagePath` answers); undefined otherwise.
   */
  localFileOf: ((url: string) => string | undefined) | undefined;
}

/**
 * The REST API's `{base_url}` of a Titlecard at `address`: its `PUBLIC_URL` (`https://cards.example.com`,
 * or with a path prefix) or that with `/api`, a trailing slash or not; the API is always at
 * `PUBLIC_URL/api` (docs/api.md). So `https://cards.example.com` and `https://cards.example.com/api/`
 * both answer `https://cards.example.com/api`.
 */
export function apiBaseOf(address: string): string {
  const url = new URL(address);
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = path.endsWith('/api') ? path : `${path}/api`;
  url.search = '';
  url.hash = '';
  return url.href;
}

/**
 * The backend a process acting with an API token uses (`titlecard mcp`, `titlecard templates`):
 * with TITLECARD_API_URL set (a remote Titlecard's address, {@link apiBaseOf}) that server's REST
 * API; otherwise this configuration's stores. Throws ConfigError for a missing TITLECARD_TOKEN or a
 * TITLECARD_API_URL that is not http or https.
 */
export async function backendFromEnvironment(
  config: Config,
  logger: Logger,
  env: NodeJS.ProcessEnv,
): Promise<EnvironmentBackend> {
  const token = env.TITLECARD_TOKEN?.trim();
  if (!token) throw new ConfigError('TITLECARD_TOKEN is required: the API token to act with');
  const apiUrl = env.TITLECARD_API_URL?.trim();
  if (apiUrl) {
    if (!/^https?:\/\//.test(apiUrl))
      throw new ConfigError(
        `Invalid TITLECARD_API_URL=${JSON.stringify(apiUrl)}: expected an http or https URL`,
      );
    logger.info({ apiUrl: apiBaseOf(apiUrl) }, 'acting on a remote Titlecard');
    return {
      backend: remoteBackend(apiBaseOf(apiUrl), token),
      close: async () => {},
      startBackground: () => {},
      localFileOf: undefined,
    };
  }
  const { publicUrl } = await existingLocalStore(config, Boolean(env.DATA_DIR?.trim()));
  const runtime = await createRuntime(config, logger, {
    ...(config.publicUrl || !publicUrl ? {} : { publicUrl }),
  });
  logger.info({ dataDir: config.dataDir, publicUrl: runtime.publicUrl }, 'acting on the local store');
  const { services } = runtime;
  return {
    backend: localBackend(services, () => services.accounts.authenticate(`Bearer ${token}`)),
    close: () => runtime.close(),
    startBackground: () => services.background.start(),
    // Files on local disk (no S3): the file's key is the last segment of its URL; the store says
    // where it is, if on this disk.
    localFileOf: (url) =>
      services.files.localFile(decodeURIComponent(new URL(url).pathname.split('/').at(-1) ?? '')),
  };
}
