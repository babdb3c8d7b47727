/**
 * Accounts that hold under attack (docs/security.md), through real HTTP: what an attacker who knows
 * a victim's email, shares their network or reads the server's files and logs can and cannot do.
 */
import { mkdtemp, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { REDACTED_PATHS } from '../../src/logger.js';
import { authorization, consentPage, register } from '../support/oauth.js';
import { call, startTestServer, type TestServer } from '../support/server.js';
import { WebClient } from '../support/web.js';

describe('no secrets at rest or in logs that need not be there', () => {
  const lines: string[] = [];
  const logger = pino(
    { level: 'debug', redact: { paths: REDACTED_PATHS, censor: '[redacted]' } },
    { write: (line: string) => lines.push(line) },
  );
  /** The request log's entry of the request sent with `X-Request-Id: id`, once it is written. */
  const entryOf = (id: string) =>
    vi.waitFor(() => {
      const entry = lines.map((l) => JSON.parse(l)).find((l) => l.req?.id === id && l.res);
      if (!entry) throw new Error(`no log line for ${id} yet`);
      return entry as {
        msg: string;
        req: Record<string, unknown>;
        res: Record<string, unknown>;
        responseTime: number;
      };
    });
  let srv: TestServer;
  beforeAll(async () => {
    // A DATA_DIR that does not exist yet: the server makes it.
    const parent = await mkdtemp(path.join(os.tmpdir(), 'titlecard-modes-'));
    srv = await startTestServer({ logger, dataDir: path.join(parent, 'data') });
  });
  afterAll(async () => srv?.close());

  it("at debug, an emailed link's token is redacted from the request log's url and referer, and the bearer token from its headers", async () => {
    logger.level = 'debug';
    const secret = `lnk_${'S'.repeat(43)}`;
    await fetch(`${srv.url}/reset-password?token=${secret}`, { headers: { 'x-request-id': 'debug-1' } });
    await fetch(`${srv.url}/static/app.css`, {
      headers: { referer: `${srv.url}/verify-email?token=${secret}&x=1`, 'x-request-id': 'debug-2' },
    });
    await fetch(`${srv.url}/api/usage`, {
      headers: { authorization: `Bearer tc_${'T'.repeat(40)}`, 'x-request-id': 'debug-3' },
    });
    expect((await entryOf('debug-1')).req.url).toBe('/reset-password?token=[redacted]');
    expect((await entryOf('debug-2')).req.headers).toMatchObject({
      referer: `${srv.url}/verify-email?token=[redacted]&x=1`,
    });
    expect((await entryOf('debug-3')).req.headers).toMatchObject({ authorization: '[redacted]' });
    const log = lines.join('');
    expect(log).not.toContain(secret);
    expect(log).not.toContain('T'.repeat(40));
  });

  it('at info, the request log is one compact line per request: method, path, status, time and request id, no headers', async () => {
    logger.level = 'info';
    try {
      const secret = `lnk_${'S'.repeat(43)}`;
      await fetch(`${srv.url}/api/usage?token=${secret}`, {
        headers: { authorization: `Bearer tc_${'T'.repeat(40)}`, 'x-request-id': 'info-1' },
      });
      const entry = await entryOf('info-1');
      expect(entry.msg).toMatch(/^GET \/api\/usage\?token=\[redacted\] 401 \d+ ms$/);
      expect(entry.req).toEqual({ id: 'info-1', method: 'GET', url: '/api/usage?token=[redacted]' });
      expect(entry.res).toEqual({ statusCode: 401 });
      expect(entry.responseTime).toBeGreaterThanOrEqual(0);
      const line = lines.find((l) => l.includes('"info-1"')) ?? '';
      expect(line).not.toContain('headers');
      expect(line).not.toContain(secret);
    } finally {
      logger.level = 'debug';
    }
  });

  it('the data directory is owner-only (0700) and the SQLite database file too (0600)', async () => {
    expect((await stat(srv.dataDir)).mode & 0o777).toBe(0o700);
    for (const file of ['titlecard.db', 'titlecard.db-wal', 'titlecard.db-shm'])
      expect((await stat(path.join(srv.dataDir, file))).mode & 0o777, file).toBe(0o600);
  });
});

describe('accounts that hold under attack', () => {
  let srv: TestServer;
  let n = 0;
  const address = (what: string) => `${what}-${++n}-${Date.now()}@example.com`;
  const PASSWORD = 'a long enough password';
  const mailTo = (to: string, pattern: RegExp, after = 0) => srv.mailTo(to, pattern, after);
  const linkIn = (text: string) => /token=(lnk_[0-9A-Za-z]{43})/.exec(text)?.[1] ?? '';
  /** A client at its own address, behind the server's trusted loopback proxy. */
  let clients = 0;
  const client = () => {
    const web = new WebClient(srv.url);
    web.forwardedFor = `198.51.100.${++clients}`;
    return web;
  };

  beforeAll(async () => {
    // Each message takes 100 ms to hand over, as an SMTP server's answer does.
    srv = await startTestServer({ env: { TRUST_PROXY: 'loopback' }, mailDelayMs: 100 });
  });
  afterAll(async () => srv?.close());

  it('an unconfirmed account makes no API token, signing key or OAuth grant, and each page says why with "Send it again"', async () => {
    const email = address('unconfirmed');
    const web = client();
    await web.signUp(email, PASSWORD);
    const token = await web.post('/settings/tokens', { name: 'early' });
    expect(token.status).toBe(403);
    expect(token.text).toMatch(/Confirm your email first/);
    expect(token.text).toMatch(/Send it again/);
    const key = await web.post('/links/keys', { name: 'early' });
    expect(key.status).toBe(403);
    expect(key.text).toMatch(/Confirm your email first/);
    const clientId = await register(srv);
    const a = authorization(srv, clientId);
    const { consent, action } = await consentPage(web, a);
    expect(consent.text).toMatch(/Confirm your email to make API tokens/);
    expect(consent.text).not.toMatch(/value="allow"/);
    const allowed = await web.post(action, { decision: 'allow' });
    expect(allowed.status).toBe(403);
    expect(allowed.location).toBeUndefined();
    // "Send it again" sends a fresh link (the sign-up's first is replaced); once used, the account may.
    await mailTo(email, /Confirm that/);
    const before = srv.mail.length;
    expect((await web.post('/verify-email/resend')).status).toBe(200);
    const link = linkIn((await mailTo(email, /Confirm that/, before)).text);
    expect((await web.post('/verify-email', { token: link })).status).toBe(200);
    expect((await web.post('/settings/tokens', { name: 'now' })).status).toBe(201);
  });

  it('an account made on the command line counts as confirmed', async () => {
    const { user, token } = await srv.createUser('pro');
    expect(user.emailVerifiedAt).not.toBeNull();
    expect((await call(srv.base, 'POST', '/tokens', { token, json: { name: 'second' } })).status).toBe(201);
  });

  it('a password reset by link revokes the API tokens, grants and other sessions, and the page says so', async () => {
    // The attacker signs up first with the victim's address, confirms nothing, and keeps a session;
    // here the account is confirmed and holds a token, as a takeover before sign-up would leave it.
    const email = address('takeover');
    const attacker = client();
    await attacker.signUp(email, PASSWORD);
    await srv.confirmEmail(email);
    const made = await attacker.post('/settings/tokens', { name: 'planted' });
    const planted = /value="(tc_[0-9A-Za-z]{40})"/.exec(made.text)?.[1] ?? '';
    expect(planted).not.toBe('');
    // The owner resets the password with the link sent to their inbox.
    const owner = client();
    expect((await owner.post('/forgot-password', { email })).status).toBe(200);
    const reset = await owner.post('/reset-password', {
      token: linkIn((await mailTo(email, /reset the password/)).text),
      password: 'the owner now',
    });
    expect(reset.status).toBe(303);
    expect((await owner.get(reset.location ?? '')).text).toMatch(/1 API token was revoked/);
    expect((await call(srv.base, 'GET', '/usage', { token: planted })).status).toBe(401);
    expect((await attacker.get('/overview')).status).toBe(303);
  });

  it('a password change keeps the API tokens, lists them with "Revoke all", which revokes them', async () => {
    const email = address('change');
    const web = client();
    await web.signUp(email, PASSWORD);
    await srv.confirmEmail(email);
    const made = await web.post('/settings/tokens', { name: 'deploy' });
    const token = /value="(tc_[0-9A-Za-z]{40})"/.exec(made.text)?.[1] ?? '';
    const changed = await web.post('/settings/account/password', {
      currentPassword: PASSWORD,
      password: 'a newer long password',
    });
    expect(changed.status).toBe(303);
    expect((await call(srv.base, 'GET', '/usage', { token })).status).toBe(200);
    const page = await web.get(changed.location ?? '');
    expect(page.text).toMatch(/Your API tokens still work/);
    expect(page.text).toMatch(/deploy/);
    expect(page.text).toMatch(/Revoke all tokens/);
    expect((await web.post('/settings/tokens/revoke-all')).status).toBe(303);
    expect((await call(srv.base, 'GET', '/usage', { token })).status).toBe(401);
  });

  it('sign-up answers a taken address as a new one, makes no second account, and tells the owner', async () => {
    const email = address('taken');
    await client().signUp(email, PASSWORD);
    const notice = (html: string) => /role="status">([^<]*)</.exec(html)?.[1]?.replace(email, '…');
    const fresh = await client().post('/sign-up', {
      email: address('fresh'),
      displayName: 'F',
      password: PASSWORD,
    });
    const taken = await client().post('/sign-up', { email, displayName: 'T', password: 'another password!' });
    expect(taken.status).toBe(fresh.status);
    expect(notice(taken.text)).toBe(notice(fresh.text)?.replace(/fresh-\d+-\d+@example\.com/, '…'));
    expect(taken.headers.get('set-cookie')).toBeNull();
    expect((await mailTo(email, /Someone tried to make a new Titlecard account/)).subject).toMatch(
      /tried to sign up/,
    );
    // The account is the first one's: its password, not the second's.
    expect((await client().signIn(email, 'another password!')).status).toBe(401);
    expect((await client().signIn(email, PASSWORD)).status).toBe(303);
  });

  it('"forgot password" answers in the same time for a known and an unknown address, and is throttled per address and per client', async () => {
    const timed = async (email: string) => {
      const started = performance.now();
      const res = await client().post('/forgot-password', { email });
      expect(res.status).toBe(200);
      return performance.now() - started;
    };
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 5; i++) {
      known.push(await timed((await srv.createUser('free')).user.email));
      unknown.push(await timed(address('ghost')));
    }
    // The mailer takes 100 ms a message: sent inline, a known address would answer that much later.
    expect(Math.abs(median(known) - median(unknown))).toBeLessThan(40);

    const email = address('flood');
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await client().post('/forgot-password', { email })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const one = client();
    const fromOne: number[] = [];
    for (let i = 0; i < 11; i++)
      fromOne.push((await one.post('/forgot-password', { email: address('spray') })).status);
    expect(fromOne.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(fromOne[10]).toBe(429);
  });

  it('changing the email needs the password, takes effect when the new address confirms, and tells the old one', async () => {
    const email = address('old');
    const next = address('new');
    const web = client();
    await web.signUp(email, PASSWORD);
    const refused = await web.post('/settings/account/profile', { displayName: 'Me', email: next });
    expect(refused.status).toBe(401);
    const asked = await web.post('/settings/account/profile', {
      displayName: 'Me',
      email: next,
      currentPassword: PASSWORD,
    });
    expect(asked.status).toBe(303);
    expect((await srv.services.accounts.findUserByEmail(email)).displayName).toBe('Me');
    await expect(srv.services.accounts.findUserByEmail(next)).rejects.toThrow(/No user/);
    expect((await mailTo(email, /asked to change its email/)).text).toContain(next);
    const link = linkIn((await mailTo(next, /To make .* the email of your Titlecard account/)).text);
    expect((await web.post('/verify-email', { token: link })).status).toBe(200);
    const moved = await srv.services.accounts.findUserByEmail(next);
    expect(moved.emailVerifiedAt).not.toBeNull();
    await expect(srv.services.accounts.findUserByEmail(email)).rejects.toThrow(/No user/);
  });

  it('current-password checks are throttled like sign-in: changing the password and deleting the account share the count', async () => {
    const email = address('guess');
    const web = client();
    await web.signUp(email, PASSWORD);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push(
        (
          await web.post('/settings/account/password', {
            currentPassword: `guess ${i}`,
            password: 'whatever long',
          })
        ).status,
      );
    statuses.push((await web.post('/settings/account/delete', { password: 'guess 5' })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    const right = await web.post('/settings/account/password', {
      currentPassword: PASSWORD,
      password: 'whatever long',
    });
    expect(right.status).toBe(429);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
