/** The RecordStore contract, the monthly quota: atomic charges and refunds. */
import { expect, it } from 'vitest';
import { newId } from '../../../../src/domain/kernel/ids.js';
import { chargeFromProcesses } from '../../../support/concurrent-charges.js';
import type { ContractContext } from './fixtures.js';

export function usageContract({ open, storage }: ContractContext): void {
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
}
