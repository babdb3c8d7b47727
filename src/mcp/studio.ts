/**
 * The card studio: an MCP App (the `io.modelcontextprotocol/ui` extension; npm
 * `@modelcontextprotocol/ext-apps`) that hosts which render MCP Apps (Claude, ChatGPT, VS Code…)
 * show with the result of `generate_image`, inside the conversation (docs/mcp.md, The studio).
 *
 *   ui://titlecard/studio.html   the page (`text/html;profile=mcp-app`): the card, large, and a form
 *                                for its title, subtitle, template, aspect, colours and format, with a
 *                                live preview, Generate, Copy URL and Copy og:image tag
 *   preview_card                 the live preview, for the page only (`visibility: ["app"]`): the
 *                                playground's preview (images/previews.ts): 600 px JPEG, nothing
 *                                stored, no quota, 60 a minute per account
 *   card_image                   the card as made, at its own size, for the page only: the page
 *                                shows generate_image's small preview at once, then this one
 *
 * The page is self-contained: its script, its style and the ext-apps App class are inline, and it
 * declares a CSP with no network at all (images arrive as base64 in tool results). Hosts without the
 * extension ignore `_meta.ui` and get `generate_image`'s result as before.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import {
  registerAppResource,
  registerAppTool,
  RESOURCE_MIME_TYPE,
} from '@modelcontextprotocol/ext-apps/server';
import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { PREVIEW_WIDTH } from '../domain/images/previews.js';
import { backgroundOf, generateInputSchema } from './tools/generate-input.js';
import type { ToolContext } from './tools/context.js';
import { safely } from './tools/results.js';

/** The studio's resource URI, named by `generate_image`'s `_meta.ui.resourceUri`. */
export const STUDIO_URI = 'ui://titlecard/studio.html';

/**
 * The ext-apps App class as a classic global (`globalThis.McpExtApps`): its self-contained ES module
 * build ends in one `export{…}` statement, which an inline script cannot export from.
 */
function extAppsScript(): string {
  const file = createRequire(import.meta.url).resolve('@modelcontextprotocol/ext-apps/app-with-deps');
  const source = readFileSync(file, 'utf8');
  const match = /export\s*\{([^}]*)\};?\s*(\/\/#.*)?\s*$/.exec(source);
  if (!match?.[1]) throw new Error(`${file}: no trailing export statement to expose`);
  const names = match[1].split(',').map((pair) => {
    const [local, exported = local] = pair.trim().split(/\s+as\s+/);
    return `${JSON.stringify(exported?.trim())}: ${local?.trim()}`;
  });
  return `${source.slice(0, match.index)}\nglobalThis.McpExtApps = { ${names.join(', ')} };\n`;
}

/** The page's sources (browser files, shipped as they are): src/mcp/app, from src/mcp or dist/mcp alike. */
const APP_DIR = fileURLToPath(new URL('../../src/mcp/app/', import.meta.url));

const pages = new Map<string, string>();
/**
 * An MCP App page of src/mcp/app, built once: `<name>.html` with the studio's style, ext-apps and
 * `<name>.js` inline (and `<name>.css` where the page has one).
 */
export function appHtml(name: 'studio' | 'previews'): string {
  const known = pages.get(name);
  if (known) return known;
  const read = (file: string) => readFileSync(`${APP_DIR}${file}`, 'utf8');
  // Replacement functions, not strings: `$` in the scripts must stay as it is.
  const page = read(`${name}.html`)
    .replace('/*STUDIO_CSS*/', () => read('studio.css'))
    .replace('/*PREVIEWS_CSS*/', () => read('previews.css'))
    .replace('/*EXT_APPS*/', () => extAppsScript().replaceAll('</script', '<\\/script'))
    .replace('/*STUDIO_JS*/', () => read('studio.js'))
    .replace('/*PREVIEWS_JS*/', () => read('previews.js'));
  pages.set(name, page);
  return page;
}

/** The studio's HTML: src/mcp/app/studio.html with its style, its script and ext-apps inline. */
export const studioHtml = (): string => appHtml('studio');

/**
 * Registers an MCP App page at `uri`: `html()` as `text/html;profile=mcp-app`, with no network
 * (images come as base64 in tool results) and clipboard-write for its Copy buttons.
 */
export function registerAppPage(
  server: McpServer,
  name: string,
  uri: string,
  description: string,
  html: () => string,
): void {
  registerAppResource(server, name, uri, { description }, async () => ({
    contents: [
      {
        uri,
        mimeType: RESOURCE_MIME_TYPE,
        text: html(),
        _meta: {
          ui: {
            csp: { connectDomains: [], resourceDomains: [] },
            permissions: { clipboardWrite: {} },
            prefersBorder: true,
          },
        },
      },
    ],
  }));
}

/** Registers the studio's page and its tools (the preview, the card at its size) on `server`. */
export function registerStudio(server: McpServer, { backend, imageSources, logger }: ToolContext): void {
  registerAppPage(
    server,
    'Titlecard studio',
    STUDIO_URI,
    "Edit a card's title, template, aspect, colours and format, with a free live preview.",
    studioHtml,
  );

  registerAppTool(
    server,
    'preview_card',
    {
      title: 'Preview a card (studio)',
      description: `The studio's live preview: a card as generate_image would make it, ${PREVIEW_WIDTH} px wide, JPEG. Stored nowhere, uses no quota; at most 60 a minute. For the studio page, not the model.`,
      inputSchema: generateInputSchema(imageSources),
      outputSchema: z.object({
        width: z.number().int().describe(`The preview's width in px (${PREVIEW_WIDTH}).`),
        mimeType: z.literal('image/jpeg'),
      }),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
      _meta: { ui: { resourceUri: STUDIO_URI, visibility: ['app'] } },
    },
    safely(logger, async (args: Record<string, unknown>) => {
      const { bytes, options } = backgroundOf(args, imageSources);
      const jpeg = await backend.preview(bytes, options);
      const structured = { width: PREVIEW_WIDTH, mimeType: 'image/jpeg' as const };
      return {
        structuredContent: structured,
        content: [
          { type: 'image', data: jpeg.toString('base64'), mimeType: 'image/jpeg' },
          { type: 'text', text: JSON.stringify(structured) },
        ],
      };
    }),
  );

  registerAppTool(
    server,
    'card_image',
    {
      title: 'The card at its size (studio)',
      description:
        "The studio's large view: one of the account's images at its own size, as a JPEG (quality 90). At most 60 a minute. For the studio page, not the model.",
      inputSchema: { id: z.string().describe('The image id (img_…), as generate_image answered it.') },
      outputSchema: z.object({
        id: z.string(),
        width: z.number().int().describe('Pixels.'),
        height: z.number().int().describe('Pixels.'),
        mimeType: z.literal('image/jpeg'),
      }),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      _meta: { ui: { resourceUri: STUDIO_URI, visibility: ['app'] } },
    },
    safely(logger, async ({ id }: { id: string }) => {
      // Re-encoded (a PNG card can be a megabyte or two; the page only shows it), limited per
      // account and in its render turn: `visibility` is a hint to hosts, any client may call this.
      const view = await backend.cardView(id);
      const structured = { id, width: view.width, height: view.height, mimeType: 'image/jpeg' as const };
      return {
        structuredContent: structured,
        content: [
          { type: 'image', data: view.body.toString('base64'), mimeType: 'image/jpeg' },
          { type: 'text', text: JSON.stringify(structured) },
        ],
      };
    }),
  );
}
