/**
 * Runs the official MCP conformance suite (`@modelcontextprotocol/conformance`) against a Titlecard
 * it starts: `npm run conformance` (CI runs it; it needs Node 22 and a built dist/).
 *
 * The suite sends no Authorization header (it has no option for one), so it talks to a forwarding
 * proxy on loopback that adds the bearer token of a user made for the run, and passes Host and
 * Origin through unchanged (the dns-rebinding-protection scenario tests them). Two runs:
 * `--requirements 2026-07-28` (stateless, `server/discover`) and `--requirements 2025-11-25`
 * (the `initialize` handshake). Scenarios that need the suite's own fixture tools, prompts or
 * resources are listed, each with its reason, in `conformance/expected-failures-<revision>.yaml`;
 * the suite fails a run when a scenario outside the list fails, or one in it passes.
 *
 * Exit code 0 when both runs pass; each run's output is printed as it comes. With CONFORMANCE_OUTPUT
 * set to a folder, every check's result lands there too (`<revision>/server-<scenario>-…/checks.json`).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = path.join(ROOT, 'dist/cli.js');
const SUITE = path.join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const REVISIONS = ['2026-07-28', '2025-11-25'] as const;

/** Runs `node args…`; resolves with its exit code and stdout (stderr passes through). */
async function node(args: string[], env: Record<string, string> = {}, echo = false) {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (echo) process.stdout.write(chunk);
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code: code ?? 1, stdout };
}

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'titlecard-conformance-'));
const env = { DATA_DIR: dataDir, LOG_LEVEL: 'warn', SHUTDOWN_DELAY: '0' };
const made = await node(
  [
    CLI,
    'users',
    'create',
    '--email',
    'conformance@example.com',
    '--name',
    'Conformance',
    '--tier',
    'agency',
    '--json',
  ],
  env,
);
const { token } = JSON.parse(made.stdout) as { token: string };

// The server, on a free port of loopback; PUBLIC_URL unset, so it is on loopback too.
const server = spawn(process.execPath, [CLI, 'serve'], {
  cwd: ROOT,
  env: { ...process.env, ...env, LOG_LEVEL: 'info', PORT: '0', HOST: '127.0.0.1' },
  stdio: ['ignore', 'ignore', 'pipe'],
});
const target = await new Promise<URL>((resolve, reject) => {
  let log = '';
  server.stderr.on('data', (chunk: Buffer) => {
    log += chunk.toString();
    const line = log.split('\n').find((l) => l.includes('titlecard listening'));
    if (line) resolve(new URL((JSON.parse(line) as { url: string }).url));
  });
  server.once('exit', () => reject(new Error(`titlecard serve stopped:\n${log}`)));
});

// The proxy: every request as it came (Host and Origin included), plus the bearer token.
const proxy = createServer((req, res) => {
  const upstream = request(
    {
      host: target.hostname,
      port: target.port,
      method: req.method,
      path: req.url,
      headers: { ...req.headers, authorization: req.headers.authorization ?? `Bearer ${token}` },
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => res.writeHead(502).end());
  req.pipe(upstream);
});
proxy.listen(0, '127.0.0.1');
await once(proxy, 'listening');
const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp`;

let failed = 0;
try {
  for (const revision of REVISIONS) {
    process.stdout.write(`\n== MCP conformance, --requirements ${revision}, against ${url}\n`);
    const run = await node(
      [
        SUITE,
        'server',
        '--url',
        url,
        '--requirements',
        revision,
        '--expected-failures',
        path.join(ROOT, `conformance/expected-failures-${revision}.yaml`),
        ...(process.env.CONFORMANCE_OUTPUT
          ? ['-o', path.join(process.env.CONFORMANCE_OUTPUT, revision)]
          : []),
      ],
      {},
      true,
    );
    process.stdout.write(`== ${revision}: exit ${run.code}\n`);
    if (run.code !== 0) failed += 1;
  }
} finally {
  proxy.close();
  server.kill('SIGTERM');
  await once(server, 'exit');
  await rm(dataDir, { recursive: true, force: true });
}
process.exitCode = failed === 0 ? 0 : 1;
