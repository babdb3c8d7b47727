/**
 * What billing needs from Stripe (src/adapters/stripe.ts implements it with the `stripe` package):
 * Checkout and Customer Portal sessions, a subscription's current state, and a webhook event's
 * verification.
 */
import type { BillingInterval } from '../kernel/records.js';

/** A subscription as Stripe holds it now. */
export interface SubscriptionState {
  id: string;
  customerId: string;
  /** Stripe's status: `active`, `trialing`, `past_due`, `canceled`, `unpaid`, `incomplete`, … */
  status: string;
  /** The price of its first item. */
  priceId: string | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  /** `metadata.workspace`, set at checkout. */
  workspaceId: string | undefined;
}

/** What a plan costs, as Stripe's price has it. */
export interface PlanPrice {
  id: string;
  /** In the currency's minor unit (cents); null for a price without a fixed amount. */
  amount: number | null;
  /** ISO 4217, lower case as Stripe writes it (`usd`). */
  currency: string;
}

/** A verified webhook event, reduced to what billing reads of it. */
export interface BillingEvent {
  id: string;
  type: string;
  /** When Stripe made the event: states are applied in this order, never backwards. */
  created: Date;
  /** The subscription's state as the event carries it (`customer.subscription.*` events). */
  subscription: SubscriptionState | undefined;
  /** The subscription it is about (a Checkout Session's, an invoice's, the subscription itself). */
  subscriptionId: string | undefined;
  customerId: string | undefined;
  /** A Checkout Session's `client_reference_id`, or the subscription's `metadata.workspace`. */
  workspaceId: string | undefined;
}

export interface BillingGateway {
  /** A Checkout Session in subscription mode for one price: its URL. */
  checkout(input: {
    priceId: string;
    workspaceId: string;
    customerId: string | undefined;
    email: string;
    successUrl: string;
    cancelUrl: string;
  }): Promise<{ url: string }>;
  /** A Customer Portal session: its URL. */
  portal(customerId: string, returnUrl: string): Promise<{ url: string }>;
  /** A price's amount (in the currency's minor unit) and currency, for the Billing page. */
  price(id: string): Promise<PlanPrice>;
  /** The subscription's state now; undefined when Stripe has none by that id. */
  subscription(id: string): Promise<SubscriptionState | undefined>;
  /**
   * Verifies a delivery's `Stripe-Signature` over its raw body and reads the event. Throws
   * ValidationError (field `Stripe-Signature`) when missing, forged or stale.
   */
  verify(payload: Buffer, signature: string | undefined): BillingEvent;
}

export type { BillingInterval };
