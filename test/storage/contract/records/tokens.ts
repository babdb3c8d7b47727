/** The RecordStore contract, API tokens: the cap, lookup by hash, revocation, last use. */
import { expect, it } from 'vitest';
import type { ApiToken } from '../../../../src/domain/kernel/records.js';
import { user, token, type ContractContext } from './fixtures.js';

export function tokensContract({ open, email }: ContractContext): void {
  it('caps active tokens atomically: with room for k, exactly k of many concurrent creations succeed', async () => {
    const store = await open();
    const u = user(email());
    await store.users.create(u);
    await store.tokens.create(token(u.id, '2026-01-01T00:00:00Z'));
    const tries = Array.from({ length: 12 }, (_, i) =>
      token(u.id, `2026-01-02T00:00:${String(i).padStart(2, '0')}Z`),
    );
    const made = await Promise.all(tries.map((t) => store.tokens.createWithinLimit(t, 4)));
    expect(made.filter(Boolean)).toHaveLength(3);
    expect(await store.tokens.countActive(u.id)).toBe(4);
    const created = tries.filter((_, i) => made[i]);
    expect(await store.tokens.revoke(u.id, (created[0] as ApiToken).id, new Date())).toBe(true);
    expect(await store.tokens.createWithinLimit(token(u.id, '2026-01-03T00:00:00Z'), 4)).toBe(true);
    expect(await store.tokens.createWithinLimit(token(u.id, '2026-01-03T00:00:01Z'), 4)).toBe(false);
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
    await store.tokens.touch(t1.id, new Date('2026-02-01T00:00:00Z')); // a late write never goes back
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
}
