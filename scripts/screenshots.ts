/**
 * Screenshots of the dashboard for the README (docs/dashboard-*.jpg), taken from the real app in
 * Chromium: a fresh server on a temporary DATA_DIR, an account signed up through the form, a few
 * images made from the bundled sample photos, then the overview, the playground with its live
 * preview, and the tokens page right after a token is created.
 *
 *   npx tsx scripts/screenshots.ts
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../test/support/browser.js';
import { startTestServer } from '../test/support/server.js';

const DOCS = fileURLToPath(new URL('../docs/', import.meta.url));
const SAMPLES = fileURLToPath(new URL('../src/web/static/samples/', import.meta.url));

const srv = await startTestServer();
const browser = await launchChromium();
try {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
  await page.goto(`${srv.url}/sign-up`);
  await page.getByLabel('Email', { exact: true }).fill('ada@example.com');
  await page.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
  await page.getByLabel('Password', { exact: true }).fill('analytical engine');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL('**/overview');

  const user = await srv.services.accounts.findUserByEmail('ada@example.com');
  await srv.services.accounts.setTier(user.email, 'pro');
  const principal = { user: { ...user, tier: 'pro' as const } };
  const made = [
    ['seeding.jpg', 'Spring release notes', 'What shipped in April'],
    ['friends.jpg', 'Meet the team', 'Our new office dogs'],
    ['dragonfly.jpg', 'A field guide to dragonflies', '12 min read'],
    ['seeding.jpg', 'How we render titles in every script', 'Engineering'],
  ] as const;
  for (const [file, title, subtitle] of made)
    await srv.services.images.generate(principal, async () => ({
      image: await readFile(`${SAMPLES}${file}`),
      options: { title, subtitle, template: title.length > 25 ? 'left' : 'bottom-left', fileFormat: 'jpeg' },
    }));

  await page.goto(`${srv.url}/overview`);
  await page.screenshot({ path: `${DOCS}dashboard-overview.jpg`, type: 'jpeg', quality: 82 });

  await page.goto(`${srv.url}/playground`);
  await page.getByLabel('Title', { exact: true }).fill('Ship faster with share cards that look designed');
  await page.getByLabel('Subtitle', { exact: true }).fill('Titlecard · 4 min read');
  await page.getByLabel('Template', { exact: true }).selectOption('left');
  await page.waitForTimeout(1500); // the preview is debounced: let the last keystroke's request finish
  await page.getByText('Preview updated.').waitFor();
  await page.screenshot({ path: `${DOCS}dashboard-playground.jpg`, type: 'jpeg', quality: 82 });

  await page.goto(`${srv.url}/settings/tokens`);
  await page.getByLabel('Token name', { exact: true }).fill('Blog build');
  await page.getByRole('button', { name: 'Create New Token' }).click();
  await page.getByLabel('New token', { exact: true }).waitFor();
  await page.screenshot({ path: `${DOCS}dashboard-tokens.jpg`, type: 'jpeg', quality: 82 });
  process.stdout.write(`wrote ${DOCS}dashboard-{overview,playground,tokens}.jpg\n`);
} finally {
  await browser.close();
  await srv.close();
}
