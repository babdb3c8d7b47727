/**
 * The billing gateway on Stripe (docs/billing.md), with the official `stripe` package, an optional
 * dependency imported only when `STRIPE_SECRET_KEY` is set. `STRIPE_API_BASE` points it at another
 * Stripe-compatible server (the tests run a local one). Webhook signatures are checked by the
 * package's `constructEvent`, with its default tolerance of 300 s.
 */
import type Stripe from 'stripe';
import { ConflictError, ServiceUnavailableError, ValidationError } from '../domain/kernel/errors.js';
import type { BillingEvent, BillingGateway, SubscriptionState } from '../domain/billing/gateway.js';

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** e.g. `https://api.stripe.com`, `http://127.0.0.1:8420`. */
  apiBase: string;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
/** An id, whether Stripe sent it as a string or expanded the object. */
const idOf = (v: unknown): string | undefined =>
  text(v) ?? (v && typeof v === 'object' ? text((v as { id?: unknown }).id) : undefined);
const dateOf = (seconds: unknown) => (typeof seconds === 'number' ? new Date(seconds * 1000) : null);

/** Stripe's subscription as billing reads it (the period end on its first item, or on the subscription itself in older API versions). */
export function stateOf(sub: Stripe.Subscription): SubscriptionState {
  const item = sub.items.data[0];
  const raw = sub as unknown as { current_period_end?: number };
  return {
    id: sub.id,
    customerId: idOf(sub.customer) ?? '',
    status: sub.status,
    priceId: item?.price.id ?? null,
    currentPeriodEnd: dateOf(item?.current_period_end ?? raw.current_period_end),
    cancelAtPeriodEnd: sub.cancel_at_period_end,
    workspaceId: text(sub.metadata.workspace),
  };
}

/** What billing reads of a verified event: the subscription it is about, its customer and workspace. */
export function eventOf(event: Stripe.Event): BillingEvent {
  const object = event.data.object as unknown as Record<string, unknown>;
  const parent = (object.parent as { subscription_details?: Record<string, unknown> } | undefined)
    ?.subscription_details;
  const metadata = (object.metadata ?? parent?.metadata) as Record<string, unknown> | undefined;
  const subscriptionId = event.type.startsWith('customer.subscription.')
    ? idOf(object.id)
    : (idOf(object.subscription) ?? idOf(parent?.subscription));
  const isSubscription = event.type.startsWith('customer.subscription.');
  return {
    id: event.id,
    type: event.type,
    created: new Date(event.created * 1000),
    subscription: isSubscription ? stateOf(event.data.object as Stripe.Subscription) : undefined,
    subscriptionId,
    customerId: idOf(object.customer),
    workspaceId: text(object.client_reference_id) ?? text(metadata?.workspace),
  };
}

/**
 * Runs a call to Stripe, its failures as the domain's: Stripe away or overloaded (no answer, a 5xx,
 * a rate limit) is ServiceUnavailableError (503, retry); a request Stripe refuses (a customer
 * deleted in its dashboard, a price that is gone) is ConflictError naming what and why.
 */
async function stripeCall<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    const e = err as { type?: string; statusCode?: number; message?: string };
    if (
      e.type === 'StripeConnectionError' ||
      e.type === 'StripeRateLimitError' ||
      e.type === 'StripeAPIError' ||
      (e.statusCode ?? 0) >= 500
    )
      throw new ServiceUnavailableError(`Stripe did not answer (${what}): try again in a moment`, 30);
    if (
      e.type === 'StripeInvalidRequestError' ||
      e.type === 'StripeCardError' ||
      e.type === 'StripePermissionError'
    )
      throw new ConflictError(`Stripe refused ${what}: ${e.message ?? 'no reason given'}`);
    throw err;
  }
}

/** Opens the gateway. Throws when the `stripe` package is not installed (an optional dependency). */
export async function openStripeGateway(settings: StripeSettings): Promise<BillingGateway> {
  const { default: StripeClient } = await import('stripe');
  const base = new URL(settings.apiBase);
  const stripe = new StripeClient(settings.secretKey, {
    host: base.hostname,
    port: Number(base.port || (base.protocol === 'http:' ? 80 : 443)),
    protocol: base.protocol === 'http:' ? 'http' : 'https',
    maxNetworkRetries: 2,
    timeout: 15_000,
    appInfo: { name: 'Titlecard' },
  });
  return {
    async checkout({ priceId, workspaceId, customerId, email, successUrl, cancelUrl }) {
      const session = await stripeCall('the Checkout Session', () =>
        stripe.checkout.sessions.create({
          mode: 'subscription',
          line_items: [{ price: priceId, quantity: 1 }],
          success_url: successUrl,
          cancel_url: cancelUrl,
          client_reference_id: workspaceId,
          subscription_data: { metadata: { workspace: workspaceId } },
          metadata: { workspace: workspaceId },
          ...(customerId ? { customer: customerId } : { customer_email: email }),
        }),
      );
      if (!session.url) throw new Error(`Stripe answered a Checkout Session without a URL (${session.id})`);
      return { url: session.url };
    },
    async portal(customerId, returnUrl) {
      const session = await stripeCall('the billing portal session', () =>
        stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl }),
      );
      return { url: session.url };
    },
    async price(id) {
      const price = await stripeCall(`the price ${id}`, () => stripe.prices.retrieve(id));
      return { id: price.id, amount: price.unit_amount, currency: price.currency };
    },
    async subscription(id) {
      return stripeCall(`the subscription ${id}`, async () => {
        try {
          return stateOf(await stripe.subscriptions.retrieve(id));
        } catch (err) {
          if ((err as { statusCode?: number }).statusCode === 404) return undefined;
          throw err;
        }
      });
    },
    verify(payload, signature) {
      if (!signature)
        throw new ValidationError('Stripe-Signature', 'required', 'Expected a Stripe-Signature header');
      try {
        return eventOf(stripe.webhooks.constructEvent(payload, signature, settings.webhookSecret));
      } catch (err) {
        throw new ValidationError(
          'Stripe-Signature',
          'format',
          `Expected a valid signature of this body made within 300 s: ${(err as Error).message}`,
        );
      }
    },
  };
}
