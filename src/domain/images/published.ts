/**
 * The published files, for anyone (files are public, their keys unguessable: files.ts), and the
 * sweep of files no record points to.
 */
import { NotFoundError } from '../kernel/errors.js';
import type { BlobStore, ByteRange, RecordStore } from '../kernel/ports.js';
import { BLOB_KEY_PATTERN, LINK_PREVIEW_TTL_MS } from './files.js';
import { HANDOFF_KEY_PATTERN } from './handoff.js';
import type { Readable } from 'node:stream';

/** The published files' use cases. */
export interface PublishedFiles {
  /**
   * A published file (image or thumbnail) by its key, for anyone: files are public, their keys
   * unguessable (see `BLOB_KEY_PATTERN`). Its size (bytes) and Content-Type; throws NotFoundError
   * for an unknown or malformed key.
   */
  fileInfo(key: string): Promise<{ size: number; contentType: string }>;
  /** The bytes of a published file, all or `range` (inclusive offsets), streamed. Throws NotFoundError. */
  openFile(key: string, range?: ByteRange): Promise<Readable>;
  /**
   * Where a published file (by its key) is on this computer, when the blob store is local disk
   * (the embedded default); undefined otherwise, or for a key that is not a published file's.
   */
  localFile(key: string): string | undefined;
  /**
   * Deletes files that no record points to and that were written before `olderThan` (younger
   * files may belong to a generation still in flight: files are written before their record).
   * Holds the set of referenced keys in memory: about 100 bytes per image. Returns the keys
   * deleted, or that would be with `dryRun`.
   */
  sweepOrphans(options: { olderThan: Date; dryRun?: boolean }): Promise<string[]>;
}

export function createPublishedFiles({
  store,
  blobs,
}: {
  store: RecordStore;
  blobs: BlobStore;
}): PublishedFiles {
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
      // A link-preview check's files are kept a day (link-previews/): past it and the grace, they go.
      const checksBefore = new Date(olderThan.getTime() - LINK_PREVIEW_TTL_MS);
      for await (const { key, modifiedAt } of blobs.list()) {
        if (key.startsWith('lpv_')) {
          if (modifiedAt >= checksBefore) continue;
          if (!dryRun) await blobs.delete(key);
          orphans.push(key);
          continue;
        }
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
