/**
 * The link-preview check in the assistant (docs/previews.md#in-the-assistant): the tool
 * `check_link_preview {url}` answers the report (structured content, and a summary as text); for
 * hosts with MCP Apps it names a page of its own, `ui://titlecard/previews.html`, that shows the
 * problems and every platform's mock-up side by side, with Fix it: a card for the page made with
 * `generate_image`, then the tags to paste. `link_preview_mockup` gives the page the mock-ups (for
 * the page only). Like the studio, the page has no network: images arrive as base64 in tool results.
 */
import { registerAppTool } from '@modelcontextprotocol/ext-apps/server';
import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { PLATFORM_IDS } from '../domain/link-previews/platforms.js';
import {
  previewBodySchema,
  previewReportSchema,
  type PreviewReport,
} from '../domain/link-previews/schemas.js';
import { appHtml, registerAppPage } from './studio.js';
import type { ToolContext } from './tools/context.js';
import { safely } from './tools/results.js';

/** The link-preview page's resource URI, named by `check_link_preview`'s `_meta.ui.resourceUri`. */
export const PREVIEWS_URI = 'ui://titlecard/previews.html';

/** The report in a few lines, for the model and for hosts without structured output. */
export function reportSummary(report: PreviewReport): string {
  const cards = report.platforms.map((p) => `${p.name}: ${p.card}`).join(', ');
  const problems = report.problems.length
    ? report.problems
        .map((p) => `- ${p.severity} ${p.code} (${p.platforms.join(', ')}): ${p.message}`)
        .join('\n')
    : '- none';
  return `Link preview of ${report.finalUrl} (check ${report.id}, kept a day).\nCards: ${cards}.\nProblems:\n${problems}`;
}

export function registerLinkPreviewApp(server: McpServer, { backend, logger }: ToolContext): void {
  registerAppPage(
    server,
    'Titlecard link preview',
    PREVIEWS_URI,
    'How a link will preview on ten platforms, its problems, and a card to fix it.',
    () => appHtml('previews'),
  );

  registerAppTool(
    server,
    'check_link_preview',
    {
      title: 'Check a link preview',
      description:
        'Checks how a page will preview when its link is shared on X, Facebook, LinkedIn, Slack, Discord, iMessage, WhatsApp, Telegram, Mastodon and Bluesky: its tags and image, the card each platform shows, and the problems (code, severity, how to fix). Free: uses no quota. Hosts with MCP Apps show the previews side by side, with a button to make a card for the page.',
      inputSchema: previewBodySchema,
      outputSchema: previewReportSchema,
      // It fetches the open web and keeps a report a day: neither read-only nor idempotent.
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
      _meta: { ui: { resourceUri: PREVIEWS_URI } },
    },
    safely(logger, async ({ url }: { url: string }) => {
      const report = await backend.checkLinkPreview(url);
      return {
        structuredContent: report as unknown as Record<string, unknown>,
        content: [{ type: 'text', text: reportSummary(report) }],
      };
    }),
  );

  registerAppTool(
    server,
    'link_preview_mockup',
    {
      title: 'A link preview mock-up (link-preview page)',
      description:
        "One platform's mock-up of a check_link_preview report, a PNG 560 px wide. For the link-preview page, not the model.",
      inputSchema: {
        id: z.string().describe('The check id (lpv_…), as check_link_preview answered it.'),
        platform: z.enum(PLATFORM_IDS),
      },
      outputSchema: z.object({
        id: z.string(),
        platform: z.enum(PLATFORM_IDS),
        mimeType: z.literal('image/png'),
      }),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      _meta: { ui: { resourceUri: PREVIEWS_URI, visibility: ['app'] } },
    },
    safely(logger, async ({ id, platform }: { id: string; platform: string }) => {
      const png = await backend.linkPreviewMockup(id, platform);
      const structured = { id, platform, mimeType: 'image/png' as const };
      return {
        structuredContent: structured,
        content: [
          { type: 'image', data: png.toString('base64'), mimeType: 'image/png' },
          { type: 'text', text: JSON.stringify(structured) },
        ],
      };
    }),
  );
}
