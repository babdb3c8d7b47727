/** The RecordStore contract, users: create, find, update, delete. */
import { expect, it } from 'vitest';
import { ValidationError } from '../../../../src/domain/kernel/errors.js';
import { user, token, image, type ContractContext } from './fixtures.js';

export function usersContract({ open, email }: ContractContext): void {
  it('stores users, finds them by id and by email case-insensitively, and refuses a taken email', async () => {
    const store = await open();
    const u = user(email());
    await store.users.create(u);
    expect(await store.users.findById(u.id)).toEqual(u);
    expect(await store.users.findByEmail(u.email.toUpperCase())).toEqual(u);
    await expect(store.users.create({ ...user(u.email.toUpperCase()) })).rejects.toBeInstanceOf(
      ValidationError,
    );
    await store.close();
  });

  it('updates a user (and refuses a taken email), deletes one with its tokens and images', async () => {
    const store = await open();
    const u = user(email());
    const other = user(email());
    await store.users.create(u);
    await store.users.create(other);
    const verified = new Date('2026-03-04T05:06:07.000Z');
    expect(
      await store.users.update(u.id, {
        displayName: 'Renamed',
        passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$x$y',
        emailVerifiedAt: verified,
      }),
    ).toBe(true);
    expect(await store.users.findById(u.id)).toEqual({
      ...u,
      displayName: 'Renamed',
      passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$x$y',
      emailVerifiedAt: verified,
    });
    const newEmail = email();
    expect(await store.users.update(u.id, { email: newEmail, emailVerifiedAt: null })).toBe(true);
    expect((await store.users.findByEmail(newEmail.toUpperCase()))?.id).toBe(u.id);
    expect(await store.users.findByEmail(u.email)).toBeUndefined();
    await expect(store.users.update(u.id, { email: other.email.toUpperCase() })).rejects.toBeInstanceOf(
      ValidationError,
    );
    expect(await store.users.update('usr_missing', { displayName: 'x' })).toBe(false);

    await store.tokens.create(token(u.id, '2026-01-01T00:00:00Z'));
    const kept = token(other.id, '2026-01-01T00:00:00Z');
    await store.tokens.create(kept);
    const imgs = [image(u.id, 'a', '2026-01-01T00:00:00Z'), image(u.id, 'b', '2026-01-02T00:00:00Z')];
    for (const i of imgs) await store.images.insert(i);
    await store.images.insert(image(other.id, 'c', '2026-01-01T00:00:00Z'));
    await store.tokens.deleteAllForUser(u.id);
    const deleted = await store.images.deleteAllForUser(u.id);
    expect(deleted.map((i) => i.id).sort()).toEqual(imgs.map((i) => i.id).sort());
    await store.users.delete(u.id);
    expect(await store.users.findById(u.id)).toBeUndefined();
    expect(await store.tokens.listActive(u.id)).toEqual([]);
    expect(
      (await store.images.list(u.id, { limit: 10, offset: 0, sort: 'createdAt', order: 'desc' })).total,
    ).toBe(0);
    expect(await store.tokens.findActiveByHash(kept.tokenHash)).toEqual(kept);
    expect(
      (await store.images.list(other.id, { limit: 10, offset: 0, sort: 'createdAt', order: 'desc' })).total,
    ).toBe(1);
    await store.close();
  });
}
