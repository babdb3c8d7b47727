/**
 * Metrics in the Prometheus text format (prom-client), at `GET /metrics`: requests by route and
 * status with their durations, render stage durations, the render queue, quota refusals, upload
 * bytes, and Node's own (event-loop delay, heap, GC). One registry per process, made by
 * {@link createMetrics} and passed along; nothing global.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Renderer, RenderTimings } from '../domain/render/index.js';

export interface Metrics {
  registry: Registry;
  requests: Histogram<'method' | 'route' | 'status'>;
  renderStages: Histogram<'stage'>;
  quotaRefusals: Counter;
  uploadBytes: Counter;
}

/** Seconds: from 5 ms to 30 s, the span of a request or a render stage here. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** The registry and metrics of one process; `renderer`'s queue is read at each scrape. */
export function createMetrics(renderer: Renderer): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'titlecard_' });
  const metrics: Metrics = {
    registry,
    requests: new Histogram({
      name: 'titlecard_http_request_duration_seconds',
      help: 'HTTP requests by method, route (the route pattern, not the URL) and status, and how long they took.',
      labelNames: ['method', 'route', 'status'],
      buckets: BUCKETS,
      registers: [registry],
    }),
    renderStages: new Histogram({
      name: 'titlecard_render_stage_duration_seconds',
      help: 'Time spent in each stage of a render (decode, layout, tones, overlay, composite, encode, thumbnail).',
      labelNames: ['stage'],
      buckets: BUCKETS,
      registers: [registry],
    }),
    quotaRefusals: new Counter({
      name: 'titlecard_quota_refusals_total',
      help: 'Generations refused because the monthly quota was used up (429).',
      registers: [registry],
    }),
    uploadBytes: new Counter({
      name: 'titlecard_upload_bytes_total',
      help: 'Bytes of background images received.',
      registers: [registry],
    }),
  };
  new Gauge({
    name: 'titlecard_render_queue_length',
    help: 'Renders waiting for a turn (beyond RENDER_CONCURRENCY under way).',
    registers: [registry],
    collect() {
      this.set(renderer.load().waiting);
    },
  });
  new Gauge({
    name: 'titlecard_renders_active',
    help: 'Renders under way.',
    registers: [registry],
    collect() {
      this.set(renderer.load().active);
    },
  });
  return metrics;
}

/** The renderer, with every render's stage timings recorded in `metrics`. */
export function measuredRenderer(renderer: Renderer, metrics: Metrics): Renderer {
  return {
    load: () => renderer.load(),
    health: () => renderer.health(),
    layout: (options) => renderer.layout(options),
    display: (image, how, call) => renderer.display(image, how, call),
    inTurn: (account, work) => renderer.inTurn(account, work),
    async render(input, options, call) {
      const result = await renderer.render(input, options, call);
      for (const [stage, ms] of Object.entries(result.timings) as [keyof RenderTimings, number][])
        metrics.renderStages.observe({ stage }, ms / 1000);
      return result;
    },
  };
}
