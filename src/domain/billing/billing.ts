/**
 * Subscriptions (docs/billing.md): a workspace's owner buys Pro or Agency with a Stripe Checkout
 * Session and manages it in the Customer Portal; Stripe's signed webhooks are the source of truth.
 *
 * Rules (issue 52):
 * - An event is verified by its webhook signature (the gateway: the `stripe` package's
 *   `constructEvent` with its default tolerance, 300 s); a forged or stale one is refused and
 *   changes nothing. Each event id is applied once.
 * - A `customer.subscription.*` event carries the subscription's state; any other event (a
 *   completed Checkout Session, an invoice paid or failed) names it, and its state is read from
 *   Stripe. A state is applied only if its event is no older than the last one applied to that
 *   subscription, and a subscription that ended never comes back: so events arriving twice or out
 *   of order never move a workspace backwards.
 * - `active` and `trialing` give the price's tier at once (usage kept: an upgrade mid-month gives
 *   the new quota at once); `past_due` keeps it for {@link PAST_DUE_GRACE_MS} (7 days, the owner
 *   mailed), then Free; `canceled` and `incomplete_expired` end it (Free, for good); `unpaid` and
 *   `paused` give Free until Stripe says otherwise; a cancel at period end is Stripe's to carry
 *   out at that date (the owner mailed when it is set). The end of an earlier subscription never
 *   replaces a live newer one.
 * - A plan with fewer seats than members keeps every member; invitations wait for room
 *   (workspaces.ts counts seats against the tier).
 */
import type { Logger } from 'pino';
import { z } from 'zod';
import { TIER_SEATS, TIERS, type Tier } from '../design.js';
import { isoTimestamp } from '../schemas.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../kernel/errors.js';
import type { Clock, Mailer, RecordStore } from '../kernel/ports.js';
import type { BillingInterval, Subscription, Workspace } from '../kernel/records.js';
import { parseOrThrow } from '../kernel/validate.js';
import type { AuditLog } from '../workspaces/audit.js';
import { requireScope, type Principal } from '../workspaces/roles.js';
import type { BillingEvent, BillingGateway, SubscriptionState } from './gateway.js';

/**
 * How long a claim on an event holds before another delivery may take it over: 10 minutes (our
 * choice; Stripe retries a failed delivery for 3 days, first within minutes).
 */
const EVENT_CLAIM_LEASE_MS = 10 * 60 * 1000;

/** How long the prices read from Stripe are reused for the Billing page: 10 minutes (our choice). */
const PRICES_KEPT_MS = 10 * 60 * 1000;

/** How long a `past_due` subscription keeps its tier: 7 days (docs/billing.md). */
export const PAST_DUE_GRACE_MS = 7 * 24 * 3600 * 1000;

/** The paid tiers and their price ids by interval (`STRIPE_PRICE_*`, docs/configuration.md). */
export type PriceTable = Record<Exclude<Tier, 'free'>, Record<BillingInterval, string>>;

export const checkoutBodySchema = z.object({
  tier: z.enum(['pro', 'agency']).describe('The plan: pro or agency'),
  interval: z.enum(['month', 'year']).default('month').describe('Billed monthly (the default) or yearly'),
});

/**
 * Refuses (ConflictError) to delete a workspace whose subscription is still live: Stripe would go
 * on charging for it. Cancel it in the billing portal first.
 */
export async function assertNoLiveSubscription(
  store: RecordStore,
  workspace: Pick<Workspace, 'id' | 'name'>,
) {
  const sub = await store.billing.find(workspace.id);
  if (sub && !ENDED.has(sub.status))
    throw new ConflictError(
      `The workspace ${workspace.name} has a live subscription: cancel it in the billing portal first (Settings → Billing)`,
    );
}

/** The statuses that give the price's tier. */
const PAYING = new Set(['active', 'trialing']);
/** The statuses that end it. */
const ENDED = new Set(['canceled', 'incomplete_expired']);
/** The statuses that give Free while they last, from which Stripe can still bring it back (an invoice paid). */
const LAPSED = new Set(['unpaid', 'paused']);

const priceSchema = z.object({
  id: z.string().describe('The Stripe price id'),
  amount: z
    .number()
    .int()
    .nullable()
    .describe("In the currency's minor unit (cents); null when Stripe did not say"),
  currency: z.string().nullable().describe('ISO 4217, lower case (usd)'),
});
const plansSchema = z.object({ month: priceSchema, year: priceSchema });
/** `GET /billing`: the workspace's plan as its owner sees it. */
export const billingViewSchema = z.object({
  tier: z.enum(TIERS),
  status: z.string().nullable().describe("Stripe's status of the subscription; null before any purchase"),
  interval: z.enum(['month', 'year']).nullable(),
  currentPeriodEnd: isoTimestamp.nullable(),
  cancelAtPeriodEnd: z.boolean(),
  seats: z.object({ used: z.number().int(), limit: z.number().int() }),
  plans: z
    .object({ pro: plansSchema, agency: plansSchema })
    .describe('The plans on offer, by tier and interval: their prices, as Stripe has them'),
});
export type BillingView = z.infer<typeof billingViewSchema>;

export interface Billing {
  /** The workspace's plan (`workspace:admin`). */
  view(principal: Principal): Promise<BillingView>;
  /**
   * A Checkout Session for `{tier, interval}` (owners only): answers its URL. ConflictError when
   * the workspace has a live subscription already (change plans in the portal); ValidationError on
   * `tier` or `interval`.
   */
  checkout(principal: Principal, body: unknown): Promise<{ url: string }>;
  /** A Customer Portal session (owners only): answers its URL. NotFoundError before any purchase. */
  portal(principal: Principal): Promise<{ url: string }>;
  /**
   * A webhook delivery: verifies it (ValidationError on `Stripe-Signature` when forged, stale or
   * unsigned), applies it once, answers whether it was applied now (false: seen before, or not ours).
   */
  receive(payload: Buffer, signature: string | undefined): Promise<boolean>;
  /** Ends the tier of subscriptions past due beyond the grace period (the hourly sweep); answers how many. */
  sweep(): Promise<number>;
  /** Where a person upgrades: the dashboard's Billing page. */
  readonly upgradeUrl: string;
}

export interface BillingDeps {
  store: RecordStore;
  clock: Clock;
  mailer: Mailer;
  logger: Logger;
  audit: AuditLog;
  gateway: BillingGateway;
  prices: PriceTable;
  publicUrl: string;
}

/** Where a person upgrades: the dashboard's Billing page. */
export const upgradeUrlOf = (publicUrl: string) => `${publicUrl}/settings/billing`;

export function createBilling(deps: BillingDeps): Billing {
  const { store, clock, gateway, prices, audit } = deps;
  const upgradeUrl = upgradeUrlOf(deps.publicUrl);

  /** The tier and interval of a price id; undefined for a price that is not one of ours. */
  function planOf(
    priceId: string | null,
  ): { tier: Exclude<Tier, 'free'>; interval: BillingInterval } | undefined {
    for (const [tier, byInterval] of Object.entries(prices) as [
      Exclude<Tier, 'free'>,
      Record<BillingInterval, string>,
    ][])
      for (const [interval, id] of Object.entries(byInterval) as [BillingInterval, string][])
        if (id === priceId) return { tier, interval };
    return undefined;
  }

  /** The four prices as Stripe has them, read at most every {@link PRICES_KEPT_MS}; unknown amounts if Stripe does not answer. */
  let known: { at: number; plans: BillingView['plans'] } | undefined;
  async function planPrices(): Promise<BillingView['plans']> {
    const now = clock.now().getTime();
    if (known && now - known.at < PRICES_KEPT_MS) return known.plans;
    const read = async (id: string) =>
      gateway.price(id).catch((err: unknown) => {
        deps.logger.warn({ err, price: id }, 'a price could not be read from Stripe');
        return { id, amount: null, currency: null };
      });
    const plans = {
      pro: { month: await read(prices.pro.month), year: await read(prices.pro.year) },
      agency: { month: await read(prices.agency.month), year: await read(prices.agency.year) },
    };
    if (Object.values(plans).every((p) => p.month.amount !== null && p.year.amount !== null))
      known = { at: now, plans };
    return plans;
  }

  function mustOwn(principal: Principal): void {
    // An owner's narrow token (images:read for CI) does not reach the subscription.
    requireScope(principal, 'workspace:admin');
    if (principal.role !== 'owner')
      throw new ForbiddenError("Only the workspace's owners manage its subscription");
  }

  /** Mails the workspace's owners (failures logged: mail never fails an event). */
  async function mailOwners(workspace: Workspace, subject: string, text: string) {
    const owners = (await store.workspaces.members(workspace.id)).filter((m) => m.role === 'owner');
    for (const owner of owners) {
      const user = await store.users.findById(owner.userId);
      if (!user) continue;
      await deps.mailer
        .send({ to: user.email, subject, text: `Hello ${user.displayName},\n\n${text}\n\n${upgradeUrl}\n` })
        .catch((err: unknown) =>
          deps.logger.error({ err, workspace: workspace.id }, 'billing mail not sent'),
        );
    }
  }

  /**
   * Applies a subscription's state, as of `at` (its event's creation), to its workspace: the
   * record, the tier, the mail. False when it is older than what was applied, or would revive an
   * ended subscription.
   */
  async function apply(workspaceId: string, state: SubscriptionState, at: Date): Promise<boolean> {
    const workspace = await store.workspaces.find(workspaceId);
    if (!workspace) return false;
    const before = await store.billing.find(workspaceId);
    if (before?.subscriptionId === state.id) {
      if (before.updatedAt > at) return false;
      if (ENDED.has(before.status) && !ENDED.has(state.status)) return false;
    } else if (before && !ENDED.has(before.status) && ENDED.has(state.status)) {
      // The end of an earlier subscription, arriving after a newer one began: the newer one stays.
      return false;
    } else if (before && !ENDED.has(before.status) && before.subscriptionId !== null)
      deps.logger.warn(
        { workspace: workspaceId, was: before.subscriptionId, now: state.id },
        'a second live subscription for one workspace: the newer is applied',
      );
    const now = clock.now();
    const plan = planOf(state.priceId);
    // The grace counts from the event that said so, not from when it was delivered.
    const pastDueSince = state.status === 'past_due' ? (before?.pastDueSince ?? at) : null;
    let tier: Tier = workspace.tier;
    if (plan && PAYING.has(state.status)) tier = plan.tier;
    else if (ENDED.has(state.status) || LAPSED.has(state.status)) tier = 'free';
    else if (state.status === 'past_due' && plan)
      tier = now.getTime() - (pastDueSince ?? now).getTime() > PAST_DUE_GRACE_MS ? 'free' : plan.tier;
    const next: Subscription = {
      workspaceId,
      customerId: state.customerId,
      subscriptionId: state.id,
      status: state.status,
      priceId: state.priceId,
      interval: plan?.interval ?? null,
      currentPeriodEnd: state.currentPeriodEnd,
      cancelAtPeriodEnd: state.cancelAtPeriodEnd,
      pastDueSince,
      updatedAt: at,
    };
    await store.billing.upsert(next);
    if (tier !== workspace.tier) {
      await store.workspaces.update(workspaceId, { tier });
      await audit.record(null, 'subscription.changed', {
        workspaceId,
        target: state.id,
        details: { from: workspace.tier, to: tier, status: state.status },
      });
    }
    if (state.status === 'past_due' && before?.status !== 'past_due')
      await mailOwners(
        workspace,
        `Titlecard: the payment for ${workspace.name} failed`,
        `The payment for the ${plan?.tier ?? tier} plan of ${workspace.name} failed. The plan stays for 7 days; update the card in the billing portal before then, or the workspace returns to the Free tier.`,
      );
    if (state.cancelAtPeriodEnd && !before?.cancelAtPeriodEnd && state.currentPeriodEnd)
      await mailOwners(
        workspace,
        `Titlecard: ${workspace.name} returns to Free on ${state.currentPeriodEnd.toISOString().slice(0, 10)}`,
        `The ${plan?.tier ?? tier} plan of ${workspace.name} was cancelled: it ends on ${state.currentPeriodEnd.toISOString().slice(0, 10)}, and the workspace returns to the Free tier (10 cards a month). You can resume it in the billing portal until then.`,
      );
    return true;
  }

  /** The workspace an event's subscription belongs to: its metadata, the session's reference, or the customer's record. */
  async function workspaceOf(
    event: BillingEvent,
    state: SubscriptionState | undefined,
  ): Promise<string | undefined> {
    const named = state?.workspaceId ?? event.workspaceId;
    if (named) return named;
    const customer = state?.customerId ?? event.customerId;
    return customer ? (await store.billing.findByCustomer(customer))?.workspaceId : undefined;
  }

  return {
    upgradeUrl,

    async view(principal) {
      requireScope(principal, 'workspace:admin');
      const [sub, members, pending, plans] = await Promise.all([
        store.billing.find(principal.workspace.id),
        store.workspaces.members(principal.workspace.id),
        store.invitations.pending(principal.workspace.id, clock.now()),
        planPrices(),
      ]);
      return {
        tier: principal.workspace.tier,
        status: sub?.status ?? null,
        interval: sub?.interval ?? null,
        currentPeriodEnd: sub?.currentPeriodEnd?.toISOString() ?? null,
        cancelAtPeriodEnd: sub?.cancelAtPeriodEnd ?? false,
        seats: { used: members.length + pending.length, limit: TIER_SEATS[principal.workspace.tier] },
        plans,
      };
    },

    async checkout(principal, body) {
      mustOwn(principal);
      const { tier, interval } = parseOrThrow(checkoutBodySchema, body);
      const sub = await store.billing.find(principal.workspace.id);
      if (sub && !ENDED.has(sub.status))
        throw new ConflictError(
          'This workspace has a subscription already: change its plan in the billing portal (POST /billing/portal)',
        );
      return gateway.checkout({
        priceId: prices[tier][interval],
        workspaceId: principal.workspace.id,
        customerId: sub?.customerId,
        email: principal.user.email,
        successUrl: `${upgradeUrl}?done=checkout`,
        cancelUrl: upgradeUrl,
      });
    },

    async portal(principal) {
      mustOwn(principal);
      const sub = await store.billing.find(principal.workspace.id);
      if (!sub) throw new NotFoundError('This workspace has no subscription yet: choose a plan first');
      return gateway.portal(sub.customerId, upgradeUrl);
    },

    async receive(payload, signature) {
      const event = gateway.verify(payload, signature);
      // Once per event id, across processes: the claim comes first, and is given back on failure;
      // a claim whose process died (or could not give it back) is taken over after 10 minutes.
      const now = clock.now();
      if (!(await store.billing.claimEvent(event.id, now, new Date(now.getTime() - EVENT_CLAIM_LEASE_MS))))
        return false;
      try {
        const state =
          event.subscription ??
          (event.subscriptionId ? await gateway.subscription(event.subscriptionId) : undefined);
        const workspaceId = await workspaceOf(event, state);
        const applied = state && workspaceId ? await apply(workspaceId, state, event.created) : false;
        if (!applied)
          deps.logger.info({ event: event.id, type: event.type }, 'a billing event that changes nothing');
        await store.billing.finishEvent(event.id);
        return applied;
      } catch (err) {
        await store.billing
          .releaseEvent(event.id)
          .catch((e: unknown) =>
            deps.logger.error({ err: e, event: event.id }, 'billing event claim not given back'),
          );
        throw err;
      }
    },

    async sweep() {
      const cutoff = new Date(clock.now().getTime() - PAST_DUE_GRACE_MS);
      let ended = 0;
      for (const sub of await store.billing.pastDueSince(cutoff)) {
        const workspace = await store.workspaces.find(sub.workspaceId);
        if (!workspace || workspace.tier === 'free') continue;
        await store.workspaces.update(sub.workspaceId, { tier: 'free' });
        await audit.record(null, 'subscription.changed', {
          workspaceId: sub.workspaceId,
          target: sub.subscriptionId ?? undefined,
          details: { from: workspace.tier, to: 'free', status: 'past_due' },
        });
        ended++;
      }
      return ended;
    },
  };
}
