/**
 * Account rules with in-memory adapters and a controllable clock: the quota period and its reset,
 * token storage and last use, dashboard sessions and sign-in throttling.
 */
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import {
  InvalidCredentialsError,
  QuotaExceededError,
  TooManyAttemptsError,
} from '../../src/domain/kernel/errors.js';
import { hashToken } from '../../src/domain/kernel/ids.js';
import { domainServices, fakeClock } from '../support/domain.js';
import { solid } from '../support/images.js';

describe('quota period', () => {
  it('the quota resets at the first instant of the next UTC month, and retryAfter counts down to it', async () => {
    const clock = fakeClock('2026-11-30T23:59:58.500Z');
    const { s } = domainServices(clock);
    const { user, workspace } = await s.accounts.createUser({
      email: 'month@example.com',
      displayName: 'M',
      tier: 'free',
    });
    for (let i = 0; i < 10; i++) await s.ledger.charge(workspace);
    const err = await s.ledger.charge(workspace).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(QuotaExceededError);
    expect((err as QuotaExceededError).retryAfterSeconds).toBe(2);
    expect((err as QuotaExceededError).resetAt.toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(await s.quota.usage(workspace)).toEqual({
      period: { start: '2026-11-01T00:00:00.000Z', end: '2026-12-01T00:00:00.000Z' },
      usage: { generated: 10, limit: 10, remaining: 0, percentUsed: 100 },
      tier: 'free',
    });
    clock.set('2026-12-01T00:00:00.000Z');
    await expect(s.ledger.charge(workspace)).resolves.toMatchObject({ userId: user.id, month: '2026-12' });
    expect((await s.quota.validation(await s.accounts.actAs(user.email))).usage).toEqual({
      month: '2026-12',
      quota: 10,
      count: 1,
      remaining: 9,
    });
  });

  it('percentUsed has a decimal part', async () => {
    const { s } = domainServices(fakeClock('2026-03-15T12:00:00Z'));
    const { workspace } = await s.accounts.createUser({
      email: 'pct@example.com',
      displayName: 'P',
      tier: 'agency',
    });
    for (let i = 0; i < 3; i++) await s.ledger.charge(workspace);
    expect((await s.quota.usage(workspace)).usage.percentUsed).toBe(0.15);
  });
});

describe('tokens', () => {
  it('only a SHA-256 hash of the secret is stored', async () => {
    const { s, store } = domainServices(fakeClock('2026-05-05T00:00:00Z'));
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
    const { s } = domainServices(fakeClock('2026-05-05T00:00:00Z'));
    const { token } = await s.accounts.createUser({
      email: 'url@example.com',
      displayName: 'U',
      tier: 'pro',
    });
    const principal = await s.accounts.authenticate(`Bearer ${token.token}`);
    const { image } = await s.generation.generate(principal, async () => ({
      image: await solid([9, 9, 9], 'png', 300, 200),
      options: { title: 'Where' },
    }));
    expect(image.url).toMatch(/^https:\/\/cards\.example\.com\/files\/[0-9A-Za-z]{22}\.png$/);
    expect(image.thumbnailUrl).toMatch(/_thumb\.png$/);
    expect(image.createdAt).toBe('2026-05-05T00:00:00.000Z');
  });
});

describe('dashboard sessions', () => {
  it('a session ends after 7 idle days, and after 30 days however active', async () => {
    const clock = fakeClock('2026-05-01T00:00:00Z');
    const { s } = domainServices(clock);
    await s.sessions.signUp({ email: 'idle@example.com', displayName: 'I', password: 'long enough' });
    const first = await s.sessions.signIn(
      { email: 'idle@example.com', password: 'long enough' },
      '203.0.113.9',
    );
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
    const { s } = domainServices(fakeClock('2026-05-01T00:00:00Z'));
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
    const { s, blobs } = domainServices(fakeClock('2026-05-01T00:00:00Z'));
    const { workspace, token } = await s.accounts.createUser({
      email: 'preview@example.com',
      displayName: 'P',
      tier: 'free',
    });
    const principal = await s.accounts.authenticate(`Bearer ${token.token}`);
    const read = async () => ({
      image: await solid([50, 80, 120], 'jpeg', 640, 400),
      options: { title: 'Preview' },
    });
    const preview = await s.previews.preview(principal, read);
    expect(preview.contentType).toBe('image/jpeg');
    expect((await sharp(preview.body).metadata()).width).toBe(600);
    for (let i = 1; i < 60; i++)
      await s.previews
        .preview(principal, async () => ({ image: Buffer.from('not read'), options: {} }))
        .catch(() => undefined);
    await expect(s.previews.preview(principal, read)).rejects.toBeInstanceOf(TooManyAttemptsError);
    expect((await s.quota.usage(workspace)).usage.generated).toBe(0);
    const stored: string[] = [];
    for await (const { key } of blobs.list()) stored.push(key);
    expect(stored).toEqual([]);
  });
});

describe('lastUsedAt', () => {
  it('is written at most once a minute per token, and a failed write never fails the request', async () => {
    const clock = fakeClock('2026-05-01T00:00:00Z');
    const { s, store } = domainServices(clock);
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
