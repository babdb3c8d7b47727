/**
 * Titlecard as separate OS processes (`titlecard serve` and other CLI commands), run as a user runs
 * them: the built CLI, `dist/cli.js`, which the tests' global set-up (servers.ts) rebuilds first
 * when a source changed. Starting from dist/ costs a process about a tenth of the CPU that tsx's
 * transpiling of src/ does.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The built command line (`npm run build`; the global set-up keeps it current). */
export const CLI = ['dist/cli.js'];
/** The glibc malloc setting `npm start` and the Dockerfile give it (docs/configuration.md). */
const SERVE_ENV = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '1048576' };

export interface ServerProcess {
  url: string;
  base: string;
  proc: ChildProcess;
  /** What the process wrote on its standard error from its start: its terminal's log lines. */
  stderr(): string;
  stop(): Promise<void>;
}

/**
 * Starts `titlecard serve` (or `worker`) on a free port of 127.0.0.1 and waits until it listens:
 * `node dist/cli.js` with the malloc settings `npm start` gives it, or with `npmStart` through
 * `npm start` itself, as its own process group (a terminal's), stopped with a signal to the group.
 */
export function spawnServer(
  env: Record<string, string>,
  { command = 'serve', npmStart = false }: { command?: 'serve' | 'worker'; npmStart?: boolean } = {},
): Promise<ServerProcess> {
  const [file, args] = npmStart ? ['npm', ['start']] : [process.execPath, [...CLI, command]];
  const proc = spawn(file, args, {
    cwd: ROOT,
    detached: npmStart,
    // SHUTDOWN_DELAY 0: a test stopping its server does not wait for a load balancer (signals.test.ts does).
    env: {
      ...SERVE_ENV,
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      SHUTDOWN_DELAY: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${stderr}`)), 30_000);
    proc.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const line = stderr.split('\n').find((l) => /titlecard (worker )?listening/.test(l));
      if (!line) return;
      clearTimeout(timer);
      const url = (JSON.parse(line) as { url: string }).url;
      resolve({
        url,
        base: `${url}/api`,
        proc,
        stderr: () => stderr,
        stop: () =>
          new Promise<void>((done) => {
            if (proc.exitCode !== null || proc.signalCode !== null) return done();
            proc.once('exit', () => done());
            if (npmStart) process.kill(-(proc.pid as number), 'SIGTERM');
            else proc.kill('SIGTERM');
          }),
      });
    });
    proc.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${stderr}`)));
  });
}

/** Runs a CLI command to completion; returns exit code, stdout and stderr. */
export function runCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = spawn(process.execPath, [...CLI, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  proc.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  proc.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) =>
    proc.once('close', (code) => resolve({ code: code ?? -1, stdout, stderr })),
  );
}

/**
 * Resolves once the server at `url` reports metric `name` (GET /metrics, Prometheus text) at a
 * value `ok` accepts: a test waits for the state it needs (renders running, upload bytes arriving)
 * instead of sleeping for a time that usually suffices. Rejects after `timeoutMs`.
 */
export async function untilMetric(
  url: string,
  name: string,
  ok: (value: number) => boolean,
  timeoutMs = 30_000,
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = await (await fetch(`${url}/metrics`)).text();
    const value = text
      .split('\n')
      .filter((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`))
      .reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0);
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`${name} stayed at ${value} for ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
