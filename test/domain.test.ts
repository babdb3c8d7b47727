/**
 * Domain rules with in-memory adapters and a controllable clock: the quota period and its reset,
 * refunds when a write fails, token storage.
 */
import { describe, expect, it } from 'vitest';
import { FileTooLargeError, QuotaExceededError } from '../src/domain/errors.js';
import { hashToken } from '../src/domain/ids.js';
import type { BlobStore, Clock } from '../src/domain/ports.js';
import { createRenderer, type Renderer } from '../src/domain/render/index.js';
import { generateOptionsSchema } from '../src/domain/schemas.js';
import { createMemoryBlobStore } from '../src/storage/memory.js';
import { openSqliteStore } from '../src/storage/sqlite.js';
import { solid } from './support/images.js';
import { testFonts, testServices } from './support/server.js';

function fakeClock(iso: string): Clock & { set(iso: string): void } {
  let now = new Date(iso);
  return { now: () => new Date(now), set: (s) => (now = new Date(s)) };
}

function services(clock: Clock, blobs: BlobStore = createMemoryBlobStore()) {
  const store = openSqliteStore(':memory:');
  const real = createRenderer(testFonts());
  const renders = { count: 0 };
  const renderer: Renderer = {
    load: () => real.load(),
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

describe('quota period', () => {
  it('the quota resets at the first instant of the next UTC month, and retryAfter counts down to it', async () => {
    const clock = fakeClock('2026-11-30T23:59:58.500Z');
    const { s } = services(clock);
    const { user } = await s.accounts.createUser({
      email: 'month@example.com',
      displayName: 'M',
      tier: 'free',
    });
    for (let i = 0; i < 10; i++) await s.quota.charge(user);
    const err = await s.quota.charge(user).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(QuotaExceededError);
    expect((err as QuotaExceededError).retryAfterSeconds).toBe(2);
    expect((err as QuotaExceededError).resetAt.toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(await s.quota.usage(user)).toEqual({
      period: { start: '2026-11-01T00:00:00.000Z', end: '2026-12-01T00:00:00.000Z' },
      usage: { generated: 10, limit: 10, remaining: 0, percentUsed: 100 },
      tier: 'free',
    });
    clock.set('2026-12-01T00:00:00.000Z');
    await expect(s.quota.charge(user)).resolves.toMatchObject({ userId: user.id, month: '2026-12' });
    expect((await s.quota.validation(user)).usage).toEqual({
      month: '2026-12',
      quota: 10,
      count: 1,
      remaining: 9,
    });
  });

  it('percentUsed has a decimal part', async () => {
    const { s } = services(fakeClock('2026-03-15T12:00:00Z'));
    const { user } = await s.accounts.createUser({
      email: 'pct@example.com',
      displayName: 'P',
      tier: 'agency',
    });
    for (let i = 0; i < 3; i++) await s.quota.charge(user);
    expect((await s.quota.usage(user)).usage.percentUsed).toBe(0.15);
  });
});

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
    const { s, blobs } = services(fakeClock('2026-05-05T00:00:00Z'), failing);
    const { user, token } = await s.accounts.createUser({
      email: 'fail@example.com',
      displayName: 'F',
      tier: 'pro',
    });
    const principal = await s.accounts.authenticate(`Bearer ${token.token}`);
    await expect(
      s.images.generate(principal, async () => ({
        image: await solid([1, 2, 3], 'jpeg', 300, 200),
        options: { title: 'Doomed' },
      })),
    ).rejects.toThrow('disk full');
    expect((await s.quota.usage(user)).usage.generated).toBe(0);
    expect((await s.images.list(principal, {})).pagination.total).toBe(0);
    const left: string[] = [];
    for await (const { key } of blobs.list()) left.push(key);
    expect(left).toEqual([]);
  });

  it('an invalid option is refused before rendering, and its reserved unit is refunded', async () => {
    const { s, renders } = services(fakeClock('2026-05-05T00:00:00Z'));
    const { user, token } = await s.accounts.createUser({
      email: 'bad@example.com',
      displayName: 'B',
      tier: 'pro',
    });
    const principal = await s.accounts.authenticate(`Bearer ${token.token}`);
    await expect(
      s.images.generate(principal, async () => ({
        image: Buffer.from('x'),
        options: { title: 'ok', aspect: 'cinema' },
      })),
    ).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      field: 'aspect',
      constraint: 'enum',
    });
    expect(renders.count).toBe(0);
    expect((await s.quota.usage(user)).usage.generated).toBe(0);
  });

  it('with the quota used up, a generation is refused before its request is read or rendered', async () => {
    const { s, renders } = services(fakeClock('2026-05-05T00:00:00Z'));
    const { user, token } = await s.accounts.createUser({
      email: 'spent@example.com',
      displayName: 'S',
      tier: 'free',
    });
    for (let i = 0; i < 10; i++) await s.quota.charge(user);
    const principal = await s.accounts.authenticate(`Bearer ${token.token}`);
    let reads = 0;
    await expect(
      s.images.generate(principal, async () => {
        reads++;
        return { image: await solid([1, 2, 3], 'jpeg', 300, 200), options: { title: 'Late' } };
      }),
    ).rejects.toBeInstanceOf(QuotaExceededError);
    expect(reads).toBe(0);
    expect(renders.count).toBe(0);
    expect((await s.quota.usage(user)).usage.generated).toBe(10);
  });

  it('a request that cannot be read (an upload refused midway) gives its reserved unit back', async () => {
    const { s } = services(fakeClock('2026-05-05T00:00:00Z'));
    const { user, token } = await s.accounts.createUser({
      email: 'midway@example.com',
      displayName: 'M',
      tier: 'free',
    });
    const principal = await s.accounts.authenticate(`Bearer ${token.token}`);
    await expect(
      s.images.generate(principal, () => Promise.reject(new FileTooLargeError(10))),
    ).rejects.toBeInstanceOf(FileTooLargeError);
    expect((await s.quota.usage(user)).usage.generated).toBe(0);
  });
});

describe('tokens', () => {
  it('only a SHA-256 hash of the secret is stored', async () => {
    const { s, store } = services(fakeClock('2026-05-05T00:00:00Z'));
    const { user, token } = await s.accounts.createUser({
      email: 'hash@example.com',
      displayName: 'H',
      tier: 'pro',
    });
    const stored = await store.tokens.listActive(user.id);
    expect(stored[0]?.tokenHash).toBe(hashToken(token.token));
    expect(JSON.stringify(stored)).not.toContain(token.token);
  });

  it('image URLs are built on the public URL', async () => {
    const { s } = services(fakeClock('2026-05-05T00:00:00Z'));
    const { token } = await s.accounts.createUser({
      email: 'url@example.com',
      displayName: 'U',
      tier: 'pro',
    });
    const principal = await s.accounts.authenticate(`Bearer ${token.token}`);
    const { image } = await s.images.generate(principal, async () => ({
      image: await solid([9, 9, 9], 'png', 300, 200),
      options: { title: 'Where' },
    }));
    expect(image.url).toMatch(/^https:\/\/cards\.example\.com\/files\/[0-9A-Za-z]{22}\.png$/);
    expect(image.thumbnailUrl).toMatch(/_thumb\.png$/);
    expect(image.createdAt).toBe('2026-05-05T00:00:00.000Z');
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
      expect(renderer.load()).toEqual({ active: 0, waiting: 0 });
    }
  });
});
