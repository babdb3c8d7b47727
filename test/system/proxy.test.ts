/**
 * Behind the shipped nginx configuration, throttles see the real client when TRUST_PROXY says which
 * proxy to believe (docs/security.md): clients at two addresses (127.0.0.2 and 127.0.0.3) sign in
 * through a real nginx.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NGINX, postFrom, startNginx } from '../support/nginx.js';
import { startTestServer } from '../support/server.js';

if (process.env.CI === 'true' && !NGINX)
  throw new Error('CI=true but nginx is missing: .ci/run installs it (apt-get install nginx-light)');

/** A server behind its own nginx, with the given TRUST_PROXY, and one account. */
async function behindNginx(trustProxy: string | undefined) {
  const srv = await startTestServer(trustProxy ? { env: { TRUST_PROXY: trustProxy } } : {});
  const nginx = await startNginx(`http://127.0.0.1:${new URL(srv.url).port}`);
  const email = `proxied-${Date.now()}@example.com`;
  await srv.services.sessions.signUp({ email, displayName: 'Proxied', password: 'the right password' });
  const signIn = (from: string, as: string, password: string) =>
    postFrom(from, `${nginx.url}/sign-in`, { email: as, password }, new URL(srv.url).origin);
  return { srv, nginx, email, signIn };
}

/** 20 failed sign-ins on 20 addresses from `from`: enough to stop that client (password-guard.ts). */
async function spray(
  signIn: (from: string, as: string, password: string) => Promise<{ status: number }>,
  from: string,
) {
  const statuses: number[] = [];
  for (let i = 0; i < 20; i++) statuses.push((await signIn(from, `nobody${i}@example.com`, 'guess')).status);
  return statuses;
}

describe.skipIf(!NGINX)(`behind nginx${NGINX ? '' : ' (nginx is not installed)'}`, () => {
  let trusted: Awaited<ReturnType<typeof behindNginx>>;
  let untrusted: Awaited<ReturnType<typeof behindNginx>>;
  beforeAll(async () => {
    [trusted, untrusted] = await Promise.all([behindNginx('loopback'), behindNginx(undefined)]);
  });
  afterAll(async () => {
    for (const s of [trusted, untrusted]) {
      await s?.nginx.close();
      await s?.srv.close();
    }
  });

  it('with TRUST_PROXY, one client that guesses is stopped and another still signs in', async () => {
    const statuses = await spray(trusted.signIn, '127.0.0.2');
    expect(statuses.at(-1)).toBe(429);
    expect((await trusted.signIn('127.0.0.2', trusted.email, 'the right password')).status).toBe(429);
    expect((await trusted.signIn('127.0.0.3', trusted.email, 'the right password')).status).toBe(303);
  });

  it('without it, every client is the proxy: one client that guesses stops them all (why TRUST_PROXY exists)', async () => {
    const statuses = await spray(untrusted.signIn, '127.0.0.2');
    expect(statuses.at(-1)).toBe(429);
    const other = await untrusted.signIn('127.0.0.3', untrusted.email, 'the right password');
    expect(other.status).toBe(429);
    expect(Number(other.retryAfter)).toBeGreaterThan(0);
  });
});
