/**
 * Billing's test kit (docs/billing.md): the settings that point Titlecard at stripe-mock, and
 * Stripe events signed with the test's webhook secret as Stripe signs them (the `stripe`
 * package's test header).
 */
import Stripe from 'stripe';

const SECRET = 'whsec_titlecard_test_secret';
/** The price of stripe-mock's subscription fixture: every subscription it answers is on it. */
const MOCK_PRICE = 'price_1PgafmB7WZ01zgkW6dKueIc5';
/** The billing settings of a server on stripe-mock at `apiBase`. */
export const BILLING_ENV = (apiBase: string) => ({
  STRIPE_SECRET_KEY: 'sk_test_titlecard',
  STRIPE_WEBHOOK_SECRET: SECRET,
  STRIPE_API_BASE: apiBase,
  STRIPE_PRICE_PRO_MONTHLY: MOCK_PRICE,
  STRIPE_PRICE_PRO_YEARLY: 'price_pro_yearly',
  STRIPE_PRICE_AGENCY_MONTHLY: 'price_agency_monthly',
  STRIPE_PRICE_AGENCY_YEARLY: 'price_agency_yearly',
});

let serial = 0;
/** A Stripe event as Stripe sends it: `created` in Unix seconds. */
export function stripeEvent(
  type: string,
  object: Record<string, unknown>,
  created = Math.floor(Date.now() / 1000),
) {
  return {
    id: `evt_test_${process.pid}_${++serial}`,
    object: 'event',
    type,
    created,
    livemode: false,
    data: { object },
  };
}
/** A subscription object as a `customer.subscription.*` event carries it. */
export function subscription(
  id: string,
  workspace: string,
  status: string,
  extra: { price?: string; cancelAtPeriodEnd?: boolean; periodEnd?: number } = {},
) {
  return {
    id,
    object: 'subscription',
    customer: `cus_${workspace}`,
    status,
    cancel_at_period_end: extra.cancelAtPeriodEnd ?? false,
    metadata: { workspace },
    items: {
      object: 'list',
      data: [
        {
          id: `si_${id}`,
          price: { id: extra.price ?? MOCK_PRICE },
          current_period_end: extra.periodEnd ?? 1_900_000_000,
        },
      ],
    },
  };
}
/** POSTs an event to the webhook, signed with `secret` at `timestamp` (seconds). */
export async function deliver(
  base: string,
  event: unknown,
  { secret = SECRET, timestamp }: { secret?: string; timestamp?: number } = {},
) {
  const payload = JSON.stringify(event);
  const header = Stripe.webhooks.generateTestHeaderString({
    payload,
    secret,
    ...(timestamp ? { timestamp } : {}),
  });
  const res = await fetch(`${base}/billing/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
    body: payload,
  });
  return {
    status: res.status,
    body: (await res.json()) as {
      success: boolean;
      data?: { applied: boolean };
      error?: { code: string; message: string };
    },
  };
}
