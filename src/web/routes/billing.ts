/**
 * The dashboard's Billing page (docs/billing.md), with billing on: the workspace's plan, usage and
 * seats; Pro and Agency, monthly or yearly, through Stripe Checkout; the Customer Portal to change
 * or cancel. Its owners buy and manage; admins read.
 */
import express, { type Response } from 'express';
import type { Billing } from '../../domain/billing/billing.js';
import type { Runtime } from '../../runtime.js';
import { formText, noticeFrom, orRefusal } from '../forms.js';
import { securityHeaders } from '../headers.js';
import { day, page } from '../render.js';
import { sessionPrincipal } from '../session.js';

/** Where the page's forms lead once the server answers: Stripe's Checkout and Customer Portal. */
const STRIPE_PAGES = ['https://checkout.stripe.com', 'https://billing.stripe.com'];

/** A price as people read it: `$20.00`, in the currency's own minor units; '' when unknown. */
export function money(price: { amount: number | null; currency: string | null }): string {
  if (price.amount === null || !price.currency) return '';
  const format = new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: price.currency.toUpperCase(),
  });
  return format.format(price.amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
}

const NOTICES = {
  checkout:
    'Thank you: the payment is confirmed by Stripe in a moment, and the new plan shows here as soon as it is (reload the page).',
};

export function billingRoutes(runtime: Runtime, billing: Billing): express.Router {
  const { services } = runtime;
  const router = express.Router();
  // Every answer of these pages may hold a form that leads to Stripe (a refusal re-renders one).
  router.use('/settings/billing', securityHeaders(runtime, STRIPE_PAGES));

  const billingPage = async (res: Response, extra: Record<string, unknown> = {}, status = 200) => {
    const who = sessionPrincipal(res);
    const admin = who.scopes.has('workspace:admin');
    const [plan, usage] = await Promise.all([
      admin ? billing.view(who) : undefined,
      services.quota.usage(who.workspace),
    ]);
    page(
      res,
      'billing',
      {
        title: 'Billing',
        section: 'settings',
        tab: 'billing',
        plan,
        usage,
        owner: who.role === 'owner',
        day,
        money,
        ...extra,
      },
      status,
    );
  };

  router.get('/settings/billing', async (req, res) => {
    await billingPage(res, { notice: noticeFrom(NOTICES, req.query.done) });
  });
  router.post('/settings/billing/checkout', async (req, res) => {
    await orRefusal(
      res,
      (error, status) => billingPage(res, { error }, status),
      async () => {
        const { url } = await billing.checkout(sessionPrincipal(res), {
          tier: formText(req.body, 'tier'),
          interval: formText(req.body, 'interval'),
        });
        res.redirect(303, url);
      },
    );
  });
  router.post('/settings/billing/portal', async (_req, res) => {
    await orRefusal(
      res,
      (error, status) => billingPage(res, { error }, status),
      async () => {
        const { url } = await billing.portal(sessionPrincipal(res));
        res.redirect(303, url);
      },
    );
  });
  return router;
}
