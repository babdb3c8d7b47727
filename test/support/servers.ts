/**
 * vitest global setup: builds dist/ where a source changed (the tests' `titlecard` processes run
 * it), and starts the real servers the scale-out suites need, on 127.0.0.1, and stops
 * them afterwards. A MongoDB-wire server (FerretDB over SQLite) and an S3 server that checks request
 * signatures (versitygw over a directory), found on PATH or in Go's bin directory (.ci/run installs
 * them with the Go toolchain), and Redis (Debian's redis-server, which .ci/run installs). Or point
 * at running ones with TITLECARD_TEST_MONGODB_URI, TITLECARD_TEST_S3_ENDPOINT (+
 * TITLECARD_TEST_S3_ACCESS_KEY / _SECRET_KEY) and TITLECARD_TEST_REDIS_URL. When one is
 * available the suites that need them are skipped, saying why; in CI (`CI=true`) a missing server
 * fails the run instead, so that a broken install cannot pass as green.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { ROOT } from './process.js';

export interface S3TestServer {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    mongoUri: string | undefined;
    s3: S3TestServer | undefined;
    redisUrl: string | undefined;
  }
}

function findBinary(name: string): string | undefined {
  const dirs = [
    ...(process.env.PATH ?? '').split(path.delimiter),
    process.env.GOBIN ?? '',
    path.join(process.env.GOPATH ?? path.join(os.homedir(), 'go'), 'bin'),
  ].filter(Boolean);
  return dirs.map((d) => path.join(d, name)).find((p) => existsSync(p));
}

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as { port: number };
  await new Promise((r) => srv.close(r));
  return port;
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

function start(bin: string, args: string[]): { proc: ChildProcess; log: () => string } {
  const proc = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout?.on('data', (c: Buffer) => (out = (out + c.toString()).slice(-4000)));
  proc.stderr?.on('data', (c: Buffer) => (out = (out + c.toString()).slice(-4000)));
  return { proc, log: () => out };
}

/**
 * dist/ rebuilt where a source changed (`npm run build:changed`: tsc's build mode, about 0.5 s when
 * nothing did): the tests start `titlecard` processes from it (process.ts), as users run it.
 */
function buildChanged(): void {
  execFileSync('npm', ['run', '--silent', 'build:changed'], { cwd: ROOT, stdio: 'inherit' });
}

/**
 * `npx titlecard` once, before the test files run side by side: npm exec sets up its cache entry for
 * this checkout (`~/.npm/_npx/<hash>`) on first use, and two first uses at once can leave it without
 * its package.json (a CI run saw every later `npx titlecard` of the stdio, Inspector and README
 * tests fail with ENOENT).
 */
function warmNpx(): void {
  execFileSync('npx', ['--yes', 'titlecard', '--version'], { cwd: ROOT, stdio: 'ignore' });
}

export default async function setup(project: TestProject) {
  buildChanged();
  warmNpx();
  const procs: ChildProcess[] = [];
  const dirs: string[] = [];

  let mongoUri = process.env.TITLECARD_TEST_MONGODB_URI;
  const ferretdb = mongoUri ? undefined : findBinary('ferretdb');
  if (ferretdb) {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'titlecard-ferretdb-'));
    dirs.push(dir);
    const port = await freePort();
    const { proc, log } = start(ferretdb, [
      '--handler=sqlite',
      `--sqlite-url=file:${dir}/`,
      `--listen-addr=127.0.0.1:${port}`,
      '--debug-addr=-',
      '--telemetry=disable',
      `--state-dir=${dir}`,
      '--log-level=warn',
    ]);
    procs.push(proc);
    await waitForPort(port, proc, 'ferretdb', log);
    mongoUri = `mongodb://127.0.0.1:${port}/`;
  }

  let s3: S3TestServer | undefined;
  if (process.env.TITLECARD_TEST_S3_ENDPOINT) {
    s3 = {
      endpoint: process.env.TITLECARD_TEST_S3_ENDPOINT,
      bucket: process.env.TITLECARD_TEST_S3_BUCKET ?? 'titlecard-test',
      accessKeyId: process.env.TITLECARD_TEST_S3_ACCESS_KEY ?? '',
      secretAccessKey: process.env.TITLECARD_TEST_S3_SECRET_KEY ?? '',
    };
  } else {
    const versitygw = findBinary('versitygw');
    if (versitygw) {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'titlecard-s3-'));
      dirs.push(dir);
      const port = await freePort();
      const creds = { accessKeyId: 'titlecardtest', secretAccessKey: 'titlecard-test-secret-key' };
      const { proc, log } = start(versitygw, [
        '--access',
        creds.accessKeyId,
        '--secret',
        creds.secretAccessKey,
        '--port',
        `127.0.0.1:${port}`,
        'posix',
        dir,
      ]);
      procs.push(proc);
      await waitForPort(port, proc, 'versitygw', log);
      s3 = { endpoint: `http://127.0.0.1:${port}`, bucket: 'titlecard-test', ...creds };
    }
  }
  if (s3) {
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

  let redisUrl = process.env.TITLECARD_TEST_REDIS_URL;
  const redis = redisUrl ? undefined : findBinary('redis-server');
  if (redis) {
    const port = await freePort();
    // In memory only: no snapshot, no append-only file.
    const { proc, log } = start(redis, [
      '--bind',
      '127.0.0.1',
      '--port',
      String(port),
      '--save',
      '',
      '--appendonly',
      'no',
    ]);
    procs.push(proc);
    await waitForPort(port, proc, 'redis-server', log);
    redisUrl = `redis://127.0.0.1:${port}`;
  }

  const missing = [
    !mongoUri && 'a MongoDB server (ferretdb)',
    !s3 && 'an S3 server (versitygw)',
    !redisUrl && 'a Redis server (redis-server)',
  ].filter(Boolean);
  if (missing.length > 0 && process.env.CI === 'true') {
    for (const p of procs) p.kill('SIGTERM');
    throw new Error(
      `CI=true but no ${missing.join(' and ')} could be found or started: the scale-out suites cannot run.`,
    );
  }
  if (missing.length > 0)
    console.warn(
      `\n[titlecard] Scale-out suites skipped for lack of ${missing.join(' and ')}. .ci/run installs and starts them; or set TITLECARD_TEST_MONGODB_URI / TITLECARD_TEST_S3_ENDPOINT / TITLECARD_TEST_REDIS_URL.\n`,
    );
  project.provide('mongoUri', mongoUri);
  project.provide('s3', s3);
  project.provide('redisUrl', redisUrl);

  return async () => {
    for (const p of procs) p.kill('SIGTERM');
    await Promise.all(procs.filter((p) => p.exitCode === null).map((p) => once(p, 'exit')));
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  };
}
