/**
 * Domain rules with in-memory adapters and a controllable clock: the quota period and its reset,
 * refunds when a write fails, token storage.
 */
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import {
  FileTooLargeError,
  InvalidCredentialsError,
  QuotaExceededError,
  TooManyAttemptsError,
} from '../../src/domain/kernel/errors.js';
import { hashToken } from '../../src/domain/kernel/ids.js';
import type { BlobStore, Clock } from '../../src/domain/kernel/ports.js';
import { createRenderer, type Renderer } from '../../src/domain/render/index.js';
import { generateOptionsSchema } from '../../src/domain/schemas.js';
import { createMemoryBlobStore } from '../../src/storage/memory.js';
import { openSqliteStore } from '../../src/storage/sqlite/index.js';
import { solid } from '../support/images.js';
import { testFonts, testServices } from '../support/server.js';

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
    layout: (options) => real.layout(options),
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

describe('dashboard sessions', () => {
  it('a session ends after 7 idle days, and after 30 days however active', async () => {
    const clock = fakeClock('2026-05-01T00:00:00Z');
    const { s } = services(clock);
    const first = await s.sessions.signUp({
      email: 'idle@example.com',
      displayName: 'I',
      password: 'long enough',
    });
    expect((await s.sessions.authenticate(first.secret))?.user.email).toBe('idle@example.com');
    clock.set('2026-05-07T23:59:00Z');
    expect(await s.sessions.authenticate(first.secret)).toBeDefined();
    clock.set('2026-05-14T23:59:00Z'); // more than 7 days since the last request
    expect(await s.sessions.authenticate(first.secret)).toBeUndefined();

    clock.set('2026-06-01T00:00:00Z');
    const active = await s.sessions.signIn(
      { email: 'idle@example.com', password: 'long enough' },
      '203.0.113.9',
    );
    for (let day = 1; day < 30; day++) {
      clock.set(new Date(Date.UTC(2026, 5, 1 + day)).toISOString());
      expect(await s.sessions.authenticate(active.secret), `day ${day}`).toBeDefined();
    }
    clock.set('2026-07-01T00:00:00Z'); // 30 days after sign-in
    expect(await s.sessions.authenticate(active.secret)).toBeUndefined();
  });

  it('failed sign-ins are throttled per address too: 20 failures over many accounts block the address', async () => {
    const { s } = services(fakeClock('2026-05-01T00:00:00Z'));
    const fails = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        s.sessions
          .signIn({ email: `spray${i}@example.com`, password: 'guess' }, '198.51.100.7')
          .catch((e: unknown) => e),
      ),
    );
    expect(fails.some((e) => e instanceof TooManyAttemptsError)).toBe(true);
    await expect(
      s.sessions.signIn({ email: 'fresh@example.com', password: 'guess' }, '198.51.100.7'),
    ).rejects.toBeInstanceOf(TooManyAttemptsError);
    await expect(
      s.sessions.signIn({ email: 'fresh@example.com', password: 'guess' }, '198.51.100.8'),
    ).rejects.toBeInstanceOf(InvalidCredentialsError);
  });

  it('previews are limited per account, use no quota and store nothing', async () => {
    const { s, blobs } = services(fakeClock('2026-05-01T00:00:00Z'));
    const { user, token } = await s.accounts.createUser({
      email: 'preview@example.com',
      displayName: 'P',
      tier: 'free',
    });
    const principal = await s.accounts.authenticate(`Bearer ${token.token}`);
    const read = async () => ({
      image: await solid([50, 80, 120], 'jpeg', 640, 400),
      options: { title: 'Preview' },
    });
    const preview = await s.images.preview(principal, read);
    expect(preview.contentType).toBe('image/jpeg');
    expect((await sharp(preview.body).metadata()).width).toBe(600);
    for (let i = 1; i < 60; i++)
      await s.images
        .preview(principal, async () => ({ image: Buffer.from('not read'), options: {} }))
        .catch(() => undefined);
    await expect(s.images.preview(principal, read)).rejects.toBeInstanceOf(TooManyAttemptsError);
    expect((await s.quota.usage(user)).usage.generated).toBe(0);
    const stored: string[] = [];
    for await (const { key } of blobs.list()) stored.push(key);
    expect(stored).toEqual([]);
  });
});

describe('lastUsedAt', () => {
  it('is written at most once a minute per token, and a failed write never fails the request', async () => {
    const clock = fakeClock('2026-05-01T00:00:00Z');
    const { s, store } = services(clock);
    const { token } = await s.accounts.createUser({
      email: 'touch@example.com',
      displayName: 'T',
      tier: 'pro',
    });
    const touches: Date[] = [];
    const touch = store.tokens.touch.bind(store.tokens);
    store.tokens.touch = async (id, at) => {
      touches.push(at);
      await touch(id, at);
    };
    for (const second of [0, 10, 59, 60, 61, 130]) {
      clock.set(new Date(Date.UTC(2026, 4, 1, 0, 0, second)).toISOString());
      await s.accounts.authenticate(`Bearer ${token.token}`);
    }
    expect(touches.map((d) => d.toISOString().slice(17, 19))).toEqual(['00', '00', '10']); // 00:00, 01:00, 02:10
    store.tokens.touch = () => Promise.reject(new Error('disk full'));
    clock.set('2026-05-01T00:10:00Z');
    await expect(s.accounts.authenticate(`Bearer ${token.token}`)).resolves.toMatchObject({
      tokenId: token.id,
    });
  });
});
