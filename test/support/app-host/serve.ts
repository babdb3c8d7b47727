/**
 * The test host of MCP Apps (host.js, bundled by esbuild) served on 127.0.0.1, and an app opened in
 * it in Chromium: the host page's tool calls go to a real MCP client, refused for a tool the app
 * may not call (its `visibility`), and recorded in `calls`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { build } from 'esbuild';
import type { Browser, Frame, Page } from 'playwright-core';

const HOST_ENTRY = path.join(import.meta.dirname, 'host.js');

/** Serves the host page; its URL (with a trailing slash) and a close. */
export async function serveAppHost(): Promise<{ url: string; close: () => Promise<void> }> {
  const bundle = await build({
    entryPoints: [HOST_ENTRY],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
  });
  const script = bundle.outputFiles[0]?.text ?? '';
  const host = createServer((req, res) => {
    if (req.url === '/host.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    else
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          '<!doctype html><html lang="en"><head><title>Test host</title></head><body><main id="app"></main><script type="module" src="/host.js"></script></body></html>',
        );
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(host.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => host.close(() => resolve())),
  };
}

export type ToolList = { name: string; _meta?: { ui?: { resourceUri?: string; visibility?: string[] } } }[];

/**
 * Opens the host page at `width` × 900 and starts the app `html` in it with the tool's input and
 * result; resolves to the page and the app's frame once it has started.
 */
export async function openApp(options: {
  browser: Browser;
  hostUrl: string;
  width: number;
  html: string;
  toolInput: Record<string, unknown>;
  toolResult: CallToolResult;
  hostContext: Record<string, unknown>;
  client: Client;
  tools: ToolList;
  calls: string[];
  label: string;
}): Promise<{ page: Page; app: Frame }> {
  const { browser, hostUrl, width, tools, client, calls } = options;
  const context = await browser.newContext({ viewport: { width, height: 900 }, bypassCSP: true });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: hostUrl.slice(0, -1) });
  const page = await context.newPage();
  await page.exposeFunction(
    'hostCallTool',
    async (params: { name: string; arguments?: Record<string, unknown> }) => {
      calls.push(params.name);
      const tool = tools.find((t) => t.name === params.name);
      const visibility = tool?._meta?.ui?.visibility ?? ['model', 'app'];
      if (!tool || !visibility.includes('app')) throw new Error(`The app may not call ${params.name}`);
      return client.callTool(params);
    },
  );
  await page.goto(hostUrl);
  await page.waitForFunction(() => 'startApp' in globalThis);
  await page.evaluate(
    (args) => (globalThis as unknown as { startApp(a: unknown): Promise<void> }).startApp(args),
    {
      html: options.html,
      toolInput: options.toolInput,
      toolResult: options.toolResult,
      hostContext: { ...options.hostContext, containerDimensions: { width, maxHeight: 2000 } },
    },
  );
  page.on('console', (m) => {
    if (m.type() === 'error') console.error(`[${options.label}] ${m.text()}`);
  });
  page.on('pageerror', (e) => console.error(`[${options.label}] ${e.message}`));
  const app = page.frames().find((f) => f !== page.mainFrame());
  if (!app) throw new Error('no app frame');
  return { page, app };
}

/**
 * A real MCP client (v2, 2026-07-28) of the server at `url`/mcp with the bearer `token`, declaring
 * the MCP Apps extension as a host does.
 */
export async function connectAppClient(name: string, url: string, token: string): Promise<Client> {
  const client = new Client(
    { name, version: '1.0.0' },
    {
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [RESOURCE_MIME_TYPE] } } },
    },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}
