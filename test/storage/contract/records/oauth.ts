/** The RecordStore contract, the authorization server's entries (oidc-provider's models, by hashed id). */
import { expect, it } from 'vitest';
import { newId } from '../../../../src/domain/kernel/ids.js';
import type { OAuthEntry } from '../../../../src/domain/kernel/records.js';
import type { ContractContext } from './fixtures.js';

export function oauthContract({ open }: ContractContext): void {
  it('keeps OAuth entries by model and key until they expire; finds a session by uid; marks one consumed; revokes by grant; lists and ends an account’s grants', async () => {
    const store = await open();
    const account = newId('usr');
    const other = newId('usr');
    const at = new Date('2026-07-01T10:00:00.000Z');
    const later = new Date('2026-07-01T11:00:00.000Z');
    const entry = (
      key: string,
      extra: Partial<OAuthEntry> = {},
    ): Omit<OAuthEntry, 'consumedAt' | 'lastUsedAt'> => ({
      key,
      payload: { iat: 1 },
      grantId: null,
      uid: null,
      accountId: null,
      clientId: null,
      expiresAt: new Date('2026-07-01T10:30:00.000Z'),
      ...extra,
    });

    // A client never expires; a token does; the same key in another model is another entry.
    await store.oauth.upsert('Client', entry('c1', { payload: { client_name: 'A' }, expiresAt: null }));
    await store.oauth.upsert('AccessToken', entry('c1', { grantId: 'g1', accountId: account }));
    expect((await store.oauth.find('Client', 'c1', later))?.payload).toEqual({ client_name: 'A' });
    expect((await store.oauth.find('AccessToken', 'c1', at))?.grantId).toBe('g1');
    expect(await store.oauth.find('AccessToken', 'c1', later)).toBeUndefined();

    // Sessions by uid.
    await store.oauth.upsert(
      'Session',
      entry('s1', { uid: 'u1', accountId: account, payload: { jti: 'sid' } }),
    );
    expect((await store.oauth.findByUid('Session', 'u1', at))?.payload).toEqual({ jti: 'sid' });
    expect(await store.oauth.findByUid('Session', 'u2', at)).toBeUndefined();

    // Consumed: kept, marked; an upsert replaces the entry.
    await store.oauth.upsert('RefreshToken', entry('r1', { grantId: 'g1', accountId: account }));
    // One use only, even when two come at once.
    const uses = await Promise.all([
      store.oauth.consume('RefreshToken', 'r1', at),
      store.oauth.consume('RefreshToken', 'r1', at),
    ]);
    expect(uses.sort()).toEqual([false, true]);
    expect(await store.oauth.consume('RefreshToken', 'r1', later)).toBe(false);
    expect(await store.oauth.consume('RefreshToken', 'unknown', at)).toBe(false);
    expect((await store.oauth.find('RefreshToken', 'r1', at))?.consumedAt).toEqual(at);
    await store.oauth.destroy('RefreshToken', 'r1');
    expect(await store.oauth.find('RefreshToken', 'r1', at)).toBeUndefined();

    // Grants of an account, newest first; touched; revoked with everything under them.
    const grant = (key: string, grantId: string, clientId: string, iat: number, accountId = account) =>
      entry(key, { grantId, clientId, accountId, payload: { iat }, expiresAt: null });
    await store.oauth.upsert('Grant', grant('k1', 'g1', 'client-a', 100));
    await store.oauth.upsert('Grant', grant('k2', 'g2', 'client-b', 200));
    await store.oauth.upsert('Grant', grant('k3', 'g3', 'client-a', 300, other));
    await store.oauth.upsert('AccessToken', entry('a2', { grantId: 'g2', accountId: account }));
    expect((await store.oauth.grantsOf(account, at)).map((g) => g.key)).toEqual(['k2', 'k1']);
    await store.oauth.touchGrant('k1', later);
    await store.oauth.touchGrant('k1', at);
    expect((await store.oauth.find('Grant', 'k1', at))?.lastUsedAt).toEqual(later);

    await store.oauth.revokeByGrantId('g2');
    expect(await store.oauth.find('AccessToken', 'a2', at)).toBeUndefined();
    expect(await store.oauth.find('Grant', 'k2', at)).toBeUndefined();

    // Ending: one client's, then all (with the account's sessions); another account's stay.
    await store.oauth.upsert('Grant', grant('k4', 'g4', 'client-b', 400));
    expect(await store.oauth.endGrants(account, 'client-a')).toBe(1);
    expect(await store.oauth.find('AccessToken', 'c1', at)).toBeUndefined();
    expect((await store.oauth.grantsOf(account, at)).map((g) => g.key)).toEqual(['k4']);
    expect(await store.oauth.endGrants(account)).toBe(1);
    expect(await store.oauth.grantsOf(account, at)).toEqual([]);
    expect(await store.oauth.findByUid('Session', 'u1', at)).toBeUndefined();
    expect((await store.oauth.grantsOf(other, at)).map((g) => g.key)).toEqual(['k3']);
    expect(await store.oauth.find('Client', 'c1', at)).toBeDefined();
    await store.close();
  });
}
