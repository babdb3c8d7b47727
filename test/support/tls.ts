/**
 * A test certificate for https servers on the loopback interface: self-signed, for `localhost` and
 * 127.0.0.1, made with the system's openssl in a temporary directory (once per process); and a
 * fetch that trusts it (what a test hands Titlecard for OAuth Client ID Metadata Documents).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';

let made: { key: Buffer; cert: Buffer } | undefined;

/** The key and certificate (PEM). */
export function testCertificate(): { key: Buffer; cert: Buffer } {
  if (made) return made;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'titlecard-tls-'));
  const [key, cert] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  made = { key: readFileSync(key), cert: readFileSync(cert) };
  return made;
}

/** A GET-only fetch over https that trusts {@link testCertificate}, with `fetches` counting its calls. */
export function fetchTrustingTestCertificate(): typeof globalThis.fetch & { fetches: string[] } {
  const fetches: string[] = [];
  const fetcher = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input);
    fetches.push(url.href);
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    return new Promise<Response>((resolve, reject) => {
      const req = https.request(url, { method: 'GET', headers, ca: testCertificate().cert }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const out = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') out.set(k, v);
          resolve(new Response(Buffer.concat(chunks), { status: res.statusCode ?? 500, headers: out }));
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
  }) as typeof globalThis.fetch & { fetches: string[] };
  fetcher.fetches = fetches;
  return fetcher;
}
