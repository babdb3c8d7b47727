/**
 * An in-memory blob store, for fast domain tests. Not for production: files vanish with the process.
 */
import type { BlobStore } from '../domain/ports.js';
import { BLOB_KEY_PATTERN, contentTypeOfKey } from './local-disk.js';

export function createMemoryBlobStore(): BlobStore {
  const files = new Map<string, Buffer>();
  return {
    async put(key, body) {
      if (!BLOB_KEY_PATTERN.test(key)) throw new Error(`invalid blob key ${JSON.stringify(key)}`);
      files.set(key, Buffer.from(body));
    },
    async get(key) {
      const body = files.get(key);
      return body && { body, contentType: contentTypeOfKey(key) };
    },
    async delete(key) {
      files.delete(key);
    },
    async *keys() {
      yield* [...files.keys()];
    },
    publicUrl() {
      return undefined;
    },
    async close() {},
  };
}
