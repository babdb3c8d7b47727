/** An OAuth 2.1 client of Titlecard's authorization server, by hand: the steps a hosted assistant takes. */
import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { TestServer } from './server.js';
import { WebClient } from './web.js';

export const REDIRECT = 'http://127.0.0.1:9/callback';
export const PASSWORD = 'a long enough password';

/** A PKCE pair (RFC 7636 section 4.1–4.2, S256). */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Form POST to an OAuth endpoint (application/x-www-form-urlencoded), JSON answer. */
export async function post(url: string, form: Record<string, string>) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
}

/** One JSON-RPC call to /mcp with a bearer token. */
export async function mcpCall(
  srv: TestServer | string,
  token: string,
  method = 'tools/list',
  params: unknown = {},
) {
  const res = await fetch(`${typeof srv === 'string' ? srv : srv.url}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const text = await res.text();
  return {
    status: res.status,
    challenge: res.headers.get('www-authenticate'),
    body: (text ? JSON.parse(text) : undefined) as Record<string, unknown> | undefined,
  };
}

/** Registers a public client (token_endpoint_auth_method none) with one redirect URI. */
export async function register(
  srv: TestServer,
  name = 'Test Assistant',
  redirect = REDIRECT,
): Promise<string> {
  const res = await fetch(`${srv.url}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: name,
      redirect_uris: [redirect],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { client_id: string }).client_id;
}

/** A signed-in person of the dashboard (a cookie jar) with an account of their own. */
export async function person(srv: TestServer): Promise<{ web: WebClient; email: string }> {
  const web = new WebClient(srv.url);
  const email = `oauth-${randomBytes(4).toString('hex')}@example.com`;
  await web.signUp(email, PASSWORD);
  // Only a confirmed account connects an assistant (src/domain/accounts/confirmation.ts).
  await srv.confirmEmail(email);
  return { web, email };
}

export interface Authorization {
  clientId: string;
  verifier: string;
  query: Record<string, string>;
}

export function authorization(
  srv: TestServer,
  clientId: string,
  extra: Record<string, string> = {},
): Authorization {
  const { verifier, challenge } = pkce();
  return {
    clientId,
    verifier,
    query: {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: `st-${randomBytes(4).toString('hex')}`,
      resource: `${srv.url}/mcp`,
      scope: 'mcp',
      ...extra,
    },
  };
}

/**
 * Follows the authorization server's redirects on this site, as a browser does, from `path`;
 * resolves the last answer: a page (the consent page) or a redirect off the site (to the client).
 */
export async function follow(web: WebClient, path: string, form?: Record<string, string>) {
  let answer = form ? await web.post(path, form) : await web.get(path);
  for (let hops = 0; hops < 10; hops++) {
    if (answer.status < 300 || answer.status >= 400 || !answer.location) return answer;
    const next = new URL(answer.location, web.url);
    if (next.origin !== new URL(web.url).origin) return answer;
    answer = await web.get(`${next.pathname}${next.search}`);
  }
  throw new Error(`more than 10 redirects from ${path}`);
}

/** The target of the consent form on `html`; undefined when the page has none. */
const consentAction = (html: string) =>
  /<form method="post" action="(\/oauth\/interaction\/[^"]+)"/.exec(html)?.[1];

/** The consent page of an authorization request (after the sign-in step), and its form's target. */
export async function consentPage(web: WebClient, a: Authorization) {
  const consent = await follow(web, `/authorize?${new URLSearchParams(a.query).toString()}`);
  expect(consent.status, consent.text).toBe(200);
  const action = consentAction(consent.text);
  if (!action) throw new Error(`No consent form on the page: ${consent.text.slice(0, 500)}`);
  return { consent, action };
}

/**
 * The person allows on the consent form at `action`, and the client exchanges the code it got
 * (PKCE `verifier`, its `redirectUri`): the token endpoint's answer, unchecked.
 */
export async function allowAndExchange(
  srv: TestServer,
  web: WebClient,
  action: string,
  client: { clientId: string; verifier: string; redirectUri: string },
) {
  const back = await follow(web, action, { decision: 'allow' });
  return post(`${srv.url}/token`, {
    grant_type: 'authorization_code',
    client_id: client.clientId,
    code: new URL(back.location ?? '').searchParams.get('code') ?? '',
    code_verifier: client.verifier,
    redirect_uri: client.redirectUri,
  });
}

/**
 * The person answers the consent page; resolves the redirect back to the client. A client the
 * person already allowed (a live grant for the same scope) comes back at once, without a page.
 */
export async function decide(web: WebClient, a: Authorization, decision: 'allow' | 'deny'): Promise<URL> {
  const first = await follow(web, `/authorize?${new URLSearchParams(a.query).toString()}`);
  let answer = first;
  if (first.status === 200) {
    answer = await follow(web, consentAction(first.text) ?? '', { decision });
  } else expect(decision, 'no consent page to deny on').toBe('allow');
  expect(answer.status, answer.text).toBeGreaterThanOrEqual(300);
  expect(answer.status).toBeLessThan(400);
  return new URL(answer.location ?? '');
}

/** Authorization (with `extra` parameters), consent and code exchange: the token endpoint's answer. */
export async function tokensFor(
  srv: TestServer,
  web: WebClient,
  clientId: string,
  extra: Record<string, string> = {},
) {
  const a = authorization(srv, clientId, extra);
  const back = await decide(web, a, 'allow');
  const res = await post(`${srv.url}/token`, {
    grant_type: 'authorization_code',
    client_id: clientId,
    code: back.searchParams.get('code') ?? '',
    code_verifier: a.verifier,
    redirect_uri: REDIRECT,
    resource: `${srv.url}/mcp`,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as {
    access_token: string;
    refresh_token: string;
    expires_in: number;
    token_type: string;
    scope: string;
  };
}
