/**
 * Exactly once under faults (issue 44): two API processes and two workers (QUEUE=redis,
 * GENERATE_ON_WORKERS) on a FerretDB, a versitygw and a Redis of this file's own, into which the
 * faults are injected: every worker killed, a worker frozen mid-render (SIGSTOP), Redis restarted
 * empty or away, versitygw killed for longer than BullMQ's retries, an API process killed while it
 * waits on a worker, FerretDB killed. Each test says what the client must get; the last one audits
 * the whole: usage equals images, no batch item left running, no Idempotency-Key left locked, and
 * one webhook delivery per event (at least one under faults).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { photo } from '../support/images.js';
import { runCli, spawnServer, type ServerProcess } from '../support/process.js';
import { s3Env } from '../support/scale-out.js';
import {
  findBinary,
  startFerretdb,
  startRedis,
  startVersitygw,
  type ServerProcessHandle,
} from '../support/server-processes.js';
import { call, generate, settled } from '../support/server.js';

const ready = ['ferretdb', 'versitygw', 'redis-server'].every((b) => findBinary(b));
/** GENERATE_WAIT_SECONDS of the API processes: how long /generate waits for a worker to take a job. */
const WAIT_SECONDS = 8;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!ready)(
  `faults in the scale-out setup${ready ? '' : ' (needs ferretdb, versitygw and redis-server)'}`,
  () => {
    let mongo: ServerProcessHandle & { uri: string };
    let s3: NonNullable<Awaited<ReturnType<typeof startVersitygw>>>;
    let redis: ServerProcessHandle & { url: string };
    let env: Record<string, string>;
    let dataDir: string;
    let token: string;
    let asset: string;
    const api: ServerProcess[] = [];
    const workers: ServerProcess[] = [];
    /** Webhook deliveries received, by webhook-id, with their event type and the image or batch id. */
    const received = new Map<string, { type: string; id: string; count: number }>();
    let receiver: Server;
    /** The image host: answers at once, and tells the test when a worker asked. */
    let host: Server;
    let hostAsked: (() => void) | undefined;
    const idempotencyKeys: string[] = [];
    const batchIds: string[] = [];

    const upload = photo('mate_RainDrops.jpg');
    const respawn = async (list: ServerProcess[], i: number, command: 'serve' | 'worker') => {
      await list[i]?.stop();
      list[i] = await spawnServer(env, { command });
    };
    const usage = async () =>
      (await call(api[1]!.base, 'GET', '/usage', { token })).body.data.usage.generated as number;
    const images = async () =>
      (await call(api[1]!.base, 'GET', '/images?limit=1', { token })).body.data.pagination.total as number;
    /** `POST /generate` of the same upload and title with `Idempotency-Key: key`, to `base`. */
    const sendWithKey = (base: string, key: string) => {
      const form = new FormData();
      form.append('image', new Blob([upload]), 'photo.jpg');
      form.append('title', 'Retried after a crash');
      return fetch(`${base}/generate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'idempotency-key': key },
        body: form,
      });
    };
    /** Makes a batch of `items` on one API process; resolves its id once the other sees 2 done. */
    const batchUnderWay = async (items: { asset: string; title: string }[]) => {
      const made = await call(api[0]!.base, 'POST', '/batches', { token, json: { items } });
      expect(made.status).toBe(202);
      const id = made.body.data.id as string;
      batchIds.push(id);
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        if (((await call(api[1]!.base, 'GET', `/batches/${id}`, { token })).body.data.done as number) >= 2)
          break;
        await sleep(20);
      }
      return id;
    };
    const listen = async (server: Server) => {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    };

    beforeAll(async () => {
      [mongo, s3, redis] = (await Promise.all([startFerretdb(), startVersitygw(), startRedis()])) as [
        typeof mongo,
        typeof s3,
        typeof redis,
      ];
      dataDir = await mkdtemp(path.join(os.tmpdir(), 'titlecard-faults-'));
      receiver = createServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          const id = String(req.headers['webhook-id']);
          const event = JSON.parse(body) as { type: string; data: { id: string } };
          const seen = received.get(id);
          received.set(id, { type: event.type, id: event.data.id, count: (seen?.count ?? 0) + 1 });
          res.writeHead(204).end();
        });
      });
      host = createServer((_req, res) => {
        hostAsked?.();
        res.writeHead(200, { 'content-type': 'image/jpeg' }).end(upload);
      });
      const [receiverUrl, hostUrl] = await Promise.all([listen(receiver), listen(host)]);
      env = {
        DATA_DIR: dataDir,
        MONGODB_URI: mongo.uri,
        MONGODB_DB: `faults_${randomBytes(4).toString('hex')}`,
        ...s3Env(s3.s3),
        REDIS_URL: redis.url,
        QUEUE: 'redis',
        QUEUE_LOCK_SECONDS: '2',
        WORKER_CONCURRENCY: '2',
        GENERATE_ON_WORKERS: 'true',
        GENERATE_WAIT_SECONDS: String(WAIT_SECONDS),
        FETCH_ALLOW_ADDRESSES: '127.0.0.1',
        IMAGE_HOST: hostUrl,
      };
      const made = await runCli(
        [
          'users',
          'create',
          '--email',
          'faults@example.com',
          '--name',
          'Faults',
          '--tier',
          'agency',
          '--json',
        ],
        env,
      );
      token = (JSON.parse(made.stdout) as { token: string }).token;
      api.push(...(await Promise.all([spawnServer(env), spawnServer(env)])));
      workers.push(
        ...(await Promise.all([
          spawnServer(env, { command: 'worker' }),
          spawnServer(env, { command: 'worker' }),
        ])),
      );
      const hook = await call(api[0]!.base, 'POST', '/webhooks', {
        token,
        json: { url: `${receiverUrl}/hooks` },
      });
      expect(hook.status).toBe(201);
      const form = new FormData();
      form.append('image', new Blob([photo('Kleiber_by_Lukas_Baubkus.jpg')]), 'kleiber.jpg');
      const res = await fetch(`${api[0]!.base}/assets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      asset = ((await res.json()) as { data: { id: string } }).data.id;
    }, 120_000);

    afterAll(async () => {
      await Promise.all([...api, ...workers].map((p) => p.stop()));
      await Promise.all([mongo, s3, redis].filter(Boolean).map((s) => s.stop()));
      await Promise.all([receiver, host].filter(Boolean).map((s) => new Promise((r) => s.close(r))));
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    // A test that failed half-way leaves no fault behind for the next.
    afterEach(async () => {
      await Promise.all([mongo, s3, redis].map((server) => server.restart()));
      for (const [list, command] of [
        [api, 'serve'],
        [workers, 'worker'],
      ] as const)
        for (const [i, p] of list.entries())
          if (p.proc.exitCode !== null || p.proc.signalCode === 'SIGKILL') await respawn(list, i, command);
          else p.proc.kill('SIGCONT');
    });

    it('normal operation on FerretDB with two API processes: one webhook delivery per event', async () => {
      const before = received.size;
      for (let i = 0; i < 8; i++) {
        const res = await generate(api[i % 2]!.base, token, { title: `Normal ${i}` }, { data: upload });
        expect(res.status).toBe(201);
      }
      const deadline = Date.now() + 30_000;
      while (received.size < before + 8 && Date.now() < deadline) await sleep(100);
      await sleep(3000); // time for a second delivery, were there one
      const created = [...received.values()].filter((d) => d.type === 'image.created');
      expect(created.length).toBe(8);
      expect(created.map((d) => d.count)).toEqual(Array(8).fill(1));
    }, 90_000);

    it('every worker killed: 503 BUSY after the wait with a long Retry-After, and no image made when workers return', async () => {
      const [usageBefore, imagesBefore] = [await usage(), await images()];
      await Promise.all(
        workers.map((w) => {
          const exit = once(w.proc, 'exit');
          w.proc.kill('SIGKILL');
          return exit;
        }),
      );
      const started = Date.now();
      const res = await generate(api[0]!.base, token, { title: 'Nobody renders me' }, { data: upload });
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('BUSY');
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(30);
      expect(Date.now() - started).toBeLessThan((WAIT_SECONDS + 10) * 1000);
      await Promise.all([respawn(workers, 0, 'worker'), respawn(workers, 1, 'worker')]);
      await sleep(5000);
      expect([await usage(), await images()]).toEqual([usageBefore, imagesBefore]);
    }, 90_000);

    it('a worker frozen mid-render past the wait: answered 201 when it resumes, charged once', async () => {
      const [usageBefore, imagesBefore] = [await usage(), await images()];
      const asked = new Promise<void>((resolve) => (hostAsked = resolve));
      const pending = generate(api[0]!.base, token, {
        title: 'Frozen mid-render',
        imageUrl: `${env.IMAGE_HOST}/photo.jpg`,
      });
      await Promise.race([
        asked,
        pending.then((r) => Promise.reject(new Error(`answered ${JSON.stringify(r.body)}`))),
      ]);
      hostAsked = undefined;
      for (const w of workers) w.proc.kill('SIGSTOP');
      await sleep((WAIT_SECONDS + 3) * 1000);
      for (const w of workers) w.proc.kill('SIGCONT');
      const res = await pending;
      expect(res.status).toBe(201);
      expect([await usage(), await images()]).toEqual([usageBefore + 1, imagesBefore + 1]);
    }, 90_000);

    it('Redis away for seconds, then restarted empty, while a generation waits: the job is queued again and answered 201', async () => {
      const [usageBefore, imagesBefore] = [await usage(), await images()];
      for (const w of workers) w.proc.kill('SIGSTOP');
      const pending = generate(api[1]!.base, token, { title: 'Lost with Redis' }, { data: upload });
      await sleep(1500);
      await redis.kill();
      await sleep(3000); // the API process keeps waiting (and living) while Redis is away
      await redis.restart();
      for (const w of workers) w.proc.kill('SIGCONT');
      const res = await pending;
      expect(res.status).toBe(201);
      expect(api[1]!.proc.exitCode).toBeNull();
      await sleep(3000); // a second render of the job, were there one, would show here
      expect([await usage(), await images()]).toEqual([usageBefore + 1, imagesBefore + 1]);
    }, 90_000);

    it('Redis away: /generate answers 503 UNAVAILABLE at once, a batch is kept and rendered once Redis is back, /readyz names the queue', async () => {
      await redis.kill();
      const started = Date.now();
      const refused = await generate(api[0]!.base, token, { title: 'No queue' }, { data: upload });
      expect(refused.status).toBe(503);
      expect(refused.body.error.code).toBe('UNAVAILABLE');
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(Date.now() - started).toBeLessThan(3000);
      // Every replica shares Redis: each stays ready for what it can serve, and says what is away.
      const readiness = await fetch(`${api[0]!.url}/readyz`);
      expect(readiness.status).toBe(200);
      const body = (await readiness.json()) as { status: string; checks: { queue: string } };
      expect(body.status).toBe('degraded');
      expect(body.checks.queue).not.toBe('ok');
      const items = Array.from({ length: 4 }, (_, i) => ({ asset, title: `Made while Redis was away ${i}` }));
      const made = await call(api[0]!.base, 'POST', '/batches', { token, json: { items } });
      await redis.restart();
      expect(made.status, JSON.stringify(made.body)).toBe(202);
      batchIds.push(made.body.data.id as string);
      const batch = await settled(api[1]!.base, token, made.body.data.id as string, 60_000);
      expect(batch).toMatchObject({ status: 'completed', done: 4, failed: 0 });
      expect((await fetch(`${api[0]!.url}/readyz`)).status).toBe(200);
    }, 120_000);

    it('S3 killed for longer than the jobs retry, mid-batch: every item still ends done, and the batch says completed', async () => {
      const items = Array.from({ length: 16 }, (_, i) => ({ asset, title: `Through an S3 outage ${i}` }));
      const id = await batchUnderWay(items);
      await s3.kill();
      await sleep(40_000); // BullMQ's 5 tries end after about 30 s: the jobs fail for good
      await s3.restart();
      const batch = await settled(api[1]!.base, token, id, 90_000);
      expect(batch).toMatchObject({ status: 'completed', total: 16, done: 16, failed: 0 });
    }, 200_000);

    it('an API process killed while it waits on a worker: the retry with its Idempotency-Key gets the image within the lease', async () => {
      const key = randomUUID();
      idempotencyKeys.push(key);
      const send = (base: string) => sendWithKey(base, key);
      const imagesBefore = await images();
      for (const w of workers) w.proc.kill('SIGSTOP');
      void send(api[0]!.base).catch(() => undefined);
      await sleep(2000);
      api[0]!.proc.kill('SIGKILL');
      await once(api[0]!.proc, 'exit');
      for (const w of workers) w.proc.kill('SIGCONT');
      const started = Date.now();
      let res = await send(api[1]!.base);
      while (res.status === 409 && Date.now() - started < 40_000) {
        await sleep(1000);
        res = await send(api[1]!.base);
      }
      expect(res.status).toBe(201);
      expect(Date.now() - started).toBeLessThan(30_000);
      const first = ((await res.json()) as { data: { id: string } }).data.id;
      const again = await send(api[1]!.base);
      expect(again.status).toBe(201);
      expect(((await again.json()) as { data: { id: string } }).data.id).toBe(first);
      expect(await images()).toBe(imagesBefore + 1);
      await respawn(api, 0, 'serve');
    }, 120_000);

    it('a worker frozen past its lock mid-batch, its items taken over: on resuming it undoes nothing', async () => {
      const items = Array.from({ length: 16 }, (_, i) => ({ asset, title: `Taken over ${i}` }));
      const id = await batchUnderWay(items);
      workers[0]!.proc.kill('SIGSTOP');
      await sleep(6000);
      workers[0]!.proc.kill('SIGCONT');
      const batch = await settled(api[1]!.base, token, id, 90_000);
      expect(batch).toMatchObject({ status: 'completed', total: 16, done: 16, failed: 0 });
      await sleep(2000); // the resumed worker's failure path, were it to refund, has run
      expect(await usage()).toBe(await images());
    }, 120_000);

    it('store outages: FerretDB killed answers 503 UNAVAILABLE with Retry-After; a frozen S3 leaves the replicas ready', async () => {
      s3.pause();
      const slow = await fetch(`${api[0]!.url}/readyz`);
      s3.resume();
      expect(slow.status).toBe(200);
      const slowBody = (await slow.json()) as { status: string; checks: { files: string } };
      expect(slowBody).toMatchObject({
        status: 'degraded',
        checks: { files: expect.stringMatching(/^slow/) },
      });
      await mongo.kill();
      const res = await call(api[0]!.base, 'GET', '/images', { token });
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('UNAVAILABLE');
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      await mongo.restart();
    }, 60_000);

    it('the audit: usage equals images, no item left running, no key locked, every event delivered, once in normal operation', async () => {
      const total = await images();
      expect(await usage()).toBe(total);
      for (const id of batchIds) {
        const batch = (await call(api[1]!.base, 'GET', `/batches/${id}`, { token })).body.data;
        expect(batch.status).toBe('completed');
        expect(batch.items.filter((i: { status: string }) => i.status !== 'done')).toEqual([]);
      }
      for (const key of idempotencyKeys) expect((await sendWithKey(api[0]!.base, key)).status).toBe(201);
      const listed = (await call(api[1]!.base, 'GET', '/images?limit=100', { token })).body.data.images as {
        id: string;
      }[];
      const deadline = Date.now() + 60_000;
      const createdIds = () =>
        new Set([...received.values()].filter((d) => d.type === 'image.created').map((d) => d.id));
      while (listed.some((i) => !createdIds().has(i.id)) && Date.now() < deadline) await sleep(200);
      expect(listed.filter((i) => !createdIds().has(i.id))).toEqual([]);
      const completed = new Set(
        [...received.values()].filter((d) => d.type === 'batch.completed').map((d) => d.id),
      );
      expect(batchIds.filter((id) => !completed.has(id))).toEqual([]);
      const deliveries = [...received.values()].reduce((n, d) => n + d.count, 0);
      console.log(
        `[audit] ${total} images, usage ${await usage()}, ${batchIds.length} batches completed, ` +
          `${received.size} events, ${deliveries} deliveries (${deliveries - received.size} repeated under faults)`,
      );
    }, 120_000);
  },
);
