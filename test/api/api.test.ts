/**
 * The REST API of docs/api.md#endpoints, through real HTTP: success shapes, error shapes, authentication,
 * tokens, listing, usage; every response checked against the served OpenAPI document.
 */
import { SCOPES } from '../../src/domain/design.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertMatchesOpenApi, matchesComponent } from '../support/openapi.js';
import { call, download, generate, startTestServer, type TestServer } from '../support/server.js';
import { solid } from '../support/images.js';

let srv: TestServer;
let small: Buffer;
beforeAll(async () => {
  srv = await startTestServer();
  small = await solid([40, 90, 160], 'jpeg', 640, 400);
});
afterAll(async () => srv.close());

describe('authentication (docs/api.md#authentication)', () => {
  it('a request without the Authorization header gets 401 saying the header is required', async () => {
    for (const [method, route] of [
      ['GET', '/images'],
      ['GET', '/usage'],
      ['GET', '/tokens'],
      ['POST', '/tokens'],
      ['GET', '/tokens/validate'],
      ['DELETE', '/tokens/tok_x'],
    ] as const) {
      const res = await call(srv.base, method, route);
      expect(res.status, `${method} ${route}`).toBe(401);
      expect(res.body.error).toBe('Unauthorized');
      expect(res.body.message).toMatch(/Authorization header is required/);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      assertMatchesOpenApi(method, route === '/tokens/tok_x' ? '/tokens/{id}' : route, 401, res.body);
    }
    const gen = await generate(srv.base, undefined, { title: 'x' }, { data: small });
    expect(gen.status).toBe(401);
    expect(gen.body).toEqual({
      error: 'Unauthorized',
      message: expect.stringMatching(/Authorization header is required/),
    });
  });

  it('an unknown, malformed or non-bearer token gets 401 saying the token is invalid or expired', async () => {
    for (const authorization of [
      'Bearer tc_0000000000000000000000000000000000000000',
      'Bearer nonsense',
      'Basic dXNlcjpwYXNz',
      'Bearer',
    ]) {
      const res = await call(srv.base, 'GET', '/usage', { headers: { authorization } });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        error: 'Unauthorized',
        message: expect.stringMatching(/invalid or expired/),
      });
      expect(res.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    }
  });

  it('a revoked token is rejected on the very next request', async () => {
    const { token } = await srv.createUser('pro');
    const created = await call(srv.base, 'POST', '/tokens', { token, json: { name: 'ci' } });
    const second = created.body.data.token as string;
    expect((await call(srv.base, 'GET', '/usage', { token: second })).status).toBe(200);
    const del = await call(srv.base, 'DELETE', `/tokens/${created.body.data.id as string}`, { token });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ success: true, message: expect.any(String) });
    assertMatchesOpenApi('DELETE', '/tokens/{id}', 200, del.body);
    const after = await call(srv.base, 'GET', '/usage', { token: second });
    expect(after.status).toBe(401);
    expect(after.body.message).toMatch(/invalid or expired/);
    // A token can revoke itself, and is then refused at once.
    const self = await call(srv.base, 'GET', '/tokens', { token });
    const selfId = (self.body.data.tokens as { id: string }[])[0]?.id as string;
    expect((await call(srv.base, 'DELETE', `/tokens/${selfId}`, { token })).status).toBe(200);
    expect((await call(srv.base, 'GET', '/tokens', { token })).status).toBe(401);
  });
});

describe('tokens (docs/api.md#endpoints)', () => {
  it('creates a token whose secret is shown once and never listed', async () => {
    const { token } = await srv.createUser('pro');
    const res = await call(srv.base, 'POST', '/tokens', { token, json: { name: '  Production server  ' } });
    expect(res.status).toBe(201);
    assertMatchesOpenApi('POST', '/tokens', 201, res.body);
    expect(res.body.data).toEqual({
      id: expect.stringMatching(/^tok_/),
      name: 'Production server',
      token: expect.stringMatching(/^tc_[0-9A-Za-z]{40}$/),
      createdAt: expect.any(String),
      // Ours, beside the contract's four (docs/workspaces.md#scopes): every scope of its maker, an owner.
      scopes: [...SCOPES],
      workspaceId: expect.stringMatching(/^usr_/),
    });
    const list = await call(srv.base, 'GET', '/tokens', { token });
    expect(list.status).toBe(200);
    assertMatchesOpenApi('GET', '/tokens', 200, list.body);
    const entries = list.body.data.tokens as Record<string, unknown>[];
    expect(entries).toHaveLength(2);
    expect(JSON.stringify(list.body)).not.toContain(res.body.data.token as string);
    const entry = entries.find((t) => t.id === res.body.data.id);
    expect(entry).toEqual({
      id: res.body.data.id,
      name: 'Production server',
      lastUsedAt: null,
      createdAt: res.body.data.createdAt,
      scopes: [...SCOPES],
      userId: res.body.data.workspaceId,
    });
  });

  it('lastUsedAt is null until the token is first used, then records the use', async () => {
    const { token } = await srv.createUser('pro');
    const created = await call(srv.base, 'POST', '/tokens', { token, json: { name: 'later' } });
    const before = Date.now();
    await call(srv.base, 'GET', '/usage', { token: created.body.data.token as string });
    const list = await call(srv.base, 'GET', '/tokens', { token });
    const entry = (list.body.data.tokens as { id: string; lastUsedAt: string | null }[]).find(
      (t) => t.id === created.body.data.id,
    );
    expect(entry?.lastUsedAt).not.toBeNull();
    expect(Date.parse(entry?.lastUsedAt as string)).toBeGreaterThanOrEqual(before - 5);
  });

  it('token names must be 1 to 100 characters', async () => {
    const { token } = await srv.createUser('pro');
    const cases: [unknown, string][] = [
      [{}, 'required'],
      [{ name: '   ' }, 'minLength'],
      [{ name: 'x'.repeat(101) }, 'maxLength'],
      [{ name: 42 }, 'type'],
    ];
    for (const [json, constraint] of cases) {
      const res = await call(srv.base, 'POST', '/tokens', { token, json });
      expect(res.status).toBe(400);
      assertMatchesOpenApi('POST', '/tokens', 400, res.body);
      expect(res.body.error.details).toEqual({ field: 'name', constraint });
      expect(res.body.error.message).toContain('name');
    }
    const bad = await fetch(`${srv.base}/tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{"name": ',
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { details: unknown } }).error.details).toEqual({
      field: 'body',
      constraint: 'format',
    });
  });

  it('the token name rule is in the OpenAPI document: what its schema accepts the server accepts, and the reverse', async () => {
    const { token } = await srv.createUser('pro');
    for (const name of [
      'ok',
      '  padded  ',
      'line\nfeed',
      'x'.repeat(100),
      ' ',
      '\t',
      'bell\u0007',
      'nul\u0000',
      'c1\u0085',
      '',
      'x'.repeat(101),
      '\u000bleading vertical tab',
      'trailing return\r',
    ]) {
      const schemaSays = matchesComponent('CreateTokenRequest', { name });
      const res = await call(srv.base, 'POST', '/tokens', { token, json: { name } });
      expect(res.status === 201, JSON.stringify(name)).toBe(schemaSays);
    }
  });

  it("revoking an unknown, already revoked, or another user's token answers 404", async () => {
    const alice = await srv.createUser('pro');
    const bob = await srv.createUser('pro');
    const bobs = await call(srv.base, 'POST', '/tokens', { token: bob.token, json: { name: 'b' } });
    const unknown = await call(srv.base, 'DELETE', '/tokens/tok_doesnotexist', { token: alice.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      success: false,
      error: { code: 'NOT_FOUND', message: expect.any(String) },
    });
    assertMatchesOpenApi('DELETE', '/tokens/{id}', 404, unknown.body);
    expect(
      (await call(srv.base, 'DELETE', `/tokens/${bobs.body.data.id as string}`, { token: alice.token }))
        .status,
    ).toBe(404);
    // Bob's token still works: Alice could not revoke it.
    expect((await call(srv.base, 'GET', '/usage', { token: bobs.body.data.token as string })).status).toBe(
      200,
    );
    expect(
      (await call(srv.base, 'DELETE', `/tokens/${bobs.body.data.id as string}`, { token: bob.token })).status,
    ).toBe(200);
    expect(
      (await call(srv.base, 'DELETE', `/tokens/${bobs.body.data.id as string}`, { token: bob.token })).status,
    ).toBe(404);
  });

  it("validate returns the profile and this month's usage of the token in use", async () => {
    const { user, token } = await srv.createUser('agency');
    const res = await call(srv.base, 'GET', '/tokens/validate', { token });
    expect(res.status).toBe(200);
    assertMatchesOpenApi('GET', '/tokens/validate', 200, res.body);
    expect(res.body.data).toEqual({
      user: { id: user.id, email: user.email, displayName: 'Test User', tier: 'agency' },
      usage: { month: new Date().toISOString().slice(0, 7), quota: 2000, count: 0, remaining: 2000 },
      // Ours (docs/workspaces.md): the workspace the token acts in, the personal one here.
      workspace: { id: user.id, name: 'Test User', role: 'owner', scopes: [...SCOPES] },
    });
  });
});

describe('usage and listing (docs/api.md#endpoints)', () => {
  it('usage counts successful generations against the tier limit', async () => {
    const { token } = await srv.createUser('pro');
    const r1 = await generate(srv.base, token, { title: 'One' }, { data: small });
    expect(r1.status).toBe(201);
    const res = await call(srv.base, 'GET', '/usage', { token });
    expect(res.status).toBe(200);
    assertMatchesOpenApi('GET', '/usage', 200, res.body);
    const now = new Date();
    expect(res.body.data).toEqual({
      period: {
        start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString(),
        end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
      },
      usage: { generated: 1, limit: 500, remaining: 499, percentUsed: 0.2 },
      tier: 'pro',
    });
  });

  it("lists a user's images with pagination, sorting and no one else's images", async () => {
    const { token } = await srv.createUser('pro');
    const other = await srv.createUser('pro');
    await generate(srv.base, other.token, { title: 'Not yours' }, { data: small });
    const titles = ['banana', 'Apple', 'cherry'];
    const ids: string[] = [];
    for (const title of titles) {
      const r = await generate(srv.base, token, { title }, { data: small });
      expect(r.status).toBe(201);
      assertMatchesOpenApi('POST', '/generate', 201, r.body);
      ids.push(r.body.data.id as string);
    }
    const all = await call(srv.base, 'GET', '/images', { token });
    assertMatchesOpenApi('GET', '/images', 200, all.body);
    expect(all.body.data.pagination).toEqual({ total: 3, limit: 20, offset: 0, hasMore: false });
    expect((all.body.data.images as { id: string }[]).map((i) => i.id)).toEqual([...ids].reverse());
    expect(Object.keys(all.body.data.images[0] as object).sort()).toEqual([
      'createdAt',
      'id',
      'thumbnailUrl',
      'title',
      'url',
    ]);

    const page = await call(srv.base, 'GET', '/images?limit=2&offset=0&sort=title&order=asc', { token });
    expect((page.body.data.images as { title: string }[]).map((i) => i.title)).toEqual(['Apple', 'banana']);
    expect(page.body.data.pagination).toEqual({ total: 3, limit: 2, offset: 0, hasMore: true });
    const next = await call(srv.base, 'GET', '/images?limit=2&offset=2&sort=title&order=asc', { token });
    expect((next.body.data.images as { title: string }[]).map((i) => i.title)).toEqual(['cherry']);
    expect(next.body.data.pagination.hasMore).toBe(false);
    const desc = await call(srv.base, 'GET', '/images?sort=title&order=desc', { token });
    expect((desc.body.data.images as { title: string }[]).map((i) => i.title)).toEqual([
      'cherry',
      'banana',
      'Apple',
    ]);
    const asc = await call(srv.base, 'GET', '/images?sort=createdAt&order=asc', { token });
    expect((asc.body.data.images as { id: string }[]).map((i) => i.id)).toEqual(ids);
  });

  it('an empty list parameter counts as not sent, as the document says (allowEmptyValue)', async () => {
    const { token } = await srv.createUser('pro');
    const res = await call(srv.base, 'GET', '/images?order=&sort=&limit=&offset=', { token });
    expect(res.status).toBe(200);
    expect(res.body.data.pagination).toMatchObject({ limit: 20, offset: 0 });
  });

  it('rejects bad list parameters with a 400 naming the field', async () => {
    const { token } = await srv.createUser('pro');
    const cases: [string, string, string][] = [
      ['limit=0', 'limit', 'min'],
      ['limit=101', 'limit', 'max'],
      ['limit=abc', 'limit', 'type'],
      ['limit=2.5', 'limit', 'type'],
      ['offset=-1', 'offset', 'min'],
      ['sort=size', 'sort', 'enum'],
      ['order=up', 'order', 'enum'],
      ['limit=1&limit=2', 'limit', 'type'],
    ];
    for (const [query, field, constraint] of cases) {
      const res = await call(srv.base, 'GET', `/images?${query}`, { token });
      expect(res.status, query).toBe(400);
      assertMatchesOpenApi('GET', '/images', 400, res.body);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details).toEqual({ field, constraint });
      expect(res.body.error.message).toContain(field);
    }
  });
});

describe('one image: read and delete (ours, beside docs/api.md#endpoints)', () => {
  it("reads one image with its texts, deletes it with both files, and answers 404 for another user's", async () => {
    const owner = await srv.createUser('pro');
    const stranger = await srv.createUser('pro');
    const made = await generate(
      srv.base,
      owner.token,
      { title: 'Kept for now', subtitle: 'then gone', fileFormat: 'jpeg' },
      { data: small },
    );
    expect(made.status).toBe(201);
    const { id, url, thumbnailUrl } = made.body.data;

    const one = await call(srv.base, 'GET', `/images/${id}`, { token: owner.token });
    expect(one.status).toBe(200);
    assertMatchesOpenApi('GET', '/images/{id}', 200, one.body);
    expect(one.body.data).toEqual({
      id,
      title: 'Kept for now',
      subtitle: 'then gone',
      url,
      thumbnailUrl,
      width: 1200,
      height: 630,
      format: 'jpeg',
      createdAt: made.body.data.createdAt,
    });

    for (const method of ['GET', 'DELETE'] as const) {
      const theirs = await call(srv.base, method, `/images/${id}`, { token: stranger.token });
      expect(theirs.status, method).toBe(404);
      assertMatchesOpenApi(method, '/images/{id}', 404, theirs.body);
    }
    expect((await download(url)).status).toBe(200);

    const gone = await call(srv.base, 'DELETE', `/images/${id}`, { token: owner.token });
    expect(gone.status).toBe(200);
    assertMatchesOpenApi('DELETE', '/images/{id}', 200, gone.body);
    expect(gone.body).toEqual({ success: true, message: `Image ${id} deleted` });
    expect((await download(url)).status).toBe(404);
    expect((await download(thumbnailUrl)).status).toBe(404);
    expect((await call(srv.base, 'GET', `/images/${id}`, { token: owner.token })).status).toBe(404);
    expect((await call(srv.base, 'DELETE', `/images/${id}`, { token: owner.token })).status).toBe(404);
    const list = await call(srv.base, 'GET', '/images', { token: owner.token });
    expect(list.body.data.pagination.total).toBe(0);
    // The generation stays counted: deleting does not give the unit back.
    const usage = await call(srv.base, 'GET', '/usage', { token: owner.token });
    expect(usage.body.data.usage.generated).toBe(1);
  });
});

describe('files and unknown routes', () => {
  it('image files open without a token, with their Content-Type and an immutable Cache-Control', async () => {
    const { token } = await srv.createUser('pro');
    const r = await generate(srv.base, token, { title: 'Public', fileFormat: 'webp' }, { data: small });
    expect(r.status).toBe(201);
    for (const url of [r.body.data.url as string, r.body.data.thumbnailUrl as string]) {
      expect(url.startsWith(`${srv.url}/files/`)).toBe(true);
      const file = await download(url);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('image/webp');
      expect(file.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(file.data.subarray(8, 12).toString('latin1')).toBe('WEBP');
    }
    // File names are unguessable: 22 base62 characters.
    expect(r.body.data.url).toMatch(/\/files\/[0-9A-Za-z]{22}\.webp$/);
  });

  it('there is no directory listing and no path traversal under /files', async () => {
    for (const route of [
      '/files/',
      '/files',
      '/files/..%2Fpackage.json',
      '/files/..%2F..%2Fetc%2Fpasswd',
      '/files/titlecard.db',
    ]) {
      const res = await fetch(`${srv.url}${route}`);
      expect(res.status, route).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
    }
  });

  it('an unknown route answers 404 NOT_FOUND in the endpoint error shape', async () => {
    const { token } = await srv.createUser('pro');
    for (const [method, route] of [
      ['GET', '/api/nothing'],
      ['GET', '/api/images/img_123'],
    ] as const) {
      const res = await call(srv.url, method, route, { token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, error: { code: 'NOT_FOUND', message: expect.any(String) } });
    }
  });

  it('a method a known path does not have answers 405 with Allow (RFC 9110 section 15.5.6)', async () => {
    const { token } = await srv.createUser('pro');
    for (const [method, route, allow] of [
      ['PUT', '/api/generate', 'POST'],
      ['DELETE', '/api/usage', 'GET, HEAD'],
      ['PATCH', '/api/tokens/tok_123', 'DELETE'],
      ['POST', '/api/images/img_123', 'GET, DELETE, HEAD'],
      ['DELETE', '/files/0000000000000000000000.png', 'GET, HEAD'],
    ] as const) {
      const res = await call(srv.url, method, route, { token });
      expect(res.status, `${method} ${route}`).toBe(405);
      expect(res.headers.get('allow'), `${method} ${route}`).toBe(allow);
      expect(res.body.error.code).toBe('METHOD_NOT_ALLOWED');
    }
    // OPTIONS lists the path's own methods (Express alone would add DELETE /tokens/{id} here).
    const options = await fetch(`${srv.base}/tokens/validate`, { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('GET, HEAD');
  });

  it('serves its OpenAPI 3.1 document at /api/openapi.json without a token', async () => {
    const res = await call(srv.base, 'GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(Object.keys(res.body.paths as object)).toEqual(
      expect.arrayContaining([
        '/generate',
        '/images',
        '/usage',
        '/tokens',
        '/tokens/validate',
        '/tokens/{id}',
      ]),
    );
  });
});
