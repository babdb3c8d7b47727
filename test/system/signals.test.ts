/**
 * Stopping `npm start` as a terminal, systemd or a supervisor does: a signal to the whole process
 * group (npm → sh → cross-env → node), which reaches node more than once. Every connection accepted
 * is answered, and after SIGTERM the port stays open for SHUTDOWN_DELAY; only a deliberate second
 * signal, later, stops at once (src/cli.ts, src/server.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { enlarged, photo } from '../support/images.js';
import { ROOT, runCli, untilMetric } from '../support/process.js';
import { generate } from '../support/server.js';

let dataDir: string;
let token: string;
let started: ChildProcess | undefined;

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'titlecard-signals-'));
  const made = await runCli(
    ['users', 'create', '--email', 'signals@example.com', '--name', 'Signals', '--tier', 'agency', '--json'],
    { DATA_DIR: dataDir },
  );
  token = (JSON.parse(made.stdout) as { token: string }).token;
});
afterEach(async () => {
  // Whatever of the group is left (a failed test), gone.
  try {
    if (started?.pid) process.kill(-started.pid, 'SIGKILL');
  } catch {
    // ESRCH: the group has ended already.
  }
  await rm(dataDir, { recursive: true, force: true });
});

/**
 * `npm start` as its own process group (as a terminal runs it), with SHUTDOWN_DELAY `delay` seconds;
 * resolves once the server listens.
 */
async function npmStart(delay = 0): Promise<{
  base: string;
  group: number;
  stderr: () => string;
  exited: Promise<unknown>;
}> {
  const proc = spawn('npm', ['start'], {
    cwd: ROOT,
    detached: true,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DATA_DIR: dataDir,
      SHUTDOWN_DELAY: String(delay),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  started = proc;
  const exited = once(proc, 'exit');
  let stderr = '';
  proc.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    const line = stderr.split('\n').find((l) => l.includes('titlecard listening'));
    if (line) {
      const url = (JSON.parse(line) as { url: string }).url;
      return { base: `${url}/api`, group: proc.pid as number, stderr: () => stderr, exited };
    }
    if (Date.now() > deadline || proc.exitCode !== null)
      throw new Error(`npm start did not listen:\n${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * POST /generate whose 1.2 MB upload arrives in 40 slices over about 400 ms; with `stall`, only the
 * first slice arrives and the request never ends. `connected` resolves once its connection is made
 * (on a loaded machine that can take longer than the moment a test waits before its signal).
 */
function slowUpload(
  base: string,
  title: string,
  { stall = false, connected }: { stall?: boolean; connected?: () => void } = {},
): Promise<number> {
  const boundary = 'slow-upload';
  const image = photo('mate_RainDrops.jpg');
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\n${title}\r\n--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}/generate`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(head.length + image.length + tail.length),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.on('socket', (socket) => {
      if (socket.connecting) socket.once('connect', () => connected?.());
      else connected?.();
    });
    req.write(head);
    const slice = Math.ceil(image.length / 40);
    let at = 0;
    const timer = setInterval(() => {
      req.write(image.subarray(at, at + slice));
      at += slice;
      if (stall) clearInterval(timer);
      else if (at >= image.length) {
        clearInterval(timer);
        req.end(tail);
      }
    }, 10);
  });
}

/** A TCP connection to the server that has sent nothing yet. */
async function silentConnection(base: string): Promise<Socket> {
  const { hostname, port } = new URL(base);
  const socket = connect(Number(port), hostname);
  await once(socket, 'connect');
  return socket;
}

/** Sends GET /api/usage on `socket`; resolves with the whole answer, once the server closes it. */
async function askOn(socket: Socket): Promise<string> {
  let answer = '';
  socket.on('data', (c: Buffer) => (answer += c.toString()));
  socket.on('error', (err) => (answer += String(err)));
  const ended = once(socket, 'close');
  socket.write(`GET /api/usage HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n\r\n`);
  await ended;
  return answer;
}

/** Whether a new connection to `base` is refused (the port is closed). */
function refused(base: string): Promise<boolean> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}

describe('npm start and a signal to its process group', () => {
  it('SIGTERM 5 ms into six uploads: every request is answered 201', async () => {
    const server = await npmStart(1);
    // "Into" the uploads: 5 ms after each has its connection, whatever the machine's load.
    const connections: Promise<void>[] = [];
    const uploads = Array.from({ length: 6 }, (_, i) => {
      let connected: () => void = () => undefined;
      connections.push(new Promise<void>((resolve) => (connected = resolve)));
      return slowUpload(server.base, `Arriving ${i}`, { connected });
    });
    await Promise.all(connections);
    await new Promise((r) => setTimeout(r, 5));
    process.kill(-server.group, 'SIGTERM');
    expect(await Promise.all(uploads)).toEqual(Array(6).fill(201));
    await server.exited;
  }, 120_000);

  it('SIGTERM with connections open and silent: each is answered when its request comes, even after the port closes; new ones are taken for SHUTDOWN_DELAY, /readyz saying 503', async () => {
    // The accepting moment lasts 6 s: the test's requests in it take well under a second alone,
    // and under another test run's load (issue 55, item 11) more than the 2 s it once had.
    const delay = 6;
    const server = await npmStart(delay);
    const url = server.base.replace(/\/api$/, '');
    const early = await Promise.all(Array.from({ length: 3 }, () => silentConnection(server.base)));
    const late = await Promise.all(Array.from({ length: 3 }, () => silentConnection(server.base)));
    const signalled = Date.now();
    process.kill(-server.group, 'SIGTERM');
    await vi.waitFor(() => expect(server.stderr()).toMatch(/shutting down/), {
      timeout: 10_000,
      interval: 20,
    });

    // The accepting moment: the silent connections are served, and so are new ones.
    for (const answer of await Promise.all(early.map(askOn))) {
      expect(answer).toMatch(/^HTTP\/1\.1 200 /);
      expect(answer).toMatch(/\r\nConnection: close\r\n/i);
    }
    const ready = await fetch(`${url}/readyz`);
    expect([ready.status, await ready.json()]).toEqual([503, { status: 'stopping' }]);
    expect(
      (await fetch(`${server.base}/usage`, { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(200);

    // Then the port closes, about SHUTDOWN_DELAY after the signal; the connections accepted before
    // are still answered.
    await vi.waitFor(async () => expect(await refused(server.base)).toBe(true), {
      timeout: 10_000,
      interval: 50,
    });
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(delay * 1000 - 100);
    for (const answer of await Promise.all(late.map(askOn))) expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    await server.exited;
    expect(server.stderr()).not.toMatch(/shutdown failed/);
  }, 120_000);

  it('SIGINT (Ctrl-C in a terminal) while renders run: every request is answered 201', async () => {
    const server = await npmStart();
    // The original's size (the fixture is downsized): each render lasts long enough to be seen
    // running on /metrics, also on a loaded machine (a CI run once saw all four finish unseen).
    const large = await enlarged('Kleiber_by_Lukas_Baubkus.jpg', 4000, 2667, 'jpeg');
    const renders = Array.from({ length: 4 }, (_, i) =>
      generate(server.base, token, { title: `Rendering ${i}` }, { data: large }),
    );
    // Every upload received (not a time that usually suffices): the last one's render, at least,
    // is still to come or under way, as it takes far longer than this metric's poll (20 ms). Waiting
    // to see renders_active above 0 was flaky: on a loaded machine all four could finish unseen.
    const url = server.base.replace(/\/api$/, '');
    const bytes = 4 * large.length;
    await untilMetric(url, 'titlecard_upload_bytes_total', (n) => n >= bytes);
    process.kill(-server.group, 'SIGINT');
    expect((await Promise.all(renders)).map((r) => r.status)).toEqual(Array(4).fill(201));
    await server.exited;
  }, 120_000);

  it('a second Ctrl-C a moment later stops at once, and says so on stderr', async () => {
    const server = await npmStart();
    // A request that never finishes keeps the graceful stop waiting.
    const stalled = slowUpload(server.base, 'Stalled', { stall: true }).catch(() => 0);
    await untilMetric(server.base.replace(/\/api$/, ''), 'titlecard_upload_bytes_total', (n) => n > 0);
    process.kill(-server.group, 'SIGINT');
    // The second signal once the first has been taken (the server says it is shutting down), and
    // past the window in which copies of the first one count as the same (REPEATED_SIGNAL_WINDOW_MS
    // of src/cli.ts, 1 s): that wait is the behaviour under test, not a guess at a duration.
    await vi.waitFor(() => expect(server.stderr()).toMatch(/shutting down/), {
      timeout: 10_000,
      interval: 20,
    });
    await new Promise((r) => setTimeout(r, 1000 + 200));
    const second = Date.now();
    process.kill(-server.group, 'SIGINT');
    await server.exited;
    expect(Date.now() - second).toBeLessThan(5000);
    expect(server.stderr()).toMatch(/SIGINT again while shutting down: stopping now/);
    await stalled;
  }, 120_000);
});
