/**
 * What an operator relies on (docs/operations.md): liveness and readiness, request ids, and the
 * Prometheus metrics of src/adapters/metrics.ts with their optional bearer token.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate, startTestServer, type TestServer } from '../support/server.js';

let srv: TestServer;
let token: string;
beforeAll(async () => {
  srv = await startTestServer();
  ({ token } = await srv.createUser('pro'));
});
afterAll(async () => srv.close());

describe('operations', () => {
  it('/healthz says the process lives and /readyz that its stores answer, without a token', async () => {
    const health = await fetch(`${srv.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${srv.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', checks: { records: 'ok', files: 'ok' } });
  });

  it('/readyz answers 503 and names the store when one does not answer', async () => {
    const other = await startTestServer();
    try {
      await other.services.close(); // the record store is closed under the running server
      const res = await fetch(`${other.url}/readyz`);
      expect(res.status).toBe(503);
      const body = (await res.json()) as { status: string; checks: { records: string } };
      expect(body.status).toBe('unavailable');
      expect(body.checks.records).not.toBe('ok');
    } finally {
      await other.close();
    }
  });

  it('every response carries X-Request-Id, the caller’s own when it sends a plain one', async () => {
    const fresh = await fetch(`${srv.base}/usage`, { headers: { authorization: `Bearer ${token}` } });
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await fetch(`${srv.url}/healthz`, { headers: { 'x-request-id': 'edge-7f3a.91' } });
    expect(kept.headers.get('x-request-id')).toBe('edge-7f3a.91');
    const replaced = await fetch(`${srv.url}/nothing`, {
      headers: { 'x-request-id': 'not acceptable <id>' },
    });
    expect(replaced.status).toBe(404);
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('metrics', () => {
  it('GET /metrics speaks Prometheus: requests by route and status, render stages, queue, refusals, upload bytes, event loop', async () => {
    await generate(
      srv.base,
      token,
      { title: 'Measured' },
      {
        data: await sharp({ create: { width: 400, height: 300, channels: 3, background: '#654321' } })
          .jpeg()
          .toBuffer(),
      },
    );
    const res = await fetch(`${srv.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).toMatch(
      /titlecard_http_request_duration_seconds_count\{method="POST",route="\/api\/generate",status="201"\} [1-9]/,
    );
    expect(text).toMatch(/titlecard_render_stage_duration_seconds_count\{stage="decode"\} [1-9]/);
    expect(text).toMatch(/titlecard_render_queue_length 0/);
    expect(text).toMatch(/titlecard_quota_refusals_total \d+/);
    expect(text).toMatch(/titlecard_upload_bytes_total [1-9]/);
    expect(text).toMatch(/titlecard_nodejs_eventloop_lag_p99_seconds/);
  });

  it('with METRICS_TOKEN set, /metrics needs it', async () => {
    const guarded = await startTestServer({ env: { METRICS_TOKEN: 'a-metrics-token-of-some-length' } });
    try {
      expect((await fetch(`${guarded.url}/metrics`)).status).toBe(401);
      const ok = await fetch(`${guarded.url}/metrics`, {
        headers: { authorization: 'Bearer a-metrics-token-of-some-length' },
      });
      expect(ok.status).toBe(200);
    } finally {
      await guarded.close();
    }
  });
});
