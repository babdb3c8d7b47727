/**
 * Wires the domain together. Edges (REST, MCP, CLI) receive a {@link Services} and call one function
 * per request; they know nothing of storage or rendering.
 */
import type { Logger } from 'pino';
import { createAccounts } from './accounts.js';
import { createImages } from './images.js';
import { systemClock, type BlobStore, type Clock, type RecordStore } from './ports.js';
import { createQuota } from './quota.js';
import type { Renderer } from './render/index.js';

export interface ServiceDeps {
  store: RecordStore;
  blobs: BlobStore;
  renderer: Renderer;
  logger: Logger;
  /** Base URL of the service as the public sees it, without trailing slash. */
  publicUrl: string;
  clock?: Clock;
}

export function createServices(deps: ServiceDeps) {
  const clock = deps.clock ?? systemClock;
  const accounts = createAccounts(deps.store, clock);
  const quota = createQuota(deps.store, clock);
  const images = createImages({ ...deps, quota, clock });
  return {
    accounts,
    quota,
    images,
    blobs: deps.blobs,
    logger: deps.logger,
    async close() {
      await Promise.all([deps.store.close(), deps.blobs.close()]);
    },
  };
}
export type Services = ReturnType<typeof createServices>;
