/**
 * Uploads kept for reuse: background photos and logos (`POST /assets`) and fonts (`POST /fonts`).
 *
 * - Images pass the checks of `POST /generate`'s `image` (src/domain/render/photo/checks.ts: sniffed
 *   format, 10 MB, 64 megapixels, whole file), are turned upright and stored re-encoded by libvips,
 *   which writes no metadata (no EXIF, no GPS). A logo keeps its alpha channel.
 * - Fonts are TrueType or OpenType (CFF) files of at most {@link FONT_MAX_BYTES}, checked by their
 *   signature and by parsing them with HarfBuzz: a file with no character map is not a font.
 *   Collections (TTC) and WOFF/WOFF2 are refused with a message saying so.
 * - Loaded fonts are kept in an LRU cache bounded by {@link FONT_CACHE_BYTES} of font data (lru-cache).
 * - Files live in the blob store under private keys (`<stem>_asset.<ext>`, `<stem>_font.<ext>`),
 *   never served by `/files`. Deleting an upload a preset uses is a ConflictError (409).
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { Principal } from '../accounts/accounts.js';
import { ConflictError, NotFoundError, ValidationError } from '../kernel/errors.js';
import { FILE_TYPES } from '../design.js';
import { newBlobStem, newId } from '../kernel/ids.js';
import type { Asset, AssetKind } from '../kernel/records.js';
import type { FileFormat } from '../design.js';
import type { BlobStore, Clock, RecordStore } from '../kernel/ports.js';
import { checkFontBounds, checkImage, type ImageInput, LoadedFont, storedUpload } from '../render/index.js';
import { assertConfirmed } from '../accounts/confirmation.js';
import { parseOrThrow } from '../kernel/validate.js';

/** Largest font file, bytes: 10 MB (a CJK font of one weight is 5 to 10 MB). */
export const FONT_MAX_BYTES = 10 * 1024 * 1024;
/** Font data kept loaded per process, bytes: the least recently used fonts are dropped past it. */
export const FONT_CACHE_BYTES = 64 * 1024 * 1024;
/** Quality of stored JPEG and WebP uploads: high, since every card made from them is encoded again. */
const STORED_QUALITY = 92;

/** An upload as the API shows it (its file stays private). */
export interface AssetView {
  id: string;
  kind: AssetKind;
  name: string;
  format: Asset['format'];
  /** Pixel size; 0 for a font. */
  width: number;
  height: number;
  bytes: number;
  createdAt: string;
}

export const viewOfAsset = (a: Asset): AssetView => ({
  id: a.id,
  kind: a.kind,
  name: a.name,
  format: a.format,
  width: a.width,
  height: a.height,
  bytes: a.bytes,
  createdAt: a.createdAt.toISOString(),
});

const nameSchema = z.string().trim().min(1).max(100);
const imageFieldsSchema = z.object({
  kind: z.enum(['background', 'logo']).default('background'),
  name: nameSchema.optional(),
});
const fontFieldsSchema = z.object({ name: nameSchema.optional() });

export interface Assets {
  /**
   * `POST /assets`: stores a background or logo. `fields` are `{kind?: background|logo, name?}`;
   * `fileName` names it when `name` is absent. Throws ValidationError on `image` (required, format,
   * max) or on `kind`/`name`; ForbiddenError (403) for an account whose email is not confirmed.
   */
  uploadImage(
    principal: Principal,
    file: ImageInput | undefined,
    fields: unknown,
    fileName?: string,
  ): Promise<AssetView>;
  /**
   * `POST /fonts`: stores a TrueType or OpenType font within FONT_BOUNDS (render/text/font-bounds.ts).
   * ValidationError on `font` (required, format, max) or `name`; ForbiddenError (403) for an
   * account whose email is not confirmed.
   */
  uploadFont(
    principal: Principal,
    file: ImageInput | undefined,
    fields: unknown,
    fileName?: string,
  ): Promise<AssetView>;
  /** The caller's uploads of `kinds`, newest first. */
  list(principal: Principal, kinds: readonly AssetKind[]): Promise<AssetView[]>;
  /** Deletes an upload and its file. NotFoundError; ConflictError while a preset uses it. */
  delete(principal: Principal, id: string): Promise<void>;
  /**
   * The record of the user's image upload `id`, without reading its file (a cache key needs only its
   * SHA-256). Throws ValidationError on `field` when there is none (unknown, another user's, or a font).
   */
  imageRecordOf(userId: string, id: string, field: string): Promise<Asset>;
  /** The record of the user's font `id`, without loading it. Throws ValidationError on `font` when there is none. */
  fontRecordOf(userId: string, id: string): Promise<Asset>;
  /**
   * The bytes of the user's image upload `id` for a render. Throws ValidationError on `field` when
   * there is none (unknown, another user's, or a font).
   */
  imageOf(userId: string, id: string, field: string): Promise<{ asset: Asset; bytes: Buffer }>;
  /** The user's font `id`, loaded (cached). Throws ValidationError on `font` when there is none. */
  fontOf(userId: string, id: string): Promise<{ asset: Asset; font: LoadedFont }>;
  /** Deletes every upload of a user, records then files (account deletion). */
  deleteAllOf(userId: string): Promise<void>;
}

/** The font's format by its first four bytes (OpenType spec, "Table directory": sfntVersion). */
function fontFormat(head: Buffer): 'ttf' | 'otf' | { other: string } {
  const tag = head.subarray(0, 4).toString('latin1');
  if (head.length >= 4 && head.readUInt32BE(0) === 0x00010000) return 'ttf';
  if (tag === 'true') return 'ttf';
  if (tag === 'OTTO') return 'otf';
  if (tag === 'ttcf') return { other: 'a font collection (TTC): upload one of its fonts' };
  if (tag === 'wOFF' || tag === 'wOF2')
    return { other: 'a web font (WOFF): upload the TTF or OTF it was made from' };
  return { other: head.length === 0 ? 'an empty file' : 'data that is not a font' };
}

export function createAssets({
  store,
  blobs,
  clock,
}: {
  store: RecordStore;
  blobs: BlobStore;
  clock: Clock;
}): Assets {
  const fonts = new LRUCache<string, { font: LoadedFont; bytes: number }>({
    maxSize: FONT_CACHE_BYTES,
    sizeCalculation: (v) => Math.max(1, v.bytes),
  });

  async function keep(
    principal: Principal,
    record: Omit<Asset, 'id' | 'userId' | 'sha256' | 'bytes' | 'blobKey' | 'createdAt'>,
    body: Buffer,
    prefix: 'ast' | 'fnt',
  ): Promise<AssetView> {
    const extension =
      record.kind === 'font' ? record.format : FILE_TYPES[record.format as FileFormat].extension;
    const blobKey = `${newBlobStem()}_${record.kind === 'font' ? 'font' : 'asset'}.${extension}`;
    const asset: Asset = {
      ...record,
      id: newId(prefix),
      userId: principal.workspace.id,
      bytes: body.length,
      sha256: createHash('sha256').update(body).digest('hex'),
      blobKey,
      createdAt: clock.now(),
    };
    await blobs.put(
      blobKey,
      body,
      record.kind === 'font' ? `font/${record.format}` : FILE_TYPES[record.format as FileFormat].contentType,
    );
    try {
      await store.assets.create(asset);
    } catch (err) {
      await blobs.delete(blobKey).catch(() => undefined);
      throw err;
    }
    return viewOfAsset(asset);
  }

  const read = async (file: ImageInput) => (Buffer.isBuffer(file) ? file : readFile(file.path));

  async function imageRecordOf(userId: string, id: string, field: string): Promise<Asset> {
    const asset = await store.assets.find(userId, id);
    if (!asset || asset.kind === 'font')
      throw new ValidationError(
        field,
        'format',
        `Expected the id of one of your images (POST /assets) for ${field} but ${id} is none`,
      );
    return asset;
  }

  async function fontRecordOf(userId: string, id: string): Promise<Asset> {
    const asset = await store.assets.find(userId, id);
    if (!asset || asset.kind !== 'font')
      throw new ValidationError(
        'font',
        'format',
        `Expected the id of one of your fonts (POST /fonts) for font but ${id} is none`,
      );
    return asset;
  }

  return {
    async uploadImage(principal, file, fields, fileName) {
      assertConfirmed(principal.user, 'upload images');
      const { kind, name } = parseOrThrow(imageFieldsSchema, fields ?? {});
      if (!file)
        throw new ValidationError(
          'image',
          'required',
          'Expected a JPEG, PNG or WebP file for image but received nothing: image is required',
        );
      const bytes = await read(file);
      // Stored in its own format: PNG and WebP keep their alpha channel (a logo's transparency).
      const { format: out } = await checkImage(bytes);
      const { body, width, height } = await storedUpload(bytes, out, STORED_QUALITY);
      return keep(
        principal,
        {
          kind,
          name: name ?? fileName ?? `${kind} ${width}×${height}`,
          format: out,
          width,
          height,
        },
        body,
        'ast',
      );
    },

    async uploadFont(principal, file, fields, fileName) {
      assertConfirmed(principal.user, 'upload fonts');
      const { name } = parseOrThrow(fontFieldsSchema, fields ?? {});
      if (!file)
        throw new ValidationError(
          'font',
          'required',
          'Expected a TrueType or OpenType font file for font but received nothing: font is required',
        );
      const bytes = await read(file);
      const format = fontFormat(bytes);
      if (typeof format === 'object')
        throw new ValidationError(
          'font',
          'format',
          `Expected a TrueType (.ttf) or OpenType (.otf) font for font but received ${format.other}`,
        );
      let font: LoadedFont;
      try {
        font = new LoadedFont(name ?? fileName ?? 'Custom', bytes);
      } catch {
        throw new ValidationError(
          'font',
          'format',
          'Expected a TrueType or OpenType font for font but it could not be parsed',
        );
      }
      if (!font.covers(0x41) && !font.covers(0x20))
        throw new ValidationError(
          'font',
          'format',
          'Expected a font with a character map for font but this one maps no characters',
        );
      // Points per glyph, colour paint graphs: no title set in it may take a render's time or memory.
      await checkFontBounds(font);
      const view = await keep(
        principal,
        { kind: 'font', name: name ?? fileName ?? 'Custom font', format, width: 0, height: 0 },
        bytes,
        'fnt',
      );
      return view;
    },

    async list(principal, kinds) {
      return (await store.assets.list(principal.workspace.id, kinds)).map(viewOfAsset);
    },

    async delete(principal, id) {
      const what = id.startsWith('fnt_') ? 'font' : 'asset';
      if (!(await store.assets.find(principal.workspace.id, id)))
        throw new NotFoundError(`No ${what} with id ${id} on this account`);
      const using = await store.presets.countUsing(principal.workspace.id, id);
      if (using > 0)
        throw new ConflictError(
          `The ${what} ${id} is used by ${using} preset${using === 1 ? '' : 's'}: change or delete ${using === 1 ? 'it' : 'them'} first`,
        );
      const inTemplates = await store.templates.countUsing(principal.workspace.id, id);
      if (inTemplates > 0)
        throw new ConflictError(
          `The ${what} ${id} is used by ${inTemplates} template${inTemplates === 1 ? '' : 's'}: change or delete ${inTemplates === 1 ? 'it' : 'them'} first`,
        );
      const asset = await store.assets.delete(principal.workspace.id, id);
      if (!asset) throw new NotFoundError(`No ${what} with id ${id} on this account`);
      fonts.delete(asset.id);
      await blobs.delete(asset.blobKey);
    },

    imageRecordOf,
    fontRecordOf,

    async imageOf(userId, id, field) {
      const asset = await imageRecordOf(userId, id, field);
      const blob = await blobs.get(asset.blobKey);
      if (!blob) throw new Error(`the file of asset ${id} is missing`);
      return { asset, bytes: blob.body };
    },

    async fontOf(userId, id) {
      const asset = await fontRecordOf(userId, id);
      const cached = fonts.get(asset.id);
      if (cached) return { asset, font: cached.font };
      const blob = await blobs.get(asset.blobKey);
      if (!blob) throw new Error(`the file of font ${id} is missing`);
      const font = new LoadedFont(asset.name, blob.body);
      fonts.set(asset.id, { font, bytes: blob.body.length });
      return { asset, font };
    },

    async deleteAllOf(userId) {
      const records = await store.assets.deleteAllForUser(userId);
      for (const a of records) {
        fonts.delete(a.id);
        await blobs.delete(a.blobKey);
      }
    },
  };
}
