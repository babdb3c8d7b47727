/**
 * check_link_preview and its MCP App page (src/mcp/link-preview-app.ts) in real Chromium, inside
 * the test host built with the ext-apps AppBridge, tool calls made by a real MCP client against a
 * running Titlecard: the report as structured content and text, the ten mock-ups side by side, Fix
 * it making one card from the page's title and image (one unit of quota), the tags to paste, and
 * axe on the page.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PREVIEWS_URI } from '../../src/mcp/link-preview-app.js';
import { hasChromium, launchChromium, seriousViolations } from '../support/browser.js';
import { photo } from '../support/images.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { connectAppClient, openApp, serveAppHost, type ToolList } from '../support/app-host/serve.js';

const SHOTS = process.env.TITLECARD_SCREENSHOTS;
let srv: TestServer;
let client: Client;
let browser: Browser;
let tools: ToolList;
let host: { url: string; close: () => Promise<void> };
let origin = '';
const site = createServer((req, res) => {
  if (req.url === '/photo.jpg') {
    void sharp(photo('mate_RainDrops.jpg'))
      .resize(1200, 630)
      .jpeg()
      .toBuffer()
      .then(
        (b) => res.writeHead(200, { 'content-type': 'image/jpeg' }).end(b),
        () => res.writeHead(500).end(),
      );
    return;
  }
  // A page whose image is a photo without its size declared, and no twitter:card.
  res
    .writeHead(200, { 'content-type': 'text/html' })
    .end(
      `<!doctype html><html><head><title>Walking in the rain</title><meta property="og:title" content="Walking in the rain"><meta property="og:image" content="${origin}/photo.jpg"></head><body></body></html>`,
    );
});

beforeAll(async () => {
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  srv = await startTestServer({ fetcher: { allowAddresses: ['127.0.0.1'] } });
  const { token } = await srv.createUser('pro');
  client = await connectAppClient('link-preview-test-host', srv.url, token);
  tools = (await client.listTools()).tools;
  host = await serveAppHost();
  if (hasChromium) browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await host?.close();
  await client?.close();
  await srv?.close();
  await new Promise((resolve) => site.close(resolve));
});

const usageNow = async () =>
  (
    (await client.callTool({ name: 'get_usage', arguments: {} })).structuredContent as {
      usage: { generated: number };
    }
  ).usage.generated;

describe('check_link_preview, with its MCP App', () => {
  it('answers the report as structured content and text; the mock-up tool is for the app only', async () => {
    const result = await client.callTool({
      name: 'check_link_preview',
      arguments: { url: `${origin}/post` },
    });
    expect(result.isError).toBeFalsy();
    const report = result.structuredContent as {
      problems: { code: string }[];
      platforms: { card: string }[];
    };
    expect(report.platforms).toHaveLength(10);
    expect(report.problems.map((p) => p.code)).toEqual(
      expect.arrayContaining(['IMAGE_SIZE_UNDECLARED', 'NO_ALT', 'NO_TWITTER_CARD']),
    );
    expect((result.content[0] as { text: string }).text).toContain('NO_TWITTER_CARD');
    expect(tools.find((t) => t.name === 'check_link_preview')?._meta?.ui?.resourceUri).toBe(PREVIEWS_URI);
    expect(tools.find((t) => t.name === 'link_preview_mockup')?._meta?.ui?.visibility).toEqual(['app']);
    const bad = await client.callTool({
      name: 'check_link_preview',
      arguments: { url: 'http://10.1.2.3/' },
    });
    expect(bad.isError).toBe(true);
    expect((bad.content[0] as { text: string }).text).toMatch(/^Invalid url/);
  });

  it.skipIf(!hasChromium)(
    'shows the ten previews side by side, and Fix it makes one card and the tags to paste',
    async () => {
      const toolInput = { url: `${origin}/post` };
      const toolResult = await client.callTool({
        name: 'check_link_preview',
        arguments: toolInput,
      });
      const read = await client.readResource({ uri: PREVIEWS_URI });
      const html = (read.contents[0] as { text: string }).text;
      const calls: string[] = [];
      const { page, app } = await openApp({
        browser,
        hostUrl: host.url,
        width: 900,
        html,
        toolInput,
        toolResult,
        hostContext: {
          theme: 'light',
          platform: 'web',
          displayMode: 'inline',
          availableDisplayModes: ['inline'],
        },
        client,
        tools,
        calls,
        label: 'link preview',
      });
      await expect.poll(() => app.textContent('#status'), { timeout: 15_000 }).toMatch(/previews are drawn/);
      const shown = await app.$$eval('#mockups img', (imgs) =>
        imgs.map((i) => ({
          loaded: (i as unknown as { naturalWidth: number; alt: string }).naturalWidth,
          alt: (i as unknown as { naturalWidth: number; alt: string }).alt,
        })),
      );
      expect(shown).toHaveLength(10);
      for (const s of shown) expect(s.loaded, s.alt).toBe(560);
      expect(calls.filter((c) => c === 'link_preview_mockup')).toHaveLength(10);
      expect(await app.textContent('#problems')).toContain('NO_TWITTER_CARD');
      expect(await app.inputValue('input[name="title"]')).toBe('Walking in the rain');
      expect(await app.inputValue('input[name="imageUrl"]')).toBe(`${origin}/photo.jpg`);
      expect(await seriousViolations(app)).toEqual([]);
      if (SHOTS) await page.screenshot({ path: path.join(SHOTS, 'link-preview-app.png'), fullPage: true });

      const before = await usageNow();
      await app.click('#make');
      await expect.poll(() => app.textContent('#status'), { timeout: 15_000 }).toMatch(/^Card img_\w+ made/);
      expect(calls.filter((c) => c === 'generate_image')).toHaveLength(1);
      expect(await usageNow()).toBe(before + 1);
      const tags = await app.inputValue('#tags');
      expect(tags).toMatch(/<meta property="og:image" content="http[^"]+\.jpg">/);
      expect(tags).toContain('<meta name="twitter:card" content="summary_large_image">');
      expect(tags).toContain('<meta property="og:image:width" content="1200">');
      expect(
        await app.$eval(
          '#made-image',
          (i) => (i as unknown as { naturalWidth: number; alt: string }).naturalWidth,
        ),
      ).toBeGreaterThan(0);
      await app.click('#copy-tags');
      await expect.poll(() => app.textContent('#status')).toMatch(/copied/);
      expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(tags);
      expect(await seriousViolations(app)).toEqual([]);
      if (SHOTS)
        await page.screenshot({ path: path.join(SHOTS, 'link-preview-app-fixed.png'), fullPage: true });
      await page.context().close();
    },
    60_000,
  );
});
