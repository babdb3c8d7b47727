/**
 * The embedded blob store: image files on local disk in one flat directory. A file is written to a
 * temporary name and renamed into place, so a reader never sees half a file. Keys are checked against
 * a strict pattern, so no key can reach outside the directory.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open as fsOpen, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { assertBlobKey, STORED_KEY_PATTERN, contentTypeOfKey } from '../../domain/images/files.js';
import type { BlobStore } from '../../domain/kernel/ports.js';

/** Stores files in `dir` (created if missing). */
export async function openLocalDiskBlobStore(dir: string): Promise<BlobStore> {
  await mkdir(dir, { recursive: true });
  return {
    async put(key, body) {
      assertBlobKey(key);
      const tmp = path.join(dir, `.tmp-${randomBytes(8).toString('hex')}`);
      try {
        await writeFile(tmp, body);
        await rename(tmp, path.join(dir, key));
      } catch (err) {
        await rm(tmp, { force: true });
        throw err;
      }
    },
    async get(key) {
      if (!STORED_KEY_PATTERN.test(key)) return undefined;
      try {
        return { body: await readFile(path.join(dir, key)), contentType: contentTypeOfKey(key) };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw err;
      }
    },
    async stat(key) {
      if (!STORED_KEY_PATTERN.test(key)) return undefined;
      const info = await stat(path.join(dir, key)).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return undefined;
        throw err;
      });
      return info && { size: info.size, contentType: contentTypeOfKey(key) };
    },
    async open(key, range) {
      if (!STORED_KEY_PATTERN.test(key)) return undefined;
      try {
        const handle = await fsOpen(path.join(dir, key), 'r');
        return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw err;
      }
    },
    async delete(key) {
      assertBlobKey(key);
      await rm(path.join(dir, key), { force: true });
    },
    async *list() {
      for (const name of await readdir(dir)) {
        if (!STORED_KEY_PATTERN.test(name)) continue;
        const info = await stat(path.join(dir, name)).catch(() => undefined);
        if (info) yield { key: name, modifiedAt: info.mtime };
      }
    },
    publicUrl() {
      return undefined;
    },
    localPath(key) {
      return STORED_KEY_PATTERN.test(key) ? path.join(dir, key) : undefined;
    },
    async close() {},
  };
}
