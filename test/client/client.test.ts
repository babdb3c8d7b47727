/**
 * The typed client `titlecard/client`: generated from the served OpenAPI document (and kept in step
 * with it), and usable from another program as the package's export, against a running server.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateClientSchema } from '../../scripts/client-schema.js';
import { solid } from '../support/images.js';
import { ROOT } from '../support/process.js';
import { startTestServer, type TestServer } from '../support/server.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(async () => srv.close());

/** Runs an ES module with Node from the project root (where `titlecard/client` resolves to dist/). */
function runModule(
  code: string,
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = spawn(process.execPath, ['--input-type=module', '-e', code], {
    cwd: ROOT,
    env: { ...process.env, ...env },
  });
  let stdout = '';
  let stderr = '';
  proc.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  proc.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => proc.on('close', (c) => resolve({ code: c ?? -1, stdout, stderr })));
}

describe('titlecard/client', () => {
  it('its committed types are exactly what openapi-typescript generates from the served document', async () => {
    const committed = readFileSync(new URL('../../src/client/schema.ts', import.meta.url), 'utf8');
    expect(committed, 'run `npm run client` and commit src/client/schema.ts').toBe(
      await generateClientSchema(),
    );
  });

  it('another program imports it by the package name and drives a running server: generate, list, usage, errors', async () => {
    const { token } = await srv.createUser('pro');
    const jpeg = (await solid([30, 90, 150], 'jpeg', 640, 400)).toString('base64');
    const r = await runModule(
      `
      import { createTitlecardClient, multipartBody, errorMessage } from 'titlecard/client';
      const api = createTitlecardClient({ baseUrl: process.env.BASE, token: process.env.TOKEN });
      const image = new Blob([Buffer.from(process.env.JPEG, 'base64')], { type: 'image/jpeg' });
      const made = await api.POST('/generate', {
        body: { image, title: 'Typed', subtitle: 'client', fileFormat: 'webp', position: { x: 0.5, y: 0.4 } },
        bodySerializer: multipartBody,
      });
      const list = await api.GET('/images', { params: { query: { limit: 5 } } });
      const usage = await api.GET('/usage');
      const bad = await api.GET('/images', { params: { query: { limit: 500 } } });
      const anonymous = createTitlecardClient({ baseUrl: process.env.BASE, token: 'tc_nope' });
      const refused = await anonymous.GET('/usage');
      console.log(JSON.stringify({
        made: made.data, status: made.response.status,
        titles: list.data.data.images.map((i) => i.title),
        generated: usage.data.data.usage.generated,
        bad: { status: bad.response.status, error: bad.error, message: errorMessage(bad.response.status, bad.error) },
        refused: { status: refused.response.status, message: errorMessage(refused.response.status, refused.error) },
      }));
      `,
      { BASE: srv.base, TOKEN: token, JPEG: jpeg },
    );
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.status).toBe(201);
    expect(out.made).toEqual({
      success: true,
      data: expect.objectContaining({ width: 1200, height: 630, url: expect.stringMatching(/\.webp$/) }),
    });
    expect(out.titles).toEqual(['Typed']);
    expect(out.generated).toBe(1);
    expect(out.bad.status).toBe(400);
    expect(out.bad.error.error.details).toEqual({ field: 'limit', constraint: 'max' });
    expect(out.bad.message).toMatch(/limit/);
    expect(out.refused).toEqual({ status: 401, message: expect.stringMatching(/invalid/) });
  });
});

describe('titlecard/client and batches', () => {
  it('starts a batch with typed items, follows it to completion and reads each image, all typed', async () => {
    const { createTitlecardClient } = await import('../../src/client/index.js');
    const { token } = await srv.createUser('pro');
    const api = createTitlecardClient({ baseUrl: srv.base, token });
    const jpeg = new Blob([await solid([30, 90, 150], 'jpeg', 640, 400)], { type: 'image/jpeg' });
    const form = new FormData();
    form.append('image', jpeg, 'blue.jpg');
    const asset = (await (
      await fetch(`${srv.base}/assets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      })
    ).json()) as { data: { id: string } };
    const started = await api.POST('/batches', {
      body: { items: [1, 2].map((i) => ({ asset: asset.data.id, title: `Typed ${i}` })) },
    });
    expect(started.response.status).toBe(202);
    const id = started.data!.data.id;
    let batch = (await api.GET('/batches/{id}', { params: { path: { id } } })).data!.data;
    for (let i = 0; i < 100 && batch.status !== 'completed'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      batch = (await api.GET('/batches/{id}', { params: { path: { id } } })).data!.data;
    }
    expect(batch).toMatchObject({ status: 'completed', done: 2 });
    expect(batch.items.map((i) => i.image?.width)).toEqual([1200, 1200]);
    const refused = await api.POST('/batches', { body: { items: [{ asset: asset.data.id, title: '' }] } });
    expect(refused.response.status).toBe(400);
  });
});
