/** The RecordStore contract, dashboard sessions. */
import { expect, it } from 'vitest';
import { newId } from '../../../../src/domain/kernel/ids.js';
import type { ContractContext } from './fixtures.js';

export function sessionsContract({ open }: ContractContext): void {
  it('keeps sessions by hash: last use only moves forward, sign-out of one or of all but one', async () => {
    const store = await open();
    const userId = newId('usr');
    const session = (n: number) => ({
      idHash: `${newId('tok')}${n}`,
      userId,
      createdAt: new Date('2026-05-01T00:00:00.000Z'),
      lastSeenAt: new Date('2026-05-01T00:00:00.000Z'),
      expiresAt: new Date('2026-05-31T00:00:00.000Z'),
    });
    const [s1, s2, s3] = [session(1), session(2), session(3)];
    for (const s of [s1, s2, s3]) await store.sessions.create(s);
    expect(await store.sessions.find(s1.idHash)).toEqual(s1);
    await store.sessions.touch(s1.idHash, new Date('2026-05-02T00:00:00.000Z'));
    await store.sessions.touch(s1.idHash, new Date('2026-05-01T12:00:00.000Z'));
    expect((await store.sessions.find(s1.idHash))?.lastSeenAt.toISOString()).toBe('2026-05-02T00:00:00.000Z');
    await store.sessions.delete(s3.idHash);
    expect(await store.sessions.find(s3.idHash)).toBeUndefined();
    await store.sessions.create(s3);
    await store.sessions.deleteAllForUser(userId, s2.idHash);
    expect(await store.sessions.find(s1.idHash)).toBeUndefined();
    expect(await store.sessions.find(s3.idHash)).toBeUndefined();
    expect(await store.sessions.find(s2.idHash)).toEqual(s2);
    await store.sessions.deleteAllForUser(userId);
    expect(await store.sessions.find(s2.idHash)).toBeUndefined();
    await store.close();
  });
}
