/** The RecordStore contract, OAuth clients, grants, codes and tokens. */
import { expect, it } from 'vitest';
import { newId } from '../../../../src/domain/kernel/ids.js';
import type { ContractContext } from './fixtures.js';

export function oauthContract({ open }: ContractContext): void {
  it('keeps OAuth clients, grants, codes and tokens: newest grants first, revocation by client or grant, one use of a code or token even when concurrent, deletion per user', async () => {
    const store = await open();
    const userId = newId('usr');
    const other = newId('usr');
    const at = new Date('2026-07-01T10:00:00.000Z');
    const later = new Date('2026-07-01T11:00:00.000Z');
    const registration = {
      client_id: 'client-a',
      redirect_uris: ['https://a.example/cb'],
      client_name: 'A',
    };
    await store.oauth.createClient({
      id: 'client-a',
      name: 'A',
      redirectUris: ['https://a.example/cb'],
      registration,
      createdAt: at,
    });
    expect(await store.oauth.findClient('client-a')).toEqual({
      id: 'client-a',
      name: 'A',
      redirectUris: ['https://a.example/cb'],
      registration,
      createdAt: at,
    });
    expect(await store.oauth.findClient('client-b')).toBeUndefined();

    const grant = (id: string, clientId: string, createdAt: Date, owner = userId) => ({
      id,
      userId: owner,
      clientId,
      scopes: ['mcp'],
      resource: 'https://t.example/mcp',
      createdAt,
      lastUsedAt: null,
      revokedAt: null,
    });
    await store.oauth.createGrant(grant('grt_1', 'client-a', at));
    await store.oauth.createGrant(grant('grt_2', 'client-b', later));
    await store.oauth.createGrant(grant('grt_3', 'client-a', later, other));
    expect((await store.oauth.listActiveGrants(userId)).map((g) => g.id)).toEqual(['grt_2', 'grt_1']);
    await store.oauth.touchGrant('grt_1', later);
    await store.oauth.touchGrant('grt_1', at);
    expect((await store.oauth.findGrant('grt_1'))?.lastUsedAt).toEqual(later);
    expect(await store.oauth.revokeGrants(userId, { clientId: 'client-a' }, later)).toBe(1);
    expect(await store.oauth.revokeGrants(userId, { clientId: 'client-a' }, later)).toBe(0);
    expect((await store.oauth.findGrant('grt_1'))?.revokedAt).toEqual(later);
    expect((await store.oauth.listActiveGrants(userId)).map((g) => g.id)).toEqual(['grt_2']);
    expect((await store.oauth.findGrant('grt_3'))?.revokedAt).toBeNull();

    const code = {
      codeHash: newId('tok'),
      grantId: 'grt_4',
      clientId: 'client-a',
      userId,
      codeChallenge: 'challenge',
      redirectUri: 'https://a.example/cb',
      resource: 'https://t.example/mcp',
      scopes: ['mcp'],
      createdAt: at,
      expiresAt: later,
      usedAt: null,
    };
    await store.oauth.createCode(code);
    expect(await store.oauth.findCode(code.codeHash)).toEqual(code);
    const uses = await Promise.all([
      store.oauth.useCode(code.codeHash, later),
      store.oauth.useCode(code.codeHash, later),
    ]);
    expect(uses.filter(Boolean)).toHaveLength(1);
    expect((await store.oauth.findCode(code.codeHash))?.usedAt).toEqual(later);
    expect(await store.oauth.useCode(newId('tok'), later)).toBe(false);

    const token = {
      tokenHash: newId('tok'),
      kind: 'refresh' as const,
      grantId: 'grt_2',
      clientId: 'client-b',
      userId,
      createdAt: at,
      expiresAt: later,
      endedAt: null,
    };
    await store.oauth.createToken(token);
    expect(await store.oauth.findToken(token.tokenHash)).toEqual(token);
    const ends = await Promise.all([
      store.oauth.endToken(token.tokenHash, later),
      store.oauth.endToken(token.tokenHash, later),
    ]);
    expect(ends.filter(Boolean)).toHaveLength(1);
    expect((await store.oauth.findToken(token.tokenHash))?.endedAt).toEqual(later);

    expect(await store.oauth.revokeGrants(userId, {}, later)).toBe(1);
    await store.oauth.deleteAllForUser(userId);
    expect(await store.oauth.findGrant('grt_2')).toBeUndefined();
    expect(await store.oauth.findCode(code.codeHash)).toBeUndefined();
    expect(await store.oauth.findToken(token.tokenHash)).toBeUndefined();
    expect(await store.oauth.findGrant('grt_3')).toBeDefined();
    expect(await store.oauth.findClient('client-a')).toBeDefined();
    await store.close();
  });
}
