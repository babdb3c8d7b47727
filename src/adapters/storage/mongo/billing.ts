/** Workspaces' subscriptions and the billing events applied (docs/billing.md) on MongoDB. */
import type { Collection, Db } from 'mongodb';
import type { Subscription } from '../../../domain/kernel/records.js';
import type { RecordStore } from '../../../domain/kernel/ports.js';
import { isDuplicateKey } from './documents.js';

interface SubscriptionDoc extends Omit<Subscription, 'workspaceId'> {
  _id: string;
}
const toSubscription = ({ _id, ...rest }: SubscriptionDoc): Subscription => ({ workspaceId: _id, ...rest });

/** The `billing` repository of the {@link RecordStore} on MongoDB; creates its indexes first. */
export async function mongoBilling(db: Db): Promise<RecordStore['billing']> {
  const subscriptions: Collection<SubscriptionDoc> = db.collection('subscriptions');
  const events: Collection<{ _id: string; at: Date; done: boolean }> = db.collection('billing_events');
  await subscriptions.createIndex({ customerId: 1 }, { name: 'subscriptions_by_customer' });
  return {
    async find(workspaceId) {
      const doc = await subscriptions.findOne({ _id: workspaceId });
      return doc ? toSubscription(doc) : undefined;
    },
    async findByCustomer(customerId) {
      const doc = await subscriptions.find({ customerId }).sort({ updatedAt: -1 }).limit(1).next();
      return doc ? toSubscription(doc) : undefined;
    },
    async upsert({ workspaceId, ...rest }) {
      await subscriptions.replaceOne({ _id: workspaceId }, rest, { upsert: true });
    },
    async claimEvent(eventId, at, staleBefore) {
      try {
        await events.insertOne({ _id: eventId, at, done: false });
        return true;
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
      // A stale unfinished claim is taken over by one of its claimants: the one whose conditional
      // update matched it.
      return (
        (await events.updateOne({ _id: eventId, done: false, at: { $lt: staleBefore } }, { $set: { at } }))
          .modifiedCount === 1
      );
    },
    async finishEvent(eventId) {
      await events.updateOne({ _id: eventId }, { $set: { done: true } });
    },
    async releaseEvent(eventId) {
      await events.deleteOne({ _id: eventId, done: false });
    },
    async pastDueSince(before) {
      return (await subscriptions.find({ status: 'past_due', pastDueSince: { $lt: before } }).toArray()).map(
        toSubscription,
      );
    },
    async delete(workspaceId) {
      await subscriptions.deleteOne({ _id: workspaceId });
    },
  };
}
