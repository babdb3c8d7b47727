/** Services on in-memory adapters with a controllable clock, for the domain's own tests. */
import type { BlobStore, Clock } from '../../src/domain/kernel/ports.js';
import { createRenderer, type Renderer } from '../../src/domain/render/index.js';
import { createMemoryBlobStore } from './memory-blobs.js';
import { openSqliteStore } from '../../src/adapters/storage/sqlite/index.js';
import { testFonts, testServices } from './server.js';

/** A clock that stands still until `set`. */
export function fakeClock(iso: string): Clock & { set(iso: string): void } {
  let now = new Date(iso);
  return { now: () => new Date(now), set: (s) => (now = new Date(s)) };
}

/**
 * The domain on a private in-memory SQLite store and memory blobs, with a renderer that counts its
 * renders (`renders.count`).
 */
export function domainServices(clock: Clock, blobs: BlobStore = createMemoryBlobStore()) {
  const store = openSqliteStore(':memory:');
  const real = createRenderer(testFonts());
  const renders = { count: 0 };
  const renderer: Renderer = {
    load: () => real.load(),
    health: () => real.health(),
    layout: (options) => real.layout(options),
    display: (...args) => real.display(...args),
    inTurn: (account, work) => real.inTurn(account, work),
    render: (...args) => {
      renders.count++;
      return real.render(...args);
    },
  };
  return {
    store,
    blobs,
    renders,
    s: testServices({ store, blobs, renderer, clock }),
  };
}
