/** The RecordStore contract, Idempotency-Key records. */
import { expect, it } from 'vitest';
import { newId } from '../../../../src/domain/kernel/ids.js';
import type { ContractContext } from './fixtures.js';

export function idempotencyContract({ open }: ContractContext): void {
  it('claims an idempotency key once: in flight, done with its answer, another request, expiry; one of two concurrent claims', async () => {
    const store = await open();
    const userId = newId('usr');
    const at = new Date('2026-06-01T00:00:00.000Z');
    const lease = new Date('2026-06-01T00:00:15.000Z');
    const later = new Date('2026-06-02T00:00:00.000Z');
    expect(await store.idempotency.begin(userId, 'k1', 'fp', at, later, lease)).toEqual({
      state: 'started',
      startedAt: at,
    });
    expect(await store.idempotency.begin(userId, 'k1', 'fp', at, later, lease)).toEqual({
      state: 'in-flight',
    });
    expect(await store.idempotency.begin(userId, 'k1', 'other', at, later, lease)).toEqual({
      state: 'mismatch',
    });
    expect(await store.idempotency.begin(newId('usr'), 'k1', 'other', at, later, lease)).toEqual({
      state: 'started',
      startedAt: at,
    });
    const response = { status: 201, body: '{"success":true}', headers: { 'X-A': 'b' } };
    await store.idempotency.complete(userId, 'k1', response);
    expect(await store.idempotency.begin(userId, 'k1', 'fp', at, later, lease)).toEqual({
      state: 'done',
      response,
    });
    expect(
      await store.idempotency.begin(userId, 'k1', 'fp', later, new Date('2026-06-03T00:00:00Z'), later),
    ).toEqual({ state: 'started', startedAt: later });
    await store.idempotency.abandon(userId, 'k1');
    const both = await Promise.all([
      store.idempotency.begin(userId, 'k2', 'fp', at, later, lease),
      store.idempotency.begin(userId, 'k2', 'fp', at, later, lease),
    ]);
    expect(both.map((b) => b.state).sort()).toEqual(['in-flight', 'started']);
    await store.close();
  });

  it('a key whose holder stopped renewing its lease is taken over with the first start; a renewed one is not (issue 44)', async () => {
    const store = await open();
    const userId = newId('usr');
    const t = (s: number) => new Date(Date.UTC(2026, 5, 1, 0, 0, s));
    const expires = new Date('2026-06-02T00:00:00.000Z');
    expect(await store.idempotency.begin(userId, 'k', 'fp', t(0), expires, t(15))).toEqual({
      state: 'started',
      startedAt: t(0),
    });
    await store.idempotency.renew(userId, 'k', t(25));
    expect(await store.idempotency.begin(userId, 'k', 'fp', t(20), expires, t(35))).toEqual({
      state: 'in-flight',
    });
    // The holder died: nothing renews past 25 s.
    expect(await store.idempotency.begin(userId, 'k', 'fp', t(26), expires, t(41))).toEqual({
      state: 'started',
      startedAt: t(0),
    });
    expect(await store.idempotency.begin(userId, 'k', 'fp', t(30), expires, t(45))).toEqual({
      state: 'in-flight',
    });
    expect(await store.idempotency.begin(userId, 'k', 'other', t(40), expires, t(55))).toEqual({
      state: 'mismatch',
    });
    // Failed (abandoned): the same request takes it over with its first start, at once.
    await store.idempotency.abandon(userId, 'k');
    expect(await store.idempotency.begin(userId, 'k', 'fp', t(42), expires, t(57))).toEqual({
      state: 'started',
      startedAt: t(0),
    });
    // Failed again, then another request with the key: it starts anew.
    await store.idempotency.abandon(userId, 'k');
    expect(await store.idempotency.begin(userId, 'k', 'other', t(44), expires, t(59))).toEqual({
      state: 'started',
      startedAt: t(44),
    });
    expect(await store.idempotency.begin(userId, 'k', 'fp', t(45), expires, t(60))).toEqual({
      state: 'mismatch',
    });
    await store.close();
  });
}
