/**
 * OAuth 2.1 for the MCP connector, through real HTTP against the real server: discovery from the
 * 401 (RFC 9728, RFC 8414), registration (RFC 7591), sign-in and consent, the code exchange with
 * PKCE S256, refresh token rotation, revocation (RFC 7009), resource indicators (RFC 8707), and
 * the ways a grant ends. The last suite runs the whole flow as a hosted assistant does: the MCP
 * SDK's own client OAuth support, and a person in real Chromium who signs in and clicks "Allow",
 * then "Disconnect".
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { auth, UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { ACCESS_TOKEN_TTL_S } from '../../src/domain/oauth/oauth.js';
import { REDACTED_PATHS } from '../../src/logger.js';
import type { Clock } from '../../src/domain/kernel/ports.js';
import { hasChromium, launchChromium, seriousViolations } from '../support/browser.js';
import { ROOT } from '../support/process.js';
import { call, startTestServer, type TestServer } from '../support/server.js';
import {
  pkce,
  post,
  mcpCall,
  register,
  person,
  authorization,
  consentPage,
  decide,
  follow,
  tokensFor,
  REDIRECT,
  PASSWORD,
} from '../support/oauth.js';
import { WebClient } from '../support/web.js';

const inCi = process.env.CI === 'true';
if (inCi && !hasChromium)
  throw new Error('CI=true but Chromium is missing: .ci/run installs it (apt-get install chromium)');

const SAMPLE = readFileSync(`${ROOT}/src/web/static/samples/dragonfly.jpg`);

describe('OAuth 2.1 for /mcp, over HTTP', () => {
  let srv: TestServer;
  let now = Date.now();
  const clock: Clock = { now: () => new Date(now) };
  beforeAll(async () => {
    srv = await startTestServer({ clock });
  });
  afterAll(async () => {
    await srv?.close();
  });

  it('a 401 from /mcp names the protected resource metadata, which names Titlecard as the authorization server (RFC 9728, RFC 8414)', async () => {
    const res = await fetch(`${srv.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(401);
    const challenge = res.headers.get('www-authenticate') ?? '';
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
    expect(metadataUrl).toBe(`${srv.url}/.well-known/oauth-protected-resource/mcp`);
    const prm = (await (await fetch(metadataUrl ?? '')).json()) as Record<string, unknown>;
    expect(prm).toMatchObject({ resource: `${srv.url}/mcp`, authorization_servers: [srv.url] });
    const as = (await (await fetch(`${srv.url}/.well-known/oauth-authorization-server`)).json()) as Record<
      string,
      unknown
    >;
    expect(as).toMatchObject({
      issuer: srv.url,
      authorization_endpoint: `${srv.url}/authorize`,
      token_endpoint: `${srv.url}/token`,
      registration_endpoint: `${srv.url}/register`,
      revocation_endpoint: `${srv.url}/revoke`,
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      scopes_supported: ['mcp'],
      client_id_metadata_document_supported: true,
    });
  });

  it('registration refuses a redirect URI that is neither https nor loopback', async () => {
    const res = await fetch(`${srv.url}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Bad', redirect_uris: ['http://evil.example/cb'] }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_redirect_uri' });
  });

  it('sends a signed-out person to sign in and back; the consent page names the client, cannot be framed, and allows only its redirect as a form target', async () => {
    const clientId = await register(srv, 'Claude <script>');
    const a = authorization(srv, clientId);
    const query = new URLSearchParams(a.query).toString();
    const visitor = new WebClient(srv.url);
    const first = await visitor.get(`/authorize?${query}`);
    expect(first.location).toMatch(/^\/oauth\/interaction\//);
    const toSignIn = await visitor.get(first.location ?? '');
    expect(toSignIn.status).toBe(303);
    const signIn = new URL(toSignIn.location ?? '', srv.url);
    expect(signIn.pathname).toBe('/sign-in');
    const next = signIn.searchParams.get('next') ?? '';
    expect(next).toMatch(/^\/oauth\/interaction\/[\w-]+$/);
    // Signed in, the person comes back to the same authorization: its consent page.
    const email = `oauth-back-${Date.now()}@example.com`;
    await visitor.signUp(email, PASSWORD);
    await srv.confirmEmail(email);
    const consent = await follow(visitor, next);
    expect(consent.status, consent.text).toBe(200);
    expect(consent.text).toContain('Allow Claude &lt;script&gt; to use your Titlecard account?');
    expect(consent.text).toContain(email);
    // Everything the grant lets the assistant do, the destructive part included.
    for (const can of [
      /generate images, which uses the workspace’s quota/,
      /make render links from its presets/,
      /list and open its images, and delete them/,
      /read its usage, and your name, email and the workspace’s tier/,
    ])
      expect(consent.text).toMatch(can);
    // It acts in one workspace the person chooses: their personal one is offered (docs/workspaces.md).
    expect(consent.text).toMatch(
      /<select id="consent-workspace" name="workspace">\s*<option value="usr_\w+">[^<]*\(personal\) · you are owner</,
    );
    expect(consent.text).toContain('127.0.0.1:9');
    expect(consent.headers.get('x-frame-options')).toBe('DENY');
    const csp = consent.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("form-action 'self' http://127.0.0.1:9");
    expect(consent.headers.get('cache-control')).toBe('no-store');

    // CSRF: a consent posted from another site is refused.
    const action = /<form method="post" action="(\/oauth\/interaction\/[^"]+)"/.exec(consent.text)?.[1] ?? '';
    visitor.origin = 'https://evil.example';
    const forged = await visitor.post(action, { decision: 'allow' });
    expect(forged.status).toBe(403);
  });

  it("a registered name that reads as the page's own words is cut to a name, and the page says the name is unchecked (issue 55, item 6)", async () => {
    const clientId = await register(
      srv,
      'Claude — This app is published by claude.ai, which answers for its name.',
    );
    const { web } = await person(srv);
    const { consent } = await consentPage(web, authorization(srv, clientId));
    const heading = /<h1 id="consent-h">([^<]*)<\/h1>/.exec(consent.text)?.[1];
    expect(heading).toBe('Allow Claude to use your Titlecard account?');
    expect(consent.text).not.toContain('published by');
    expect(consent.text).toContain('This app registered itself: its name is its own claim');
    expect(consent.text).toContain(`It will send you back to <strong>${new URL(REDIRECT).host}</strong>`);
    const long = await register(srv, 'An assistant whose name goes on and on without any stop at all');
    const { consent: second } = await consentPage(web, authorization(srv, long));
    expect(second.text).toContain(
      'Allow An assistant whose name goes on and on… to use your Titlecard account?',
    );
  });

  it('"Allow" redirects with a code and the state; the code with its PKCE verifier gives tokens that work at /mcp, and refresh tokens rotate', async () => {
    const clientId = await register(srv);
    const { web } = await person(srv);
    const a = authorization(srv, clientId);
    const back = await decide(web, a, 'allow');
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe(a.query.state);
    const code = back.searchParams.get('code') ?? '';
    const res = await post(`${srv.url}/token`, {
      grant_type: 'authorization_code',
      client_id: clientId,
      code,
      code_verifier: a.verifier,
      redirect_uri: REDIRECT,
      resource: `${srv.url}/mcp`,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: ACCESS_TOKEN_TTL_S, scope: 'mcp' });
    const first = res.body as { access_token: string; refresh_token: string };
    const listed = await mcpCall(srv, first.access_token);
    expect(listed.status).toBe(200);
    expect((listed.body?.result as { tools: unknown[] }).tools.length).toBeGreaterThan(3);

    const rotated = await post(`${srv.url}/token`, {
      grant_type: 'refresh_token',
      client_id: clientId,
      refresh_token: first.refresh_token,
    });
    expect(rotated.status).toBe(200);
    const second = rotated.body as { access_token: string; refresh_token: string };
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await mcpCall(srv, second.access_token)).status).toBe(200);

    // Replaying the used refresh token is refused and revokes the whole grant (OAuth 2.1 section 4.3.1).
    const replay = await post(`${srv.url}/token`, {
      grant_type: 'refresh_token',
      client_id: clientId,
      refresh_token: first.refresh_token,
    });
    expect(replay).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await mcpCall(srv, second.access_token)).status).toBe(401);
  });

  it('refuses a wrong PKCE verifier, a reused code (revoking what it granted), and a code of another client', async () => {
    const clientId = await register(srv);
    const otherClient = await register(srv, 'Other');
    const { web } = await person(srv);
    const a = authorization(srv, clientId);
    const code = (await decide(web, a, 'allow')).searchParams.get('code') ?? '';
    const exchange = (verifier: string, client = clientId) =>
      post(`${srv.url}/token`, {
        grant_type: 'authorization_code',
        client_id: client,
        code,
        code_verifier: verifier,
      });

    expect(await exchange(pkce().verifier)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await exchange(a.verifier, otherClient)).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    const good = await exchange(a.verifier);
    expect(good.status).toBe(200);
    const access = good.body.access_token as string;
    expect((await mcpCall(srv, access)).status).toBe(200);
    const reused = await exchange(a.verifier);
    expect(reused).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await mcpCall(srv, access)).status).toBe(401);
  });

  it('refuses a redirect URI the client did not register, without redirecting to it', async () => {
    const clientId = await register(srv);
    const { web } = await person(srv);
    const a = authorization(srv, clientId, { redirect_uri: 'https://evil.example/callback' });
    const res = await web.get(`/authorize?${new URLSearchParams(a.query).toString()}`);
    expect(res.status).toBe(400);
    expect(res.location).toBeUndefined();
    expect(res.text).toContain('redirect_uri');
  });

  it('leaves an unknown scope out of the grant (RFC 6749 section 3.3: the tokens say what they allow); no scope means the one scope', async () => {
    const clientId = await register(srv);
    const { web } = await person(srv);
    for (const scope of ['mcp admin', ''])
      expect((await tokensFor(srv, web, clientId, { scope })).scope, scope).toBe('mcp');
  });

  it('"Deny" returns access_denied with the state, and no code', async () => {
    const clientId = await register(srv);
    const { web } = await person(srv);
    const a = authorization(srv, clientId);
    const back = await decide(web, a, 'deny');
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe(a.query.state);
    expect(back.searchParams.get('code')).toBeNull();
  });

  it('refuses to authorize for another resource (RFC 8707), and a token for another server is refused at this /mcp', async () => {
    const clientId = await register(srv);
    const { web } = await person(srv);
    const a = authorization(srv, clientId, { resource: 'https://other.example/mcp' });
    const res = await follow(web, `/authorize?${new URLSearchParams(a.query).toString()}`);
    expect(res.status).toBeGreaterThanOrEqual(300);
    const back = new URL(res.location ?? '');
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('error')).toBe('invalid_target');
    expect(back.searchParams.get('state')).toBe(a.query.state);

    // A second server on the same records under another PUBLIC_URL: its tokens are not for this /mcp.
    const other = await startTestServer({
      dataDir: srv.dataDir,
      env: { PUBLIC_URL: 'http://127.0.0.1:1' },
    });
    try {
      const tokens = await tokensFor(srv, web, clientId);
      const { port } = other.server.address() as AddressInfo;
      const elsewhere = await mcpCall(`http://127.0.0.1:${port}`, tokens.access_token);
      expect(elsewhere.status).toBe(401);
      expect(elsewhere.challenge).toMatch(/error="invalid_token"/);
      expect((await mcpCall(srv, tokens.access_token)).status).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('an access token stops working when it expires, and the refresh token then gets a new one', async () => {
    const clientId = await register(srv);
    const { web } = await person(srv);
    const tokens = await tokensFor(srv, web, clientId);
    expect((await mcpCall(srv, tokens.access_token)).status).toBe(200);
    now += (ACCESS_TOKEN_TTL_S + 1) * 1000;
    const expired = await mcpCall(srv, tokens.access_token);
    expect(expired.status).toBe(401);
    expect(expired.challenge).toMatch(/error="invalid_token".*expired/);
    expect(expired.challenge).toContain(
      `resource_metadata="${srv.url}/.well-known/oauth-protected-resource/mcp"`,
    );
    const fresh = await post(`${srv.url}/token`, {
      grant_type: 'refresh_token',
      client_id: clientId,
      refresh_token: tokens.refresh_token,
    });
    expect(fresh.status).toBe(200);
    expect((await mcpCall(srv, fresh.body.access_token as string)).status).toBe(200);
  });

  it('revoking a refresh token (RFC 7009) ends its access tokens; so do a password change and account deletion', async () => {
    const clientId = await register(srv);
    const { web, email } = await person(srv);
    const revoked = await tokensFor(srv, web, clientId);
    expect(
      await post(`${srv.url}/revoke`, { client_id: clientId, token: revoked.refresh_token }),
    ).toMatchObject({
      status: 200,
    });
    expect((await mcpCall(srv, revoked.access_token)).status).toBe(401);

    const beforeChange = await tokensFor(srv, web, clientId);
    const user = await srv.services.accounts.findUserByEmail(email);
    await srv.services.accounts.changePassword(
      user,
      { currentPassword: PASSWORD, password: 'another long password' },
      '127.0.0.1',
    );
    expect((await mcpCall(srv, beforeChange.access_token)).status).toBe(401);
    const refreshAfter = await post(`${srv.url}/token`, {
      grant_type: 'refresh_token',
      client_id: clientId,
      refresh_token: beforeChange.refresh_token,
    });
    expect(refreshAfter).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

    // The change signed every session out: the person signs in again with the new password.
    expect((await web.signIn(email, 'another long password')).status).toBe(303);
    const beforeDeletion = await tokensFor(srv, web, clientId);
    await srv.services.accounts.deleteAccount(
      await srv.services.accounts.findUserByEmail(email),
      { password: 'another long password' },
      '127.0.0.1',
    );
    expect((await mcpCall(srv, beforeDeletion.access_token)).status).toBe(401);
  });

  it('"Disconnect" on one process ends the access at once on another that shares the records', async () => {
    const clientId = await register(srv, 'Two Processes');
    const { web, email } = await person(srv);
    const tokens = await tokensFor(srv, web, clientId);
    const second = await startTestServer({ dataDir: srv.dataDir, env: { PUBLIC_URL: srv.url } });
    try {
      const { port } = second.server.address() as AddressInfo;
      const elsewhere = `http://127.0.0.1:${port}`;
      expect((await mcpCall(elsewhere, tokens.access_token)).status).toBe(200);
      const user = await srv.services.accounts.findUserByEmail(email);
      expect((await srv.services.oauth.connectedApps(user)).map((a) => a.name)).toEqual(['Two Processes']);
      const page = await web.post(`/settings/apps/${clientId}/disconnect`);
      expect(page).toMatchObject({ status: 303, location: '/settings/apps?done=disconnected' });
      expect((await mcpCall(elsewhere, tokens.access_token)).status).toBe(401);
      expect(await srv.services.oauth.connectedApps(user)).toEqual([]);
    } finally {
      await second.close();
    }
  });

  it('the request log never holds an authorization code: redirect locations are redacted', () => {
    const lines: string[] = [];
    const logger = pino(
      { redact: { paths: REDACTED_PATHS, censor: '[redacted]' } },
      {
        write: (line: string) => lines.push(line),
      },
    );
    logger.info({
      res: { statusCode: 303, headers: { location: `${REDIRECT}?code=a-secret-code&state=s` } },
    });
    expect(lines.join('')).not.toContain('a-secret-code');
    expect(lines.join('')).toContain('[redacted]');
  });

  it('API tokens keep working at /mcp, and an OAuth token spends the same quota as REST', async () => {
    const { web, email } = await person(srv);
    const member = await srv.services.accounts.actAs(email);
    const { token } = await srv.services.accounts.createToken(member, { name: 'REST' });
    expect((await mcpCall(srv, token)).status).toBe(200);
    const clientId = await register(srv);
    const tokens = await tokensFor(srv, web, clientId);
    const generated = await mcpCall(srv, tokens.access_token, 'tools/call', {
      name: 'generate_image',
      arguments: { title: 'Shared quota', imageBase64: SAMPLE.toString('base64') },
    });
    expect(generated.status).toBe(200);
    expect((generated.body?.result as { isError?: boolean }).isError).toBeFalsy();
    const usage = await call(srv.base, 'GET', '/usage', { token });
    expect(usage.body.data.usage).toMatchObject({ generated: 1, limit: 10 });
  });
});

/** The client side of a hosted assistant, in memory: what the SDK asks an app to keep. */
class AssistantProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;
  readonly redirectUrl = REDIRECT;
  readonly clientMetadata: OAuthClientMetadata = {
    client_name: 'E2E Assistant',
    redirect_uris: [REDIRECT],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

describe.skipIf(!hasChromium)(
  'a hosted assistant connects with OAuth: the SDK client, and a person in Chromium',
  () => {
    let srv: TestServer;
    let browser: Browser;
    beforeAll(async () => {
      srv = await startTestServer();
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
      await srv?.close();
    });

    it('discovers, registers, signs in, allows, exchanges with PKCE, calls tools, refreshes, and is cut off by "Disconnect"', async () => {
      const email = `assistant-${Date.now()}@example.com`;
      await new WebClient(srv.url).signUp(email, PASSWORD);
      await srv.confirmEmail(email);
      const mcpUrl = new URL(`${srv.url}/mcp`);
      const provider = new AssistantProvider();
      const connect = async () => {
        const client = new Client({ name: 'e2e-assistant', version: '1.0.0' });
        const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
        await client.connect(transport);
        return { client, transport };
      };

      // 1. No token: the 401 starts discovery and registration, and the SDK sends the person to /authorize.
      const firstTransport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
      await expect(new Client({ name: 'e2e', version: '1' }).connect(firstTransport)).rejects.toBeInstanceOf(
        UnauthorizedError,
      );
      expect(provider.client?.client_id).toBeTruthy();
      const authorizationUrl = provider.authorizationUrl;
      expect(authorizationUrl?.pathname).toBe('/authorize');
      expect(authorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256');
      expect(authorizationUrl?.searchParams.get('resource')).toBe(mcpUrl.href);

      // 2. The person, in Chromium with the pages' CSP enforced: sign in, then "Allow".
      const context = await browser.newContext();
      const page = await context.newPage();
      let callback: URL | undefined;
      await page.route(`${REDIRECT}**`, async (route) => {
        callback = new URL(route.request().url());
        await route.fulfill({ status: 200, contentType: 'text/plain', body: 'You can close this window.' });
      });
      await page.goto(authorizationUrl?.href ?? '');
      expect(new URL(page.url()).pathname).toBe('/sign-in');
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL('**/oauth/interaction/**');
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
        'Allow E2E Assistant to use your Titlecard account?',
      );
      await page.getByRole('button', { name: 'Allow', exact: true }).click();
      await page.waitForURL(`${REDIRECT}**`);
      expect(callback?.searchParams.get('state')).toBe(authorizationUrl?.searchParams.get('state'));
      const code = callback?.searchParams.get('code') ?? '';
      expect(code).toMatch(/^[\w-]{32,}$/);

      // 3. The code exchange (PKCE), then tools with the access token.
      await firstTransport.finishAuth(code);
      expect(provider.saved?.access_token).toMatch(/^[\w-]{32,}$/);
      const { client } = await connect();
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name)).toContain('generate_image');
      const generated = await client.callTool({
        name: 'generate_image',
        arguments: { title: 'Connected by OAuth', imageBase64: SAMPLE.toString('base64') },
      });
      expect(generated.isError).toBeFalsy();
      const imageId = (generated.structuredContent as { id: string }).id;
      const member = await srv.services.accounts.actAs(email);
      await expect(srv.services.images.get(member, imageId)).resolves.toMatchObject({
        title: 'Connected by OAuth',
      });
      await client.close();

      // 4. A refresh through the SDK: new tokens, and the new access token works.
      const before = provider.saved;
      expect(await auth(provider, { serverUrl: mcpUrl })).toBe('AUTHORIZED');
      expect(provider.saved?.access_token).not.toBe(before?.access_token);
      expect(provider.saved?.refresh_token).not.toBe(before?.refresh_token);
      const again = await connect();
      const usage = await again.client.callTool({ name: 'get_usage', arguments: {} });
      expect(usage.isError).toBeFalsy();
      expect(usage.structuredContent).toMatchObject({ usage: { generated: 1 } });
      await again.client.close();

      // 5. Settings → Connected apps lists it; "Disconnect" ends its access at once.
      const bypass = await browser.newContext({ bypassCSP: true });
      const settings = await bypass.newPage();
      await bypass.addCookies(await context.cookies());
      settings.on('dialog', (dialog) => {
        dialog.accept().catch(() => undefined);
      });
      await settings.goto(`${srv.url}/settings/apps`);
      expect(await seriousViolations(settings)).toEqual([]);
      const row = settings.getByRole('row', { name: /E2E Assistant/ });
      await expect(row.textContent()).resolves.toMatch(/E2E Assistant/);
      await settings.getByRole('button', { name: 'Disconnect E2E Assistant' }).click();
      await settings.waitForURL('**/settings/apps?done=disconnected');
      await expect(settings.getByRole('status').filter({ hasText: 'disconnected' }).count()).resolves.toBe(1);
      expect(await settings.getByRole('row', { name: /E2E Assistant/ }).count()).toBe(0);

      const cutOff = await mcpCall(srv, provider.saved?.access_token ?? '');
      expect(cutOff.status).toBe(401);
      const refresh = await post(`${srv.url}/token`, {
        grant_type: 'refresh_token',
        client_id: provider.client?.client_id ?? '',
        refresh_token: provider.saved?.refresh_token ?? '',
      });
      expect(refresh).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
      await context.close();
      await bypass.close();
    });
  },
);
