/**
 * Generation rules with in-memory adapters: nothing lost and nothing charged wrongly when a step
 * fails, and the renderer's bounded concurrency.
 */
import { describe, expect, it } from 'vitest';
import { FileTooLargeError, QuotaExceededError } from '../../src/domain/kernel/errors.js';
import type { BlobStore } from '../../src/domain/kernel/ports.js';
import { createRenderer, INITIAL_RENDER_MS } from '../../src/domain/render/index.js';
import { generateOptionsSchema } from '../../src/domain/images/schemas.js';
import { createMemoryBlobStore } from '../support/memory-blobs.js';
import { domainServices, fakeClock } from '../support/domain.js';
import { solid } from '../support/images.js';
import { testFonts, testServices } from '../support/server.js';
import { derivedId } from '../../src/domain/kernel/ids.js';
import { openSqliteStore } from '../../src/adapters/storage/sqlite/index.js';

describe('nothing lost, nothing charged wrongly', () => {
  it('when writing the file fails, no record is left and the quota is refunded', async () => {
    const memory = createMemoryBlobStore();
    let puts = 0;
    const failing: BlobStore = {
      ...memory,
      async put(key, body, type) {
        if (++puts === 2) throw new Error('disk full');
        await memory.put(key, body, type);
      },
    };
    const { s, blobs } = domainServices(fakeClock('2026-05-05T00:00:00Z'), failing);
    const { workspace, token } = await s.accounts.createUser({
      email: 'fail@example.com',
      displayName: 'F',
      tier: 'pro',
    });
    const principal = await s.accounts.authenticate(`Bearer ${token.token}`);
    await expect(
      s.generation.generate(principal, async () => ({
        image: await solid([1, 2, 3], 'jpeg', 300, 200),
        options: { title: 'Doomed' },
      })),
    ).rejects.toThrow('disk full');
    expect((await s.quota.usage(workspace)).usage.generated).toBe(0);
    expect((await s.images.list(principal, {})).pagination.total).toBe(0);
    const left: string[] = [];
    for await (const { key } of blobs.list()) left.push(key);
    expect(left).toEqual([]);
  });

  it('a generation that resumes after another process finished its job answers that image and leaves it charged (issue 44, item 4)', async () => {
    const clock = fakeClock('2026-05-05T00:00:00Z');
    const store = openSqliteStore(':memory:');
    // The first record insert waits (a worker frozen after its render) until the other has finished.
    let release: () => void = () => undefined;
    const frozen = new Promise<void>((resolve) => (release = resolve));
    let inserts = 0;
    const images = store.images;
    const s = testServices({
      store: {
        ...store,
        images: {
          ...images,
          insert: async (record) => {
            if (++inserts === 1) await frozen;
            return images.insert(record);
          },
        },
      },
      blobs: createMemoryBlobStore(),
      clock,
    });
    const { workspace, token } = await s.accounts.createUser({
      email: 'twice@example.com',
      displayName: 'T',
      tier: 'pro',
    });
    const asset = await s.assets.uploadImage(
      await s.accounts.authenticate(`Bearer ${token.token}`),
      await solid([9, 9, 9], 'jpeg', 300, 200),
      {},
      'a.jpg',
    );
    const item = {
      imageId: derivedId('img', 'bat_x:0'),
      chargeKey: 'bat_x:0',
      source: { batchId: 'bat_x', index: 0 },
    };
    const first = s.generation.generateItem(workspace, { asset: asset.id, title: 'Taken over' }, item);
    while (inserts === 0) await new Promise((r) => setTimeout(r, 5));
    const second = await s.generation.generateItem(workspace, { asset: asset.id, title: 'Taken over' }, item);
    release();
    expect((await first).image.id).toBe(second.image.id);
    expect((await s.quota.usage(workspace)).usage.generated).toBe(1);
    await s.close();
  });

  it('the charge sweep refunds an image charge whose process died before the record, and no other (issue 44)', async () => {
    const { s, store } = domainServices(fakeClock('2026-05-05T00:00:00Z'));
    const { user, workspace, token } = await s.accounts.createUser({
      email: 'sweep@example.com',
      displayName: 'S',
      tier: 'pro',
    });
    const principal = await s.accounts.authenticate(`Bearer ${token.token}`);
    const made = await s.generation.generate(principal, async () => ({
      image: await solid([1, 2, 3], 'jpeg', 300, 200),
      options: { title: 'Made' },
    }));
    // A generation whose process died after its charge: the key charged, no record.
    await s.ledger.charge(workspace, 'img:img_diedbeforeitsrecord0');
    expect((await s.quota.usage(workspace)).usage.generated).toBe(2);
    const window = { since: new Date(Date.now() - 3600_000), olderThan: new Date(Date.now() + 1000) };
    expect(await s.generation.sweepCharges({ ...window, dryRun: true })).toEqual([
      'img:img_diedbeforeitsrecord0',
    ]);
    expect((await s.quota.usage(workspace)).usage.generated).toBe(2);
    expect(await s.generation.sweepCharges(window)).toEqual(['img:img_diedbeforeitsrecord0']);
    expect((await s.quota.usage(workspace)).usage.generated).toBe(1);
    expect(await s.generation.sweepCharges(window)).toEqual([]);
    expect(await store.images.findById(user.id, made.image.id)).toBeDefined();
    // An image its user deleted keeps its unit (docs/api.md): its charge was settled when made.
    await s.images.delete(principal, made.image.id);
    expect(await s.generation.sweepCharges(window)).toEqual([]);
    expect((await s.quota.usage(workspace)).usage.generated).toBe(1);
    // Too young for the window: left alone.
    await s.ledger.charge(workspace, 'img:img_stillunderway0000000');
    expect(await s.generation.sweepCharges({ ...window, olderThan: new Date(Date.now() - 60_000) })).toEqual(
      [],
    );
  });

  it('an invalid option is refused before rendering, and its reserved unit is refunded', async () => {
    const { s, renders } = domainServices(fakeClock('2026-05-05T00:00:00Z'));
    const { workspace, token } = await s.accounts.createUser({
      email: 'bad@example.com',
      displayName: 'B',
      tier: 'pro',
    });
    const principal = await s.accounts.authenticate(`Bearer ${token.token}`);
    await expect(
      s.generation.generate(principal, async () => ({
        image: Buffer.from('x'),
        options: { title: 'ok', aspect: 'cinema' },
      })),
    ).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      field: 'aspect',
      constraint: 'enum',
    });
    expect(renders.count).toBe(0);
    expect((await s.quota.usage(workspace)).usage.generated).toBe(0);
  });

  it('with the quota used up, a generation is refused before its request is read or rendered', async () => {
    const { s, renders } = domainServices(fakeClock('2026-05-05T00:00:00Z'));
    const { workspace, token } = await s.accounts.createUser({
      email: 'spent@example.com',
      displayName: 'S',
      tier: 'free',
    });
    for (let i = 0; i < 10; i++) await s.ledger.charge(workspace);
    const principal = await s.accounts.authenticate(`Bearer ${token.token}`);
    let reads = 0;
    await expect(
      s.generation.generate(principal, async () => {
        reads++;
        return { image: await solid([1, 2, 3], 'jpeg', 300, 200), options: { title: 'Late' } };
      }),
    ).rejects.toBeInstanceOf(QuotaExceededError);
    expect(reads).toBe(0);
    expect(renders.count).toBe(0);
    expect((await s.quota.usage(workspace)).usage.generated).toBe(10);
  });

  it('a request that cannot be read (an upload refused midway) gives its reserved unit back', async () => {
    const { s } = domainServices(fakeClock('2026-05-05T00:00:00Z'));
    const { workspace, token } = await s.accounts.createUser({
      email: 'midway@example.com',
      displayName: 'M',
      tier: 'free',
    });
    const principal = await s.accounts.authenticate(`Bearer ${token.token}`);
    await expect(
      s.generation.generate(principal, () => Promise.reject(new FileTooLargeError(10))),
    ).rejects.toBeInstanceOf(FileTooLargeError);
    expect((await s.quota.usage(workspace)).usage.generated).toBe(0);
  });
});

describe('rendering under load', () => {
  /** The most renders whose spans overlap at one instant. */
  const peakOverlap = (spans: { start: number; end: number }[]) =>
    Math.max(...spans.map((a) => spans.filter((b) => b.start <= a.start && a.start < b.end).length));

  it('renders at most `concurrency` images at once, and that many really run side by side', async () => {
    const input = await solid([20, 40, 60], 'jpeg', 800, 500);
    const options = generateOptionsSchema.parse({ title: 'Queued' });
    for (const concurrency of [1, 2]) {
      const renderer = createRenderer(testFonts(), { concurrency });
      const results = await Promise.all([1, 2, 3, 4].map(() => renderer.render(input, options)));
      expect(results.every((r) => r.width === 1200)).toBe(true);
      expect(peakOverlap(results.map((r) => r.span)), `concurrency ${concurrency}`).toBe(concurrency);
      const load = renderer.load();
      expect(load).toMatchObject({ active: 0, waiting: 0, concurrency });
      // The mean render time an admission expects a wait by has moved from its guess to the renders'.
      const spans = results.map((r) => r.span.end - r.span.start);
      expect(load.meanRenderMs).not.toBe(INITIAL_RENDER_MS);
      expect(load.meanRenderMs).toBeGreaterThanOrEqual(Math.min(...spans, INITIAL_RENDER_MS));
      expect(load.meanRenderMs).toBeLessThanOrEqual(Math.max(...spans, INITIAL_RENDER_MS));
    }
  });
});
