/**
 * The assistant acts in one workspace (issue 51, docs/workspaces.md): the OAuth consent page
 * offers the person's workspaces, the MCP tools act in the one chosen, on its quota, and stop when
 * the person is removed from it.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/process.js';
import { call, startTestServer, type TestServer } from '../support/server.js';
import {
  authorization,
  consentPage,
  follow,
  mcpCall,
  person,
  post,
  register,
  REDIRECT,
} from '../support/oauth.js';

let srv: TestServer;
let SAMPLE: Buffer;
beforeAll(async () => {
  srv = await startTestServer();
  SAMPLE = await readFile(path.join(ROOT, 'src/web/static/samples/seeding.jpg'));
});
afterAll(() => srv.close());

describe('OAuth: the assistant acts in one workspace', () => {
  it("the consent page offers the person's workspaces; the MCP tools act in the one chosen, and stop when they are removed from it (issue 51)", async () => {
    const owner = await srv.createUser('agency');
    const { web, email } = await person(srv);
    const asOwner = await srv.services.accounts.actAs(owner.user.email);
    await srv.services.workspaces.invite(asOwner, owner.workspace.id, { email, role: 'editor' });
    const mail = await srv.mailTo(email, /\/invitations\/accept\?token=/);
    const secret = /token=(inv_[0-9A-Za-z]{43})/.exec(mail.text)?.[1] ?? '';
    expect((await web.post('/invitations/accept', { token: secret })).status).toBe(303);

    const clientId = await register(srv);
    const a = authorization(srv, clientId);
    const { consent, action } = await consentPage(web, a);
    expect(consent.text).toMatch(/\(personal\) · you are owner<\/option>/);
    expect(consent.text).toContain(
      `<option value="${owner.workspace.id}">Test User · you are editor</option>`,
    );
    const back = await follow(web, action, { decision: 'allow', workspace: owner.workspace.id });
    const exchanged = await post(`${srv.url}/token`, {
      grant_type: 'authorization_code',
      client_id: clientId,
      code: new URL(back.location ?? '').searchParams.get('code') ?? '',
      code_verifier: a.verifier,
      redirect_uri: REDIRECT,
      resource: `${srv.url}/mcp`,
    });
    const access = exchanged.body.access_token as string;
    const generated = await mcpCall(srv, access, 'tools/call', {
      name: 'generate_image',
      arguments: { title: 'For the agency', imageBase64: SAMPLE.toString('base64') },
    });
    expect((generated.body?.result as { isError?: boolean }).isError).toBeFalsy();
    // In the chosen workspace, on its quota: the owner sees it; the person's own has nothing.
    const listed = await call(srv.base, 'GET', '/images', { token: owner.token });
    expect((listed.body.data.images as { title: string }[]).map((i) => i.title)).toEqual(['For the agency']);
    const validated = await mcpCall(srv, access, 'tools/call', { name: 'validate_token', arguments: {} });
    expect(JSON.stringify(validated.body)).toContain(owner.workspace.id);
    const member = await srv.services.accounts.actAs(email);
    expect((await srv.services.images.list(member, {})).pagination.total).toBe(0);

    await srv.services.workspaces.removeMember(asOwner, owner.workspace.id, member.user.id);
    expect((await mcpCall(srv, access)).status).toBe(401);
  });
});
