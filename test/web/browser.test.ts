/**
 * The dashboard as a person uses it, in real Chromium against the real server: sign up, sign in
 * (wrong, then right), tokens that work on the API and stop working when revoked, the playground,
 * the gallery, the overview's figures, sign-out. axe-core checks every page for serious or critical
 * accessibility violations. Accessible names are the contract: the test finds everything by role
 * and label, as a screen reader would.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium, seriousViolations } from '../support/browser.js';
import { call, download, startTestServer, type TestServer } from '../support/server.js';

const inCi = process.env.CI === 'true';
if (inCi && !hasChromium)
  throw new Error('CI=true but Chromium is missing: .ci/run installs it (apt-get install chromium)');

describe.skipIf(!hasChromium)('the dashboard in Chromium', () => {
  let srv: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const email = `browser-${Date.now()}@example.com`;
  const password = 'correct horse battery';
  const checked = new Set<string>();

  /** axe on the current page, once per path. */
  async function accessible(): Promise<void> {
    const path = new URL(page.url()).pathname;
    const violations = await seriousViolations(page);
    expect(violations, `${path}: ${JSON.stringify(violations, null, 1)}`).toEqual([]);
    checked.add(path);
  }

  beforeAll(async () => {
    srv = await startTestServer();
    browser = await launchChromium();
    context = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.on('dialog', (dialog) => {
      dialog.accept().catch(() => undefined);
    });
  });
  afterAll(async () => {
    await browser?.close();
    await srv?.close();
  });

  it('signs up with email, name and password, is asked to confirm the address, signs in and lands on the overview', async () => {
    await page.goto(srv.url);
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    await accessible();
    await page.getByRole('link', { name: 'Create an account', exact: true }).click();
    await accessible();
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Name', { exact: true }).fill('Browser Person');
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByRole('status').first().textContent()).resolves.toMatch(
      /we sent a link to confirm the address/,
    );
    await accessible();
    await page.getByRole('link', { name: 'Sign in', exact: true }).first().click();
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/overview');
    // The address is confirmed by the emailed link, as its owner would.
    await srv.confirmEmail(email);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Overview');
    await accessible();
  });

  it('signs out, is refused with a wrong password, and signs in with the right one', async () => {
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.waitForURL('**/sign-in');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/Wrong email or password/);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/overview');
  });

  it('creates a token that works on the API at once, shown once, and a revoked one gets 401', async () => {
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    await page.getByRole('link', { name: 'API Tokens', exact: true }).click();
    await accessible();
    await page.getByLabel('Token name', { exact: true }).fill('Browser test');
    await page.getByRole('button', { name: 'Create New Token' }).click();
    const secret = await page.getByLabel('New token', { exact: true }).inputValue();
    expect(secret).toMatch(/^tc_[0-9A-Za-z]{40}$/);
    await expect(page.getByText('it will not be shown again').isVisible()).resolves.toBe(true);
    await accessible();
    const usage = await call(srv.base, 'GET', '/usage', { token: secret });
    expect(usage.status).toBe(200);
    expect(usage.body.data.tier).toBe('free');

    await page.goto(`${srv.url}/settings/tokens`);
    expect(await page.getByLabel('New token', { exact: true }).count()).toBe(0); // never shown again
    await page.getByRole('button', { name: 'Revoke Browser test' }).click();
    await page.waitForURL('**/settings/tokens?done=revoked');
    expect((await call(srv.base, 'GET', '/usage', { token: secret })).status).toBe(401);
  });

  let imageUrl: string;
  const title = 'Launch notes from the browser';

  it('previews in the playground without using quota, then generates, and the image is in the gallery', async () => {
    await page.getByRole('link', { name: 'Playground', exact: true }).click();
    await accessible();
    await page.getByLabel('Title', { exact: true }).fill(title);
    await page.getByLabel('Subtitle', { exact: true }).fill('A playground test');
    await page.getByLabel('Template', { exact: true }).selectOption('left');
    await page.getByLabel('Aspect', { exact: true }).selectOption('og');
    await page.getByLabel('Font', { exact: true }).selectOption('lora');
    await page.getByLabel('Color mode', { exact: true }).selectOption('auto');
    await page.getByLabel('File format', { exact: true }).selectOption('jpeg');
    const preview = page.getByRole('img', { name: 'Preview of the image with the options as set' });
    await preview.waitFor({ state: 'visible', timeout: 20_000 });
    const before = await srv.services.quota.usage((await srv.services.accounts.actAs(email)).workspace);
    expect(before.usage.generated).toBe(0);

    await page.getByRole('button', { name: 'Generate' }).click();

    await page.getByRole('heading', { name: 'Your image is ready' }).waitFor({ timeout: 30_000 });
    imageUrl = await page.getByLabel('Image URL', { exact: true }).inputValue();
    expect(await page.getByLabel('Open Graph tag', { exact: true }).inputValue()).toContain(
      `<meta property="og:image" content="${imageUrl}">`,
    );
    expect(await page.getByLabel('The same with curl', { exact: true }).inputValue()).toMatch(
      /curl .*-F 'title=Launch notes from the browser'/s,
    );
    const file = await download(imageUrl);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/jpeg');
    await accessible();

    await page.getByRole('link', { name: 'Images', exact: true }).click();
    await expect(page.getByRole('img', { name: title }).isVisible()).resolves.toBe(true);
    await accessible();
  });

  it('shows on the overview exactly what GET /api/usage answers', async () => {
    const member = await srv.services.accounts.actAs(email);
    const { token } = await srv.services.accounts.createToken(member, { name: 'compare' });
    const api = (await call(srv.base, 'GET', '/usage', { token })).body.data;
    await page.getByRole('link', { name: 'Overview', exact: true }).click();
    await expect(page.getByTestId('generated').textContent()).resolves.toBe(String(api.usage.generated));
    await expect(page.getByTestId('limit').textContent()).resolves.toBe(String(api.usage.limit));
    await expect(page.getByTestId('remaining').textContent()).resolves.toBe(String(api.usage.remaining));
    await expect(page.getByTestId('tier').textContent()).resolves.toBe(api.tier);
    expect(api.usage.generated).toBe(1);
    await expect(page.getByRole('img', { name: title }).isVisible()).resolves.toBe(true);
  });

  it('deletes the image from the gallery, after which its URL answers 404', async () => {
    await page.getByRole('link', { name: 'Images', exact: true }).click();
    await page.getByRole('button', { name: `Delete ${title}` }).click();
    await page.waitForURL('**/images?done=deleted');
    expect(await page.getByRole('img', { name: title }).count()).toBe(0);
    expect((await download(imageUrl)).status).toBe(404);
  });

  it('connect and account pages are accessible too', async () => {
    await page.getByRole('link', { name: 'Connect an assistant', exact: true }).click();
    await expect(
      page.getByLabel('Claude Code configuration', { exact: true }).inputValue(),
    ).resolves.toContain(`${srv.url}/mcp`);
    // The command of docs/mcp.md: the package is not on the npm registry, so no `npx -y titlecard`.
    const desktop = JSON.parse(
      await page.getByLabel('Claude Desktop configuration', { exact: true }).inputValue(),
    );
    expect(desktop.mcpServers.titlecard.args).toEqual(['--prefix', '/path/to/titlecard', 'titlecard', 'mcp']);
    expect(desktop.mcpServers.titlecard.env.TITLECARD_API_URL).toBe(`${srv.url}/api`);
    await accessible();
    await page.goto(`${srv.url}/settings/account`);
    await accessible();
    expect([...checked].sort()).toEqual(
      [
        '/connect',
        '/images',
        '/overview',
        // Generate stays on /playground: the result is checked there (playground.js).
        '/playground',
        '/settings/account',
        '/settings/tokens',
        '/sign-in',
        '/sign-up',
      ].sort(),
    );
  });

  it('after signing out, the pages are refused', async () => {
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.waitForURL('**/sign-in');
    for (const path of ['/overview', '/images', '/playground', '/settings/tokens', '/connect']) {
      await page.goto(`${srv.url}${path}`);
      expect(new URL(page.url()).pathname, path).toBe('/sign-in');
    }
  });
});
