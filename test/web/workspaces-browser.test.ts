/**
 * The dashboard's workspace pages in Chromium (issue 51): Members (invite, change a role, remove,
 * pending invitations, a new workspace), Tokens with scopes, the audit log and the switcher; each
 * page passes axe and fits the screen at 360 px and at 1280 px.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium, seriousViolations, signedInPage } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { WebClient } from '../support/web.js';

const WIDTHS = [360, 1280];

describe.skipIf(!hasChromium)('workspaces in the dashboard, in Chromium', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer();
  });
  afterAll(() => srv.close());

  /** axe finds nothing serious, and nothing scrolls sideways, at each width. */
  async function fitsAndPasses(page: Page, label: string) {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      expect(await seriousViolations(page), `${label} at ${width} px`).toEqual([]);
      const scroll = await page.evaluate<number>('document.documentElement.scrollWidth');
      expect(scroll, `${label} at ${width} px`).toBeLessThanOrEqual(width);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  it('invites, changes a role, removes; makes a scoped token; reads the audit log; switches workspace; every page passes axe at 360 and 1280 px', async () => {
    const browser = await launchChromium();
    try {
      const { page, session } = await signedInPage(browser, srv, 'ws-owner');
      const signedIn = await srv.services.sessions.authenticate(session);
      if (!signedIn) throw new Error('not signed in');
      const owner = signedIn.principal;
      await srv.services.workspaces.setTier(owner.workspace.id, 'agency');

      // Members: invite by email with a role.
      await page.goto(`${srv.url}/settings/members`);
      await expect(page.getByRole('heading', { name: 'Members of Web Person' }).count()).resolves.toBe(1);
      const invited = `ws-member-${Date.now()}@example.com`;
      await page.getByLabel('Email', { exact: true }).fill(invited);
      await page.getByLabel('Role', { exact: true }).selectOption('editor');
      await page.getByRole('button', { name: 'Send invitation' }).click();
      await page.waitForURL('**?done=invited');
      await expect(page.getByRole('row', { name: new RegExp(invited) }).count()).resolves.toBe(1);
      await fitsAndPasses(page, 'Members with a pending invitation');

      // The invited person accepts by the mailed link (in their own browser).
      const mail = await srv.mailTo(invited, /\/invitations\/accept\?token=/);
      const link = /(\/invitations\/accept\?token=inv_[0-9A-Za-z]{43})/.exec(mail.text)?.[1] ?? '';
      const member = new WebClient(srv.url);
      await member.signUp(invited, 'a long enough password', 'Grace Hopper');
      await srv.confirmEmail(invited);
      expect((await member.post('/invitations/accept', { token: link.split('=')[1] ?? '' })).status).toBe(
        303,
      );

      // Change the role, then see it listed.
      await page.goto(`${srv.url}/settings/members`);
      await page.getByLabel('Role of Grace Hopper', { exact: true }).selectOption('viewer');
      await page.getByRole('button', { name: 'Change the role of Grace Hopper' }).click();
      await page.waitForURL('**?done=role');
      await expect(page.getByLabel('Role of Grace Hopper', { exact: true }).inputValue()).resolves.toBe(
        'viewer',
      );
      await page.screenshot({
        path: path.join(srv.dataDir, '..', 'titlecard-members-1280.png'),
        fullPage: true,
      });
      await fitsAndPasses(page, 'Members');

      // Tokens: only some scopes.
      await page.goto(`${srv.url}/settings/tokens`);
      await page.getByLabel('Token name', { exact: true }).fill('Read-only gallery');
      for (const scope of [
        'images:write',
        'templates:write',
        'sites:write',
        'webhooks:write',
        'workspace:admin',
      ])
        await page.getByRole('checkbox', { name: scope }).uncheck();
      await page.getByRole('button', { name: 'Create New Token' }).click();
      await page.getByLabel('New token', { exact: true }).waitFor();
      await expect(page.getByRole('row', { name: /Read-only gallery/ }).textContent()).resolves.toContain(
        'images:read usage:read',
      );
      await fitsAndPasses(page, 'Tokens');

      // Remove the member.
      await page.goto(`${srv.url}/settings/members`);
      await page.getByRole('button', { name: 'Remove Grace Hopper' }).click();
      await page.waitForURL('**?done=removed');
      await expect(page.getByText('Grace Hopper').count()).resolves.toBe(0);

      // The audit log: each action, with who.
      await page.goto(`${srv.url}/settings/audit`);
      const log = (await page.locator('table').textContent()) ?? '';
      for (const action of [
        'member.removed',
        'token.created',
        'member.role_changed',
        'member.added',
        'invitation.accepted',
        'invitation.sent',
      ])
        expect(log).toContain(action);
      expect(log).toContain(invited);
      expect(log).toContain(owner.user.email);
      await fitsAndPasses(page, 'Audit log');

      // A new workspace, then back to the personal one with the switcher.
      await page.goto(`${srv.url}/settings/members`);
      await page.getByLabel('Name', { exact: true }).fill('Acme client');
      await page.getByRole('button', { name: 'Make workspace' }).click();
      await page.waitForURL('**?done=created');
      await expect(page.getByRole('heading', { name: 'Members of Acme client' }).count()).resolves.toBe(1);
      await expect(page.getByLabel('Workspace', { exact: true }).inputValue()).resolves.not.toBe(
        owner.workspace.id,
      );
      await page.getByLabel('Workspace', { exact: true }).selectOption(owner.workspace.id);
      await page.getByRole('button', { name: 'Switch' }).click();
      await page.waitForURL('**/overview');
      await page.goto(`${srv.url}/settings/members`);
      await expect(page.getByRole('heading', { name: 'Members of Web Person' }).count()).resolves.toBe(1);
      await fitsAndPasses(page, 'Members after switching back');
    } finally {
      await browser.close();
    }
  }, 120_000);

  it('an invitation page passes axe at 360 and 1280 px, signed out', async () => {
    const owner = await srv.createUser('pro');
    const email = `ws-invitee-${Date.now()}@example.com`;
    await srv.services.workspaces.invite(
      await srv.services.accounts.actAs(owner.user.email),
      owner.workspace.id,
      {
        email,
        role: 'viewer',
      },
    );
    const link = /(\/invitations\/accept\?token=inv_[0-9A-Za-z]{43})/.exec(
      (await srv.mailTo(email, /\/invitations\/accept/)).text,
    )?.[1];
    const browser = await launchChromium();
    try {
      const page = await (await browser.newContext({ bypassCSP: true })).newPage();
      await page.goto(`${srv.url}${link ?? ''}`);
      await expect(page.getByRole('heading', { name: 'Join Test User' }).count()).resolves.toBe(1);
      await expect(
        page.getByRole('link', { name: 'Create an account' }).getAttribute('href'),
      ).resolves.toContain(encodeURIComponent(email));
      await fitsAndPasses(page, 'Invitation');
    } finally {
      await browser.close();
    }
  });
});
