/**
 * Webhook endpoints and their deliveries (src/domain/webhooks). A delivery's attempt is claimed by
 * one insert of its unique id (`<delivery>:<due time>`) in `webhook_claims`, then its due time moved
 * to the lease's end: of processes that read the same due delivery, one insert wins, on any server
 * (FerretDB's `findOneAndUpdate` is a read then a write, and let two processes send every event;
 * issue 44).
 */
import type { Collection, Db } from 'mongodb';
import type { RecordStore } from '../../../domain/kernel/ports.js';
import { isDuplicateKey } from './documents.js';
import type { WebhookDelivery, WebhookEndpoint } from '../../../domain/kernel/records.js';

type EndpointDoc = Omit<WebhookEndpoint, 'id'> & { _id: string };
type DeliveryDoc = Omit<WebhookDelivery, 'id'> & { _id: string };
/** A claimed attempt: `_id` is `<delivery id>:<its due time, ms>`; kept {@link CLAIMS_KEPT_MS}. */
type ClaimDoc = { _id: string; at: Date };

/** How long a claim is kept (far longer than a read can lag behind the write that moved its due time), ms. */
const CLAIMS_KEPT_MS = 3600_000;
/** A process that lost a claim looks for another due delivery this many times. */
const CLAIM_ATTEMPTS = 5;
/**
 * A claim this old whose delivery is still due at the same time was made by a process that died
 * before moving the due time (or whose write failed): it is taken over, ms.
 */
const CLAIM_ABANDONED_MS = 60_000;

const toEndpoint = ({ _id, ...rest }: EndpointDoc): WebhookEndpoint => ({ id: _id, ...rest });
const toDelivery = ({ _id, ...rest }: DeliveryDoc): WebhookDelivery => ({ id: _id, ...rest });

/** The `webhooks` repository of the {@link RecordStore} on MongoDB; creates its indexes first. */
export async function mongoWebhooks(db: Db): Promise<RecordStore['webhooks']> {
  const endpoints: Collection<EndpointDoc> = db.collection('webhook_endpoints');
  const deliveries: Collection<DeliveryDoc> = db.collection('webhook_deliveries');
  const claims: Collection<ClaimDoc> = db.collection('webhook_claims');
  let swept = 0;
  await Promise.all([
    claims.createIndex({ at: 1 }, { name: 'webhook_claims_by_time' }),
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
      if (at.getTime() - swept > 60_000) {
        swept = at.getTime();
        await claims.deleteMany({ at: { $lt: new Date(at.getTime() - CLAIMS_KEPT_MS) } });
      }
      const lost: string[] = [];
      for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
        const doc = await deliveries
          .find({
            status: 'pending',
            nextAttemptAt: { $lte: at },
            ...(busy.length > 0 ? { userId: { $nin: [...busy] } } : {}),
            ...(lost.length > 0 ? { _id: { $nin: lost } } : {}),
          })
          .sort({ nextAttemptAt: 1, _id: 1 })
          .limit(1)
          .next();
        if (!doc) return undefined;
        const claimId = `${doc._id}:${doc.nextAttemptAt.getTime()}`;
        try {
          await claims.insertOne({ _id: claimId, at });
        } catch (err) {
          if (!isDuplicateKey(err)) throw err;
          // Another process has it, or had it and died before moving its due time.
          const stale = await claims.deleteOne({
            _id: claimId,
            at: { $lt: new Date(at.getTime() - CLAIM_ABANDONED_MS) },
          });
          if (stale.deletedCount === 0) lost.push(doc._id);
          continue;
        }
        await deliveries.updateOne({ _id: doc._id }, { $set: { nextAttemptAt: leaseUntil } });
        return toDelivery(doc);
      }
      return undefined;
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
