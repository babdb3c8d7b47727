/**
 * The Sites page of the dashboard, in Chromium, against a site served on 127.0.0.1 by the test:
 * add a site, verify it by its meta tag, copy the snippet, see the recent pages and their
 * problems and which crawler has which card, set the budget of new cards, the notice while the quota is
 * used up; then the Previews page checks one of its pages. axe checks every page.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  hasChromium,
  launchChromium,
  presetInDashboard,
  seriousViolations,
  signedInPage,
} from '../support/browser.js';
import { fetchLink } from '../support/docs-examples.js';
import { ROOT } from '../support/process.js';
import { startTestServer } from '../support/server.js';

const PHOTO = path.join(ROOT, 'src/web/static/samples/dragonfly.jpg');

describe.skipIf(!hasChromium)('sites in the dashboard, in Chromium', () => {
  it('adds a site, verifies it by its meta tag, shows the snippet, the recent pages and their problems, and says when the quota is used up; both pages pass axe', async () => {
    let home = '<!doctype html><title>Home</title>';
    const site = createServer((req, res) => {
      const pages: Record<string, string> = {
        '/': home,
        '/posts/first': '<!doctype html><meta property="og:title" content="A first post"><title>x</title>',
      };
      const body = pages[(req.url ?? '/').split('?')[0] as string];
      res.writeHead(body ? 200 : 404, { 'content-type': 'text/html' }).end(body ?? 'gone');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    const srv = await startTestServer({ fetcher: { allowAddresses: ['127.0.0.1'] } });
    const browser = await launchChromium();
    try {
      const { page, session } = await signedInPage(browser, srv, 'sites');
      const accessible = async () => expect(await seriousViolations(page)).toEqual([]);
      await presetInDashboard(page, srv.url, PHOTO, 'Blog');

      await page.getByRole('link', { name: 'Sites', exact: true }).click();
      await page.waitForURL('**/links/sites');
      await accessible();
      await page.getByLabel('Site address', { exact: true }).fill(origin);
      await page.getByLabel('Name on the fallback card', { exact: true }).fill('My Blog');
      await page.getByRole('button', { name: 'Add site' }).click();
      await page.waitForURL('**/links/sites/sit_*?done=added');
      await accessible();

      // Verify: first without the tag (the refusal says what was found), then with it.
      await page.getByRole('button', { name: 'Verify' }).click();
      await expect(page.getByRole('alert').textContent()).resolves.toContain(
        'no titlecard-site-verification meta tag',
      );
      home = `<!doctype html><head>${await page.getByLabel('Put this tag in the head of your home page').inputValue()}</head>`;
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.waitForURL('**?done=verified');
      await expect(page.getByRole('status').first().textContent()).resolves.toContain('The site is verified');
      const snippet = await page.getByLabel("For the theme's head").inputValue();
      const link = /content="([^"]+)"/.exec(snippet)![1]!;
      expect(link).toMatch(new RegExp(`^${srv.url}/s/sit_[0-9A-Za-z]{22}\\.png\\?url=PAGE_URL$`));

      const card = await fetchLink(link.replace('PAGE_URL', encodeURIComponent(`${origin}/posts/first`)));
      expect(await sharp(card.body).metadata()).toMatchObject({ width: 1200, height: 630 });
      await fetchLink(link.replace('PAGE_URL', encodeURIComponent(`${origin}/posts/first`)), {
        'user-agent': 'Twitterbot/1.0',
      });
      await fetchLink(link.replace('PAGE_URL', encodeURIComponent(`${origin}/posts/missing`)));
      await page.reload();
      await expect(page.getByRole('cell', { name: 'X has v1', exact: true }).count()).resolves.toBe(1);
      await expect(page.getByRole('cell', { name: 'A first post', exact: true }).count()).resolves.toBe(1);
      await expect(
        page.getByRole('cell', { name: 'Fallback card: the server answered 404', exact: true }).count(),
      ).resolves.toBe(1);
      await accessible();

      // The budget of new cards: what it spent, a refusal naming the field, then a new budget.
      // The hour's count is 0 when the clock hour (UTC) turned since the card was made (a CI run at
      // 04:00 saw it); the month's is 1 unless that was midnight on the first.
      const spent = (per: { hour: number; month: number }) =>
        page.getByText(new RegExp(`^This hour: [01] of ${per.hour}\\. This month: [01] of ${per.month}\\.$`));
      await expect(spent({ hour: 30, month: 300 }).count()).resolves.toBe(1);
      await page.getByLabel('New cards per hour').evaluate((el) => el.removeAttribute('min'));
      await page.getByLabel('New cards per hour').fill('0');
      await page.getByRole('button', { name: 'Save budget' }).click();
      await expect(page.getByRole('alert').textContent()).resolves.toContain('cardsPerHour');
      await page.getByLabel('New cards per hour').fill('12');
      await page.getByLabel('New cards per month').fill('150');
      await page.getByRole('button', { name: 'Save budget' }).click();
      await page.waitForURL('**?done=budget');
      await expect(spent({ hour: 12, month: 150 }).count()).resolves.toBe(1);
      await accessible();

      // The quota used up: both pages say what links do meanwhile.
      const { workspace } = (await srv.services.sessions.authenticate(session))!.principal;
      while ((await srv.services.quota.usage(workspace)).usage.remaining > 0)
        await srv.services.ledger.charge(workspace);
      await page.reload();
      await expect(page.getByRole('status').last().textContent()).resolves.toContain('quota is used up');
      await page.screenshot({
        path: path.join(process.env.TITLECARD_SCREENSHOTS ?? '/tmp', 'sites-page.png'),
        fullPage: true,
      });
      await page.getByRole('link', { name: 'Sites', exact: true }).click();
      await expect(page.getByRole('link', { name: origin, exact: true }).count()).resolves.toBe(1);
      await expect(page.getByRole('cell', { name: 'Verified', exact: true }).count()).resolves.toBe(1);
      await accessible();

      // Previews: the site's recent page offered for a check; its report with the ten mock-ups.
      await page.getByRole('link', { name: 'Previews', exact: true }).click();
      await page.waitForURL('**/previews');
      await accessible();
      await page.getByRole('button', { name: `Check ${origin}/posts/first`, exact: true }).click();
      await page.waitForURL('**/previews/lpv_*');
      await expect(page.getByRole('cell', { name: 'NO_IMAGE', exact: true }).count()).resolves.toBe(1);
      await page.mouse.wheel(0, 20_000);
      await expect
        .poll(() =>
          page.$$eval(
            '.mockups img',
            (imgs) =>
              imgs.filter((i) => (i as unknown as { naturalWidth: number }).naturalWidth === 560).length,
          ),
        )
        .toBe(10);
      await accessible();
      await page.screenshot({
        path: path.join(process.env.TITLECARD_SCREENSHOTS ?? '/tmp', 'previews-page.png'),
        fullPage: true,
      });
      await page.context().close();
    } finally {
      await browser.close();
      await srv.close();
      site.close();
    }
  });
});
