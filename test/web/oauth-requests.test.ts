/**
 * OAuth 2.1 for /mcp: authorization requests at their edges, through real HTTP against the real
 * server. A native app's loopback port, a request without redirect_uri, a shared browser after a
 * sign-out (the library's own sign-in session never answers for the dashboard's person), and a
 * stray cookie. The main flow and its refusals are in oauth.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';
import {
  allowAndExchange,
  authorization,
  consentPage,
  decide,
  follow,
  PASSWORD,
  person,
  REDIRECT,
  register,
} from '../support/oauth.js';

describe('OAuth 2.1 authorization requests at their edges', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer();
  });
  afterAll(async () => {
    await srv?.close();
  });

  it('lets the port of a loopback redirect URI differ from the registered one (RFC 8252 section 7.3), not its host or path', async () => {
    const clientId = await register(srv, 'Desktop App');
    const { web } = await person(srv);
    const other = authorization(srv, clientId, { redirect_uri: 'http://127.0.0.1:10/callback' });
    const back = await decide(web, other, 'allow');
    expect(`${back.origin}${back.pathname}`).toBe('http://127.0.0.1:10/callback');
    expect(back.searchParams.get('code')).toBeTruthy();
    for (const redirect of ['http://localhost:9/callback', 'http://127.0.0.1:9/elsewhere']) {
      const res = await web.get(
        `/authorize?${new URLSearchParams(authorization(srv, clientId, { redirect_uri: redirect }).query).toString()}`,
      );
      expect(res.status, redirect).toBe(400);
      expect(res.location).toBeUndefined();
    }
  });

  it('takes a request without redirect_uri from a client that registered one (RFC 6749 section 3.1.2.3)', async () => {
    const clientId = await register(srv);
    const { web } = await person(srv);
    const a = authorization(srv, clientId);
    delete a.query.redirect_uri;
    const back = await decide(web, a, 'allow');
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('code')).toBeTruthy();
  });

  it('on a shared browser, after a sign-out, the next authorization is asked of whoever signs in, never answered for the one before', async () => {
    const clientId = await register(srv, 'Shared Browser', 'https://assistant.example/callback');
    const { web, email: first } = await person(srv);
    const query = (a: ReturnType<typeof authorization>) => new URLSearchParams(a.query).toString();
    const allowed = authorization(srv, clientId, { redirect_uri: 'https://assistant.example/callback' });
    expect((await decide(web, allowed, 'allow')).searchParams.get('code')).toBeTruthy();

    // Signed out: the library's own session cookie is still in this browser; no code comes back.
    expect((await web.post('/sign-out')).status).toBe(303);
    const again = authorization(srv, clientId, { redirect_uri: 'https://assistant.example/callback' });
    const signedOut = await follow(web, `/authorize?${query(again)}`);
    expect(signedOut.status).toBe(200);
    expect(signedOut.text).not.toMatch(/Allow Shared Browser/);
    expect(signedOut.location).toBeUndefined();

    // Another person signs in on the same browser: the consent page is theirs, and so is the token.
    const second = `oauth-second-${Date.now()}@example.com`;
    await web.signUp(second, PASSWORD);
    await srv.confirmEmail(second);
    const { consent, action } = await consentPage(web, again);
    expect(consent.text).toContain(second);
    expect(consent.text).not.toContain(first);
    const tokens = await allowAndExchange(srv, web, action, {
      clientId,
      verifier: again.verifier,
      redirectUri: 'https://assistant.example/callback',
    });
    expect(tokens.status).toBe(200);
    expect((await srv.services.oauth.verify(tokens.body.access_token as string)).user.email).toBe(second);
  });

  it('a stray cookie that is not percent-encoding does not break /authorize (it answered 400)', async () => {
    const clientId = await register(srv);
    const res = await fetch(
      `${srv.url}/authorize?${new URLSearchParams(authorization(srv, clientId).query).toString()}`,
      {
        headers: { cookie: '_session=%zz; titlecard_session=%E0%A4%A' },
        redirect: 'manual',
      },
    );
    expect(res.status).toBe(303);
  });

  it('a session cookie that parses as JSON (`j:`) is no session, and /authorize goes on (not a 500)', async () => {
    const clientId = await register(srv);
    const res = await fetch(
      `${srv.url}/authorize?${new URLSearchParams(authorization(srv, clientId).query).toString()}`,
      { headers: { cookie: '_session=j:1' }, redirect: 'manual' },
    );
    expect(res.status).toBe(303);
  });
});
