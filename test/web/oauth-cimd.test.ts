/**
 * OAuth 2.1 for a hosted assistant of MCP 2026-07-28, known by its Client ID Metadata Document
 * (draft-ietf-oauth-client-id-metadata-document): the document is served over https by a loopback
 * server with a test certificate (test/support/tls.ts), which the test's fetch trusts; without that
 * fetch, the library's own SSRF-safe fetch refuses the loopback address.
 */
import { readFileSync } from 'node:fs';
import https from 'node:https';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/process.js';
import { startTestServer, type TestServer } from '../support/server.js';
import {
  allowAndExchange,
  authorization,
  consentPage,
  decide,
  mcpCall,
  person,
  REDIRECT,
} from '../support/oauth.js';
import { fetchTrustingTestCertificate, testCertificate } from '../support/tls.js';

const SAMPLE = readFileSync(`${ROOT}/src/web/static/samples/dragonfly.jpg`);

describe('a hosted assistant known by its Client ID Metadata Document (MCP 2026-07-28)', () => {
  let srv: TestServer;
  let documents: https.Server;
  let base = '';
  const served: string[] = [];
  /** The documents the test's "assistant" publishes, by path. */
  const docs = new Map<string, Record<string, unknown>>();
  const fetchDocument = fetchTrustingTestCertificate();
  beforeAll(async () => {
    documents = https.createServer(testCertificate(), (req, res) => {
      served.push(req.url ?? '');
      const doc = docs.get(req.url ?? '');
      res.writeHead(doc ? 200 : 404, {
        'content-type': 'application/json',
        'cache-control': 'public, max-age=600',
      });
      res.end(JSON.stringify(doc ?? {}));
    });
    await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', resolve));
    base = `https://localhost:${(documents.address() as AddressInfo).port}`;
    srv = await startTestServer({ oauthFetch: fetchDocument });
  });
  afterAll(async () => {
    await srv?.close();
    documents.closeAllConnections();
    await new Promise((r) => documents.close(r));
  });

  it('fetches the document once (then from its cache), names the app and its publisher on the consent page, and its token calls a tool', async () => {
    const clientId = `${base}/assistant/client.json`;
    docs.set('/assistant/client.json', {
      client_id: clientId,
      client_name: 'Hosted Assistant',
      client_uri: base,
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    });
    const { web, email } = await person(srv);
    const a = authorization(srv, clientId);
    const { consent, action } = await consentPage(web, a);
    expect(consent.text).toContain('Allow Hosted Assistant to use your Titlecard account?');
    expect(consent.text).toContain(
      `This app is published by <strong>localhost:${new URL(base).port}</strong>`,
    );
    const tokens = await allowAndExchange(srv, web, action, {
      clientId,
      verifier: a.verifier,
      redirectUri: REDIRECT,
    });
    expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
    const generated = await mcpCall(srv, tokens.body.access_token as string, 'tools/call', {
      name: 'generate_image',
      arguments: { title: 'By its metadata document', imageBase64: SAMPLE.toString('base64') },
    });
    expect(generated.status).toBe(200);
    expect((generated.body?.result as { isError?: boolean }).isError).toBeFalsy();
    // A second authorization: the document comes from the cache (Cache-Control: max-age=600).
    await decide(web, authorization(srv, clientId), 'allow');
    expect(fetchDocument.fetches.filter((u) => u === clientId)).toHaveLength(1);
    // Settings → Connected apps names it by the host that publishes its document.
    const user = await srv.services.accounts.findUserByEmail(email);
    expect((await srv.services.oauth.connectedApps(user)).map((app) => app.name)).toEqual([
      `localhost:${new URL(base).port}`,
    ]);
  });

  it("refuses a document whose client_id is not its own URL, or whose redirect_uris do not name the request's, without redirecting", async () => {
    const { web } = await person(srv);
    const lying = `${base}/lying/client.json`;
    docs.set('/lying/client.json', {
      client_id: `${base}/someone-else.json`,
      client_name: 'Claude',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
    });
    const refused = await web.get(
      `/authorize?${new URLSearchParams(authorization(srv, lying).query).toString()}`,
    );
    expect(refused.status).toBe(400);
    expect(refused.location).toBeUndefined();
    expect(refused.text).toContain('invalid_client');

    const elsewhere = `${base}/elsewhere/client.json`;
    docs.set('/elsewhere/client.json', {
      client_id: elsewhere,
      client_name: 'Elsewhere',
      redirect_uris: ['https://elsewhere.example/callback'],
      token_endpoint_auth_method: 'none',
    });
    const wrongRedirect = await web.get(
      `/authorize?${new URLSearchParams(authorization(srv, elsewhere).query).toString()}`,
    );
    expect(wrongRedirect.status).toBe(400);
    expect(wrongRedirect.location).toBeUndefined();
  });

  it('without a test fetch, the library refuses to fetch a document from a private or loopback address (SSRF)', async () => {
    const plain = await startTestServer();
    try {
      const { web } = await person(plain);
      const clientId = `https://127.0.0.1:${new URL(base).port}/assistant/client.json`;
      const before = served.length;
      const res = await web.get(
        `/authorize?${new URLSearchParams(authorization(plain, clientId).query).toString()}`,
      );
      expect(res.status).toBe(400);
      expect(res.text).toContain('invalid_client');
      expect(served.length).toBe(before);
    } finally {
      await plain.close();
    }
  });

  /**
   * A TCP listener on 127.0.0.1 that counts the connections it is offered (and closes them), and
   * the `/authorize` request of a client whose metadata document it would serve.
   */
  async function probeListener(server: TestServer) {
    let connections = 0;
    const listener = createTcpServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const port = (listener.address() as AddressInfo).port;
    const { web } = await person(server);
    const clientId = `https://127.0.0.1:${port}/assistant/client.json`;
    const res = await web.get(
      `/authorize?${new URLSearchParams(authorization(server, clientId).query).toString()}`,
    );
    await new Promise((r) => listener.close(r));
    return { res, connections };
  }

  it('makes no connection to a refused address: a listener on the loopback port sees nothing (issue 55, item 3)', async () => {
    const plain = await startTestServer();
    try {
      const { res, connections } = await probeListener(plain);
      expect(res.status).toBe(400);
      expect(res.text).toContain('invalid_client');
      expect(connections).toBe(0);
    } finally {
      await plain.close();
    }
  });

  it('follows FETCH_ALLOW_ADDRESSES: the document of an intranet host it admits is fetched (issue 55, item 10)', async () => {
    const intranet = await startTestServer({
      fetcher: { allowAddresses: ['127.0.0.1'], ca: testCertificate().cert },
    });
    try {
      const clientId = `https://127.0.0.1:${new URL(base).port}/intranet/client.json`;
      docs.set('/intranet/client.json', {
        client_id: clientId,
        client_name: 'Intranet Assistant',
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: 'none',
      });
      const { web } = await person(intranet);
      const { consent } = await consentPage(web, authorization(intranet, clientId));
      expect(consent.text).toContain('Allow Intranet Assistant to use your Titlecard account?');
      expect(served).toContain('/intranet/client.json');
    } finally {
      await intranet.close();
    }
  });
});
