/**
 * Wires the domain together. Edges (REST, MCP, the CLI) receive {@link Services} and call one use
 * case per action; they never see the record store, the blob store or the renderer.
 */
import type { Logger } from 'pino';
import { createAccounts, type Accounts } from './accounts.js';
import { createImages, type Images } from './images.js';
import { systemClock, type BlobStore, type Clock, type RecordStore } from './ports.js';
import { createQuota, type Quota } from './quota.js';
import type { Renderer } from './render/index.js';

export interface ServiceDeps {
  store: RecordStore;
  blobs: BlobStore;
  renderer: Renderer;
  logger: Logger;
  /** Base URL of the service as the public sees it, without trailing slash, e.g. `https://cards.example.com`. */
  publicUrl: string;
  /** Default the system clock; tests inject one to cross a month boundary. */
  clock?: Clock;
}

/** Every use case of Titlecard, by area. */
export interface Services {
  /** Users, API tokens and bearer-token authentication (spec 4.4–4.7, section 5). */
  accounts: Accounts;
  /** The monthly quota per tier (spec section 8). */
  quota: Quota;
  /** Generating, listing and serving images (spec 4.1, 4.2). */
  images: Images;
  /** Closes the stores. In-flight calls should have finished. */
  close(): Promise<void>;
}

export function createServices(deps: ServiceDeps): Services {
  const clock = deps.clock ?? systemClock;
  const accounts = createAccounts(deps.store, clock);
  const quota = createQuota(deps.store, clock);
  const images = createImages({ ...deps, quota, clock });
  return {
    accounts,
    quota,
    images,
    async close() {
      await Promise.all([deps.store.close(), deps.blobs.close()]);
    },
  };
}
