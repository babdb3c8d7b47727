/**
 * The published files, for anyone (files are public, their keys unguessable: files.ts), and the
 * sweep of files no record points to.
 */
import { NotFoundError } from '../kernel/errors.js';
import type { BlobStore, RecordStore } from '../kernel/ports.js';
import { BLOB_KEY_PATTERN } from './files.js';
import { HANDOFF_KEY_PATTERN } from './handoff.js';
import type { Images } from './images.js';

export function createPublishedFiles({
  store,
  blobs,
}: {
  store: RecordStore;
  blobs: BlobStore;
}): Pick<Images, 'fileInfo' | 'openFile' | 'localFile' | 'sweepOrphans'> {
  return {
    async fileInfo(key) {
      const info = BLOB_KEY_PATTERN.test(key) ? await blobs.stat(key) : undefined;
      if (!info) throw new NotFoundError(`No file ${key}`);
      return info;
    },

    async openFile(key, range) {
      const stream = BLOB_KEY_PATTERN.test(key) ? await blobs.open(key, range) : undefined;
      if (!stream) throw new NotFoundError(`No file ${key}`);
      return stream;
    },

    localFile(key) {
      return BLOB_KEY_PATTERN.test(key) ? blobs.localPath(key) : undefined;
    },

    async sweepOrphans({ olderThan, dryRun = false }) {
      const referenced = new Set<string>();
      for await (const key of store.images.allBlobKeys()) referenced.add(key);
      const orphans: string[] = [];
      for await (const { key, modifiedAt } of blobs.list()) {
        // Published image files no record points to, and uploads left on their way to a worker
        // (handoff.ts; a crash of both ends): other uploads and rendered links have records of their own.
        const orphan = BLOB_KEY_PATTERN.test(key) ? !referenced.has(key) : HANDOFF_KEY_PATTERN.test(key);
        if (!orphan || modifiedAt >= olderThan) continue;
        if (!dryRun) await blobs.delete(key);
        orphans.push(key);
      }
      return orphans;
    },
  };
}
