/** The RecordStore contract, Idempotency-Key records. */
import { expect, it } from 'vitest';
import { newId } from '../../../../src/domain/kernel/ids.js';
import type { ContractContext } from './fixtures.js';

export function idempotencyContract({ open }: ContractContext): void {
  it('claims an idempotency key once: in flight, done with its answer, another request, expiry; one of two concurrent claims', async () => {
    const store = await open();
    const userId = newId('usr');
    const at = new Date('2026-06-01T00:00:00.000Z');
    const later = new Date('2026-06-02T00:00:00.000Z');
    expect(await store.idempotency.begin(userId, 'k1', 'fp', at, later)).toEqual({ state: 'started' });
    expect(await store.idempotency.begin(userId, 'k1', 'fp', at, later)).toEqual({ state: 'in-flight' });
    expect(await store.idempotency.begin(userId, 'k1', 'other', at, later)).toEqual({ state: 'mismatch' });
    expect(await store.idempotency.begin(newId('usr'), 'k1', 'other', at, later)).toEqual({
      state: 'started',
    });
    const response = { status: 201, body: '{"success":true}', headers: { 'X-A': 'b' } };
    await store.idempotency.complete(userId, 'k1', response);
    expect(await store.idempotency.begin(userId, 'k1', 'fp', at, later)).toEqual({
      state: 'done',
      response,
    });
    expect(
      await store.idempotency.begin(userId, 'k1', 'fp', later, new Date('2026-06-03T00:00:00Z')),
    ).toEqual({
      state: 'started',
    });
    await store.idempotency.abandon(userId, 'k1');
    const both = await Promise.all([
      store.idempotency.begin(userId, 'k2', 'fp', at, later),
      store.idempotency.begin(userId, 'k2', 'fp', at, later),
    ]);
    expect(both.map((b) => b.state).sort()).toEqual(['in-flight', 'started']);
    await store.close();
  });
}
