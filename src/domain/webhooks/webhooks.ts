/**
 * Webhooks: an account's endpoints receive its events, signed per the Standard Webhooks
 * specification (standardwebhooks.com) with the `standardwebhooks` library: headers `webhook-id`
 * (the delivery's `msg_…`, the same on every retry), `webhook-timestamp` (Unix seconds at sending)
 * and `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` under the secret).
 *
 * - Events: `image.created` (an image record made by any edge: REST, MCP, a batch item) and
 *   `batch.completed` (also sent to the batch's own `webhookUrl`, signed with the batch's secret);
 *   `webhook.test` from "Send a test event". The body is `{type, timestamp, data}`.
 * - Each event becomes one delivery per receiver, stored first, then sent by the delivery runner
 *   in every serving process: a 2xx is delivered; anything else (a status, a timeout) is
 *   retried after {@link RETRY_SCHEDULE_SECONDS} (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: about
 *   27 h in all, Svix's schedule), then given up. A receiver that is down loses nothing.
 * - Deliveries go through the SSRF-safe poster (src/adapters/safe-fetch.ts): private addresses are refused
 *   unless `FETCH_ALLOW_ADDRESSES` admits them, and recorded as the attempt's error; such a
 *   delivery fails at once (no retry can change an address), as does one whose endpoint is gone.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { Webhook } from 'standardwebhooks';
import type { z } from 'zod';
import type { Principal } from '../accounts/accounts.js';
import { assertConfirmed } from '../accounts/confirmation.js';
import {
  AddressRefusedError,
  NotFoundError,
  TitlecardError,
  TooManyAttemptsError,
  ValidationError,
} from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import type { Clock, RecordStore, WebhookPoster } from '../kernel/ports.js';
import type { WebhookDelivery, WebhookEndpoint } from '../kernel/records.js';
import type { SecretBox } from '../kernel/secrets.js';
import { createTally } from '../kernel/tally.js';
import { parseOrThrow } from '../kernel/validate.js';
import type { webhookEndpointSchema, createdWebhookSchema, webhookDeliverySchema } from './schemas.js';
import { webhookBodySchema } from './schemas.js';

/** Waits before each retry, seconds (Svix's schedule; the Standard Webhooks specification's advice). */
export const RETRY_SCHEDULE_SECONDS = [5, 300, 1800, 7200, 18_000, 36_000, 36_000] as const;
/** Endpoints per account (ours). */
export const ENDPOINTS_MAX = 10;
/** How long a runner holds a delivery it is sending before another may take it, ms. */
const LEASE_MS = 60_000;
/** How long an idle runner waits before looking again, ms (an enqueue wakes it at once). */
const IDLE_MS = 1000;
/** Deliveries sent at once by one runner. */
const CONCURRENCY = 4;
/**
 * Deliveries of one account in flight at once, per process: half the runner. An account whose
 * receiver never answers holds at most this many slots; the others deliver other accounts' events.
 */
const PER_ACCOUNT = 2;
/** `webhook.test` deliveries an endpoint may have waiting; more answer 429 until one is sent. */
const TESTS_PENDING_MAX = 3;

export type WebhookEndpointView = z.infer<typeof webhookEndpointSchema>;
export type CreatedWebhook = z.infer<typeof createdWebhookSchema>;
export type WebhookDeliveryView = z.infer<typeof webhookDeliverySchema>;

export interface Webhooks {
  /** `POST /webhooks`: the secret is in this answer only. ValidationError on `url` or past {@link ENDPOINTS_MAX}. */
  create(principal: Principal, body: unknown): Promise<CreatedWebhook>;
  /** `GET /webhooks`: newest first, without secrets. */
  list(principal: Principal): Promise<WebhookEndpointView[]>;
  /** `DELETE /webhooks/{id}`: its pending deliveries go too. NotFoundError. */
  delete(principal: Principal, id: string): Promise<void>;
  /**
   * `POST /webhooks/{id}/test`: queues a `webhook.test` event to that endpoint. NotFoundError;
   * TooManyAttemptsError (429) while {@link TESTS_PENDING_MAX} test events wait for it.
   */
  sendTest(principal: Principal, id: string): Promise<WebhookDeliveryView>;
  /** `GET /webhooks/deliveries`: the newest 50 (of one endpoint when given). */
  deliveries(principal: Principal, endpointId?: string): Promise<WebhookDeliveryView[]>;
  /** Queues `type` with `data` to the user's endpoints, and to `also` (a batch's webhookUrl). Never throws. */
  publish(
    userId: string,
    type: string,
    data: unknown,
    also?: { url: string; batchId: string },
  ): Promise<void>;
  /** The secret that signs a batch's own `webhookUrl` deliveries (derived from SECRETS_KEY and its id). */
  batchSecret(batchId: string): string;
  /** Starts the delivery runner (a serving process); `stop` waits for the sends in hand. */
  start(): void;
  stop(): Promise<void>;
  deleteAllOf(userId: string): Promise<void>;
}

export interface WebhooksDeps {
  store: RecordStore;
  clock: Clock;
  logger: Logger;
  box: SecretBox;
  /** SECRETS_KEY: derives each batch's webhook secret. */
  secretsKey: Buffer;
  post: WebhookPoster;
}

const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

export function createWebhooks(deps: WebhooksDeps): Webhooks {
  const { store, clock, logger, box } = deps;
  let running = false;
  let loop: Promise<void> | undefined;
  let wakeUp: (() => void) | undefined;
  const inHand = new Set<Promise<void>>();
  /** Deliveries in flight per account ({@link PER_ACCOUNT}). */
  const perAccount = createTally();

  const viewOf = (e: WebhookEndpoint): WebhookEndpointView => ({
    id: e.id,
    url: e.url,
    createdAt: e.createdAt.toISOString(),
  });
  const deliveryView = (d: WebhookDelivery): WebhookDeliveryView => ({
    id: d.id,
    endpoint: d.endpointId,
    url: d.url,
    type: d.type,
    status: d.status,
    attempts: d.attempts,
    lastStatus: d.lastStatus,
    lastError: d.lastError,
    nextAttemptAt: d.status === 'pending' ? d.nextAttemptAt.toISOString() : null,
    createdAt: d.createdAt.toISOString(),
    deliveredAt: d.deliveredAt?.toISOString() ?? null,
  });

  const batchSecret = (batchId: string) =>
    `whsec_${createHmac('sha256', deps.secretsKey).update(`batch-webhook:${batchId}`).digest().subarray(0, 24).toString('base64')}`;

  const delivery = (
    userId: string,
    type: string,
    payload: string,
    to: { url: string; endpointId: string | null; batchId: string | null },
  ): WebhookDelivery => ({
    id: newId('msg'),
    userId,
    ...to,
    type,
    payload,
    status: 'pending',
    attempts: 0,
    nextAttemptAt: clock.now(),
    lastStatus: null,
    lastError: null,
    createdAt: clock.now(),
    deliveredAt: null,
  });

  const body = (type: string, data: unknown) =>
    JSON.stringify({ type, timestamp: clock.now().toISOString(), data });

  /** The secret of a delivery's receiver; undefined when its endpoint is gone or cannot be opened. */
  async function secretOf(d: WebhookDelivery): Promise<string | undefined> {
    if (d.batchId && !d.endpointId) return batchSecret(d.batchId);
    const endpoint = (await store.webhooks.listEndpoints(d.userId)).find((e) => e.id === d.endpointId);
    if (!endpoint) return undefined;
    try {
      return box.open(endpoint.sealedSecret, endpoint.id);
    } catch (err) {
      logger.error(
        { err, endpointId: endpoint.id },
        'a webhook secret cannot be opened: SECRETS_KEY changed',
      );
      return undefined;
    }
  }

  /** One attempt of `d`, and its outcome recorded (see the module comment). */
  async function attempt(d: WebhookDelivery): Promise<void> {
    const secret = await secretOf(d);
    const attempts = d.attempts + 1;
    let lastStatus: number | null = null;
    let lastError: string | null = null;
    /** A refusal no retry can change (a private address): the delivery fails now, not in 27 hours. */
    let refusedForGood = false;
    if (!secret) lastError = 'the endpoint was deleted, or its secret cannot be opened';
    else {
      // The signature's time is the wall clock's: receivers check it against theirs (5 min).
      const sentAt = new Date();
      const headers = {
        'content-type': 'application/json',
        'webhook-id': d.id,
        'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
        'webhook-signature': new Webhook(secret).sign(d.id, sentAt, d.payload),
      };
      try {
        lastStatus = await deps.post(d.url, d.payload, headers);
        if (lastStatus < 200 || lastStatus >= 300) lastError = `the receiver answered ${lastStatus}`;
      } catch (err) {
        if (!(err instanceof TitlecardError)) throw err;
        lastError = err.message.replace(/^Could not fetch url: /, '');
        refusedForGood = err instanceof AddressRefusedError;
      }
    }
    const now = clock.now();
    const wait = secret && !refusedForGood ? RETRY_SCHEDULE_SECONDS[attempts - 1] : undefined;
    await store.webhooks.recordAttempt(d.id, {
      status: lastError === null ? 'delivered' : wait === undefined ? 'failed' : 'pending',
      attempts,
      nextAttemptAt: new Date(now.getTime() + (wait ?? 0) * 1000),
      lastStatus,
      lastError,
      deliveredAt: lastError === null ? now : null,
    });
  }

  async function work(): Promise<void> {
    while (running) {
      if (inHand.size >= CONCURRENCY) {
        await Promise.race(inHand);
        continue;
      }
      let due: WebhookDelivery | undefined;
      try {
        const now = clock.now();
        const busy = perAccount.atLeast(PER_ACCOUNT);
        due = await store.webhooks.claimDue(now, new Date(now.getTime() + LEASE_MS), busy);
      } catch (err) {
        logger.error({ err }, 'webhook runner could not claim a delivery');
      }
      if (!due) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, IDLE_MS).unref();
          wakeUp = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        continue;
      }
      const { id, userId } = due;
      const done = perAccount.start(userId);
      const sending: Promise<void> = attempt(due)
        .catch((err: unknown) => logger.error({ err, id }, 'webhook delivery attempt failed'))
        .finally(() => {
          inHand.delete(sending);
          done();
        });
      inHand.add(sending);
    }
  }

  async function owned(principal: Principal, id: string): Promise<WebhookEndpoint> {
    const endpoint = (await store.webhooks.listEndpoints(principal.workspace.id)).find((e) => e.id === id);
    if (!endpoint) throw new NotFoundError(`No webhook endpoint with id ${id} on this account`);
    return endpoint;
  }

  return {
    async create(principal, raw) {
      const { url } = parseOrThrow(webhookBodySchema, raw ?? {});
      assertConfirmed(principal.user, 'add webhook endpoints');
      if ((await store.webhooks.listEndpoints(principal.workspace.id)).length >= ENDPOINTS_MAX)
        throw new ValidationError(
          'url',
          'max',
          `Expected at most ${ENDPOINTS_MAX} webhook endpoints per account: delete one first`,
        );
      const id = newId('whk');
      const secret = newSecret();
      const endpoint = {
        id,
        userId: principal.workspace.id,
        url,
        sealedSecret: box.seal(secret, id),
        createdAt: clock.now(),
      };
      await store.webhooks.createEndpoint(endpoint);
      return { ...viewOf(endpoint), secret };
    },

    async list(principal) {
      return (await store.webhooks.listEndpoints(principal.workspace.id)).map(viewOf);
    },

    async delete(principal, id) {
      if (!(await store.webhooks.deleteEndpoint(principal.workspace.id, id)))
        throw new NotFoundError(`No webhook endpoint with id ${id} on this account`);
    },

    async sendTest(principal, id) {
      const endpoint = await owned(principal, id);
      const waiting = (await store.webhooks.listDeliveries(principal.workspace.id, 50, endpoint.id)).filter(
        (d) => d.type === 'webhook.test' && d.status === 'pending',
      ).length;
      // A receiver that never answers keeps its tests pending: they are not piled up (issue 41).
      if (waiting >= TESTS_PENDING_MAX)
        throw new TooManyAttemptsError(
          RETRY_SCHEDULE_SECONDS[0] ?? 5,
          'test events waiting for this endpoint',
        );
      const d = delivery(
        principal.workspace.id,
        'webhook.test',
        body('webhook.test', { endpoint: endpoint.id }),
        {
          url: endpoint.url,
          endpointId: endpoint.id,
          batchId: null,
        },
      );
      await store.webhooks.enqueue([d]);
      wakeUp?.();
      return deliveryView(d);
    },

    async deliveries(principal, endpointId) {
      return (await store.webhooks.listDeliveries(principal.workspace.id, 50, endpointId)).map(deliveryView);
    },

    async publish(userId, type, data, also) {
      try {
        const payload = body(type, data);
        const list = (await store.webhooks.listEndpoints(userId)).map((e) =>
          delivery(userId, type, payload, { url: e.url, endpointId: e.id, batchId: null }),
        );
        if (also)
          list.push(
            delivery(userId, type, payload, { url: also.url, endpointId: null, batchId: also.batchId }),
          );
        if (list.length === 0) return;
        await store.webhooks.enqueue(list);
        wakeUp?.();
      } catch (err) {
        logger.error({ err, userId, type }, 'webhook event not queued');
      }
    },

    batchSecret,

    start() {
      if (running) return;
      running = true;
      loop = work();
    },

    async stop() {
      running = false;
      wakeUp?.();
      await loop;
      await Promise.all(inHand);
    },

    async deleteAllOf(userId) {
      await store.webhooks.deleteAllForUser(userId);
    },
  };
}
