/**
 * Faults an operator meets, on real `titlecard serve` processes: SIGTERM while generations are in
 * flight (they all finish, the process exits 0), and `kill -9` in the middle of uploads and renders
 * (after a restart, every record has its files and no upload is left on disk).
 */
import { once } from 'node:events';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { createServer, request } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { photo } from '../support/images.js';
import { CLI, ROOT, runCli, spawnServer, untilMetric } from '../support/process.js';
import { call, download, generate } from '../support/server.js';

let dataDir: string;
let token: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'titlecard-faults-'));
  const made = await runCli(
    ['users', 'create', '--email', 'ops@example.com', '--name', 'Ops', '--tier', 'agency', '--json'],
    {
      DATA_DIR: dataDir,
    },
  );
  token = (JSON.parse(made.stdout) as { token: string }).token;
});
afterAll(async () => rm(dataDir, { recursive: true, force: true }));

/** Starts an upload of `declared` bytes, sends the first 100 KB and keeps the connection open. */
function stalledUpload(base: string): void {
  const boundary = 'stalled';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nStalled\r\n--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
  const req = request(`${base}/generate`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(head.length + 5_000_000),
    },
  });
  req.on('error', () => undefined);
  req.write(head);
  req.write(Buffer.alloc(100_000, 0xff));
}

describe('faults', () => {
  it('SIGTERM during 8 generations: all 8 are answered 201, then the process exits 0', async () => {
    const server = await spawnServer({ DATA_DIR: dataDir });
    const kleiber = photo('Kleiber_by_Lukas_Baubkus.jpg');
    const inFlight = Array.from({ length: 8 }, (_, i) =>
      generate(server.base, token, { title: `In flight ${i}` }, { data: kleiber }),
    );
    // Every upload received and the renders under way, not a time that usually suffices.
    await untilMetric(server.url, 'titlecard_upload_bytes_total', (n) => n >= 8 * kleiber.length);
    server.proc.kill('SIGTERM');
    const answers = await Promise.all(inFlight);
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(201));
    const [code] = (await (server.proc.exitCode === null
      ? once(server.proc, 'exit')
      : [server.proc.exitCode])) as [number];
    expect(code).toBe(0);
    for (const a of answers)
      expect(
        existsSync(
          path.join(dataDir, 'files', new URL(a.body.data.url as string).pathname.split('/').pop() as string),
        ),
      ).toBe(true);
  }, 120_000);

  it('kill -9 during uploads and renders: after a restart every record has its files and no upload is left', async () => {
    const first = await spawnServer({ DATA_DIR: dataDir });
    const uploads = path.join(dataDir, 'uploads');
    stalledUpload(first.base);
    const renders = Array.from({ length: 4 }, (_, i) =>
      generate(
        first.base,
        token,
        { title: `Killed ${i}` },
        { data: photo('seeding_by_Clements_Engelhardt.jpg') },
      ).catch(() => undefined),
    );
    const deadline = Date.now() + 10_000;
    const files = () => readdirSync(uploads).flatMap((d) => readdirSync(path.join(uploads, d)));
    while (files().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(files().length).toBeGreaterThan(0);
    first.proc.kill('SIGKILL');
    await once(first.proc, 'exit');
    await Promise.all(renders);

    const second = await spawnServer({ DATA_DIR: dataDir });
    try {
      const dirs = readdirSync(uploads);
      expect(dirs).toHaveLength(1);
      expect(dirs[0]?.startsWith(`${second.proc.pid}-`)).toBe(true);
      expect(files()).toEqual([]);
      const list = await call(second.base, 'GET', '/images?limit=100', { token });
      expect(list.status).toBe(200);
      for (const image of list.body.data.images as { url: string; thumbnailUrl: string }[]) {
        expect((await download(image.url)).status, image.url).toBe(200);
        expect((await download(image.thumbnailUrl)).status, image.thumbnailUrl).toBe(200);
      }
    } finally {
      await second.stop();
    }
  }, 120_000);
});

describe('start-up', () => {
  it('a request that arrives while the server starts (listening, stores not yet open) is answered, not left hanging', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: p } = probe.address() as AddressInfo;
        probe.close(() => resolve(p));
      });
    });
    const dir = await mkdtemp(path.join(os.tmpdir(), 'titlecard-startup-'));
    const proc = spawn(process.execPath, [...CLI, 'serve'], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dir,
        LOG_LEVEL: 'info',
        SHUTDOWN_DELAY: '0',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let log = '';
    proc.stderr.on('data', (c: Buffer) => (log += c.toString()));
    try {
      // Connect as early as the port accepts: the first request lands in the start-up window (the
      // fonts and the stores take a few hundred ms after the port opens).
      let answered: { status: number; before: boolean } | undefined;
      for (let i = 0; i < 400 && !answered; i++) {
        const socket = await new Promise<Socket | undefined>((resolve) => {
          const s = connect(port, '127.0.0.1', () => resolve(s));
          s.once('error', () => resolve(undefined));
        });
        if (!socket) {
          await new Promise((r) => setTimeout(r, 10));
          continue;
        }
        const before = !log.includes('titlecard listening');
        socket.destroy();
        const res = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(10_000) });
        answered = { status: res.status, before };
      }
      expect(answered?.status).toBe(200);
      expect(answered?.before, 'the request came before the server said it listens').toBe(true);
    } finally {
      proc.kill('SIGTERM');
      await once(proc, 'exit');
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
