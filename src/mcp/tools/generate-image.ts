/** `generate_image`: docs/api.md#generate-options as a tool, with an inline preview and a link to the full image. */
import {
  CLIENT_CAPABILITIES_META_KEY,
  inputRequired,
  type CallToolResult,
  type ClientCapabilities,
  type McpServer,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { QuotaExceededError } from '../../domain/kernel/errors.js';
import { pathToFileURL } from 'node:url';
import { contentTypeOfKey } from '../../domain/images/files.js';
import { imageRecordSchema } from '../../domain/images/schemas.js';
import { type DisplayEncoding, encodeForDisplay } from '../../domain/render/index.js';
import type { ToolContext } from './context.js';
import { backgroundOf, generateInputSchema } from './generate-input.js';
import { STUDIO_URI } from '../studio.js';
import { errorResult, structuredResult } from './results.js';

/**
 * The inline preview: JPEG, at most 1568 px on the long side (what assistants downscale images to)
 * and about 100 KB (quality 80, lowered in steps of 15 until it fits, not below 35).
 */
const INLINE_PREVIEW: DisplayEncoding = { quality: 80, maxSide: 1568, maxBytes: 100 * 1024 };

export function registerGenerateImage(
  server: McpServer,
  { backend, imageSources, logger, localFileOf }: ToolContext,
): void {
  const names = ['imageUrl', ...imageSources.map((s) => s.name), 'asset'];
  const inputSchema = generateInputSchema(imageSources);
  server.registerTool(
    'generate_image',
    {
      title: 'Generate a titled image',
      description:
        'Lays a title (and optional subtitle) over a background photo and publishes a PNG, JPEG or WebP for link previews (og 1200×630, square 1080×1080, portrait 1080×1350). Costs one unit of the monthly quota (free 10, pro 500, agency 2000). ' +
        `Give the background as one of ${names.join(', ')}, or name a preset that has one. template takes a built-in or one of the account's templates (list_templates), whose variables fields fills. Returns the image record, a small preview and a link to the full image.`,
      inputSchema,
      outputSchema: imageRecordSchema,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
      // Hosts that render MCP Apps show the result in the studio (src/mcp/studio.ts); others ignore it.
      _meta: { ui: { resourceUri: STUDIO_URI } },
    },
    async (args: Record<string, unknown>, ctx: ServerContext) => {
      try {
        return await generate(args);
      } catch (err) {
        // The quota wall, with billing on: a client that takes URL-mode elicitation is offered the
        // upgrade page (docs/billing.md), and retries once the person is back.
        const upgradeUrl = err instanceof QuotaExceededError ? err.upgradeUrl : undefined;
        if (upgradeUrl && takesUrlElicitation(ctx) && ctx.mcpReq.inputResponses?.upgrade === undefined)
          return inputRequired({
            inputRequests: {
              upgrade: inputRequired.elicitUrl({
                message: `${err instanceof Error ? err.message : ''}. Open the Billing page to upgrade, then come back: the image is made then.`,
                url: upgradeUrl,
              }),
            },
          });
        return errorResult(err, logger);
      }
    },
  );

  async function generate(args: Record<string, unknown>): Promise<CallToolResult> {
    {
      const { bytes, options } = backgroundOf(args, imageSources);
      const { image, thumbnail, warnings } = await backend.generate(bytes, options);

      // The image is made and charged: a failed preview must not turn that into an error (a retry
      // would be charged again), so the preview is best-effort.
      const content: CallToolResult['content'] = [];
      const preview = await (
        thumbnail ? encodeForDisplay(thumbnail, INLINE_PREVIEW) : Promise.resolve(undefined)
      ).catch((err: unknown) => {
        logger.warn({ err, id: image.id }, 'MCP preview failed');
        return undefined;
      });
      if (preview)
        content.push({ type: 'image', data: preview.body.toString('base64'), mimeType: 'image/jpeg' });
      // Over stdio on the embedded store the file is on this computer: say where, and that the URL
      // works only while a server runs from the same DATA_DIR.
      const local = localFileOf?.(image.url);
      if (local)
        content.push({
          type: 'text',
          text: `The image is saved on this computer at ${local}. Its URL ${image.url} is served only while \`titlecard serve\` runs with the same DATA_DIR.`,
        });
      // Made, but worse than it could be (a soft, enlarged background): said, for the person.
      for (const warning of warnings) content.push({ type: 'text', text: `Note: ${warning}` });
      // The format may come from a preset: the file's extension says which.
      content.push({
        type: 'resource_link',
        uri: local ? pathToFileURL(local).href : image.url,
        name: `${image.id}${image.url.slice(image.url.lastIndexOf('.'))}`,
        mimeType: contentTypeOfKey(image.url),
        description: `The full ${image.width}×${image.height} image`,
      });
      return structuredResult(image, content);
    }
  }
}

/**
 * Whether the client of this request declared URL-mode elicitation: on the 2026-07-28 revision
 * every request carries its capabilities; a stateless 2025-era request carries none.
 */
function takesUrlElicitation(ctx: ServerContext): boolean {
  // The SDK types the envelope as `{}`; its keys are the revision's reserved `_meta` names.
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const declared = envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
  return declared?.elicitation?.url !== undefined;
}
