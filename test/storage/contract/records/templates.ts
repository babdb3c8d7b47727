/** The RecordStore contract, templates: per user, newest first, counted, a version each update raises; the in-use count of presets. */
import { expect, it } from 'vitest';
import { newId } from '../../../../src/domain/kernel/ids.js';
import type { Preset, TemplateRecord } from '../../../../src/domain/kernel/records.js';
import type { ContractContext } from './fixtures.js';

export function templatesContract({ open }: ContractContext): void {
  it('keeps templates per user with their document as given; an update raises the version; a preset naming one counts as using it', async () => {
    const store = await open();
    const userId = newId('usr');
    const document = {
      name: 'Blog',
      aspect: 'og',
      variables: { author: { type: 'text', required: true, maxLength: 60 } },
      layers: [{ type: 'text', content: '{{title}} · {{author}}', box: { x: 0.05, y: 0.1, w: 0.9, h: 0.5 } }],
    };
    const older: TemplateRecord = {
      id: newId('tpl'),
      userId,
      name: 'Blog',
      version: 1,
      document,
      createdAt: new Date('2026-11-20T10:00:00.000Z'),
      updatedAt: new Date('2026-11-20T10:00:00.000Z'),
    };
    const newer: TemplateRecord = {
      ...older,
      id: newId('tpl'),
      name: 'Event',
      createdAt: new Date('2026-11-21T10:00:00.000Z'),
    };
    await store.templates.create(older);
    await store.templates.create(newer);
    expect(await store.templates.find(userId, older.id)).toEqual(older);
    expect(await store.templates.find(newId('usr'), older.id)).toBeUndefined();
    expect((await store.templates.list(userId)).map((t) => t.id)).toEqual([newer.id, older.id]);
    expect(await store.templates.count(userId)).toBe(2);
    // An asset or font a layer names is in use; an id that only begins the same is not.
    const asset = newId('ast');
    const font = newId('fnt');
    const user: TemplateRecord = {
      ...older,
      id: newId('tpl'),
      document: {
        ...document,
        layers: [
          { type: 'image', source: asset },
          { type: 'text', content: '{{title}}', font: { custom: font }, box: { x: 0, y: 0, w: 1, h: 1 } },
        ],
      },
    };
    await store.templates.create(user);
    expect(await store.templates.countUsing(userId, asset)).toBe(1);
    expect(await store.templates.countUsing(userId, font)).toBe(1);
    expect(await store.templates.countUsing(userId, asset.slice(0, -1))).toBe(0);
    expect(await store.templates.countUsing(newId('usr'), asset)).toBe(0);
    expect(await store.templates.delete(userId, user.id)).toBe(true);

    const later = new Date('2026-11-22T10:00:00.000Z');
    const changed = { ...document, name: 'Blog 2' };
    const updated = await store.templates.update(userId, older.id, {
      name: 'Blog 2',
      document: changed,
      updatedAt: later,
    });
    expect(updated).toEqual({ ...older, name: 'Blog 2', document: changed, version: 2, updatedAt: later });
    expect(
      await store.templates.update(newId('usr'), older.id, { name: 'x', document, updatedAt: later }),
    ).toBeUndefined();

    const preset: Preset = {
      id: newId('pre'),
      userId,
      name: 'Uses it',
      version: 1,
      options: { template: older.id },
      backgroundAssetId: null,
      logo: null,
      fontId: null,
      createdAt: later,
      updatedAt: later,
    };
    await store.presets.create(preset);
    expect(await store.presets.countUsing(userId, older.id)).toBe(1);
    expect(await store.presets.countUsing(userId, newer.id)).toBe(0);

    expect(await store.templates.delete(userId, newer.id)).toBe(true);
    expect(await store.templates.delete(userId, newer.id)).toBe(false);
    await store.templates.deleteAllForUser(userId);
    expect(await store.templates.list(userId)).toEqual([]);
    await store.presets.deleteAllForUser(userId);
    await store.close();
  });
}
