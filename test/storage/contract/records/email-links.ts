/** The RecordStore contract, emailed single-use links. */
import { expect, it } from 'vitest';
import { newId } from '../../../../src/domain/kernel/ids.js';
import type { ContractContext } from './fixtures.js';

export function emailLinksContract({ open }: ContractContext): void {
  it('uses up an email link once: not after expiry, not for another purpose, one of two concurrent uses', async () => {
    const store = await open();
    const userId = newId('usr');
    const link = (purpose: 'verify-email' | 'reset-password', expires: string) => ({
      idHash: newId('tok'),
      userId,
      purpose,
      email: 'link@example.com',
      createdAt: new Date('2026-05-01T00:00:00.000Z'),
      expiresAt: new Date(expires),
    });
    const at = new Date('2026-05-01T10:00:00.000Z');
    const reset = link('reset-password', '2026-05-01T11:00:00.000Z');
    const expired = link('reset-password', '2026-05-01T09:59:59.999Z');
    const verify = link('verify-email', '2026-05-02T00:00:00.000Z');
    for (const l of [reset, expired, verify]) await store.links.create(l);
    expect(await store.links.consume(reset.idHash, 'verify-email', at)).toBeUndefined();
    expect(await store.links.consume(expired.idHash, 'reset-password', at)).toBeUndefined();
    const both = await Promise.all([
      store.links.consume(reset.idHash, 'reset-password', at),
      store.links.consume(reset.idHash, 'reset-password', at),
    ]);
    expect(both.filter(Boolean)).toEqual([reset]);
    await store.links.deleteAllForUser(userId, 'reset-password');
    expect(await store.links.consume(verify.idHash, 'verify-email', at)).toEqual(verify);
    await store.close();
  });
}
