/** What every tool is built with. */
import type { Logger } from 'pino';
import type { TitlecardBackend } from '../../backend/port.js';
import type { ImageSource } from '../sources.js';

export interface ToolContext {
  /** The domain, locally or through a remote Titlecard's REST API. */
  backend: TitlecardBackend;
  /** The ways `generate_image` accepts a background; the transport decides (see `sources.ts`). */
  imageSources: ImageSource[];
  logger: Logger;
  /**
   * Over stdio on the embedded store: the path on this computer of a published file's URL, or
   * undefined. A file's URL is served only while `titlecard serve` runs from the same DATA_DIR, so
   * `generate_image` names the file itself too.
   */
  localFileOf?: (url: string) => string | undefined;
}

/** Annotations of a tool that only reads this account's own records (MCP tool annotations). */
export const READ_ONLY = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;
