/**
 * Published files: the names, media types and caching of the image files Titlecard writes to its
 * blob store and serves publicly. Every store and every edge takes these from here.
 */
import { FILE_TYPES, type FileFormat } from '../design.js';
import { ID_BODY } from '../kernel/ids.js';

/**
 * Files never change once written, so any cache may keep them for a year (RFC 9111 `max-age`,
 * RFC 8246 `immutable`). Sent by `/files` and stored on S3 objects.
 */
export const FILE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/**
 * Blob keys are `<stem>.<ext>` (the image) or `<stem>_thumb.<ext>` (its thumbnail): a 22-character
 * base62 stem (131 random bits, so a URL cannot be guessed) and a {@link FILE_TYPES} extension.
 * Every store refuses any other key, so no key can reach outside it.
 */
export const BLOB_KEY_PATTERN = new RegExp(`^${ID_BODY}(?:_thumb)?\\.(?:png|jpg|webp)$`);

/**
 * Every key a store accepts: the published files above; uploads kept for reuse,
 * `<stem>_asset.<png|jpg|webp>` and `<stem>_font.<ttf|otf>` (never served by `/files`); and rendered
 * render links, `r<64 hex of the content hash>.<ext>` (served by `/r/` only); and an upload on its
 * way to a worker, `<stem>_upload.bin` (GENERATE_ON_WORKERS; never served); and a link-preview
 * check's files, kept a day (src/domain/link-previews): `lpv_<id>_report.json`,
 * `lpv_<id>_image<n>.jpg` and `lpv_<id>_<platform>.png` (served to its workspace by `/previews`).
 */
export const STORED_KEY_PATTERN = new RegExp(
  `^(?:${ID_BODY}(?:_thumb)?\\.(?:png|jpg|webp)|${ID_BODY}_asset\\.(?:png|jpg|webp)|${ID_BODY}_font\\.(?:ttf|otf)|r[0-9a-f]{64}\\.(?:png|jpg|webp)|${ID_BODY}_upload\\.bin|lpv_${ID_BODY}_(?:report\\.json|image[0-9]\\.jpg|[a-z]{1,12}\\.png))$`,
);

/** How long a link-preview check's files are kept, ms: a day (docs/previews.md); `titlecard sweep` deletes them after. */
export const LINK_PREVIEW_TTL_MS = 24 * 60 * 60 * 1000;

/** Media types of stored fonts (RFC 8081), and of a link-preview check's report. */
const FONT_TYPES: Record<string, string> = { ttf: 'font/ttf', otf: 'font/otf', json: 'application/json' };

/** The two keys of one generated image, from its random stem (see {@link BLOB_KEY_PATTERN}). */
export function blobKeysOf(stem: string, format: FileFormat): { imageKey: string; thumbnailKey: string } {
  const ext = FILE_TYPES[format].extension;
  return { imageKey: `${stem}.${ext}`, thumbnailKey: `${stem}_thumb.${ext}` };
}

/** Throws a plain Error (a fault of ours, never user input) unless `key` matches {@link STORED_KEY_PATTERN}. */
export function assertBlobKey(key: string): void {
  if (!STORED_KEY_PATTERN.test(key)) throw new Error(`invalid blob key ${JSON.stringify(key)}`);
}

/** The media type of a key, from its extension; `application/octet-stream` for an unknown one. */
export function contentTypeOfKey(key: string): string {
  const ext = key.slice(key.lastIndexOf('.') + 1);
  return (
    Object.values(FILE_TYPES).find((t) => t.extension === ext)?.contentType ??
    FONT_TYPES[ext] ??
    'application/octet-stream'
  );
}
