/**
 * The contract of the RecordStore port (src/domain/ports.ts). Every adapter runs this same suite;
 * an adapter that passes it is done.
 */
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/domain/errors.js';
import { newId } from '../../src/domain/ids.js';
import type { ApiToken, ImageRecord, User } from '../../src/domain/model.js';
import type { RecordStore } from '../../src/domain/ports.js';
import type { StorageConfig } from '../../src/storage/index.js';
import { chargeFromProcesses } from '../support/concurrent-charges.js';

const user = (email: string): User => ({
  id: newId('usr'),
  email,
  displayName: 'Contract',
  tier: 'pro',
  createdAt: new Date('2026-01-02T03:04:05.678Z'),
});
const token = (userId: string, at: string): ApiToken => ({
  id: newId('tok'),
  userId,
  name: 'n',
  tokenHash: newId('tok'),
  createdAt: new Date(at),
  lastUsedAt: null,
  revokedAt: null,
});
const image = (userId: string, title: string, at: string): ImageRecord => ({
  id: newId('img'),
  userId,
  title,
  subtitle: null,
  width: 1200,
  height: 630,
  format: 'png',
  imageKey: `${newId('img').slice(4)}.png`,
  thumbnailKey: `${newId('img').slice(4)}_thumb.png`,
  createdAt: new Date(at),
});

/**
 * `open` opens the adapter in this process; `storage()` is the store `open` opened last, as
 * configuration, for other processes to open it too (the concurrency checks).
 */
export function recordStoreContract(
  name: string,
  open: () => Promise<RecordStore>,
  storage: () => StorageConfig,
): void {
  describe(`RecordStore contract: ${name}`, () => {
    let n = 0;
    const email = () => `c${++n}-${Date.now()}@example.com`;

    it('stores users, finds them by id and by email case-insensitively, and refuses a taken email', async () => {
      const store = await open();
      const u = user(email());
      await store.users.create(u);
      expect(await store.users.findById(u.id)).toEqual(u);
      expect(await store.users.findByEmail(u.email.toUpperCase())).toEqual(u);
      await expect(store.users.create({ ...user(u.email.toUpperCase()) })).rejects.toBeInstanceOf(
        ValidationError,
      );
      expect(await store.users.setTier(u.id, 'agency')).toBe(true);
      expect((await store.users.findById(u.id))?.tier).toBe('agency');
      expect(await store.users.setTier('usr_missing', 'free')).toBe(false);
      await store.close();
    });

    it('finds active tokens by hash, lists them newest first, revokes once, records last use', async () => {
      const store = await open();
      const u = user(email());
      await store.users.create(u);
      const t1 = token(u.id, '2026-01-01T00:00:00Z');
      const t2 = token(u.id, '2026-01-02T00:00:00Z');
      await store.tokens.create(t1);
      await store.tokens.create(t2);
      expect(await store.tokens.findActiveByHash(t1.tokenHash)).toEqual(t1);
      expect((await store.tokens.listActive(u.id)).map((t) => t.id)).toEqual([t2.id, t1.id]);
      expect(await store.tokens.countActive(u.id)).toBe(2);
      await store.tokens.touch(t1.id, new Date('2026-02-02T00:00:00Z'));
      expect((await store.tokens.findActiveByHash(t1.tokenHash))?.lastUsedAt?.toISOString()).toBe(
        '2026-02-02T00:00:00.000Z',
      );
      expect(await store.tokens.revoke('usr_other', t1.id, new Date())).toBe(false);
      expect(await store.tokens.revoke(u.id, t1.id, new Date())).toBe(true);
      expect(await store.tokens.revoke(u.id, t1.id, new Date())).toBe(false);
      expect(await store.tokens.findActiveByHash(t1.tokenHash)).toBeUndefined();
      expect(await store.tokens.countActive(u.id)).toBe(1);
      await store.close();
    });

    it("lists a user's images by page, sorted by createdAt or title (case-insensitive), ties by id", async () => {
      const store = await open();
      const u = user(email());
      const other = user(email());
      await store.users.create(u);
      await store.users.create(other);
      const imgs = [
        image(u.id, 'beta', '2026-01-03T00:00:00Z'),
        image(u.id, 'Alpha', '2026-01-01T00:00:00Z'),
        image(u.id, 'gamma', '2026-01-02T00:00:00Z'),
      ];
      for (const i of imgs) await store.images.insert(i);
      await store.images.insert(image(other.id, 'zzz', '2026-01-05T00:00:00Z'));
      const page = await store.images.list(u.id, { limit: 2, offset: 0, sort: 'createdAt', order: 'desc' });
      expect(page.total).toBe(3);
      expect(page.items.map((i) => i.title)).toEqual(['beta', 'gamma']);
      expect(page.items[0]).toEqual(imgs[0]);
      expect(
        (await store.images.list(u.id, { limit: 2, offset: 2, sort: 'createdAt', order: 'desc' })).items.map(
          (i) => i.title,
        ),
      ).toEqual(['Alpha']);
      expect(
        (await store.images.list(u.id, { limit: 10, offset: 0, sort: 'title', order: 'asc' })).items.map(
          (i) => i.title,
        ),
      ).toEqual(['Alpha', 'beta', 'gamma']);
      expect(
        (await store.images.list(u.id, { limit: 10, offset: 0, sort: 'title', order: 'desc' })).items.map(
          (i) => i.title,
        ),
      ).toEqual(['gamma', 'beta', 'Alpha']);
      expect(
        (await store.images.list(u.id, { limit: 10, offset: 0, sort: 'createdAt', order: 'asc' })).items.map(
          (i) => i.title,
        ),
      ).toEqual(['Alpha', 'gamma', 'beta']);
      const keys: string[] = [];
      for await (const k of store.images.allBlobKeys()) keys.push(k);
      expect(keys).toEqual(expect.arrayContaining(imgs.flatMap((i) => [i.imageKey, i.thumbnailKey])));
      await store.close();
    });

    it('charges the quota atomically: with k units left, exactly k of 20 charges from 4 processes succeed', async () => {
      const store = await open();
      const userId = newId('usr');
      for (let i = 0; i < 3; i++)
        expect(await store.usage.tryCharge(userId, '2026-07', 5)).toBeTypeOf('string');
      const succeeded = await chargeFromProcesses({
        storage: storage(),
        userId,
        month: '2026-07',
        limit: 5,
        processes: 4,
        chargesEach: 5,
      });
      expect(succeeded).toBe(2);
      expect(await store.usage.get(userId, '2026-07')).toBe(5);
      await store.close();
    }, 60_000);

    it('charges the quota atomically within one process too: with k units left, exactly k of 20 concurrent charges succeed', async () => {
      const store = await open();
      const userId = newId('usr');
      for (let i = 0; i < 3; i++)
        expect(await store.usage.tryCharge(userId, '2026-07', 5)).toBeTypeOf('string');
      const results = await Promise.all(
        Array.from({ length: 20 }, () => store.usage.tryCharge(userId, '2026-07', 5)),
      );
      expect(results.filter((r) => r !== undefined)).toHaveLength(2);
      expect(await store.usage.get(userId, '2026-07')).toBe(5);
      expect(await store.usage.get(userId, '2026-08')).toBe(0);
      await store.close();
    });

    it('a refund gives back one unit, which can be charged again', async () => {
      const store = await open();
      const userId = newId('usr');
      const receipts = [];
      for (let i = 0; i < 3; i++) receipts.push(await store.usage.tryCharge(userId, '2026-07', 3));
      expect(await store.usage.tryCharge(userId, '2026-07', 3)).toBeUndefined();
      await store.usage.refund(userId, '2026-07', receipts[1] as string);
      expect(await store.usage.get(userId, '2026-07')).toBe(2);
      expect(await store.usage.tryCharge(userId, '2026-07', 3)).toBeTypeOf('string');
      expect(await store.usage.tryCharge(userId, '2026-07', 3)).toBeUndefined();
      expect(await store.usage.get(userId, '2026-07')).toBe(3);
      await store.close();
    });
  });
}
