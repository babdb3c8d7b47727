/**
 * The real servers the scale-out tests run on, as processes on 127.0.0.1 that a test can stop,
 * pause, kill and start again on the same port and data: FerretDB over SQLite (a MongoDB-wire
 * server), versitygw over a directory (an S3 server that checks request signatures) and Redis in
 * memory (no snapshot, no append-only file: a restart loses what it held, as issue 44's operator
 * saw). The binaries are found on PATH or in Go's bin directory (.ci/run installs them).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface S3TestServer {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** A server process: its address, and the faults a test injects into it. */
export interface ServerProcessHandle {
  port: number;
  /** SIGKILL, awaited: the server is gone, its data kept (Redis's is lost: it keeps none). */
  kill(): Promise<void>;
  /** SIGSTOP: the server holds its connections and answers nothing. */
  pause(): void;
  /** SIGCONT. */
  resume(): void;
  /** Starts it again on the same port and data, once it listens; a no-op while it runs. */
  restart(): Promise<void>;
  /** SIGTERM, awaited, and its data directory removed. */
  stop(): Promise<void>;
}

export function findBinary(name: string): string | undefined {
  const dirs = [
    ...(process.env.PATH ?? '').split(path.delimiter),
    process.env.GOBIN ?? '',
    path.join(process.env.GOPATH ?? path.join(os.homedir(), 'go'), 'bin'),
  ].filter(Boolean);
  return dirs.map((d) => path.join(d, name)).find((p) => existsSync(p));
}

/**
 * The lowest port the kernel hands out for `listen(0)` and outgoing connections
 * (`net.ipv4.ip_local_port_range`; Linux's default 32768 where it cannot be read).
 */
function ephemeralPortsStart(): number {
  try {
    const start = Number(
      readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0],
    );
    return Number.isInteger(start) && start > 20_000 ? start : 32_768;
  } catch {
    return 32_768;
  }
}

/**
 * A free port below the kernel's ephemeral range, kept for the server's restarts: while a test has
 * the server killed (a 45 s S3 outage in test/storage/faults.test.ts), a port from `listen(0)` can
 * be handed to a server another test file starts meanwhile, and the restart then finds that server
 * listening in its place. That is the likely cause of one CI run's failed "frozen S3" readiness
 * check (`files` answered `ok` within 95 ms, where a paused S3 answers nothing). Below the range
 * only this function hands ports out. Throws after 200 ports in use.
 */
async function freePort(): Promise<number> {
  const [low, high] = [20_000, ephemeralPortsStart()];
  for (let tries = 0; tries < 200; tries++) {
    const port = low + Math.floor(Math.random() * (high - low));
    const srv = createServer();
    const bound = await new Promise<boolean>((resolve) => {
      srv.once('error', () => resolve(false));
      srv.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (bound) {
      await new Promise((r) => srv.close(r));
      return port;
    }
  }
  throw new Error(`no free port between ${low} and ${high} in 200 tries`);
}

async function waitForPort(port: number, proc: ChildProcess, name: string, log: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`${name} exited with ${proc.exitCode}:\n${log()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const s = new Socket();
      s.once('connect', () => (s.destroy(), resolve(true)));
      s.once('error', () => resolve(false));
      s.connect(port, '127.0.0.1');
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${name} did not listen on 127.0.0.1:${port}:\n${log()}`);
}

/** Runs `bin` with the arguments `argsOf(port)` gives, as a {@link ServerProcessHandle}. */
async function serve(
  bin: string,
  name: string,
  argsOf: (port: number) => string[],
  dir?: string,
): Promise<ServerProcessHandle> {
  const port = await freePort();
  let proc: ChildProcess;
  let out = '';
  const launch = async () => {
    proc = spawn(bin, argsOf(port), { stdio: ['ignore', 'pipe', 'pipe'] });
    proc.stdout?.on('data', (c: Buffer) => (out = (out + c.toString()).slice(-4000)));
    proc.stderr?.on('data', (c: Buffer) => (out = (out + c.toString()).slice(-4000)));
    await waitForPort(port, proc, name, () => out);
  };
  const ended = async (signal: NodeJS.Signals) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    proc.kill('SIGCONT');
    const exit = once(proc, 'exit');
    proc.kill(signal);
    await exit;
  };
  await launch();
  return {
    port,
    kill: () => ended('SIGKILL'),
    pause: () => proc.kill('SIGSTOP'),
    resume: () => proc.kill('SIGCONT'),
    restart: async () => {
      if (proc.exitCode === null && proc.signalCode === null) return void proc.kill('SIGCONT');
      await launch();
    },
    async stop() {
      await ended('SIGTERM');
      if (dir) await rm(dir, { recursive: true, force: true });
    },
  };
}

/** FerretDB over SQLite in a new directory; undefined without the binary. */
export async function startFerretdb(): Promise<(ServerProcessHandle & { uri: string }) | undefined> {
  const bin = findBinary('ferretdb');
  if (!bin) return undefined;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'titlecard-ferretdb-'));
  const handle = await serve(
    bin,
    'ferretdb',
    (port) => [
      '--handler=sqlite',
      `--sqlite-url=file:${dir}/`,
      `--listen-addr=127.0.0.1:${port}`,
      '--debug-addr=-',
      '--telemetry=disable',
      `--state-dir=${dir}`,
      '--log-level=warn',
    ],
    dir,
  );
  return { ...handle, uri: `mongodb://127.0.0.1:${handle.port}/` };
}

/** stripe-mock (Stripe's mock of its API, stateless) on a free port; undefined without the binary. */
export async function startStripeMock(): Promise<(ServerProcessHandle & { url: string }) | undefined> {
  const bin = findBinary('stripe-mock');
  if (!bin) return undefined;
  // Its HTTPS listener on a port of the system's choosing: its default (12112) may be taken.
  const handle = await serve(bin, 'stripe-mock', (port) => [
    '-http-addr',
    `127.0.0.1:${port}`,
    '-https-addr',
    '127.0.0.1:',
  ]);
  return { ...handle, url: `http://127.0.0.1:${handle.port}` };
}

/** versitygw over a new directory, with its bucket made; undefined without the binary. */
export async function startVersitygw(): Promise<(ServerProcessHandle & { s3: S3TestServer }) | undefined> {
  const bin = findBinary('versitygw');
  if (!bin) return undefined;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'titlecard-s3-'));
  const creds = { accessKeyId: 'titlecardtest', secretAccessKey: 'titlecard-test-secret-key' };
  const handle = await serve(
    bin,
    'versitygw',
    (port) => [
      '--access',
      creds.accessKeyId,
      '--secret',
      creds.secretAccessKey,
      '--port',
      `127.0.0.1:${port}`,
      'posix',
      dir,
    ],
    dir,
  );
  const s3 = { endpoint: `http://127.0.0.1:${handle.port}`, bucket: 'titlecard-test', ...creds };
  await createBucket(s3);
  return { ...handle, s3 };
}

/** Makes `s3.bucket` unless it exists. */
export async function createBucket(s3: S3TestServer): Promise<void> {
  const { S3Client, CreateBucketCommand } = await import('@aws-sdk/client-s3');
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
  await client.send(new CreateBucketCommand({ Bucket: s3.bucket })).catch((err: { name?: string }) => {
    if (err.name !== 'BucketAlreadyOwnedByYou' && err.name !== 'BucketAlreadyExists') throw err;
  });
  client.destroy();
}

/** Redis in memory only (no snapshot, no append-only file); undefined without the binary. */
export async function startRedis(): Promise<(ServerProcessHandle & { url: string }) | undefined> {
  const bin = findBinary('redis-server');
  if (!bin) return undefined;
  const handle = await serve(bin, 'redis-server', (port) => [
    '--bind',
    '127.0.0.1',
    '--port',
    String(port),
    '--save',
    '',
    '--appendonly',
    'no',
  ]);
  return { ...handle, url: `redis://127.0.0.1:${handle.port}` };
}
