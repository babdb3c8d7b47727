/**
 * The dashboard's Bulk page and Settings → Webhooks, in Chromium with axe: a CSV becomes a batch
 * whose progress updates by itself, the zip downloads; an endpoint is added (its secret shown
 * once), a test event is sent, and its delivery shows the receiver's status code.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  hasChromium,
  launchChromium,
  presetInDashboard,
  seriousViolations,
  signedInPage,
} from '../support/browser.js';
import { ROOT } from '../support/process.js';
import { startTestServer } from '../support/server.js';

const PHOTO = path.join(ROOT, 'src/web/static/samples/dragonfly.jpg');

describe.skipIf(!hasChromium)('Bulk and Webhooks in the dashboard, in Chromium', () => {
  it('starts a batch from a CSV and a preset, watches it complete, downloads the zip; adds a webhook endpoint and sees its test delivery; every page passes axe', async () => {
    const receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(204).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const srv = await startTestServer({ fetcher: { allowAddresses: ['127.0.0.1'] } });
    const browser = await launchChromium();
    try {
      const { page } = await signedInPage(browser, srv, 'bulk');
      const accessible = async () => expect(await seriousViolations(page)).toEqual([]);
      await presetInDashboard(page, srv.url, PHOTO, 'Catalogue');

      await page.getByRole('link', { name: 'Bulk', exact: true }).click();
      await page.waitForURL('**/bulk');
      await accessible();
      const csv = path.join(os.tmpdir(), `bulk-${Date.now()}.csv`);
      await writeFile(csv, 'title,subtitle\nFirst product,Blue\nSecond product,\n"Third, and last",Red\n');
      await page.getByLabel('CSV file', { exact: true }).setInputFiles(csv);
      await page.getByLabel(/^Preset/).selectOption({ label: 'Catalogue' });
      await page.getByRole('button', { name: 'Start batch' }).click();
      await page.waitForURL('**/bulk/bat_*');
      // The progress region refreshes itself until the batch is done.
      await page.getByText('Completed: 3 of 3 made, 0 failed.').waitFor({ timeout: 30_000 });
      await accessible();
      await page.screenshot({ path: path.join(os.tmpdir(), 'titlecard-batch-page.png'), fullPage: true });
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Download the images (zip)' }).click(),
      ]);
      const zip = unzipSync(new Uint8Array(await readFile(await download.path())));
      expect(Object.keys(zip).sort()).toEqual([
        '0000-first-product.png',
        '0001-second-product.png',
        '0002-third-and-last.png',
      ]);
      await page.getByRole('link', { name: 'All batches' }).click();
      await expect(page.getByRole('cell', { name: '3 of 3', exact: true }).count()).resolves.toBe(1);

      await page.goto(`${srv.url}/settings/tokens`);
      await page.getByRole('link', { name: 'Webhooks', exact: true }).click();
      await page.waitForURL('**/settings/webhooks');
      await accessible();
      await page.getByLabel('Endpoint URL', { exact: true }).fill(hook);
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      await expect(page.getByLabel(/^Signing secret of/).inputValue()).resolves.toMatch(/^whsec_/);
      await accessible();
      await page.goto(`${srv.url}/settings/webhooks`);
      await page.getByRole('button', { name: `Send a test event to ${hook}` }).click();
      await page.waitForURL('**/settings/webhooks?done=test-sent');
      for (let i = 0; i < 50; i++) {
        if ((await page.getByRole('cell', { name: 'HTTP 204', exact: true }).count()) > 0) break;
        await new Promise((r) => setTimeout(r, 200));
        await page.reload();
      }
      await expect(page.getByRole('cell', { name: 'webhook.test', exact: true }).count()).resolves.toBe(1);
      await expect(page.getByRole('cell', { name: 'HTTP 204', exact: true }).count()).resolves.toBe(1);
      await accessible();
      await page.context().close();
    } finally {
      await browser.close();
      await srv.close();
      receiver.close();
    }
  });
});
