/**
 * The contract of the BlobStore port (src/domain/kernel/ports.ts), run against every adapter.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { newBlobStem } from '../../../src/domain/kernel/ids.js';
import type { BlobStore } from '../../../src/domain/kernel/ports.js';

export function blobStoreContract(name: string, open: () => Promise<BlobStore>): void {
  describe(`BlobStore contract: ${name}`, () => {
    it("gives a file's size and type without reading it, and streams it whole or by a byte range", async () => {
      const store = await open();
      const key = `${newBlobStem()}.png`;
      const body = Buffer.from(Array.from({ length: 10_000 }, (_, i) => (i * 7) % 256));
      await store.put(key, body, 'image/png');
      expect(await store.stat(key)).toEqual({ size: 10_000, contentType: 'image/png' });
      const read = async (range?: { start: number; end: number }) => {
        const stream = await store.open(key, range);
        const chunks: Buffer[] = [];
        for await (const chunk of stream ?? []) chunks.push(Buffer.from(chunk as Uint8Array));
        return Buffer.concat(chunks);
      };
      expect((await read()).equals(body)).toBe(true);
      expect((await read({ start: 100, end: 199 })).equals(body.subarray(100, 200))).toBe(true);
      expect((await read({ start: 9_999, end: 9_999 })).equals(body.subarray(9_999))).toBe(true);
      const missing = `${newBlobStem()}.png`;
      expect(await store.stat(missing)).toBeUndefined();
      expect(await store.open(missing)).toBeUndefined();
      expect(await store.stat('../etc/passwd')).toBeUndefined();
      await store.delete(key);
    });

    it('stores, reads back with the Content-Type of its extension, lists and deletes', async () => {
      const store = await open();
      const png = `${newBlobStem()}.png`;
      const thumb = `${newBlobStem()}_thumb.webp`;
      const jpg = `${newBlobStem()}.jpg`;
      const body = Buffer.from(Array.from({ length: 4096 }, (_, i) => i % 251));
      await store.put(png, body, 'image/png');
      await store.put(thumb, Buffer.from('webp'), 'image/webp');
      await store.put(jpg, Buffer.from('jpeg'), 'image/jpeg');
      expect(await store.get(png)).toEqual({ body, contentType: 'image/png' });
      // A store on local disk says where a key is: that file holds the bytes.
      const local = store.localPath(png);
      if (local !== undefined) expect(await readFile(local)).toEqual(body);
      expect(store.localPath('../escape.png')).toBeUndefined();
      expect((await store.get(thumb))?.contentType).toBe('image/webp');
      expect((await store.get(jpg))?.contentType).toBe('image/jpeg');
      const listed: { key: string; modifiedAt: Date }[] = [];
      for await (const entry of store.list()) listed.push(entry);
      expect(listed.map((e) => e.key)).toEqual(expect.arrayContaining([png, thumb, jpg]));
      for (const e of listed.filter((x) => [png, thumb, jpg].includes(x.key))) {
        expect(Math.abs(e.modifiedAt.getTime() - Date.now())).toBeLessThan(5 * 60_000);
      }
      await store.delete(png);
      expect(await store.get(png)).toBeUndefined();
      await store.delete(png); // deleting a missing key is not an error
      await store.close();
    });

    it('answers undefined for unknown keys and for keys that try to leave the store', async () => {
      const store = await open();
      expect(await store.get(`${newBlobStem()}.png`)).toBeUndefined();
      expect(await store.get('../package.json')).toBeUndefined();
      expect(await store.get('')).toBeUndefined();
      await expect(store.put('../evil.png', Buffer.from('x'), 'image/png')).rejects.toThrow();
      await store.close();
    });

    it('overwriting a key replaces the whole file', async () => {
      const store = await open();
      const key = `${newBlobStem()}.png`;
      await store.put(key, Buffer.alloc(1000, 1), 'image/png');
      await store.put(key, Buffer.alloc(10, 2), 'image/png');
      expect((await store.get(key))?.body).toEqual(Buffer.alloc(10, 2));
      await store.close();
    });
  });
}
