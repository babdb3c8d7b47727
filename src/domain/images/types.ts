/**
 * The shapes the image use cases share: an image as the API shows it, what an edge reads from its
 * request for a generation, a request resolved for the renderer, and a generation's answer.
 */
import type { z } from 'zod';
import type { Blob } from '../kernel/ports.js';
import type { ImageInput, RenderOptions } from '../render/index.js';
import type { imageDetailSchema, imagePageSchema, imageRecordSchema, RenderReport } from './schemas.js';

export type ImageView = z.infer<typeof imageRecordSchema>;
/** The batch item that made an image (the `image.created` event says which). */
export type ImageSource = { batchId: string; index: number };
export type ImagePage = z.infer<typeof imagePageSchema>;
export type ImageDetail = z.infer<typeof imageDetailSchema>;

/**
 * What an edge reads from its request for a generation: the background image and the options as
 * typed values (see `generateOptionsSchema`; not yet validated). Called once, after the quota unit
 * is reserved; what it throws (ValidationError, FileTooLargeError) refunds that unit. `imageField`
 * is the edge's name for the image's bytes (default `image`, docs/api.md#generate-options;
 * `imageBase64` or `imagePath` in the MCP tool), used in the refusals' `field` and messages.
 */
export type GenerateRequestReader = () => Promise<{
  image?: ImageInput | undefined;
  imageField?: string;
  options: unknown;
}>;

/** A generation's inputs resolved: the background, and what to draw (font loaded, logo decoded). */
export interface PreparedRender {
  input: ImageInput;
  options: RenderOptions;
}

/**
 * A generated image: its record as the API returns it, its thumbnail's bytes (MCP shows it
 * inline), and the render report: null when the image was answered from its record (a retry, a
 * worker's take-over), which keeps no report.
 */
export interface Generated {
  image: ImageView;
  thumbnail: Blob;
  report: RenderReport | null;
}
