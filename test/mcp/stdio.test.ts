/**
 * `npx titlecard mcp` over stdio, spawned as Claude Desktop spawns it (it runs dist/, which
 * `npm test` builds first): on the local embedded store, and as a client of a remote Titlecard
 * (TITLECARD_API_URL). Also the MCP Inspector's command-line mode listing and calling the tools.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOL_NAMES } from '../support/mcp-tools.js';
import type { Services } from '../../src/domain/services.js';
import { openStorage } from '../../src/adapters/storage/index.js';
import { PHOTOS_DIR, solid } from '../support/images.js';
import { ROOT, spawnServer, type ServerProcess } from '../support/process.js';
import { call, startTestServer, testServices } from '../support/server.js';

/** The command a user configures in Claude Desktop. */
const MCP_COMMAND = ['npx', 'titlecard', 'mcp'] as const;

async function stdioClient(env: Record<string, string>): Promise<{ client: Client; errors: Error[] }> {
  const transport = new StdioClientTransport({
    command: MCP_COMMAND[0],
    args: MCP_COMMAND.slice(1),
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'info', ...env },
    stderr: 'pipe',
  });
  // The v2 client at the current revision (revisions.test.ts runs the older ones).
  const client = new Client(
    { name: 'stdio-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  const errors: Error[] = [];
  client.onerror = (err) => errors.push(err);
  await client.connect(transport);
  return { client, errors };
}
const tool = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  await client.callTool({ name, arguments: args });

let dataDir: string;
let services: Services;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'titlecard-stdio-'));
  services = testServices({ ...(await openStorage({ dataDir })), publicUrl: 'http://localhost:3000' });
});
afterAll(async () => {
  await services.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('stdio on the local store', () => {
  it('lists the tools (with imagePath), generates from a file on this machine, and keeps stdout for the protocol', async () => {
    const { token } = await services.accounts.createUser({
      email: 'desktop@example.com',
      displayName: 'Desktop',
      tier: 'pro',
    });
    const big = path.join(dataDir, 'big.jpg');
    await writeFile(big, Buffer.alloc(11 * 1024 * 1024));
    const { client, errors } = await stdioClient({ TITLECARD_TOKEN: token.token, DATA_DIR: dataDir });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOL_NAMES);
    expect(
      Object.keys(tools.find((t) => t.name === 'generate_image')?.inputSchema.properties ?? {}),
    ).toContain('imagePath');
    const r = await tool(client, 'generate_image', {
      title: 'From Claude Desktop',
      imagePath: path.join(PHOTOS_DIR, 'mate_RainDrops.jpg'),
      fileFormat: 'jpeg',
    });
    expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
    expect((r.structuredContent as { width: number }).width).toBe(1200);
    // On the local store the file is on this computer: the result says where, and links to it.
    const url = (r.structuredContent as { url: string }).url;
    const file = path.join(dataDir, 'files', url.split('/').at(-1) as string);
    const texts = r.content.filter((c) => c.type === 'text').map((c) => (c as { text: string }).text);
    expect(texts.join('\n')).toContain(`saved on this computer at ${file}`);
    expect(texts.join('\n')).toMatch(/served only while `titlecard serve` runs with the same DATA_DIR/);
    const link = r.content.find((c) => c.type === 'resource_link') as { uri: string } | undefined;
    expect(link?.uri).toBe(pathToFileURL(file).href);
    expect((await stat(file)).size).toBeGreaterThan(1000);
    // Each refusal names imagePath and says what is wrong with the path in words.
    const notImage = path.join(dataDir, 'notes.txt');
    await writeFile(notImage, 'not an image');
    for (const [imagePath, message] of [
      [
        '/nonexistent/photo.jpg',
        'Invalid imagePath (format): Expected a readable image file for imagePath but nothing exists at /nonexistent/photo.jpg',
      ],
      [
        notImage,
        'Invalid imagePath (format): Expected a JPEG, PNG or WebP image for imagePath but received data of an unknown format',
      ],
      // Only a regular file of at most 10 MB is read: a directory, a device or a huge file is refused unread.
      [
        os.tmpdir(),
        `Invalid imagePath (format): Expected an image file for imagePath but ${os.tmpdir()} is a folder`,
      ],
      ['/dev/zero', /imagePath but \/dev\/zero is not a regular file/],
      [big, /10 MB\) for imagePath/],
    ] as const) {
      const refused = await tool(client, 'generate_image', { title: 'x', imagePath });
      expect(refused.isError, imagePath).toBe(true);
      const text = (refused.content[0] as { text: string }).text;
      if (typeof message === 'string') expect(text).toBe(message);
      else expect(text).toMatch(message);
    }
    expect(
      (await services.quota.usage((await services.accounts.actAs('desktop@example.com')).workspace)).usage
        .generated,
    ).toBe(1);
    expect(errors).toEqual([]); // nothing but JSON-RPC reached stdout
    await client.close();
    // Seven calls through an `npx`-spawned process: 7 s alone, three times that on a CI machine
    // running the other suites, and once past 60 s there.
  }, 120_000);

  it('a revoked token is refused on the next call', async () => {
    const { user, token } = await services.accounts.createUser({
      email: 'revoked@example.com',
      displayName: 'R',
      tier: 'pro',
    });
    const { client } = await stdioClient({ TITLECARD_TOKEN: token.token, DATA_DIR: dataDir });
    expect((await tool(client, 'validate_token')).isError).toBeFalsy();
    await services.accounts.revokeToken(await services.accounts.actAs(user.email), token.id);
    const r = await tool(client, 'validate_token');
    expect(r.isError).toBe(true);
    expect((r.content[0] as { text: string }).text).toMatch(/invalid or expired/);
    await client.close();
  });

  it('without TITLECARD_TOKEN it stops with a message on stderr', async () => {
    const proc = spawn(MCP_COMMAND[0], MCP_COMMAND.slice(1), {
      cwd: ROOT,
      env: { ...process.env, TITLECARD_TOKEN: '', DATA_DIR: dataDir },
    });
    let stderr = '';
    let stdout = '';
    proc.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    proc.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    const code = await new Promise((r) => proc.on('close', r));
    expect(code).toBe(1);
    expect(stderr).toMatch(/TITLECARD_TOKEN is required/);
    expect(stdout).toBe('');
  });
});

describe('stdio as a client of a remote Titlecard', () => {
  let remote: ServerProcess;
  beforeAll(async () => {
    remote = await spawnServer({ DATA_DIR: dataDir });
  });
  afterAll(async () => remote?.stop());

  it('every tool works through the remote REST API, on the same quota', async () => {
    const { token } = await services.accounts.createUser({
      email: 'hosted@example.com',
      displayName: 'Hosted',
      tier: 'pro',
    });
    const { client, errors } = await stdioClient({
      TITLECARD_TOKEN: token.token,
      TITLECARD_API_URL: remote.base,
      DATA_DIR: '/nonexistent',
    });
    const jpeg = await solid([120, 60, 30], 'jpeg', 640, 400);
    const r = await tool(client, 'generate_image', {
      title: 'Hosted',
      subtitle: 'remote mode',
      imageBase64: jpeg.toString('base64'),
      position: { x: 0.5, y: 0.3 },
      font: { system: 'oswald' },
    });
    expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
    expect(r.content.some((c) => c.type === 'image')).toBe(true);
    const list = (await tool(client, 'list_images')).structuredContent as {
      images: { id: string; title: string }[];
    };
    expect(list.images.map((i) => i.title)).toEqual(['Hosted']);
    // The studio's large view reads the file through the REST API and the public file URL.
    const large = await tool(client, 'card_image', { id: list.images[0]?.id });
    expect(large.structuredContent).toMatchObject({ width: 1200, height: 630, mimeType: 'image/jpeg' });
    const usage = (await tool(client, 'get_usage')).structuredContent as { usage: { generated: number } };
    expect(usage.usage.generated).toBe(1);
    const rest = await call(remote.base, 'GET', '/usage', { token: token.token });
    expect(rest.body.data.usage.generated).toBe(1);
    const v = (await tool(client, 'validate_token')).structuredContent as { user: { email: string } };
    expect(v.user.email).toBe('hosted@example.com');
    const bad = await tool(client, 'generate_image', {
      title: 'x',
      imageBase64: Buffer.from('not an image').toString('base64'),
    });
    expect(bad.isError).toBe(true);
    expect((bad.content[0] as { text: string }).text).toMatch(/image/);
    expect(errors).toEqual([]);
    await client.close();
  });
});

describe('MCP Inspector CLI', () => {
  function inspector(
    args: string[],
    env: Record<string, string>,
  ): Promise<{ code: number; stdout: string; stderr: string }> {
    const e = Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
    return inspectorCli([...e, ...MCP_COMMAND, ...args]);
  }

  /** `mcp-inspector --cli` (v2) with `args`; its catalog in this test's directory, not the home one. */
  function inspectorCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const proc = spawn(path.join(ROOT, 'node_modules/.bin/mcp-inspector'), ['--cli', ...args], {
      cwd: ROOT,
      env: { ...process.env, MCP_CATALOG_PATH: path.join(dataDir, 'inspector-catalog.json') },
    });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    proc.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    return new Promise((resolve) =>
      proc.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr })),
    );
  }

  it('over Streamable HTTP, with the bearer token in a --header, lists the tools and reads the usage', async () => {
    const srv = await startTestServer();
    try {
      const { token } = await srv.createUser('free');
      // The URL first: --header takes every value up to the next option.
      const http = [`${srv.url}/mcp`, '--transport', 'http', '--header', `Authorization: Bearer ${token}`];
      const list = await inspectorCli([...http, '--method', 'tools/list']);
      expect(list.code, list.stderr).toBe(0);
      expect(
        (JSON.parse(list.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name).sort(),
      ).toEqual(TOOL_NAMES);
      const usage = await inspectorCli([...http, '--method', 'tools/call', '--tool-name', 'get_usage']);
      expect(usage.code, usage.stderr).toBe(0);
      expect(
        (JSON.parse(usage.stdout) as { structuredContent: { tier: string } }).structuredContent.tier,
      ).toBe('free');
    } finally {
      await srv.close();
    }
  });

  it('lists and calls the tools', async () => {
    const { token } = await services.accounts.createUser({
      email: 'inspector@example.com',
      displayName: 'Inspector',
      tier: 'free',
    });
    const env = { TITLECARD_TOKEN: token.token, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
    const list = await inspector(['--method', 'tools/list'], env);
    expect(list.code, list.stderr).toBe(0);
    expect(
      (JSON.parse(list.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name).sort(),
    ).toEqual(TOOL_NAMES);
    const usage = await inspector(['--method', 'tools/call', '--tool-name', 'get_usage'], env);
    expect(usage.code, usage.stderr).toBe(0);
    expect((JSON.parse(usage.stdout) as { structuredContent: { tier: string } }).structuredContent.tier).toBe(
      'free',
    );
    const gen = await inspector(
      [
        '--method',
        'tools/call',
        '--tool-name',
        'generate_image',
        '--tool-arg',
        'title=Inspected',
        `imagePath=${path.join(PHOTOS_DIR, 'mate_RainDrops.jpg')}`,
      ],
      env,
    );
    expect(gen.code, gen.stderr).toBe(0);
    expect((JSON.parse(gen.stdout) as { structuredContent: { width: number } }).structuredContent.width).toBe(
      1200,
    );
  });
});
