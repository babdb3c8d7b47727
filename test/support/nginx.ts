/**
 * A real nginx (Debian's package) in front of a test server, with the proxy settings of the shipped
 * `deploy/nginx.conf` (its `location /` block as it is; only the upstream and the listening address
 * are the test's), on 127.0.0.1 and a free port. Stopped by `close()`.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './process.js';

export const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));

/** A free TCP port on 127.0.0.1. */
async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** nginx proxying `127.0.0.1:<port>` to `upstream` (e.g. http://127.0.0.1:41234). */
export async function startNginx(upstream: string): Promise<{ url: string; close(): Promise<void> }> {
  if (!NGINX) throw new Error('nginx is not installed: apt-get install nginx-light');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'titlecard-nginx-'));
  const port = await freePort();
  const shipped = await readFile(path.join(ROOT, 'deploy/nginx.conf'), 'utf8');
  const server = shipped
    .replace(/^resolver .*$/m, '')
    .replace(/listen 80;/, `listen 127.0.0.1:${port};`)
    .replace(/set \$titlecard http:\/\/titlecard:3000;/, `set $titlecard ${upstream};`);
  if (server === shipped) throw new Error('deploy/nginx.conf changed: update test/support/nginx.ts');
  const temp = (name: string) => `${name}_temp_path ${path.join(dir, name)};`;
  await writeFile(
    path.join(dir, 'nginx.conf'),
    `${process.getuid?.() === 0 ? 'user root;' : ''}
daemon off;
worker_processes 1;
pid ${path.join(dir, 'nginx.pid')};
error_log ${path.join(dir, 'error.log')} warn;
events { worker_connections 64; }
http {
  access_log off;
  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join('\n  ')}
  ${server}
}
`,
  );
  const child = spawn(NGINX, ['-p', dir, '-c', path.join(dir, 'nginx.conf')], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const req = request(`${url}/healthz`, (res) => {
        res.resume();
        resolve(res.statusCode === 200);
      });
      req.on('error', () => resolve(false));
      req.end();
    });
    if (up) break;
    if (i > 100 || child.exitCode !== null)
      throw new Error(
        `nginx did not start: ${await readFile(path.join(dir, 'error.log'), 'utf8').catch(() => '')}`,
      );
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * A form POST through `url` from the local address `from` (127.0.0.2, 127.0.0.3, …: other clients
 * on this machine), with the Origin the dashboard expects. Answers the status and Retry-After.
 */
export function postFrom(
  from: string,
  url: string,
  form: Record<string, string>,
  origin: string,
): Promise<{ status: number; retryAfter: string | undefined }> {
  const body = new URLSearchParams(form).toString();
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        localAddress: from,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(body),
          origin,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => {
          const retry = res.headers['retry-after'];
          resolve({ status: res.statusCode ?? 0, retryAfter: typeof retry === 'string' ? retry : undefined });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
