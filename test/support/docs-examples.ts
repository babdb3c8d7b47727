/**
 * The code examples of docs/render-links.md, run as the programs a site would run, and a plain
 * fetch of a link as a crawler does it.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './process.js';

/** Fetches `url` as a crawler does: status, headers and the whole body. */
export async function fetchLink(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  const body = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, body };
}

/** The JavaScript example of docs/render-links.md, run as a program. */
export async function docsJavaScriptLink(input: Record<string, unknown>): Promise<string> {
  const readme = await readFile(path.join(ROOT, 'docs', 'render-links.md'), 'utf8');
  const code = /```js\n(\/\/ sign-render-url\.mjs[\s\S]*?)```/.exec(readme)?.[1];
  if (!code) throw new Error('docs/render-links.md has no ```js block starting with // sign-render-url.mjs');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'titlecard-docs-'));
  const file = path.join(dir, 'sign.mjs');
  await writeFile(file, `${code}\nconsole.log(signRenderUrl(JSON.parse(process.argv[2])));\n`);
  const { stdout } = await promisify(execFile)(process.execPath, [file, JSON.stringify(input)]);
  return stdout.trim();
}

/** The Python example of docs/render-links.md, run by python3 with the same input. */
export async function docsPythonLink(input: Record<string, unknown>): Promise<string> {
  const readme = await readFile(path.join(ROOT, 'docs', 'render-links.md'), 'utf8');
  const code = /```python\n(# sign_render_url\.py[\s\S]*?)```/.exec(readme)?.[1];
  if (!code)
    throw new Error('docs/render-links.md has no ```python block starting with # sign_render_url.py');
  const program = `${code}\nimport json, sys\nprint(sign_render_url(**json.loads(sys.argv[1])))\n`;
  const { stdout } = await promisify(execFile)('python3', ['-c', program, JSON.stringify(input)]);
  return stdout.trim();
}
