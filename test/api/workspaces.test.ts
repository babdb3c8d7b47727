/**
 * Workspaces through real HTTP (issue 51, docs/workspaces.md): people invited by mail share one
 * workspace's quota; roles and token scopes are enforced with 403 naming the scope; seats; the
 * audit log; the workspace endpoints' rules. Every answer is checked against the OpenAPI document.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solid } from '../support/images.js';
import { assertMatchesOpenApi } from '../support/openapi.js';
import { call, generate, startTestServer, type TestServer } from '../support/server.js';
import { WebClient } from '../support/web.js';

let srv: TestServer;
let small: Buffer;
beforeAll(async () => {
  srv = await startTestServer();
  small = await solid([30, 110, 170], 'jpeg', 640, 400);
});
afterAll(() => srv.close());

let people = 0;
const newEmail = (what: string) => `${what}-${++people}-${process.pid}@example.com`;

/** Invites `email` as `role` through the API; the link's secret, read from the mail sent. */
async function invite(ownerToken: string, workspaceId: string, email: string, role: string) {
  const sent = await call(srv.base, 'POST', `/workspaces/${workspaceId}/invitations`, {
    token: ownerToken,
    json: { email, role },
  });
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  assertMatchesOpenApi('POST', '/workspaces/{id}/invitations', 201, sent.body);
  const mail = await srv.mailTo(email, /\/invitations\/accept\?token=inv_/);
  return /\/invitations\/accept\?token=(inv_[0-9A-Za-z]{43})/.exec(mail.text)?.[1] ?? '';
}

/** A person who signs up in the dashboard, confirms the address and accepts `secret`; their browser. */
async function joins(email: string, secret: string): Promise<WebClient> {
  const web = new WebClient(srv.url);
  await web.signUp(email);
  await srv.confirmEmail(email);
  const offer = await web.get(`/invitations/accept?token=${secret}`);
  expect(offer.status).toBe(200);
  expect(offer.text).toContain('Join ');
  const accepted = await web.post('/invitations/accept', { token: secret });
  expect(accepted.status, accepted.text.slice(0, 400)).toBe(303);
  return web;
}

/** An API token made on the dashboard's Tokens page, in the workspace the switcher is on. */
async function dashboardToken(web: WebClient, name: string): Promise<string> {
  const made = await web.post('/settings/tokens', { name });
  expect(made.status, made.text.slice(0, 400)).toBe(201);
  return /value="(tc_[0-9A-Za-z]{40})"/.exec(made.text)?.[1] ?? '';
}

describe('workspaces (issue 51)', () => {
  it('two people in one Agency workspace make cards on one quota; a viewer lists them, gets 403 on POST /generate and spends nothing', async () => {
    const owner = await srv.createUser('agency');
    const workspaceId = owner.workspace.id;
    const editorEmail = newEmail('editor');
    const editor = await joins(editorEmail, await invite(owner.token, workspaceId, editorEmail, 'editor'));
    const editorToken = await dashboardToken(editor, 'editor laptop');
    const viewerEmail = newEmail('viewer');
    const viewer = await joins(viewerEmail, await invite(owner.token, workspaceId, viewerEmail, 'viewer'));
    const viewerToken = await dashboardToken(viewer, 'client review');

    expect((await generate(srv.base, owner.token, { title: 'By the owner' }, { data: small })).status).toBe(
      201,
    );
    expect((await generate(srv.base, editorToken, { title: 'By the editor' }, { data: small })).status).toBe(
      201,
    );
    const usage = await call(srv.base, 'GET', '/usage', { token: editorToken });
    expect(usage.body.data).toMatchObject({ tier: 'agency', usage: { generated: 2, limit: 2000 } });

    const listed = await call(srv.base, 'GET', '/images', { token: viewerToken });
    expect(listed.status).toBe(200);
    expect((listed.body.data.images as { title: string }[]).map((i) => i.title).sort()).toEqual([
      'By the editor',
      'By the owner',
    ]);
    const refused = await generate(srv.base, viewerToken, { title: 'By the viewer' }, { data: small });
    expect(refused.status).toBe(403);
    assertMatchesOpenApi('POST', '/generate', 403, refused.body);
    expect(refused.body.error).toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringContaining('images:write'),
    });
    expect((await call(srv.base, 'GET', '/usage', { token: owner.token })).body.data.usage.generated).toBe(2);

    // validate-token names the workspace; `user.tier` is the workspace's.
    const who = await call(srv.base, 'GET', '/tokens/validate', { token: viewerToken });
    expect(who.body.data.user).toMatchObject({ email: viewerEmail, tier: 'agency' });
    expect(who.body.data.workspace).toEqual({
      id: workspaceId,
      name: 'Test User',
      role: 'viewer',
      scopes: ['images:read', 'usage:read'],
    });
    // The members, as the API lists them.
    const members = await call(srv.base, 'GET', `/workspaces/${workspaceId}/members`, { token: viewerToken });
    assertMatchesOpenApi('GET', '/workspaces/{id}/members', 200, members.body);
    expect((members.body.data.members as { email: string; role: string }[]).map((m) => m.role)).toEqual([
      'owner',
      'editor',
      'viewer',
    ]);
  });

  it('an invitation is accepted by the invited person only, once; the 4th member of a Pro workspace is refused, naming the limit', async () => {
    const owner = await srv.createUser('pro');
    const workspaceId = owner.workspace.id;
    const invited = newEmail('invited');
    const secret = await invite(owner.token, workspaceId, invited, 'editor');

    // Someone else, signed in with another confirmed address, cannot take it.
    const stranger = new WebClient(srv.url);
    const strangerEmail = newEmail('stranger');
    await stranger.signUp(strangerEmail);
    await srv.confirmEmail(strangerEmail);
    expect((await stranger.get(`/invitations/accept?token=${secret}`)).text).toContain(
      `this invitation is for ${invited}`,
    );
    const taken = await stranger.post('/invitations/accept', { token: secret });
    expect(taken.status).toBe(403);
    expect(taken.text).toContain(`This invitation is for ${invited}`);

    await joins(invited, secret);
    // Once: the link is spent.
    const again = new WebClient(srv.url);
    expect((await again.get(`/invitations/accept?token=${secret}`)).status).toBe(400);

    // Pro: 3 seats, pending invitations included. Owner + member + one pending = 3; a 4th is refused.
    await invite(owner.token, workspaceId, newEmail('third'), 'viewer');
    const fourth = await call(srv.base, 'POST', `/workspaces/${workspaceId}/invitations`, {
      token: owner.token,
      json: { email: newEmail('fourth'), role: 'viewer' },
    });
    expect(fourth.status).toBe(403);
    assertMatchesOpenApi('POST', '/workspaces/{id}/invitations', 403, fourth.body);
    expect(fourth.body.error.message).toMatch(/3 of its 3 seats \(the pro tier has 3/);

    // Withdrawing the pending one frees its seat, and its link stops working.
    const pending = await call(srv.base, 'GET', `/workspaces/${workspaceId}/invitations`, {
      token: owner.token,
    });
    assertMatchesOpenApi('GET', '/workspaces/{id}/invitations', 200, pending.body);
    const [one] = pending.body.data.invitations as { id: string }[];
    const withdrawn = await call(srv.base, 'DELETE', `/workspaces/${workspaceId}/invitations/${one?.id}`, {
      token: owner.token,
    });
    expect(withdrawn.status).toBe(200);
    const got = await call(srv.base, 'GET', `/workspaces/${workspaceId}`, { token: owner.token });
    assertMatchesOpenApi('GET', '/workspaces/{id}', 200, got.body);
    expect(got.body.data.seats).toEqual({ used: 2, limit: 3 });
  });

  it('a token with images:read lists images and gets 403 naming images:write on generate; it can make no token with more', async () => {
    const owner = await srv.createUser('pro');
    const made = await call(srv.base, 'POST', '/tokens', {
      token: owner.token,
      json: { name: 'gallery', scopes: ['images:read'] },
    });
    expect(made.status).toBe(201);
    expect(made.body.data.scopes).toEqual(['images:read']);
    const reader = made.body.data.token as string;
    expect((await call(srv.base, 'GET', '/images', { token: reader })).status).toBe(200);
    const refused = await generate(srv.base, reader, { title: 'Nope' }, { data: small });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toContain('images:write');
    const usage = await call(srv.base, 'GET', '/usage', { token: reader });
    expect(usage.status).toBe(403);
    expect(usage.body.error.message).toContain('usage:read');
    const wider = await call(srv.base, 'POST', '/tokens', {
      token: reader,
      json: { name: 'wider', scopes: ['images:write'] },
    });
    expect(wider.status).toBe(403);
    expect(wider.body.error.message).toContain('images:write');
    const bad = await call(srv.base, 'POST', '/tokens', {
      token: owner.token,
      json: { name: 'typo', scopes: ['images:delete'] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.field).toBe('scopes[0]');
  });

  it('an editor demoted to viewer loses images:write on the token they hold at once; a removed member answers 401; the last owner cannot leave', async () => {
    const owner = await srv.createUser('agency');
    const workspaceId = owner.workspace.id;
    const email = newEmail('demoted');
    const web = await joins(email, await invite(owner.token, workspaceId, email, 'editor'));
    const token = await dashboardToken(web, 'held');
    expect((await generate(srv.base, token, { title: 'Before' }, { data: small })).status).toBe(201);
    const memberId = (await call(srv.base, 'GET', '/tokens/validate', { token })).body.data.user.id as string;

    const demoted = await call(srv.base, 'PATCH', `/workspaces/${workspaceId}/members/${memberId}`, {
      token: owner.token,
      json: { role: 'viewer' },
    });
    expect(demoted.status).toBe(200);
    assertMatchesOpenApi('PATCH', '/workspaces/{id}/members/{userId}', 200, demoted.body);
    const after = await generate(srv.base, token, { title: 'After' }, { data: small });
    expect(after.status).toBe(403);
    expect(after.body.error.message).toContain('images:write');
    // A viewer reads; an admin's business is not theirs.
    expect((await call(srv.base, 'GET', `/workspaces/${workspaceId}/audit`, { token })).status).toBe(403);

    const ownerId = owner.user.id;
    const leave = await call(srv.base, 'DELETE', `/workspaces/${workspaceId}/members/${ownerId}`, {
      token: owner.token,
    });
    expect(leave.status).toBe(409);
    const demoteOwner = await call(srv.base, 'PATCH', `/workspaces/${workspaceId}/members/${ownerId}`, {
      token: owner.token,
      json: { role: 'admin' },
    });
    expect(demoteOwner.status).toBe(409);
    expect(demoteOwner.body.error.message).toContain('The account of a personal workspace stays its owner');
    // In a workspace of its own, the last owner can neither leave nor be demoted either.
    const made = await call(srv.base, 'POST', '/workspaces', { token: owner.token, json: { name: 'Solo' } });
    const solo = made.body.data.id as string;
    const { token: soloToken } = await srv.services.accounts.createToken(
      await srv.services.accounts.actAs(owner.user.email, solo),
      { name: 'solo' },
    );
    for (const [method, json] of [
      ['DELETE', undefined],
      ['PATCH', { role: 'admin' }],
    ] as const) {
      const refused = await call(srv.base, method, `/workspaces/${solo}/members/${ownerId}`, {
        token: soloToken,
        json,
      });
      expect(refused.status).toBe(409);
      expect(refused.body.error.message).toContain('always has an owner');
    }

    const removed = await call(srv.base, 'DELETE', `/workspaces/${workspaceId}/members/${memberId}`, {
      token: owner.token,
    });
    expect(removed.status).toBe(200);
    expect((await call(srv.base, 'GET', '/images', { token })).status).toBe(401);
    // Their own workspace is theirs still: the dashboard falls back to it.
    expect((await web.get('/overview')).status).toBe(200);
  });

  it("two members' Idempotency-Keys never answer each other: the same key makes each their own token", async () => {
    const owner = await srv.createUser('agency');
    const email = newEmail('keyed');
    const web = await joins(email, await invite(owner.token, owner.workspace.id, email, 'editor'));
    const editorToken = await dashboardToken(web, 'keyed');
    const headers = { 'idempotency-key': 'deploy-1' };
    const mine = await call(srv.base, 'POST', '/tokens', {
      token: owner.token,
      json: { name: 'ci' },
      headers,
    });
    const theirs = await call(srv.base, 'POST', '/tokens', {
      token: editorToken,
      json: { name: 'ci' },
      headers,
    });
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.body.data.id).not.toBe(mine.body.data.id);
    expect(theirs.body.data.token).toMatch(/^tc_/);
  });

  it('the audit log shows each action with who, when and from where, newest first; entries page', async () => {
    const owner = await srv.createUser('agency');
    const workspaceId = owner.workspace.id;
    const email = newEmail('audited');
    const web = await joins(email, await invite(owner.token, workspaceId, email, 'editor'));
    const token = await dashboardToken(web, 'audited token');
    const memberId = (await call(srv.base, 'GET', '/tokens/validate', { token })).body.data.user.id as string;
    await call(srv.base, 'PATCH', `/workspaces/${workspaceId}/members/${memberId}`, {
      token: owner.token,
      json: { role: 'viewer' },
    });
    await call(srv.base, 'DELETE', `/workspaces/${workspaceId}/members/${memberId}`, { token: owner.token });
    const log = await call(srv.base, 'GET', `/workspaces/${workspaceId}/audit`, { token: owner.token });
    expect(log.status).toBe(200);
    assertMatchesOpenApi('GET', '/workspaces/{id}/audit', 200, log.body);
    const entries = log.body.data.entries as {
      action: string;
      actor: { email: string } | null;
      at: string;
      address: string | null;
    }[];
    expect(entries.map((e) => `${e.action} by ${e.actor?.email ?? 'operator'}`)).toEqual([
      `member.removed by ${owner.user.email}`,
      `member.role_changed by ${owner.user.email}`,
      `token.created by ${email}`,
      `member.added by ${email}`,
      `invitation.accepted by ${email}`,
      `invitation.sent by ${owner.user.email}`,
    ]);
    for (const e of entries) {
      expect(Date.now() - Date.parse(e.at)).toBeLessThan(120_000);
      expect(e.address).toMatch(/127\.0\.0\.1/);
    }
    const page = await call(srv.base, 'GET', `/workspaces/${workspaceId}/audit?limit=2&offset=2`, {
      token: owner.token,
    });
    expect(page.body.data.pagination).toEqual({ total: 6, limit: 2, offset: 2, hasMore: true });
    expect((page.body.data.entries as { action: string }[]).map((e) => e.action)).toEqual([
      'token.created',
      'member.added',
    ]);
  });

  it('a new workspace is its own: another quota and tier, tokens that act only there, deleted with its records; a personal one is not deleted', async () => {
    const owner = await srv.createUser('pro');
    const made = await call(srv.base, 'POST', '/workspaces', {
      token: owner.token,
      json: { name: 'Acme Corp' },
    });
    expect(made.status).toBe(201);
    assertMatchesOpenApi('POST', '/workspaces', 201, made.body);
    expect(made.body.data).toMatchObject({ name: 'Acme Corp', tier: 'free', personal: false, role: 'owner' });
    const acme = made.body.data.id as string;
    const list = await call(srv.base, 'GET', '/workspaces', { token: owner.token });
    assertMatchesOpenApi('GET', '/workspaces', 200, list.body);
    expect((list.body.data.workspaces as { name: string }[]).map((w) => w.name)).toEqual([
      'Test User',
      'Acme Corp',
    ]);
    // A token of the personal workspace acts there only.
    expect((await call(srv.base, 'GET', `/workspaces/${acme}/members`, { token: owner.token })).status).toBe(
      404,
    );

    const acmeAsOwner = await srv.services.accounts.actAs(owner.user.email, acme);
    const { token: acmeToken } = await srv.services.accounts.createToken(acmeAsOwner, { name: 'acme' });
    expect((await generate(srv.base, acmeToken, { title: 'For Acme' }, { data: small })).status).toBe(201);
    expect((await call(srv.base, 'GET', '/usage', { token: acmeToken })).body.data).toMatchObject({
      tier: 'free',
      usage: { generated: 1, limit: 10 },
    });
    expect((await call(srv.base, 'GET', '/usage', { token: owner.token })).body.data.usage.generated).toBe(0);
    expect((await call(srv.base, 'GET', '/images', { token: owner.token })).body.data.pagination.total).toBe(
      0,
    );

    const renamed = await call(srv.base, 'PATCH', `/workspaces/${acme}`, {
      token: acmeToken,
      json: { name: 'Acme Corporation' },
    });
    expect(renamed.body.data.name).toBe('Acme Corporation');
    const personal = await call(srv.base, 'DELETE', `/workspaces/${owner.workspace.id}`, {
      token: owner.token,
    });
    expect(personal.status).toBe(409);
    const gone = await call(srv.base, 'DELETE', `/workspaces/${acme}`, { token: acmeToken });
    expect(gone.status).toBe(200);
    expect((await call(srv.base, 'GET', '/images', { token: acmeToken })).status).toBe(401);
    expect(
      ((await call(srv.base, 'GET', '/workspaces', { token: owner.token })).body.data.workspaces as unknown[])
        .length,
    ).toBe(1);
  });
});
