/**
 * The render link's canonical form and signature (src/domain/render-links/canonical.ts) as sites
 * build it themselves: the JavaScript and Python examples of docs/render-links.md, run as programs,
 * agree with each other, with the worked example and with `signRenderUrl`.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { docsJavaScriptLink, docsPythonLink } from '../support/docs-examples.js';
import { ROOT } from '../support/process.js';

describe('the examples of docs/render-links.md sign alike', () => {
  it('the Python example builds the same link as the JavaScript one, and both match signRenderUrl', async () => {
    const common = {
      preset: 'pre_0000000000000000000001',
      title: "Ünïcödé, spaces & symbols: ~*()!'",
      subtitle: '日本語のサブタイトル',
      image: 'https://images.example.com/a b.jpg?x=1&y=2',
      expires: 1893456000,
      secret: 'tcs_example',
    };
    const js = await docsJavaScriptLink({
      ...common,
      baseUrl: 'https://cards.example.com',
      keyId: 'key_0000000000000000000001',
      format: 'webp',
    });
    const py = await docsPythonLink({
      base_url: 'https://cards.example.com',
      preset: common.preset,
      title: common.title,
      subtitle: common.subtitle,
      image: common.image,
      expires: common.expires,
      key_id: 'key_0000000000000000000001',
      secret: common.secret,
      fmt: 'webp',
    });
    expect(py).toBe(js);
    // The worked example of docs/render-links.md, signature included.
    const worked = await docsJavaScriptLink({
      baseUrl: 'https://cards.example.com',
      preset: 'pre_0000000000000000000001',
      title: 'Hello, world',
      keyId: 'key_0000000000000000000001',
      secret: 'tcs_example',
    });
    expect(await readFile(path.join(ROOT, 'docs', 'render-links.md'), 'utf8')).toContain(
      `link       ${worked}`,
    );
    const { signRenderUrl } = await import('../../src/domain/render-links/canonical.js');
    expect(
      signRenderUrl({
        ...common,
        baseUrl: 'https://cards.example.com',
        keyId: 'key_0000000000000000000001',
        format: 'webp',
      }),
    ).toBe(js);
  });
});
