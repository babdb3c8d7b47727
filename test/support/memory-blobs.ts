/**
 * An in-memory blob store, for fast domain tests (the service's are local disk and S3, src/adapters/storage).
 */
import { Readable } from 'node:stream';
import { assertBlobKey, contentTypeOfKey } from '../../src/domain/images/files.js';
import type { BlobStore } from '../../src/domain/kernel/ports.js';

export function createMemoryBlobStore(): BlobStore {
  const files = new Map<string, { body: Buffer; modifiedAt: Date }>();
  return {
    async put(key, body) {
      assertBlobKey(key);
      files.set(key, { body: Buffer.from(body), modifiedAt: new Date() });
    },
    async get(key) {
      const file = files.get(key);
      return file && { body: file.body, contentType: contentTypeOfKey(key) };
    },
    async stat(key) {
      const file = files.get(key);
      return file && { size: file.body.length, contentType: contentTypeOfKey(key) };
    },
    async open(key, range) {
      const file = files.get(key);
      if (!file) return undefined;
      return Readable.from([range ? file.body.subarray(range.start, range.end + 1) : file.body]);
    },
    async delete(key) {
      files.delete(key);
    },
    async *list() {
      for (const [key, { modifiedAt }] of [...files]) yield { key, modifiedAt };
    },
    publicUrl() {
      return undefined;
    },
    localPath() {
      return undefined;
    },
    async close() {},
  };
}
