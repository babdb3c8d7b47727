/**
 * A new person's first run of a local install (issue 55, items 12 to 15), tried as they would: the
 * server started as `titlecard serve` without SMTP_URL, its terminal read as they read it; the
 * stdio connector started from another folder, as Claude Desktop starts it; a port in use; a token
 * sent without its scheme; a Node.js too old.
 */
import { execFile, spawn, type SpawnOptions } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogMailer } from '../../src/adapters/mail.js';
import { nodeVersionProblem } from '../../src/version.js';
import { solid } from '../support/images.js';
import { CLI, ROOT, runCli, spawnServer, type ServerProcess } from '../support/process.js';
import { silentLogger } from '../support/server.js';
import { WebClient } from '../support/web.js';

let dataDir: string;
let elsewhere: string;
let server: ServerProcess;
/** The server's PUBLIC_URL, http://localhost:<port> (the address its pages and files are served at). */
let publicUrl: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'titlecard-first-run-'));
  elsewhere = await mkdtemp(path.join(os.tmpdir(), 'titlecard-elsewhere-'));
  server = await spawnServer({ DATA_DIR: dataDir });
  publicUrl = `http://localhost:${new URL(server.url).port}`;
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
  await rm(elsewhere, { recursive: true, force: true });
});

/** A new account on the server's store (`titlecard users create`), and its first API token. */
async function newToken(name: string): Promise<string> {
  const made = await runCli(
    ['users', 'create', '--email', `${name}-${Date.now()}@example.com`, '--name', name, '--json'],
    { DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  );
  return (JSON.parse(made.stdout) as { token: string }).token;
}

/** Runs `command` to its end; its exit code and what it wrote on stderr. */
function exitOf(
  command: string,
  args: string[],
  options: SpawnOptions,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const proc = spawn(command, args, { ...options, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    proc.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    proc.once('close', (code) => resolve({ code, stderr }));
  });
}

/** Waits up to 5 s for `pattern` in the server's terminal. */
async function inTerminal(pattern: RegExp): Promise<RegExpExecArray> {
  for (let i = 0; i < 100; i++) {
    const found = pattern.exec(server.stderr());
    if (found) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${String(pattern)} not in the server's terminal:\n${server.stderr()}`);
}

/** The stdio connector as Claude Desktop starts it: `npx --prefix <checkout> titlecard mcp`, from another folder. */
async function desktopConnector(env: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'first-run', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: 'npx',
      args: ['--prefix', ROOT, 'titlecard', 'mcp'],
      cwd: elsewhere,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stderr: 'pipe',
    }),
  );
  return client;
}

describe('a local install, tried as a new person would', () => {
  it('prints the confirmation mail plainly where the server runs; the Tokens page asks for it before offering a token; no stray SDK line (items 14, 15)', async () => {
    const web = new WebClient(publicUrl);
    const email = `first-${Date.now()}@example.com`;
    await web.signUp(email);
    const tokensBefore = await web.get('/settings/tokens');
    expect(tokensBefore.text).toContain('Confirm your email before you make a token');
    expect(tokensBefore.text).toContain('printed in the terminal where it runs');
    expect(tokensBefore.text).not.toContain('action="/settings/tokens"');
    // The mail, framed for a person among the log lines: its recipient, subject and link.
    const mail = await inTerminal(
      new RegExp(
        `Titlecard sends no email \\(no SMTP_URL\\), so here it is:\\nTo: ${email}\\nSubject: [^\\n]+\\n\\n[\\s\\S]*?(/verify-email\\?token=lnk_[0-9A-Za-z]{43})`,
      ),
    );
    const token = new URL(mail[1] ?? '', publicUrl).searchParams.get('token') ?? '';
    const confirmed = await web.post('/verify-email', { token });
    expect(confirmed.status).toBe(200);
    const tokensAfter = await web.get('/settings/tokens');
    expect(tokensAfter.text).toContain('action="/settings/tokens"');
    // The MCP SDK's notice about JSON answers is not printed on every start.
    expect(server.stderr()).toContain('titlecard listening');
    expect(server.stderr()).not.toContain('responseMode');
  });

  it('prints no control character a sign-up chose (an escape sequence in a display name)', async () => {
    const printed: string[] = [];
    const mailer = createLogMailer(silentLogger, (text) => printed.push(text));
    await mailer.send({
      to: 'person@example.com',
      subject: 'Confirm your email for Titlecard',
      text: 'Hello \u001b]52;c;ZXZpbA==\u0007\u001b[2KMallory,\nopen this link:\nhttp://localhost/verify',
    });
    expect(printed.join('')).toContain('Hello ]52;c;ZXZpbA==[2KMallory,\nopen this link:');
    // eslint-disable-next-line no-control-regex
    expect(printed.join('')).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  });

  it('names a port in use and how to choose another, without a stack (item 15)', async () => {
    const second = await runCli(['serve'], {
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: new URL(server.url).port,
      LOG_LEVEL: 'warn',
    });
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(
      `titlecard: Cannot listen on 127.0.0.1 port ${new URL(server.url).port}: another program (another titlecard serve?) is using it. Stop that program, or choose another port with PORT`,
    );
    expect(second.stderr).not.toMatch(/\n\s+at /);
  });

  it('a token sent without the Bearer scheme is told so, not called invalid (item 15)', async () => {
    const token = await newToken('scheme');
    const bare = await fetch(`${server.base}/usage`, { headers: { authorization: token } });
    expect(bare.status).toBe(401);
    expect(((await bare.json()) as { message: string }).message).toBe(
      'The API token is invalid as sent: the Authorization header must name the Bearer scheme before the token: send Authorization: Bearer <API_TOKEN>',
    );
    expect(
      (await fetch(`${server.base}/usage`, { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(200);
  });

  it('the stdio connector started from another folder finds the store it is given and the server’s address, and says so plainly when there is no store (item 13)', async () => {
    const token = await newToken('desktop');

    // No store where it looks: a plain refusal naming the folder, and no empty store made there.
    const missing = path.join(elsewhere, 'data');
    const refused = await exitOf('npx', ['--prefix', ROOT, 'titlecard', 'mcp'], {
      cwd: elsewhere,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TITLECARD_TOKEN: token },
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`titlecard: No Titlecard store at ${missing} (DATA_DIR unset`);
    expect(refused.stderr).toContain('Set DATA_DIR to the folder titlecard serve keeps its store in');
    expect(existsSync(missing)).toBe(false);

    // Given the server's folder: its cards, at the address the server serves them from.
    const client = await desktopConnector({ TITLECARD_TOKEN: token, DATA_DIR: dataDir });
    try {
      const made = await client.callTool({
        name: 'generate_image',
        arguments: {
          title: 'From Claude Desktop',
          imageBase64: (await solid([40, 90, 160], 'jpeg', 800, 500)).toString('base64'),
        },
      });
      expect(made.isError, JSON.stringify(made.content)).toBeFalsy();
      const url = (made.structuredContent as { url: string }).url;
      expect(url.startsWith(`${publicUrl}/files/`)).toBe(true);
      expect((await fetch(url)).status).toBe(200);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('TITLECARD_API_URL takes the site’s address with or without /api (item 12)', async () => {
    const token = await newToken('remote');
    for (const address of [server.url, `${server.url}/`, server.base]) {
      const client = await desktopConnector({ TITLECARD_TOKEN: token, TITLECARD_API_URL: address });
      try {
        const usage = await client.callTool({ name: 'get_usage', arguments: {} });
        expect(usage.isError, `${address}: ${JSON.stringify(usage.content)}`).toBeFalsy();
        expect(usage.structuredContent).toMatchObject({ tier: 'free' });
      } finally {
        await client.close();
      }
    }
  }, 60_000);

  it('a Node.js older than the one it needs is named, with the version needed (item 15)', async () => {
    expect(nodeVersionProblem('20.20.2')).toContain('Titlecard needs Node.js 22.18 or later');
    expect(nodeVersionProblem('22.17.1')).toContain('but this is 22.17.1');
    expect(nodeVersionProblem('22.18.0')).toBeUndefined();
    expect(nodeVersionProblem('24.1.0')).toBeUndefined();
    // The machine's own Node.js, where it is older (Debian's 20 on this project's machines).
    const older = '/usr/bin/node';
    const version = existsSync(older)
      ? (await promisify(execFile)(older, ['--version'])).stdout.trim().replace(/^v/, '')
      : undefined;
    if (!version || !nodeVersionProblem(version)) {
      console.info(
        `first run: no Node.js older than 22.18 at ${older}; the command itself was not run with one`,
      );
      return;
    }
    const old = await exitOf(older, [...CLI, 'users', 'list'], { cwd: ROOT, env: { DATA_DIR: dataDir } });
    expect(old.code).toBe(1);
    expect(old.stderr).toBe(`titlecard: ${nodeVersionProblem(version)}\n`);
  });
});
