/**
 * Presets: saved designs (`/presets`). A preset holds every generate option but the texts (docs/api.md#generate-options:
 * template, aspect, colours, font, size, gradient, shadow, format, focus, position), an optional
 * default background and an optional logo. A request that names a preset may override any of its
 * options. Every edit adds one to `version`, which is part of a render link's cache key: a link
 * fetched after an edit renders again.
 */
import type { z } from 'zod';
import type { Principal } from '../accounts/accounts.js';
import type { Assets } from '../assets/assets.js';
import type { Templates } from '../templates/templates.js';
import { NotFoundError, ValidationError } from '../kernel/errors.js';
import { idPattern, newId } from '../kernel/ids.js';
import type { Preset } from '../kernel/records.js';
import type { Clock, RecordStore } from '../kernel/ports.js';
import { presetBodySchema, type presetSchema } from './schemas.js';
import { isTemplateId } from '../schemas.js';
import { parseOrThrow } from '../kernel/validate.js';
import { mergeFields } from '../render/index.js';

export type PresetView = z.infer<typeof presetSchema>;

/**
 * The options a generation draws with: the request's own `options` over its preset's (each option
 * the request gives wins; undefined ones do not count), and `fields` merged name by name
 * (mergeFields, docs/templates.md). The one place a preset's options meet a request's: `/generate`,
 * previews, `/layout`, batch items, render links and sites all come here.
 */
export function optionsOverPreset(
  preset: Pick<Preset, 'options'> | undefined,
  options: Record<string, unknown>,
): Record<string, unknown> {
  const own = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
  const merged: Record<string, unknown> = { ...(preset?.options ?? {}), ...own };
  const fields = mergeFields(preset?.options.fields, own.fields);
  if (fields !== undefined) merged.fields = fields;
  return merged;
}

export const viewOfPreset = (p: Preset): PresetView => ({
  id: p.id,
  name: p.name,
  version: p.version,
  options: p.options,
  background: p.backgroundAssetId,
  logo: p.logo && { asset: p.logo.assetId, corner: p.logo.corner, size: p.logo.size },
  createdAt: p.createdAt.toISOString(),
  updatedAt: p.updatedAt.toISOString(),
});

export interface Presets {
  /** `POST /presets`. ValidationError on a field (named), or on an asset or font that is not the caller's. */
  create(principal: Principal, body: unknown): Promise<PresetView>;
  /** `GET /presets`: newest first. */
  list(principal: Principal): Promise<PresetView[]>;
  /** `GET /presets/{id}`. NotFoundError. */
  get(principal: Principal, id: string): Promise<PresetView>;
  /** `PUT /presets/{id}`: replaces it (as create validates) and adds one to its version. NotFoundError. */
  replace(principal: Principal, id: string, body: unknown): Promise<PresetView>;
  /** `DELETE /presets/{id}`. Links naming it answer 404 from then on. NotFoundError. */
  delete(principal: Principal, id: string): Promise<void>;
  /** The user's preset for a generation or a link; ValidationError on `field` when there is none. */
  use(userId: string, id: unknown, field?: string): Promise<Preset>;
}

export function createPresets({
  store,
  clock,
  assets,
  templates,
}: {
  store: RecordStore;
  clock: Clock;
  /** Checks that a template the preset names is the caller's. */
  templates: Pick<Templates, 'recordOf'>;
  /** Checks that the uploads a preset names are the caller's. */
  assets: Pick<Assets, 'imageRecordOf' | 'fontRecordOf'>;
}): Presets {
  /** The stored fields of a valid body, its uploads checked to be the user's. */
  async function fieldsOf(userId: string, body: unknown) {
    const parsed = parseOrThrow(presetBodySchema, body ?? {});
    const raw = body as Record<string, unknown>;
    const { name, background, logo } = parsed;
    // The options as given (validated above), without the preset's own fields.
    const options = Object.fromEntries(
      Object.entries(raw).filter(([k, v]) => !['name', 'background', 'logo'].includes(k) && v !== undefined),
    );
    if (background) await assets.imageRecordOf(userId, background, 'background');
    if (logo) await assets.imageRecordOf(userId, logo.asset, 'logo.asset');
    if (isTemplateId(parsed.template)) await templates.recordOf(userId, parsed.template);
    const font = parsed.font;
    const fontId = typeof font === 'object' ? font.custom : null;
    if (fontId) await assets.fontRecordOf(userId, fontId);
    return {
      name,
      options,
      backgroundAssetId: background ?? null,
      logo: logo ? { assetId: logo.asset, corner: logo.corner, size: logo.size } : null,
      fontId,
      updatedAt: clock.now(),
    };
  }

  const notFound = (id: string) => new NotFoundError(`No preset with id ${id} on this account`);

  return {
    async create(principal, body) {
      const fields = await fieldsOf(principal.workspace.id, body);
      const preset: Preset = {
        id: newId('pre'),
        userId: principal.workspace.id,
        version: 1,
        createdAt: fields.updatedAt,
        ...fields,
      };
      await store.presets.create(preset);
      return viewOfPreset(preset);
    },

    async list(principal) {
      return (await store.presets.list(principal.workspace.id)).map(viewOfPreset);
    },

    async get(principal, id) {
      const preset = await store.presets.find(principal.workspace.id, id);
      if (!preset) throw notFound(id);
      return viewOfPreset(preset);
    },

    async replace(principal, id, body) {
      if (!(await store.presets.find(principal.workspace.id, id))) throw notFound(id);
      const updated = await store.presets.update(
        principal.workspace.id,
        id,
        await fieldsOf(principal.workspace.id, body),
      );
      if (!updated) throw notFound(id);
      return viewOfPreset(updated);
    },

    async delete(principal, id) {
      if (!(await store.presets.delete(principal.workspace.id, id))) throw notFound(id);
    },

    async use(userId, id, field = 'preset') {
      const preset =
        typeof id === 'string' && idPattern('pre').test(id)
          ? await store.presets.find(userId, id)
          : undefined;
      if (!preset)
        throw new ValidationError(
          field,
          'format',
          `Expected the id of one of your presets for ${field} but received ${JSON.stringify(id)}`,
        );
      return preset;
    },
  };
}
