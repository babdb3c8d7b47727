/**
 * Render workers on a real queue (QUEUE=redis, src/adapters/queue.ts): two API processes and two
 * `titlecard worker` processes over one MongoDB (FerretDB), one S3 (versitygw) and one Redis, all
 * started by the test set-up on 127.0.0.1. A 50-item batch made on one API process and followed on
 * the other is rendered by the workers; one worker is killed with SIGKILL mid-batch, and every item
 * is still rendered and charged exactly once. With GENERATE_ON_WORKERS, `/generate` renders there too,
 * and so does a render link's new card (one card pipeline, issue 50).
 */
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { photo } from '../support/images.js';
import { runCli, spawnServer, type ServerProcess } from '../support/process.js';
import { s3Env } from '../support/scale-out.js';
import { call, download, generate, settled } from '../support/server.js';

const mongoUri = inject('mongoUri');
const s3 = inject('s3');
const redisUrl = inject('redisUrl');
const ready = Boolean(mongoUri && s3 && redisUrl);

describe.skipIf(!ready)(
  `batch items on BullMQ: two API processes, two workers${ready ? '' : ' (needs MongoDB, S3 and Redis servers)'}`,
  () => {
    const processes: ServerProcess[] = [];
    let dataDir: string;
    afterAll(async () => {
      await Promise.all(processes.map((p) => p.stop()));
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    it('renders a 50-item batch on the workers; SIGKILL of one mid-batch loses nothing and charges nothing twice', async () => {
      dataDir = await mkdtemp(path.join(os.tmpdir(), 'titlecard-queue-'));
      const env = {
        DATA_DIR: dataDir,
        MONGODB_URI: mongoUri as string,
        MONGODB_DB: `queue_${randomBytes(4).toString('hex')}`,
        ...s3Env(s3),
        REDIS_URL: redisUrl as string,
        QUEUE: 'redis',
        QUEUE_LOCK_SECONDS: '2',
        WORKER_CONCURRENCY: '2',
        GENERATE_ON_WORKERS: 'true',
      };
      const made = await runCli(
        ['users', 'create', '--email', 'queue@example.com', '--name', 'Queue', '--tier', 'agency', '--json'],
        env,
      );
      const token = (JSON.parse(made.stdout) as { token: string }).token;
      const [a, b, w1, w2] = await Promise.all([
        spawnServer(env),
        spawnServer(env),
        spawnServer(env, { command: 'worker' }),
        spawnServer(env, { command: 'worker' }),
      ]);
      processes.push(a, b, w1, w2);

      const form = new FormData();
      form.append('image', new Blob([photo('Kleiber_by_Lukas_Baubkus.jpg')]), 'kleiber.jpg');
      const asset = (await (
        await fetch(`${a.base}/assets`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}` },
          body: form,
        })
      ).json()) as { data: { id: string } };
      const items = Array.from({ length: 50 }, (_, i) => ({
        asset: asset.data.id,
        title: `On the queue ${i}`,
      }));
      const created = await call(a.base, 'POST', '/batches', { token, json: { items } });
      expect(created.status).toBe(202);
      const id = created.body.data.id as string;

      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        if (((await call(b.base, 'GET', `/batches/${id}`, { token })).body.data.done as number) >= 5) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      w1.proc.kill('SIGKILL');
      await once(w1.proc, 'exit');

      const batch = await settled(b.base, token, id, 150_000);
      expect(batch).toMatchObject({ status: 'completed', total: 50, done: 50, failed: 0 });
      expect(new Set(batch.items.map((i: { image: { id: string } }) => i.image.id)).size).toBe(50);
      expect((await call(a.base, 'GET', '/images?limit=100', { token })).body.data.pagination.total).toBe(50);
      expect((await call(b.base, 'GET', '/usage', { token })).body.data.usage.generated).toBe(50);

      const workerMetrics = await (await fetch(`${w2.url}/metrics`)).text();
      expect(workerMetrics).toMatch(/titlecard_worker_items_total\{worker="[^"]+"\} [1-9]/);
      expect(workerMetrics).toMatch(/titlecard_queue_wait_seconds_count [1-9]/);

      // /generate hands its render to the workers too: the upload travels through S3, the answer
      // (an image, or the error that names the field) comes back, and only the image is charged.
      const upload = photo('mate_RainDrops.jpg');
      const decodes = async () =>
        /titlecard_render_stage_duration_seconds_count\{stage="decode"\} (\d+)/.exec(
          await (await fetch(`${a.url}/metrics`)).text(),
        )?.[1];
      const before = await decodes();
      const rendered = await generate(a.base, token, { title: 'Rendered on a worker' }, { data: upload });
      expect(rendered.status).toBe(201);
      expect((await download(rendered.body.data.url as string)).status).toBe(200);
      expect(await decodes()).toBe(before); // the API process decoded nothing
      const refused = await generate(a.base, token, { title: 'Bad', template: 'nope' }, { data: upload });
      expect(refused.status).toBe(400);
      expect(refused.body.error.details.field).toBe('template');
      expect((await call(b.base, 'GET', '/usage', { token })).body.data.usage.generated).toBe(51);

      const apiMetrics = await (await fetch(`${a.url}/metrics`)).text();
      expect(apiMetrics).toMatch(/titlecard_queue_jobs\{state="waiting"\} 0/);
    }, 240_000);

    it("with GENERATE_ON_WORKERS a render link's new card is rendered on a worker, charged once, then served from the store", async () => {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'titlecard-queue-links-'));
      const env = {
        DATA_DIR: dir,
        MONGODB_URI: mongoUri as string,
        MONGODB_DB: `queue_links_${randomBytes(4).toString('hex')}`,
        ...s3Env(s3),
        // A deployment of its own: Redis database 1, so the other test's workers never see its jobs.
        REDIS_URL: Object.assign(new URL(redisUrl as string), { pathname: '/1' }).href,
        QUEUE: 'redis',
        GENERATE_ON_WORKERS: 'true',
      };
      try {
        const made = await runCli(
          ['users', 'create', '--email', 'links@example.com', '--name', 'Links', '--tier', 'pro', '--json'],
          env,
        );
        const token = (JSON.parse(made.stdout) as { token: string }).token;
        const [api, worker] = await Promise.all([spawnServer(env), spawnServer(env, { command: 'worker' })]);
        processes.push(api, worker);
        const form = new FormData();
        form.append('image', new Blob([photo('mate_RainDrops.jpg')]), 'mate.jpg');
        const asset = (await (
          await fetch(`${api.base}/assets`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}` },
            body: form,
          })
        ).json()) as { data: { id: string } };
        const preset = await call(api.base, 'POST', '/presets', {
          token,
          json: { name: 'Blog', background: asset.data.id },
        });
        expect(preset.status).toBe(201);
        await call(api.base, 'POST', '/signing-keys', { token, json: { name: 'Site' } });
        const link = await call(api.base, 'POST', '/render-urls', {
          token,
          json: { preset: preset.body.data.id, title: 'Drawn by a worker' },
        });
        expect(link.status).toBe(200);
        const count = async (base: string, name: string) =>
          Number(new RegExp(`${name} (\\d+)`).exec(await (await fetch(`${base}/metrics`)).text())?.[1] ?? 0);
        const decodes = 'titlecard_render_stage_duration_seconds_count\\{stage="decode"\\}';
        const before = await count(api.url, decodes);
        const first = await fetch(link.body.data.url as string);
        expect(first.status).toBe(200);
        expect(first.headers.get('content-type')).toBe('image/png');
        expect(await count(api.url, decodes)).toBe(before); // the API process decoded nothing
        expect(await count(worker.url, decodes)).toBeGreaterThan(0);
        const again = await fetch(link.body.data.url as string);
        expect(again.status).toBe(200);
        expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
        expect((await call(api.base, 'GET', '/usage', { token })).body.data.usage.generated).toBe(1);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }, 120_000);
  },
);
