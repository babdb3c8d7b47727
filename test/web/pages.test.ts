/**
 * The dashboard's accounts and sessions as a security reviewer checks them, through real HTTP:
 * security headers, CSRF, throttled sign-in, no account enumeration, cookie flags, email links
 * received from a real SMTP server (single use, expiry), password change and account deletion.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Clock } from '../../src/domain/kernel/ports.js';
import { cookieSettings } from '../../src/web/session.js';
import { solid } from '../support/images.js';
import { call, download, generate, startTestServer, type TestServer } from '../support/server.js';
import { mailTo, startSmtpServer, WebClient, type Mail } from '../support/web.js';

let srv: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let now = Date.now();
const clock: Clock = { now: () => new Date(now) };
let n = 0;
const email = (what: string) => `${what}-${++n}-${Date.now()}@example.com`;

beforeAll(async () => {
  smtp = await startSmtpServer();
  srv = await startTestServer({
    clock,
    env: { SMTP_URL: smtp.url, MAIL_FROM: 'Titlecard <cards@example.com>', TRUST_PROXY: 'loopback' },
  });
});
afterAll(async () => {
  await srv?.close();
  await smtp?.close();
});

describe('pages', () => {
  it('every page carries the security headers: a CSP without inline script, no framing, nosniff, a Referrer-Policy', async () => {
    const anonymous = new WebClient(srv.url);
    const web = new WebClient(srv.url);
    await web.signUp(email('headers'));
    const pages = [
      ...['/sign-in', '/sign-up', '/forgot-password', '/reset-password?token=x', '/verify-email?token=x'].map(
        (p) => [anonymous, p] as const,
      ),
      ...['/overview', '/images', '/playground', '/settings/tokens', '/settings/account', '/connect'].map(
        (p) => [web, p] as const,
      ),
    ];
    for (const [client, path] of pages) {
      const res = await client.get(path);
      expect(res.status, path).toBe(200);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, path).toMatch(/script-src 'self'(;|$)/);
      expect(csp, path).not.toMatch(/unsafe-inline|unsafe-eval/);
      expect(csp, path).toMatch(/frame-ancestors 'none'/);
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('referrer-policy'), path).toBe('same-origin');
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      expect(res.text, path).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script
    }
  });

  it('the session cookie is HttpOnly and SameSite=Lax; on https it is Secure and __Host- prefixed', async () => {
    const address = email('cookie');
    const web = new WebClient(srv.url);
    await web.post('/sign-up', { email: address, displayName: 'C', password: 'a long enough password' });
    const res = await new WebClient(srv.url).signIn(address, 'a long enough password');
    const set = res.headers.get('set-cookie') ?? '';
    expect(set).toMatch(/^titlecard_session=ses_[0-9A-Za-z]{43};/);
    expect(set).toMatch(/HttpOnly/);
    expect(set).toMatch(/SameSite=Lax/);
    expect(set).toMatch(/Path=\//);
    expect(set).toMatch(/Expires=/);
    expect(cookieSettings('https://cards.example.com')).toEqual({
      name: '__Host-titlecard_session',
      secure: true,
    });
    expect(cookieSettings('http://localhost:3000')).toEqual({ name: 'titlecard_session', secure: false });
  });
});

describe('request forgery', () => {
  it('a state-changing request from another origin, or with no origin, is refused and changes nothing', async () => {
    const web = new WebClient(srv.url);
    const address = email('csrf');
    await web.signUp(address);
    await srv.confirmEmail(address, (await mailTo(smtp.mail, address)).link);
    const user = await srv.services.accounts.findUserByEmail(address);
    for (const origin of ['https://evil.example', undefined]) {
      web.origin = origin;
      const res = await web.post('/settings/tokens', { name: 'forged' });
      expect(res.status, String(origin)).toBe(403);
      expect((await web.post('/sign-out')).status).toBe(403);
    }
    expect(await srv.services.accounts.listTokens(await srv.services.accounts.actAs(user.email))).toEqual([]);
    web.origin = new URL(srv.url).origin;
    expect((await web.get('/overview')).status).toBe(200); // still signed in
    expect((await web.post('/settings/tokens', { name: 'genuine' })).status).toBe(201);
  });
});

describe('sign-in', () => {
  it('answers an unknown email and a wrong password alike', async () => {
    const address = email('enum');
    await new WebClient(srv.url).signUp(address, 'the right password');
    const unknown = await new WebClient(srv.url).signIn(email('nobody'), 'whatever password');
    const wrong = await new WebClient(srv.url).signIn(address, 'the wrong password');
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    const message = (html: string) => /role="alert">([^<]*)</.exec(html)?.[1];
    expect(message(unknown.text)).toBe('Wrong email or password');
    expect(message(wrong.text)).toBe(message(unknown.text));
  });

  it('throttles one client on one account with waits that double, while the owner, from another client, still gets in', async () => {
    // The throttle's clock (Date and its timers) runs as real time does, and is moved 2 s forward
    // below instead of the test sleeping through the wait.
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    try {
      const address = email('throttle');
      await new WebClient(srv.url).signUp(address, 'the right password');
      const attacker = new WebClient(srv.url);
      attacker.forwardedFor = '203.0.113.66';
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await attacker.signIn(address, `wrong ${i}`)).status);
      expect(statuses).toEqual([401, 401, 401, 401, 429]);
      const waiting = await attacker.signIn(address, 'the right password');
      expect(waiting.status).toBe(429);
      expect(waiting.headers.get('retry-after')).toBe('2');
      expect(waiting.text).toMatch(/Too many failed password attempts/);
      // The owner, from a client that has not failed, is not locked out by a stranger.
      const owner = new WebClient(srv.url);
      owner.forwardedFor = '198.51.100.10';
      expect((await owner.signIn(address, 'the right password')).status).toBe(303);
      // After the wait, the next failure of that client doubles it.
      await vi.advanceTimersByTimeAsync(2100);
      const again = await attacker.signIn(address, 'wrong again');
      expect(again.status).toBe(429);
      expect(again.headers.get('retry-after')).toBe('4');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('emailed links, received from a real SMTP server', () => {
  it('verifies the email with the link sent at sign-up, once', async () => {
    const address = email('verify');
    const web = new WebClient(srv.url);
    await web.signUp(address);
    expect((await web.get('/overview')).text).toMatch(/Confirm your email/);
    const mail: Mail = await mailTo(smtp.mail, address);
    expect(mail.raw).toMatch(/From: Titlecard <cards@example.com>/);
    expect(mail.link).toMatch(new RegExp(`^${srv.url}/verify-email\\?token=lnk_`));
    const token = new URL(mail.link as string).searchParams.get('token') as string;
    expect((await web.get(`/verify-email?token=${token}`)).status).toBe(200); // a GET changes nothing (mail scanners follow links)
    expect((await srv.services.accounts.findUserByEmail(address)).emailVerifiedAt).toBeNull();
    const done = await web.post('/verify-email', { token });
    expect(done.status).toBe(200);
    expect(done.text).toMatch(/is confirmed/);
    expect((await srv.services.accounts.findUserByEmail(address)).emailVerifiedAt).not.toBeNull();
    expect((await web.get('/overview')).text).not.toMatch(/Confirm your email/);
    expect((await web.post('/verify-email', { token })).status).toBe(400);
  });

  it('resets a password: same answer for an unknown email, single use, every session ended, expiry after an hour', async () => {
    const address = email('reset');
    const old = new WebClient(srv.url);
    await old.signUp(address, 'the old password');
    await mailTo(smtp.mail, address); // the confirmation, sent off the request path
    const before = smtp.mail.length;

    const anon = new WebClient(srv.url);
    const unknown = await anon.post('/forgot-password', { email: email('ghost') });
    const known = await anon.post('/forgot-password', { email: address });
    expect(unknown.status).toBe(200);
    expect(known.status).toBe(200);
    const notice = (html: string) => /role="status">([^<]*)</.exec(html)?.[1];
    expect(notice(known.text)).toBe(notice(unknown.text));
    const mail = await mailTo(smtp.mail, address, 5000, before);
    expect(smtp.mail.length).toBe(before + 1); // this reset only: nothing went to the ghost
    const token = new URL(mail.link as string).searchParams.get('token') as string;

    const reset = await anon.post('/reset-password', { token, password: 'the new password' });
    expect(reset.status).toBe(303);
    expect(reset.location).toMatch(/^\/sign-in\?done=reset/);
    expect((await old.get('/overview')).status).toBe(303); // the old session is over
    expect((await new WebClient(srv.url).signIn(address, 'the old password')).status).toBe(401);
    expect((await new WebClient(srv.url).signIn(address, 'the new password')).status).toBe(303);
    const again = await anon.post('/reset-password', { token, password: 'another new password' });
    expect(again.status).toBe(400);
    expect(again.text).toMatch(/invalid or has expired/);

    const beforeLate = smtp.mail.length;
    await anon.post('/forgot-password', { email: address });
    const late = await mailTo(smtp.mail, address, 5000, beforeLate);
    now += 61 * 60 * 1000;
    try {
      const expired = await anon.post('/reset-password', {
        token: new URL(late.link as string).searchParams.get('token') as string,
        password: 'too late a password',
      });
      expect(expired.status).toBe(400);
    } finally {
      now -= 61 * 60 * 1000;
    }
  });
});

describe('account settings', () => {
  it('a password change needs the current one and ends the other sessions, not this one', async () => {
    const address = email('change');
    const here = new WebClient(srv.url);
    const elsewhere = new WebClient(srv.url);
    await here.signUp(address, 'first password');
    expect((await elsewhere.signIn(address, 'first password')).status).toBe(303);
    const wrong = await here.post('/settings/account/password', {
      currentPassword: 'nope',
      password: 'second password',
    });
    expect(wrong.status).toBe(401);
    const ok = await here.post('/settings/account/password', {
      currentPassword: 'first password',
      password: 'second password',
    });
    expect(ok.status).toBe(303);
    expect((await here.get('/overview')).status).toBe(200);
    expect((await elsewhere.get('/overview')).status).toBe(303);
  });

  it('deleting the account removes its images and files, revokes its tokens and ends its sessions', async () => {
    const address = email('delete');
    const web = new WebClient(srv.url);
    await web.signUp(address, 'delete me please');
    await srv.confirmEmail(address, (await mailTo(smtp.mail, address)).link);
    const member = await srv.services.accounts.actAs(address);
    const { token } = await srv.services.accounts.createToken(member, { name: 'api' });
    const made = await generate(
      srv.base,
      token,
      { title: 'Doomed' },
      { data: await solid([10, 20, 30], 'jpeg', 400, 300) },
    );
    expect(made.status).toBe(201);
    expect((await web.post('/settings/account/delete', { password: 'wrong' })).status).toBe(401);
    const gone = await web.post('/settings/account/delete', { password: 'delete me please' });
    expect(gone.status).toBe(303);
    expect((await download(made.body.data.url as string)).status).toBe(404);
    expect((await call(srv.base, 'GET', '/usage', { token })).status).toBe(401);
    expect((await web.get('/overview')).status).toBe(303);
    await expect(srv.services.accounts.findUserByEmail(address)).rejects.toThrow(/No user/);
  });
});

describe('sign-up closed', () => {
  it('with SIGNUP=closed the form says so and a POST is refused; the CLI still opens accounts', async () => {
    const closed = await startTestServer({ env: { SIGNUP: 'closed' } });
    try {
      const web = new WebClient(closed.url);
      expect((await web.get('/sign-up')).text).toMatch(/Sign-up is closed on this server/);
      const res = await web.post('/sign-up', {
        email: email('closed'),
        displayName: 'C',
        password: 'a long enough password',
      });
      expect(res.status).toBe(403);
      expect((await web.get('/sign-in')).text).not.toMatch(/Create an account/);
      const { user } = await closed.createUser('free');
      expect(user.id).toMatch(/^usr_/);
    } finally {
      await closed.close();
    }
  });
});
