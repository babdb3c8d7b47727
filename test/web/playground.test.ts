/**
 * The playground's preview answers a refusal as the REST API does (one error table,
 * src/http/errors.ts): a busy service is a 503 with Retry-After, not a 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { photo } from '../support/images.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { WebClient } from '../support/web.js';

let srv: TestServer;
beforeAll(async () => {
  // One render at a time and none waiting: a burst of previews must meet a busy service.
  srv = await startTestServer({ env: { RENDER_CONCURRENCY: '1', RENDER_QUEUE: '0' } });
});
afterAll(async () => srv?.close());

/** A preview request as the playground's script sends it: multipart, with the session and Origin. */
async function preview(web: WebClient, image: Buffer) {
  const form = new FormData();
  form.set('title', 'Busy evening');
  form.set('image', new Blob([image], { type: 'image/jpeg' }), 'photo.jpg');
  const res = await web.request('POST', '/playground/preview', form);
  const type = res.headers.get('content-type') ?? '';
  return {
    status: res.status,
    retryAfter: res.headers.get('retry-after'),
    type,
    body: type.startsWith('application/json') ? (JSON.parse(res.text) as { error: string }) : undefined,
  };
}

describe('the playground preview', () => {
  it('past the render capacity answers 503 with Retry-After, as POST /generate does', async () => {
    const web = new WebClient(srv.url);
    await web.signUp(`busy-${Date.now()}@example.com`);
    const big = photo('Kleiber_by_Lukas_Baubkus.jpg');
    const answers = await Promise.all(Array.from({ length: 5 }, () => preview(web, big)));
    const shown = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status !== 200);
    expect(shown.length).toBeGreaterThanOrEqual(1);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const a of shown) expect(a.type).toBe('image/jpeg');
    for (const a of refused) {
      expect(a.status).toBe(503);
      expect(Number(a.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(a.body?.error).toMatch(/try again/);
    }
  });
});
