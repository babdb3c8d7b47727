/** The RecordStore contract, uploads, presets, signing keys and render claims. */
import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { newId } from '../../../../src/domain/kernel/ids.js';
import type { ContractContext } from './fixtures.js';

export function renderLinksContract({ open }: ContractContext): void {
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
}
