/**
 * Templates: the user's own layouts (`/templates`, docs/templates.md) beside the four built-ins.
 * A template is a document (render/document/document.ts) checked when it is saved, so a render never meets an
 * undeclared variable, a missing asset or an unknown font; every edit adds one to `version`, which
 * is part of a render link's cache key, as a preset's is. `design` fills a template for a render
 * from a request's `fields` (docs/api.md#generate-options `title` and `subtitle` are variables of every template).
 */
import type { z } from 'zod';
import type { Principal } from '../accounts/accounts.js';
import { TEMPLATES } from '../design.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../kernel/errors.js';
import { idPattern, newId } from '../kernel/ids.js';
import { isTemplateId } from '../schemas.js';
import type { Clock, ImageFetcher, RecordStore } from '../kernel/ports.js';
import type { TemplateRecord } from '../kernel/records.js';
import { checkImage } from '../render/index.js';
import type { LoadedFont } from '../render/index.js';
import type { TemplateDesign } from '../render/index.js';
import type { Assets } from '../assets/assets.js';
import { BUILT_IN_TEMPLATES, isBuiltIn } from '../render/index.js';
import {
  fieldValues,
  imageVariableOf,
  parseTemplateDocument,
  type TemplateDocument,
} from '../render/index.js';
import type { templateSchema } from './schemas.js';

/** Templates an account may keep (our choice; docs/templates.md). */
export const TEMPLATES_PER_ACCOUNT = 100;

export type TemplateView = z.infer<typeof templateSchema>;

const viewOf = (t: TemplateRecord): TemplateView => ({
  id: t.id,
  name: t.name,
  version: t.version,
  builtIn: false,
  document: t.document,
  createdAt: t.createdAt.toISOString(),
  updatedAt: t.updatedAt.toISOString(),
});
const builtInView = (name: (typeof TEMPLATES)[number]): TemplateView => ({
  id: name,
  name: BUILT_IN_TEMPLATES[name].name,
  version: 1,
  builtIn: true,
  document: BUILT_IN_TEMPLATES[name],
  createdAt: null,
  updatedAt: null,
});

/** The texts and fields of a request, for {@link Templates.design}. */
export interface TemplateValues {
  title: string;
  subtitle?: string | undefined;
  fields?: Record<string, unknown> | undefined;
  /** A stand-in (the fallback card of a site or a link): a required variable may be missing. */
  lenient?: boolean;
}

export interface Templates {
  /** `POST /templates`. ValidationError naming the path (`layers[3].box.w`); ForbiddenError past the limit. */
  create(principal: Principal, body: unknown): Promise<TemplateView>;
  /** `GET /templates`: the built-ins, then the user's, newest first. */
  list(principal: Principal): Promise<TemplateView[]>;
  /** `GET /templates/{id}`: a built-in by name or one of the user's. NotFoundError. */
  get(principal: Principal, id: string): Promise<TemplateView>;
  /** `PUT /templates/{id}`: replaces the document and adds one to its version. NotFoundError; ForbiddenError for a built-in. */
  replace(principal: Principal, id: string, body: unknown): Promise<TemplateView>;
  /** `DELETE /templates/{id}`. ConflictError while a preset uses it; NotFoundError; ForbiddenError for a built-in. */
  delete(principal: Principal, id: string): Promise<void>;
  /**
   * The user's template `id` filled from `values` for a render: the variables checked (a required
   * one missing is ValidationError on `fields.<name>`), image layers' bytes read (with `images`),
   * layers' own fonts loaded. ValidationError on `field` when there is no such template.
   */
  design(
    userId: string,
    id: string,
    values: TemplateValues,
    options?: { images?: boolean; field?: string },
  ): Promise<TemplateDesign & { version: number }>;
  /**
   * An unsaved document filled for a preview (the dashboard's editor): checked as `create` checks
   * it (ValidationError naming the path), then as {@link design}.
   */
  draft(userId: string, document: unknown, values: TemplateValues): Promise<TemplateDesign>;
  /** The stored record of the user's template, for a cache key; ValidationError on `field` when there is none. */
  recordOf(userId: string, id: string, field?: string): Promise<TemplateRecord>;
}

export function createTemplates({
  store,
  clock,
  assets,
  fetchImage,
}: {
  store: RecordStore;
  clock: Clock;
  assets: Pick<Assets, 'imageRecordOf' | 'fontRecordOf' | 'imageOf' | 'fontOf'>;
  /** Fetches an image variable given as a URL, SSRF-safely; without it, only asset ids are taken. */
  fetchImage?: ImageFetcher | undefined;
}): Templates {
  /** The document of a body, parsed and checked, its assets and fonts checked to be the user's. */
  async function documentOf(userId: string, body: unknown): Promise<TemplateDocument> {
    const doc = parseTemplateDocument(body);
    for (const [i, layer] of doc.layers.entries()) {
      if (layer.type === 'image' && layer.source.startsWith('ast_'))
        await assets.imageRecordOf(userId, layer.source, `layers[${i}].source`);
      if (layer.type === 'text' && typeof layer.font === 'object' && 'custom' in layer.font)
        await assets.fontRecordOf(userId, layer.font.custom).catch(() => {
          throw new ValidationError(
            `layers[${i}].font`,
            'format',
            `Expected one of your fonts (fnt_…) for layers[${i}].font`,
          );
        });
    }
    return doc;
  }
  const notFound = (id: string) => new NotFoundError(`No template with id ${id} on this account`);
  const readOnly = (id: string) =>
    new ForbiddenError(
      `The built-in template ${id} is read-only: create a template from its document with POST /templates`,
    );

  /** The user's template `id`; undefined when there is none (not a template id, unknown, another user's). */
  const findOwn = async (userId: string, id: string) =>
    isTemplateId(id) ? store.templates.find(userId, id) : undefined;

  async function recordOf(userId: string, id: string, field = 'template'): Promise<TemplateRecord> {
    const found = await findOwn(userId, id);
    if (!found)
      throw new ValidationError(
        field,
        'format',
        `Expected a built-in template or the id of one of your templates for ${field} but received "${id.slice(0, 40)}"`,
      );
    return found;
  }

  return {
    async create(principal, body) {
      const userId = principal.workspace.id;
      if ((await store.templates.count(userId)) >= TEMPLATES_PER_ACCOUNT)
        throw new ForbiddenError(
          `An account keeps at most ${TEMPLATES_PER_ACCOUNT} templates: delete one first`,
        );
      const document = await documentOf(userId, body);
      const now = clock.now();
      const record: TemplateRecord = {
        id: newId('tpl'),
        userId,
        name: document.name,
        version: 1,
        document: document,
        createdAt: now,
        updatedAt: now,
      };
      await store.templates.create(record);
      return viewOf(record);
    },

    async list(principal) {
      return [
        ...TEMPLATES.map(builtInView),
        ...(await store.templates.list(principal.workspace.id)).map(viewOf),
      ];
    },

    async get(principal, id) {
      if (isBuiltIn(id)) return builtInView(id);
      const found = await findOwn(principal.workspace.id, id);
      if (!found) throw notFound(id);
      return viewOf(found);
    },

    async replace(principal, id, body) {
      if (isBuiltIn(id)) throw readOnly(id);
      const userId = principal.workspace.id;
      if (!(await findOwn(userId, id))) throw notFound(id);
      const document = await documentOf(userId, body);
      const updated = await store.templates.update(userId, id, {
        name: document.name,
        document: document,
        updatedAt: clock.now(),
      });
      if (!updated) throw notFound(id);
      return viewOf(updated);
    },

    async delete(principal, id) {
      if (isBuiltIn(id)) throw readOnly(id);
      const userId = principal.workspace.id;
      if (!(await findOwn(userId, id))) throw notFound(id);
      const using = await store.presets.countUsing(userId, id);
      if (using > 0)
        throw new ConflictError(
          `Template ${id} is used by ${using} preset${using === 1 ? '' : 's'}: change or delete ${using === 1 ? 'it' : 'them'} first`,
        );
      if (!(await store.templates.delete(userId, id))) throw notFound(id);
    },

    recordOf,

    async design(userId, id, values, { images = true, field = 'template' } = {}) {
      const record = await recordOf(userId, id, field);
      const document = parseTemplateDocument(record.document);
      return { ...(await fill(userId, record.id, document, values, images)), version: record.version };
    },

    async draft(userId, body, values) {
      return fill(userId, 'tpl_00000000000000000draft', await documentOf(userId, body), values, true);
    },
  };

  /** A parsed document filled from `values` for a render (see {@link Templates.design}). */
  async function fill(
    userId: string,
    id: string,
    document: TemplateDocument,
    { title, subtitle, fields = {}, lenient = false }: TemplateValues,
    images: boolean,
  ): Promise<TemplateDesign> {
    const values = fieldValues(document, { title, subtitle, fields, lenient });
    const pictures = new Map<string, Buffer>();
    for (const [name, variable] of Object.entries(document.variables)) {
      if (variable.type !== 'image') continue;
      const given = fields[name];
      const missing =
        given === undefined || given === null || (typeof given === 'string' && given.trim() === '');
      if (missing) {
        if (variable.required && !lenient)
          throw new ValidationError(
            `fields.${name}`,
            'required',
            `Expected an image for fields.${name} (an asset id or an http or https URL) but received nothing: the template requires ${name}`,
          );
        continue;
      }
      if (typeof given !== 'string' || !(idPattern('ast').test(given) || /^https?:\/\//i.test(given)))
        throw new ValidationError(
          `fields.${name}`,
          'format',
          `Expected an asset id (ast_…) or an http or https URL for fields.${name}`,
        );
      if (!images) {
        if (given.startsWith('ast_')) await assets.imageRecordOf(userId, given, `fields.${name}`);
        continue;
      }
      if (given.startsWith('ast_'))
        pictures.set(name, (await assets.imageOf(userId, given, `fields.${name}`)).bytes);
      else {
        if (!fetchImage)
          throw new ValidationError(
            `fields.${name}`,
            'format',
            `Expected an asset id for fields.${name}: image URLs are not fetched here`,
          );
        const bytes = await fetchImage(given);
        // Checked as an upload is (format, pixels), under the variable's name.
        await checkImage(bytes).catch((error: unknown) => {
          if (error instanceof ValidationError)
            throw new ValidationError(
              `fields.${name}`,
              error.constraint,
              error.message.replaceAll('image', `fields.${name}`),
            );
          throw error;
        });
        pictures.set(name, bytes);
      }
    }
    const layerImages = new Map<number, Buffer>();
    const layerFonts = new Map<number, LoadedFont>();
    for (const [i, layer] of document.layers.entries()) {
      if (layer.type === 'image' && images) {
        const variable = imageVariableOf(layer.source);
        if (variable) {
          const bytes = pictures.get(variable);
          if (bytes) layerImages.set(i, bytes);
        } else if (layer.source.startsWith('ast_'))
          layerImages.set(i, (await assets.imageOf(userId, layer.source, `layers[${i}].source`)).bytes);
      }
      if (layer.type === 'text' && typeof layer.font === 'object' && 'custom' in layer.font)
        layerFonts.set(i, (await assets.fontOf(userId, layer.font.custom)).font);
    }
    return { id, document, values, images: layerImages, fonts: layerFonts, size: document.size };
  }
}
