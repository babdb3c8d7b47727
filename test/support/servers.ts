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
import { execFileSync } from 'node:child_process';
import type { TestProject } from 'vitest/node';
import { ROOT } from './process.js';
import {
  createBucket,
  startFerretdb,
  startRedis,
  startStripeMock,
  startVersitygw,
  type S3TestServer,
  type ServerProcessHandle,
} from './server-processes.js';

export type { S3TestServer } from './server-processes.js';

declare module 'vitest' {
  export interface ProvidedContext {
    mongoUri: string | undefined;
    s3: S3TestServer | undefined;
    redisUrl: string | undefined;
    stripeUrl: string | undefined;
  }
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
  const running: ServerProcessHandle[] = [];
  const started = <T extends ServerProcessHandle>(handle: T | undefined): T | undefined => {
    if (handle) running.push(handle);
    return handle;
  };

  const mongoUri = process.env.TITLECARD_TEST_MONGODB_URI ?? started(await startFerretdb())?.uri;
  let s3: S3TestServer | undefined;
  if (process.env.TITLECARD_TEST_S3_ENDPOINT) {
    s3 = {
      endpoint: process.env.TITLECARD_TEST_S3_ENDPOINT,
      bucket: process.env.TITLECARD_TEST_S3_BUCKET ?? 'titlecard-test',
      accessKeyId: process.env.TITLECARD_TEST_S3_ACCESS_KEY ?? '',
      secretAccessKey: process.env.TITLECARD_TEST_S3_SECRET_KEY ?? '',
    };
    await createBucket(s3);
  } else s3 = started(await startVersitygw())?.s3;
  const redisUrl = process.env.TITLECARD_TEST_REDIS_URL ?? started(await startRedis())?.url;
  const stripeUrl = process.env.TITLECARD_TEST_STRIPE_URL ?? started(await startStripeMock())?.url;

  const missing = [
    !mongoUri && 'a MongoDB server (ferretdb)',
    !s3 && 'an S3 server (versitygw)',
    !redisUrl && 'a Redis server (redis-server)',
    !stripeUrl && 'a Stripe API mock (stripe-mock)',
  ].filter(Boolean);
  if (missing.length > 0 && process.env.CI === 'true') {
    await Promise.all(running.map((r) => r.stop()));
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
  project.provide('stripeUrl', stripeUrl);

  return async () => {
    await Promise.all(running.map((r) => r.stop()));
  };
}
