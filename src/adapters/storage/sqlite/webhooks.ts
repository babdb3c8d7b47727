/** Webhook endpoints and their deliveries (src/domain/webhooks); a delivery's claim is one UPDATE … RETURNING. */
import type Database from 'better-sqlite3';
import type { RecordStore } from '../../../domain/kernel/ports.js';
import type { WebhookDelivery, WebhookEndpoint } from '../../../domain/kernel/records.js';

interface EndpointRow {
  id: string;
  user_id: string;
  url: string;
  sealed_secret: string;
  created_at: string;
}

interface DeliveryRow {
  id: string;
  user_id: string;
  endpoint_id: string | null;
  batch_id: string | null;
  url: string;
  type: string;
  payload: string;
  status: WebhookDelivery['status'];
  attempts: number;
  next_attempt_at: string;
  last_status: number | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
}

const toEndpoint = (r: EndpointRow): WebhookEndpoint => ({
  id: r.id,
  userId: r.user_id,
  url: r.url,
  sealedSecret: r.sealed_secret,
  createdAt: new Date(r.created_at),
});

const toDelivery = (r: DeliveryRow): WebhookDelivery => ({
  id: r.id,
  userId: r.user_id,
  endpointId: r.endpoint_id,
  batchId: r.batch_id,
  url: r.url,
  type: r.type,
  payload: r.payload,
  status: r.status,
  attempts: r.attempts,
  nextAttemptAt: new Date(r.next_attempt_at),
  lastStatus: r.last_status,
  lastError: r.last_error,
  createdAt: new Date(r.created_at),
  deliveredAt: r.delivered_at === null ? null : new Date(r.delivered_at),
});

/** The `webhooks` repository of the {@link RecordStore} on SQLite. */
export function sqliteWebhooks(db: Database.Database): RecordStore['webhooks'] {
  const q = {
    insertEndpoint: db.prepare(
      `INSERT INTO webhook_endpoints (id, user_id, url, sealed_secret, created_at)
       VALUES (@id, @userId, @url, @sealedSecret, @createdAt)`,
    ),
    endpoints: db.prepare<[string], EndpointRow>(
      'SELECT * FROM webhook_endpoints WHERE user_id = ? ORDER BY created_at DESC, id DESC',
    ),
    deleteEndpoint: db.prepare('DELETE FROM webhook_endpoints WHERE id = ? AND user_id = ?'),
    deleteEndpointDeliveries: db.prepare('DELETE FROM webhook_deliveries WHERE endpoint_id = ?'),
    insertDelivery: db.prepare(
      `INSERT INTO webhook_deliveries (id, user_id, endpoint_id, batch_id, url, type, payload, status, attempts,
         next_attempt_at, last_status, last_error, created_at, delivered_at)
       VALUES (@id, @userId, @endpointId, @batchId, @url, @type, @payload, @status, @attempts,
         @nextAttemptAt, @lastStatus, @lastError, @createdAt, @deliveredAt)`,
    ),
    claim: db.prepare<{ at: string; leaseUntil: string; busy: string }, DeliveryRow>(
      `UPDATE webhook_deliveries SET next_attempt_at = @leaseUntil
       WHERE id = (SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= @at
                     AND user_id NOT IN (SELECT value FROM json_each(@busy))
                   ORDER BY next_attempt_at, id LIMIT 1)
       RETURNING *`,
    ),
    record: db.prepare(
      `UPDATE webhook_deliveries SET status = @status, attempts = @attempts, next_attempt_at = @nextAttemptAt,
         last_status = @lastStatus, last_error = @lastError, delivered_at = @deliveredAt WHERE id = @id`,
    ),
    deliveries: db.prepare<[string, number], DeliveryRow>(
      'SELECT * FROM webhook_deliveries WHERE user_id = ? ORDER BY created_at DESC, id DESC LIMIT ?',
    ),
    endpointDeliveries: db.prepare<[string, string, number], DeliveryRow>(
      'SELECT * FROM webhook_deliveries WHERE user_id = ? AND endpoint_id = ? ORDER BY created_at DESC, id DESC LIMIT ?',
    ),
    deleteEndpoints: db.prepare('DELETE FROM webhook_endpoints WHERE user_id = ?'),
    deleteDeliveries: db.prepare('DELETE FROM webhook_deliveries WHERE user_id = ?'),
  };
  const iso = (d: Date | null) => (d === null ? null : d.toISOString());
  return {
    async createEndpoint(e) {
      q.insertEndpoint.run({ ...e, createdAt: e.createdAt.toISOString() });
    },
    async listEndpoints(userId) {
      return q.endpoints.all(userId).map(toEndpoint);
    },
    async deleteEndpoint(userId, id) {
      return db.transaction(() => {
        if (q.deleteEndpoint.run(id, userId).changes !== 1) return false;
        q.deleteEndpointDeliveries.run(id);
        return true;
      })();
    },
    async enqueue(deliveries) {
      db.transaction(() => {
        for (const d of deliveries)
          q.insertDelivery.run({
            ...d,
            nextAttemptAt: d.nextAttemptAt.toISOString(),
            createdAt: d.createdAt.toISOString(),
            deliveredAt: iso(d.deliveredAt),
          });
      })();
    },
    async claimDue(at, leaseUntil, busy) {
      const r = q.claim.get({
        at: at.toISOString(),
        leaseUntil: leaseUntil.toISOString(),
        busy: JSON.stringify(busy),
      });
      return r && toDelivery(r);
    },
    async recordAttempt(id, o) {
      q.record.run({
        id,
        ...o,
        nextAttemptAt: o.nextAttemptAt.toISOString(),
        deliveredAt: iso(o.deliveredAt),
      });
    },
    async listDeliveries(userId, limit, endpointId) {
      const rows = endpointId
        ? q.endpointDeliveries.all(userId, endpointId, limit)
        : q.deliveries.all(userId, limit);
      return rows.map(toDelivery);
    },
    async deleteAllForUser(userId) {
      db.transaction(() => {
        q.deleteDeliveries.run(userId);
        q.deleteEndpoints.run(userId);
      })();
    },
  };
}
