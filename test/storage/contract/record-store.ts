/**
 * The contract of the RecordStore port (src/domain/kernel/ports.ts). Every adapter runs this same suite;
 * an adapter that passes it is done.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/domain/kernel/errors.js';
import { newId } from '../../../src/domain/kernel/ids.js';
import type { ApiToken, ImageRecord, User } from '../../../src/domain/kernel/records.js';
import type { RecordStore } from '../../../src/domain/kernel/ports.js';
import type { StorageConfig } from '../../../src/storage/index.js';
import { chargeFromProcesses } from '../../support/concurrent-charges.js';

const user = (email: string): User => ({
  id: newId('usr'),
  email,
  displayName: 'Contract',
  tier: 'pro',
  createdAt: new Date('2026-01-02T03:04:05.678Z'),
  passwordHash: null,
  emailVerifiedAt: null,
});
const token = (userId: string, at: string): ApiToken => ({
  id: newId('tok'),
  userId,
  name: 'n',
  tokenHash: newId('tok'),
  createdAt: new Date(at),
  lastUsedAt: null,
  revokedAt: null,
});
const image = (userId: string, title: string, at: string): ImageRecord => ({
  id: newId('img'),
  userId,
  title,
  subtitle: null,
  width: 1200,
  height: 630,
  format: 'png',
  imageKey: `${newId('img').slice(4)}.png`,
  thumbnailKey: `${newId('img').slice(4)}_thumb.png`,
  createdAt: new Date(at),
});

/**
 * `open` opens the adapter in this process; `storage()` is the store `open` opened last, as
 * configuration, for other processes to open it too (the concurrency checks).
 */
export function recordStoreContract(
  name: string,
  open: () => Promise<RecordStore>,
  storage: () => StorageConfig,
): void {
  describe(`RecordStore contract: ${name}`, () => {
    let n = 0;
    const email = () => `c${++n}-${Date.now()}@example.com`;

    it('stores users, finds them by id and by email case-insensitively, and refuses a taken email', async () => {
      const store = await open();
      const u = user(email());
      await store.users.create(u);
      expect(await store.users.findById(u.id)).toEqual(u);
      expect(await store.users.findByEmail(u.email.toUpperCase())).toEqual(u);
      await expect(store.users.create({ ...user(u.email.toUpperCase()) })).rejects.toBeInstanceOf(
        ValidationError,
      );
      expect(await store.users.setTier(u.id, 'agency')).toBe(true);
      expect((await store.users.findById(u.id))?.tier).toBe('agency');
      expect(await store.users.setTier('usr_missing', 'free')).toBe(false);
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

    it("finds and deletes one image of its owner only, and counts a user's images per UTC day", async () => {
      const store = await open();
      const u = user(email());
      const other = user(email());
      await store.users.create(u);
      await store.users.create(other);
      const a = image(u.id, 'a', '2026-11-01T00:00:00.000Z');
      const b = image(u.id, 'b', '2026-11-01T23:59:59.999Z');
      const c = image(u.id, 'c', '2026-11-03T12:00:00.000Z');
      const outside = image(u.id, 'd', '2026-12-01T00:00:00.000Z');
      for (const i of [a, b, c, outside, image(other.id, 'e', '2026-11-02T00:00:00Z')])
        await store.images.insert(i);
      expect(await store.images.findById(u.id, a.id)).toEqual(a);
      expect(await store.images.findById(other.id, a.id)).toBeUndefined();
      expect(
        await store.images.countByDay(
          u.id,
          new Date('2026-11-01T00:00:00Z'),
          new Date('2026-12-01T00:00:00Z'),
        ),
      ).toEqual({ '2026-11-01': 2, '2026-11-03': 1 });
      expect(await store.images.delete(other.id, a.id)).toBeUndefined();
      expect(await store.images.delete(u.id, a.id)).toEqual(a);
      expect(await store.images.delete(u.id, a.id)).toBeUndefined();
      expect(await store.images.findById(u.id, a.id)).toBeUndefined();
      await store.close();
    });

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
      expect((await store.sessions.find(s1.idHash))?.lastSeenAt.toISOString()).toBe(
        '2026-05-02T00:00:00.000Z',
      );
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

    it('keeps uploads, presets and signing keys per user: presets list newest first, an edit adds one to the version, in-use counts see background, logo and font', async () => {
      const store = await open();
      const userId = newId('usr');
      const at = new Date('2026-08-01T10:00:00.000Z');
      const later = new Date('2026-08-01T11:00:00.000Z');
      const asset = (id: string, kind: 'background' | 'logo' | 'font', createdAt: Date) => ({
        id,
        userId,
        kind,
        name: id,
        format: kind === 'font' ? ('ttf' as const) : ('png' as const),
        width: kind === 'font' ? 0 : 10,
        height: kind === 'font' ? 0 : 10,
        bytes: 100,
        sha256: 'ab'.repeat(32),
        blobKey: `${newId('img').slice(4)}_asset.png`,
        createdAt,
      });
      const bg = asset(newId('ast'), 'background', at);
      const logo = asset(newId('ast'), 'logo', later);
      const font = asset(newId('fnt'), 'font', later);
      for (const a of [bg, logo, font]) await store.assets.create(a);
      expect(await store.assets.find(userId, bg.id)).toEqual(bg);
      expect(await store.assets.find(newId('usr'), bg.id)).toBeUndefined();
      expect((await store.assets.list(userId, ['background', 'logo'])).map((a) => a.id)).toEqual([
        logo.id,
        bg.id,
      ]);
      expect((await store.assets.list(userId, ['font'])).map((a) => a.id)).toEqual([font.id]);

      const preset = {
        id: newId('pre'),
        userId,
        name: 'P',
        version: 1,
        options: { template: 'left', font: { custom: font.id } },
        backgroundAssetId: bg.id,
        logo: { assetId: logo.id, corner: 'top-right' as const, size: 0.15 },
        fontId: font.id,
        createdAt: at,
        updatedAt: at,
      };
      await store.presets.create(preset);
      expect(await store.presets.find(userId, preset.id)).toEqual(preset);
      for (const a of [bg, logo, font]) expect(await store.presets.countUsing(userId, a.id)).toBe(1);
      const updated = await store.presets.update(userId, preset.id, {
        name: 'Q',
        options: { aspect: 'square' },
        backgroundAssetId: null,
        logo: null,
        fontId: null,
        updatedAt: later,
      });
      expect(updated).toMatchObject({ name: 'Q', version: 2, options: { aspect: 'square' }, logo: null });
      for (const a of [bg, logo, font]) expect(await store.presets.countUsing(userId, a.id)).toBe(0);
      expect(
        await store.presets.update(newId('usr'), preset.id, { ...updated!, updatedAt: later }),
      ).toBeUndefined();
      expect(await store.assets.delete(userId, bg.id)).toEqual(bg);
      expect(await store.assets.delete(userId, bg.id)).toBeUndefined();
      expect(await store.presets.delete(userId, preset.id)).toBe(true);
      expect(await store.presets.list(userId)).toEqual([]);

      const key = {
        id: newId('key'),
        userId,
        name: 'k',
        sealedSecret: 'v1.a.b.c',
        createdAt: at,
        revokedAt: null,
      };
      await store.signingKeys.create(key);
      expect(await store.signingKeys.find(key.id)).toEqual(key);
      expect((await store.signingKeys.listActive(userId)).map((k) => k.id)).toEqual([key.id]);
      expect(await store.signingKeys.revoke(userId, key.id, later)).toBe(true);
      expect(await store.signingKeys.revoke(userId, key.id, later)).toBe(false);
      expect((await store.signingKeys.find(key.id))?.revokedAt).toEqual(later);
      expect(await store.signingKeys.listActive(userId)).toEqual([]);
      expect((await store.assets.deleteAllForUser(userId)).map((a) => a.id).sort()).toEqual(
        [logo.id, font.id].sort(),
      );
      await store.close();
    });

    it('claims a render once: of concurrent claims exactly one wins, the others see it rendering, then done; a stale claim is taken over; a released one can be claimed again', async () => {
      const store = await open();
      const userId = newId('usr');
      const hash = createHash('sha256').update(newId('img')).digest('hex');
      const at = new Date('2026-09-01T10:00:00.000Z');
      const stale = new Date(at.getTime() - 60_000);
      const claims = await Promise.all(
        Array.from({ length: 6 }, () => store.renders.claim(hash, userId, at, stale)),
      );
      expect(claims.map((c) => c.state).sort()).toEqual([
        'claimed',
        'rendering',
        'rendering',
        'rendering',
        'rendering',
        'rendering',
      ]);
      // Taken over once the claim is older than staleBefore.
      const later = new Date(at.getTime() + 120_000);
      expect((await store.renders.claim(hash, userId, later, new Date(later.getTime() - 60_000))).state).toBe(
        'claimed',
      );
      await store.renders.complete(hash, `r${hash}.png`, 'image/png');
      const done = await store.renders.claim(hash, userId, later, stale);
      expect(done).toMatchObject({
        state: 'done',
        entry: { hash, blobKey: `r${hash}.png`, contentType: 'image/png' },
      });
      expect(await store.renders.find(hash)).toMatchObject({ state: 'done' });
      await store.renders.release(hash);
      expect(await store.renders.find(hash)).toMatchObject({ state: 'done' });

      const other = createHash('sha256').update(newId('img')).digest('hex');
      expect((await store.renders.claim(other, userId, at, stale)).state).toBe('claimed');
      await store.renders.release(other);
      expect(await store.renders.find(other)).toBeUndefined();
      expect((await store.renders.claim(other, userId, at, stale)).state).toBe('claimed');
      expect((await store.renders.deleteAllForUser(userId)).map((e) => e.hash).sort()).toEqual(
        [hash, other].sort(),
      );
      await store.close();
    });

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

    it("lists a user's images by page, sorted by createdAt or title (case-insensitive), ties by id", async () => {
      const store = await open();
      const u = user(email());
      const other = user(email());
      await store.users.create(u);
      await store.users.create(other);
      const imgs = [
        image(u.id, 'beta', '2026-01-03T00:00:00Z'),
        image(u.id, 'Alpha', '2026-01-01T00:00:00Z'),
        image(u.id, 'gamma', '2026-01-02T00:00:00Z'),
      ];
      for (const i of imgs) await store.images.insert(i);
      await store.images.insert(image(other.id, 'zzz', '2026-01-05T00:00:00Z'));
      const page = await store.images.list(u.id, { limit: 2, offset: 0, sort: 'createdAt', order: 'desc' });
      expect(page.total).toBe(3);
      expect(page.items.map((i) => i.title)).toEqual(['beta', 'gamma']);
      expect(page.items[0]).toEqual(imgs[0]);
      expect(
        (await store.images.list(u.id, { limit: 2, offset: 2, sort: 'createdAt', order: 'desc' })).items.map(
          (i) => i.title,
        ),
      ).toEqual(['Alpha']);
      expect(
        (await store.images.list(u.id, { limit: 10, offset: 0, sort: 'title', order: 'asc' })).items.map(
          (i) => i.title,
        ),
      ).toEqual(['Alpha', 'beta', 'gamma']);
      expect(
        (await store.images.list(u.id, { limit: 10, offset: 0, sort: 'title', order: 'desc' })).items.map(
          (i) => i.title,
        ),
      ).toEqual(['gamma', 'beta', 'Alpha']);
      expect(
        (await store.images.list(u.id, { limit: 10, offset: 0, sort: 'createdAt', order: 'asc' })).items.map(
          (i) => i.title,
        ),
      ).toEqual(['Alpha', 'gamma', 'beta']);
      const keys: string[] = [];
      for await (const k of store.images.allBlobKeys()) keys.push(k);
      expect(keys).toEqual(expect.arrayContaining(imgs.flatMap((i) => [i.imageKey, i.thumbnailKey])));
      await store.close();
    });

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
  });
}
