/**
 * A photo too small for the card is named, not refused (issue 42, item 5): past 1.5 times the
 * enlargement, the render report's `warnings`, the `Titlecard-Warning` header, the MCP tool's
 * answer, the dashboard's result and a batch item say the card looks soft; at its own size, nothing.
 * Text under a 4.5:1 contrast ratio is named the same way (item 2).
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderReportSchema } from '../../src/domain/images/schemas.js';
import { solid } from '../support/images.js';
import { call, generate, settled, startTestServer, type TestServer } from '../support/server.js';
import { WebClient } from '../support/web.js';

let srv: TestServer;
let token: string;
/** 640 × 360 on an og card (1200 × 630): enlarged 1.88 times. */
let small: Buffer;
/** 1600 × 900: shrunk to cover the same card. */
let large: Buffer;
const SOFT = /enlarged 1\.88 times to cover the 1200x630 card, so it looks soft/;

beforeAll(async () => {
  srv = await startTestServer();
  ({ token } = await srv.createUser('pro'));
  [small, large] = await Promise.all([
    solid([90, 120, 160], 'jpeg', 640, 360),
    solid([90, 120, 160], 'jpeg', 1600, 900),
  ]);
});
afterAll(async () => srv.close());

describe('a background enlarged past 1.5 times', () => {
  it('POST /generate makes the card and says so in Titlecard-Warning and the render report; a large photo gets no warning', async () => {
    const soft = await generate(srv.base, token, { title: 'Small photo' }, { data: small });
    expect(soft.status).toBe(201);
    expect(soft.headers.get('titlecard-warning')).toMatch(SOFT);
    const report = renderReportSchema.parse(JSON.parse(soft.headers.get('titlecard-render-report') ?? ''));
    expect(report.backgroundScale).toBe(1.88);
    expect(report.warnings).toEqual([soft.headers.get('titlecard-warning')]);

    const sharpCard = await generate(srv.base, token, { title: 'Large photo' }, { data: large });
    expect(sharpCard.status).toBe(201);
    expect(sharpCard.headers.get('titlecard-warning')).toBeNull();
    const fine = renderReportSchema.parse(JSON.parse(sharpCard.headers.get('titlecard-render-report') ?? ''));
    expect(fine.backgroundScale).toBe(0.75);
    expect(fine.warnings).toEqual([]);
  });

  it('text under 4.5:1 is named the same way: a custom colour no gradient makes legible', async () => {
    // Mid grey on a mid-grey photo: 1.0:1 without a gradient, under 4.5:1 with the strongest one.
    const res = await generate(
      srv.base,
      token,
      { title: 'Grey on grey', colorMode: 'custom', colorHex: '#808080' },
      { data: large },
    );
    expect(res.status).toBe(201);
    expect(res.headers.get('titlecard-warning')).toMatch(
      /^The text colour #808080 reaches \d\.\d:1 against the photo behind it, under the 4\.5:1 that WCAG asks of text/,
    );
    const report = renderReportSchema.parse(JSON.parse(res.headers.get('titlecard-render-report') ?? ''));
    expect(report.contrast).toBeLessThan(4.5);
    expect(report.warnings).toEqual([res.headers.get('titlecard-warning')]);
  });

  it('a batch item carries the warning with its image', async () => {
    const upload = async (bytes: Buffer) => {
      const form = new FormData();
      form.append('image', new Blob([bytes]), 'photo.jpg');
      const res = await fetch(`${srv.base}/assets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      return ((await res.json()) as { data: { id: string } }).data.id;
    };
    const [smallAsset, largeAsset] = [await upload(small), await upload(large)];
    const made = await call(srv.base, 'POST', '/batches', {
      token,
      json: {
        items: [
          { asset: smallAsset, title: 'Soft' },
          { asset: largeAsset, title: 'Sharp' },
        ],
      },
    });
    expect(made.status).toBe(202);
    const batch = await settled(srv.base, token, made.body.data.id as string);
    expect(batch.status).toBe('completed');
    const [soft, sharpItem] = batch.items as { status: string; warnings: string[] }[];
    expect(soft?.status).toBe('done');
    expect(soft?.warnings).toEqual([expect.stringMatching(SOFT)]);
    expect(sharpItem?.warnings).toEqual([]);
  });

  it('the MCP tool generate_image adds the note to its answer', async () => {
    const client = new Client({ name: 'titlecard-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    const r = await client.callTool({
      name: 'generate_image',
      arguments: { title: 'From an assistant', imageBase64: small.toString('base64') },
    });
    expect(r.isError).toBeFalsy();
    const texts = r.content.filter((c) => c.type === 'text').map((c) => (c as { text: string }).text);
    expect(texts.some((t) => t.startsWith('Note: ') && SOFT.test(t))).toBe(true);
    await client.close();
  });

  it("the dashboard's playground shows it beside the image it made", async () => {
    const web = new WebClient(srv.url);
    await web.signUp(`soft-${Date.now()}@example.com`);
    const form = new FormData();
    form.set('title', 'From the playground');
    form.set('image', new Blob([small], { type: 'image/jpeg' }), 'photo.jpg');
    const res = await web.request('POST', '/playground/generate', form);
    const html = res.text;
    expect(res.status, html.slice(0, 300)).toBe(200);
    expect(html).toContain('Your image is ready');
    expect(html).toMatch(/<p class="warning">The background \(640x360 px\) was enlarged 1\.88 times/);
  });
});
