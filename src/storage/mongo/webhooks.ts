/** Webhook endpoints and their deliveries (src/domain/webhooks); a delivery's claim is one findOneAndUpdate. */
import type { Collection, Db } from 'mongodb';
import type { RecordStore } from '../../domain/kernel/ports.js';
import type { WebhookDelivery, WebhookEndpoint } from '../../domain/kernel/records.js';

type EndpointDoc = Omit<WebhookEndpoint, 'id'> & { _id: string };
type DeliveryDoc = Omit<WebhookDelivery, 'id'> & { _id: string };

const toEndpoint = ({ _id, ...rest }: EndpointDoc): WebhookEndpoint => ({ id: _id, ...rest });
const toDelivery = ({ _id, ...rest }: DeliveryDoc): WebhookDelivery => ({ id: _id, ...rest });

/** The `webhooks` repository of the {@link RecordStore} on MongoDB; creates its indexes first. */
export async function mongoWebhooks(db: Db): Promise<RecordStore['webhooks']> {
  const endpoints: Collection<EndpointDoc> = db.collection('webhook_endpoints');
  const deliveries: Collection<DeliveryDoc> = db.collection('webhook_deliveries');
  await Promise.all([
    endpoints.createIndex({ userId: 1, createdAt: -1 }, { name: 'webhook_endpoints_by_user' }),
    deliveries.createIndex({ status: 1, nextAttemptAt: 1 }, { name: 'webhook_deliveries_due' }),
    deliveries.createIndex({ userId: 1, createdAt: -1 }, { name: 'webhook_deliveries_by_user' }),
  ]);
  return {
    async createEndpoint({ id, ...rest }) {
      await endpoints.insertOne({ _id: id, ...rest });
    },
    async listEndpoints(userId) {
      return (await endpoints.find({ userId }).sort({ createdAt: -1, _id: -1 }).toArray()).map(toEndpoint);
    },
    async deleteEndpoint(userId, id) {
      if ((await endpoints.deleteOne({ _id: id, userId })).deletedCount !== 1) return false;
      await deliveries.deleteMany({ endpointId: id });
      return true;
    },
    async enqueue(list) {
      if (list.length > 0) await deliveries.insertMany(list.map(({ id, ...rest }) => ({ _id: id, ...rest })));
    },
    async claimDue(at, leaseUntil, busy) {
      const doc = await deliveries.findOneAndUpdate(
        {
          status: 'pending',
          nextAttemptAt: { $lte: at },
          ...(busy.length > 0 ? { userId: { $nin: [...busy] } } : {}),
        },
        { $set: { nextAttemptAt: leaseUntil } },
        { sort: { nextAttemptAt: 1, _id: 1 }, returnDocument: 'before' },
      );
      return doc ? toDelivery(doc) : undefined;
    },
    async recordAttempt(id, outcome) {
      await deliveries.updateOne({ _id: id }, { $set: outcome });
    },
    async listDeliveries(userId, limit, endpointId) {
      const docs = await deliveries
        .find(endpointId ? { userId, endpointId } : { userId })
        .sort({ createdAt: -1, _id: -1 })
        .limit(limit)
        .toArray();
      return docs.map(toDelivery);
    },
    async deleteAllForUser(userId) {
      await deliveries.deleteMany({ userId });
      await endpoints.deleteMany({ userId });
    },
  };
}
