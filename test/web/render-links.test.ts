/** Render links in the dashboard, driven in Chromium by the pages' accessible names, with axe. */
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { hasChromium, launchChromium, seriousViolations, signedInPage } from '../support/browser.js';
import { fetchLink } from '../support/docs-examples.js';
import { ROOT } from '../support/process.js';
import { startTestServer } from '../support/server.js';

const PHOTO = path.join(ROOT, 'src/web/static/samples/dragonfly.jpg');
const FONT = path.join(ROOT, 'fonts/playfair-display/PlayfairDisplay_700Bold.ttf');

describe.skipIf(!hasChromium)('render links in the dashboard, in Chromium', () => {
  it('uploads a background, makes a preset, a signing key and a link that renders; every page passes axe', async () => {
    const srv = await startTestServer();
    const browser = await launchChromium();
    try {
      const { page } = await signedInPage(browser, srv, 'links');
      const accessible = async () => expect(await seriousViolations(page)).toEqual([]);

      await page.goto(`${srv.url}/overview`);
      await page.getByRole('link', { name: 'Render links', exact: true }).click();
      await page.waitForURL('**/links/presets');
      await accessible();

      await page.getByRole('link', { name: 'Uploads', exact: true }).click();
      await page.getByLabel('Image', { exact: true }).setInputFiles(PHOTO);
      await page.getByLabel('Name', { exact: true }).first().fill('Dragonfly');
      await page.getByRole('button', { name: 'Upload image' }).click();
      await page.waitForURL('**/links/uploads?done=uploaded');
      await expect(page.getByRole('img', { name: 'Dragonfly' }).count()).resolves.toBe(1);
      await accessible();
      // A name left blank: the file's name.
      await page.getByLabel('Font file', { exact: true }).setInputFiles(FONT);
      await page.getByRole('button', { name: 'Upload font' }).click();
      await page.waitForURL('**/links/uploads?done=uploaded');
      await expect(
        page.getByRole('cell', { name: 'PlayfairDisplay_700Bold.ttf', exact: true }).count(),
      ).resolves.toBe(1);

      await page.getByRole('link', { name: 'Presets', exact: true }).click();
      await page.getByLabel('Name', { exact: true }).fill('Journal');
      await page.getByLabel('Template', { exact: true }).selectOption('left');
      await page
        .getByLabel('Default background', { exact: true })
        .selectOption({ label: 'Dragonfly (background)' });
      await page.getByRole('button', { name: 'Create preset' }).click();
      await page.waitForURL('**/links/presets?done=preset-saved');
      await expect(page.getByRole('link', { name: 'Journal', exact: true }).count()).resolves.toBe(1);

      await page.getByRole('link', { name: 'Signing keys and links', exact: true }).click();
      await page.getByLabel('Key name', { exact: true }).fill('Blog build');
      await page.getByRole('button', { name: 'Create signing key' }).click();
      await expect(page.getByLabel(/Secret of/).inputValue()).resolves.toMatch(/^tcs_[0-9A-Za-z]{43}$/);
      await accessible();
      await page.getByLabel('Title', { exact: true }).fill('Made in the dashboard');
      await page.getByRole('button', { name: 'Make link' }).click();
      const url = await page.getByLabel(/^Link/).inputValue();
      expect(url.startsWith(`${srv.url}/r/pre_`)).toBe(true);
      await expect(page.getByLabel("For the page's head").inputValue()).resolves.toContain('og:image');
      await accessible();
      const res = await fetchLink(url);
      expect(res.status).toBe(200);
      expect(await sharp(res.body).metadata()).toMatchObject({ width: 1200, height: 630 });
      await page.context().close();
    } finally {
      await browser.close();
      await srv.close();
    }
  });
});
