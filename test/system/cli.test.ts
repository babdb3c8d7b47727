/**
 * The `titlecard` command as a user runs it: account creation with its token printed once, tiers,
 * extra tokens, --help, and configuration errors.
 */
import { SCOPES } from '../../src/domain/design.js';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { accessSync, constants, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ROOT, runCli, spawnServer } from '../support/process.js';
import { call } from '../support/server.js';

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'titlecard-cli-'));
});
afterAll(async () => rm(dataDir, { recursive: true, force: true }));

describe('titlecard CLI', () => {
  it('users create --json prints exactly one JSON object with the user and the token', async () => {
    const r = await runCli(
      ['users', 'create', '--email', 'you@example.com', '--name', 'You', '--tier', 'pro', '--json'],
      { DATA_DIR: dataDir },
    );
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(out).toEqual({
      user: { id: expect.stringMatching(/^usr_/), email: 'you@example.com', displayName: 'You', tier: 'pro' },
      token: expect.stringMatching(/^tc_[0-9A-Za-z]{40}$/),
    });
    expect(r.stdout.trim().split('\n')).toHaveLength(1);

    // The printed token works against a server on the same DATA_DIR.
    const server = await spawnServer({ DATA_DIR: dataDir });
    try {
      const v = await call(server.base, 'GET', '/tokens/validate', { token: out.token as string });
      expect(v.status).toBe(200);
      expect(v.body.data.user.email).toBe('you@example.com');
    } finally {
      await server.stop();
    }
  });

  it('without --json it prints the token for a person, once', async () => {
    const r = await runCli(['users', 'create', '--email', 'human@example.com', '--name', 'Human'], {
      DATA_DIR: dataDir,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/tc_[0-9A-Za-z]{40}/);
    expect(r.stdout).toMatch(/tier free/);
  });

  it('a taken email is refused with a clear message', async () => {
    const r = await runCli(['users', 'create', '--email', 'YOU@example.com', '--name', 'Again'], {
      DATA_DIR: dataDir,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/already registered/);
  });

  it('users set-tier changes the tier; tokens create --json prints the new token record', async () => {
    const s = await runCli(['users', 'set-tier', '--email', 'you@example.com', '--tier', 'agency'], {
      DATA_DIR: dataDir,
    });
    expect(s.code, s.stderr).toBe(0);
    expect(s.stdout).toMatch(/agency/);
    const bad = await runCli(['users', 'set-tier', '--email', 'you@example.com', '--tier', 'gold'], {
      DATA_DIR: dataDir,
    });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/tier/);
    const t = await runCli(['tokens', 'create', '--email', 'you@example.com', '--name', 'laptop', '--json'], {
      DATA_DIR: dataDir,
    });
    expect(t.code, t.stderr).toBe(0);
    expect(JSON.parse(t.stdout)).toEqual({
      token: {
        id: expect.stringMatching(/^tok_/),
        name: 'laptop',
        token: expect.stringMatching(/^tc_/),
        createdAt: expect.any(String),
        // In the account's personal workspace, with every scope of its owner (docs/workspaces.md).
        scopes: [...SCOPES],
        workspaceId: expect.stringMatching(/^usr_/),
      },
    });
    const missing = await runCli(['tokens', 'create', '--email', 'nobody@example.com', '--name', 'x'], {
      DATA_DIR: dataDir,
    });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/nobody@example.com/);
  });

  it("workspaces set-tier changes any workspace's tier, which its tokens then see (docs/workspaces.md)", async () => {
    const t = await runCli(['tokens', 'create', '--email', 'you@example.com', '--name', 'tier', '--json'], {
      DATA_DIR: dataDir,
    });
    const { workspaceId, token } = (JSON.parse(t.stdout) as { token: { workspaceId: string; token: string } })
      .token;
    const set = await runCli(
      ['workspaces', 'set-tier', '--workspace', workspaceId, '--tier', 'pro', '--json'],
      {
        DATA_DIR: dataDir,
      },
    );
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({
      workspace: { id: workspaceId, name: expect.any(String), tier: 'pro' },
    });
    const server = await spawnServer({ DATA_DIR: dataDir });
    try {
      expect((await call(server.base, 'GET', '/usage', { token })).body.data.tier).toBe('pro');
    } finally {
      await server.stop();
    }
    const unknown = await runCli(['workspaces', 'set-tier', '--workspace', 'wsp_nope', '--tier', 'pro'], {
      DATA_DIR: dataDir,
    });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/No workspace wsp_nope/);
  });

  it('the built CLI is executable, so npx titlecard can run it (npm test builds dist first)', () => {
    expect(() => accessSync(path.join(ROOT, 'dist/cli.js'), constants.X_OK)).not.toThrow();
  });

  it("--version prints the package's version, and nothing else", async () => {
    const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      version: string;
    };
    const r = await runCli(['--version'], {});
    expect([r.code, r.stdout]).toEqual([0, `${version}\n`]);
  });

  it('--help piped into a reader that stops early (| head) exits 0, without a stack trace', async () => {
    // The reader is gone before the CLI writes: its first write meets EPIPE.
    const proc = spawn(process.execPath, [...CLI, '--help'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    proc.stdout.destroy();
    let stderr = '';
    proc.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const [code] = (await once(proc, 'close')) as [number];
    expect([code, stderr]).toEqual([0, '']);
  });

  it('--help documents the commands and every environment variable', async () => {
    const r = await runCli(['--help'], {});
    expect(r.code).toBe(0);
    for (const word of [
      'users create',
      'set-tier',
      'tokens create',
      'serve',
      'PORT',
      'HOST',
      'PUBLIC_URL',
      'DATA_DIR',
      'LOG_LEVEL',
    ])
      expect(r.stdout).toContain(word);
    // Each command has its own generated help, naming its options.
    const create = await runCli(['users', 'create', '--help'], {});
    expect(create.code).toBe(0);
    for (const option of ['--email', '--name', '--tier', '--json']) expect(create.stdout).toContain(option);
  });

  it('a usage error exits 2 with the help; a refused action exits 1 with its message', async () => {
    for (const args of [
      ['nonsense'],
      ['users', 'create', '--name', 'No email'],
      ['sweep', '--grace-minutes', '-5'],
      [],
    ]) {
      const r = await runCli(args, { DATA_DIR: dataDir });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(/Usage: titlecard/);
    }
    const refused = await runCli(['users', 'set-tier', '--email', 'nobody@example.com', '--tier', 'pro'], {
      DATA_DIR: dataDir,
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/nobody@example.com/);
  });

  it('a bad configuration value stops start-up with a message naming the variable', async () => {
    for (const [name, value] of [
      ['PORT', 'eighty'],
      ['PORT', '70000'],
      ['PUBLIC_URL', 'ftp://example.com'],
      ['LOG_LEVEL', 'loud'],
    ]) {
      const r = await runCli(['serve'], { DATA_DIR: dataDir, [name as string]: value as string });
      expect(r.code, `${name}=${value}`).toBe(1);
      expect(r.stderr).toContain(`Invalid ${name as string}=`);
    }
  });
});
