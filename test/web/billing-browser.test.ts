/**
 * The billing journey in Chromium (issue 52, docs/billing.md), against stripe-mock: a free account
 * at its quota sees Upgrade, chooses Pro on the Billing page and is sent to Stripe Checkout; once
 * Stripe's event lands the page shows Pro and "Manage subscription", which leads to the Customer
 * Portal; cancelled there, the workspace is Free again at period end. Stripe's own pages are not
 * reachable here: the browser is answered for them, and the events are the test's, signed as
 * Stripe signs them. The page passes axe at 360 and 1280 px, before and after.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { hasChromium, launchChromium, seriousViolations, signedInPage } from '../support/browser.js';
import { startTestServer } from '../support/server.js';
import { BILLING_ENV, deliver, stripeEvent, subscription } from '../support/stripe.js';

const stripeUrl = inject('stripeUrl');

async function passesAt360And1280(page: Page, label: string) {
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    expect(await seriousViolations(page), `${label} at ${width} px`).toEqual([]);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth'), label).toBeLessThanOrEqual(
      width,
    );
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

describe.skipIf(!hasChromium || !stripeUrl)('billing in the dashboard, in Chromium', () => {
  it('upgrades at the quota wall through Checkout, shows Pro, manages it in the portal, and is Free again after cancelling', async () => {
    const srv = await startTestServer({ env: BILLING_ENV(stripeUrl ?? '') });
    const browser = await launchChromium();
    try {
      const { page, session } = await signedInPage(browser, srv, 'payer');
      const signedIn = await srv.services.sessions.authenticate(session);
      if (!signedIn) throw new Error('not signed in');
      const { workspace } = signedIn.principal;
      for (let i = 0; i < 10; i++) await srv.services.ledger.charge(workspace);
      const stripePages: string[] = [];
      await page.route(/^https:\/\/[^/]*stripe\.(com|me)\//, async (route) => {
        stripePages.push(new URL(route.request().url()).host);
        await route.fulfill({
          contentType: 'text/html',
          body: '<!doctype html><title>Stripe</title><p>Stripe</p>',
        });
      });

      await page.goto(`${srv.url}/overview`);
      await expect(page.getByTestId('remaining').textContent()).resolves.toBe('0');
      await page.getByRole('link', { name: 'Upgrade' }).click();
      await page.waitForURL('**/settings/billing');
      await expect(page.getByRole('heading', { name: /^Plan of / }).count()).resolves.toBe(1);
      await expect(page.locator('.facts').textContent()).resolves.toMatch(/Tierfree/);
      await page.screenshot({
        path: path.join(srv.dataDir, '..', 'titlecard-billing-before.png'),
        fullPage: true,
      });
      await passesAt360And1280(page, 'Billing, Free');

      await page.getByRole('button', { name: 'Upgrade to Pro, billed monthly' }).click();
      await page.waitForURL(/checkout\.stripe\.com/);
      expect(stripePages).toContain('checkout.stripe.com');
      // Stripe, once paid: the session completed, then the subscription renewing.
      const sub = `sub_${workspace.id}`;
      await deliver(
        srv.base,
        stripeEvent('checkout.session.completed', {
          id: 'cs_test_browser',
          object: 'checkout.session',
          client_reference_id: workspace.id,
          customer: `cus_${workspace.id}`,
          subscription: sub,
        }),
      );
      await deliver(
        srv.base,
        stripeEvent('customer.subscription.updated', subscription(sub, workspace.id, 'active')),
      );
      await page.goto(`${srv.url}/settings/billing?done=checkout`);
      await expect(page.locator('.facts').textContent()).resolves.toMatch(/Tierpro[\s\S]*10 of 500 images/);
      await expect(page.getByRole('button', { name: 'Manage subscription' }).count()).resolves.toBe(1);
      await page.screenshot({
        path: path.join(srv.dataDir, '..', 'titlecard-billing-after.png'),
        fullPage: true,
      });
      await passesAt360And1280(page, 'Billing, Pro');

      await page.getByRole('button', { name: 'Manage subscription' }).click();
      await page.waitForURL(/stripe\.(com|me)/);
      // Cancelled in the portal, at period end; then the period ends.
      await deliver(
        srv.base,
        stripeEvent(
          'customer.subscription.updated',
          subscription(sub, workspace.id, 'active', { cancelAtPeriodEnd: true }),
        ),
      );
      await page.goto(`${srv.url}/settings/billing`);
      await expect(page.locator('.facts').textContent()).resolves.toContain('Ends on');
      await deliver(
        srv.base,
        stripeEvent('customer.subscription.deleted', subscription(sub, workspace.id, 'canceled')),
      );
      await page.goto(`${srv.url}/settings/billing`);
      await expect(page.locator('.facts').textContent()).resolves.toMatch(/Tierfree/);
      await expect(
        page.getByRole('button', { name: 'Upgrade to Pro, billed monthly' }).count(),
      ).resolves.toBe(1);
    } finally {
      await browser.close();
      await srv.close();
    }
  }, 120_000);
});
