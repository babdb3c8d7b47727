/** Workspaces' subscriptions and the billing events applied (docs/billing.md) on SQLite. */
import type Database from 'better-sqlite3';
import type { BillingInterval, Subscription } from '../../../domain/kernel/records.js';
import type { RecordStore } from '../../../domain/kernel/ports.js';

interface SubscriptionRow {
  workspace_id: string;
  customer_id: string;
  subscription_id: string | null;
  status: string;
  price_id: string | null;
  billing_interval: BillingInterval | null;
  current_period_end: string | null;
  cancel_at_period_end: number;
  past_due_since: string | null;
  updated_at: string;
}

const toSubscription = (r: SubscriptionRow): Subscription => ({
  workspaceId: r.workspace_id,
  customerId: r.customer_id,
  subscriptionId: r.subscription_id,
  status: r.status,
  priceId: r.price_id,
  interval: r.billing_interval,
  currentPeriodEnd: r.current_period_end ? new Date(r.current_period_end) : null,
  cancelAtPeriodEnd: r.cancel_at_period_end === 1,
  pastDueSince: r.past_due_since ? new Date(r.past_due_since) : null,
  updatedAt: new Date(r.updated_at),
});

/** The `billing` repository of the {@link RecordStore} on SQLite. */
export function sqliteBilling(db: Database.Database): RecordStore['billing'] {
  const q = {
    find: db.prepare<[string], SubscriptionRow>('SELECT * FROM subscriptions WHERE workspace_id = ?'),
    byCustomer: db.prepare<[string], SubscriptionRow>(
      'SELECT * FROM subscriptions WHERE customer_id = ? ORDER BY updated_at DESC LIMIT 1',
    ),
    upsert: db.prepare(
      `INSERT INTO subscriptions (workspace_id, customer_id, subscription_id, status, price_id, billing_interval,
                                  current_period_end, cancel_at_period_end, past_due_since, updated_at)
       VALUES (@workspaceId, @customerId, @subscriptionId, @status, @priceId, @interval, @currentPeriodEnd,
               @cancelAtPeriodEnd, @pastDueSince, @updatedAt)
       ON CONFLICT (workspace_id) DO UPDATE SET
         customer_id = excluded.customer_id, subscription_id = excluded.subscription_id,
         status = excluded.status, price_id = excluded.price_id, billing_interval = excluded.billing_interval,
         current_period_end = excluded.current_period_end, cancel_at_period_end = excluded.cancel_at_period_end,
         past_due_since = excluded.past_due_since, updated_at = excluded.updated_at`,
    ),
    // One statement: a new id is inserted, a stale unfinished claim taken over, anything else left.
    claim: db.prepare(
      `INSERT INTO billing_events (id, claimed_at, done) VALUES (@id, @at, 0)
       ON CONFLICT (id) DO UPDATE SET claimed_at = @at
       WHERE billing_events.done = 0 AND billing_events.claimed_at < @staleBefore`,
    ),
    finish: db.prepare('UPDATE billing_events SET done = 1 WHERE id = ?'),
    release: db.prepare('DELETE FROM billing_events WHERE id = ? AND done = 0'),
    pastDue: db.prepare<[string], SubscriptionRow>(
      "SELECT * FROM subscriptions WHERE status = 'past_due' AND past_due_since < ?",
    ),
    delete: db.prepare('DELETE FROM subscriptions WHERE workspace_id = ?'),
  };
  return {
    async find(workspaceId) {
      const r = q.find.get(workspaceId);
      return r && toSubscription(r);
    },
    async findByCustomer(customerId) {
      const r = q.byCustomer.get(customerId);
      return r && toSubscription(r);
    },
    async upsert(s) {
      q.upsert.run({
        ...s,
        currentPeriodEnd: s.currentPeriodEnd?.toISOString() ?? null,
        cancelAtPeriodEnd: s.cancelAtPeriodEnd ? 1 : 0,
        pastDueSince: s.pastDueSince?.toISOString() ?? null,
        updatedAt: s.updatedAt.toISOString(),
      });
    },
    async claimEvent(eventId, at, staleBefore) {
      return (
        q.claim.run({ id: eventId, at: at.toISOString(), staleBefore: staleBefore.toISOString() }).changes ===
        1
      );
    },
    async finishEvent(eventId) {
      q.finish.run(eventId);
    },
    async releaseEvent(eventId) {
      q.release.run(eventId);
    },
    async pastDueSince(before) {
      return q.pastDue.all(before.toISOString()).map(toSubscription);
    },
    async delete(workspaceId) {
      q.delete.run(workspaceId);
    },
  };
}
