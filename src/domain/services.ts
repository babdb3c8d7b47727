/**
 * Wires the domain together. Edges (REST, MCP, the CLI) receive {@link Services} and call one use
 * case per action; they never see the record store, the blob store or the renderer.
 */
import { createHmac } from 'node:crypto';
import type { Logger } from 'pino';
import { createAccountLinks, type AccountLinks } from './accounts/email-links.js';
import { createAccounts, type Accounts } from './accounts/accounts.js';
import { createIdempotency, type Idempotency } from './kernel/idempotency.js';
import { createAssets, type Assets } from './assets/assets.js';
import {
  createImageServices,
  type Generation,
  type ImageRecords,
  type Previews,
  type PublishedFiles,
} from './images/images.js';
import { createPresets, type Presets } from './presets/presets.js';
import { createTemplates, type Templates } from './templates/templates.js';
import { createRenderUrls, type RenderUrls } from './render-links/render-links.js';
import { createRenderCache } from './render-links/render-cache.js';
import { createSites, type Sites } from './sites/sites.js';
import type { Rescrape } from './sites/crawls.js';
import { createLinkPreviews, type LinkPreviews } from './link-previews/link-previews.js';
import { createBatches, type Batches } from './batches/batches.js';
import { createBatchRunner, createItemProcessor } from './batches/runner.js';
import { createWebhooks, type Webhooks } from './webhooks/webhooks.js';
import { outageOf, ValidationError } from './kernel/errors.js';
import type { Batch } from './kernel/records.js';
import { createSecretBox } from './kernel/secrets.js';
import { createOAuth, type OAuth } from './oauth/oauth.js';
import {
  systemClock,
  type BlobStore,
  type Clock,
  type ImageFetcher,
  type PageFetcher,
  type ProbeFetcher,
  type WebhookPoster,
  type ItemQueue,
  type GenerationQueue,
  type QueuedGeneration,
  type QueuedGenerationResult,
  type Mailer,
  type RecordStore,
  type Throttle,
} from './kernel/ports.js';
import { createLedger, type Ledger } from './accounts/ledger.js';
import { createQuota, type Quota } from './accounts/quota.js';
import type { Renderer } from './render/index.js';
import { createSessions, type Sessions, type SignUpMode } from './accounts/sessions.js';
import { createAuditLog, type AuditLog } from './workspaces/audit.js';
import { createBilling, upgradeUrlOf, type Billing, type PriceTable } from './billing/billing.js';
import type { BillingGateway } from './billing/gateway.js';
import { createWorkspaces, type Workspaces } from './workspaces/workspaces.js';
import { guarded } from './workspaces/guard.js';
import { SCOPE_TABLES } from './workspaces/scope-tables.js';
import type { AuditAction } from './workspaces/audit.js';
import type { Principal } from './workspaces/roles.js';

export interface ServiceDeps {
  store: RecordStore;
  blobs: BlobStore;
  renderer: Renderer;
  logger: Logger;
  /** Base URL of the service as the public sees it, without trailing slash, e.g. `https://cards.example.com`. */
  publicUrl: string;
  /** Counts password guesses: sign-in and current-password checks (accounts/password-guard.ts). */
  throttle: Throttle;
  /** Counts password-reset requests (per address, per client; accounts/email-links.ts). */
  resetThrottle: Throttle;
  /** Counts playground previews per account (`PREVIEW_LIMIT` in images/previews.ts). */
  previewThrottle: Throttle;
  /** Sends verification and password-reset links. */
  mailer: Mailer;
  /** Most generations and previews under way at once (images/admission.ts): RENDER_CONCURRENCY + RENDER_QUEUE. */
  maxInFlight: number;
  /** Longest expected wait for a render a generation is admitted to, ms (images/admission.ts): RENDER_MAX_WAIT. */
  maxWaitMs: number;
  /** `SIGNUP`. */
  signUpMode: SignUpMode;
  /** Stripe and the plans' prices when billing is on (`STRIPE_SECRET_KEY`, docs/billing.md); none: off. */
  billing?: { gateway: BillingGateway; prices: PriceTable };
  /** Default the system clock; tests inject one to cross a month boundary. */
  clock?: Clock;
  /** SECRETS_KEY (32 bytes): seals the signing keys of render links at rest (secrets.ts). */
  secretsKey: Buffer;
  /** Fetches `imageUrl` backgrounds SSRF-safely; the same fetcher as the MCP connector's. */
  fetchImage?: ImageFetcher;
  /** Counts failed `imageUrl` fetches per account (`FETCH_FAILURES` in images/request.ts). */
  fetchThrottle: Throttle;
  /** Fetches a site's pages SSRF-safely; without it, site links answer the fallback card. */
  fetchPage?: PageFetcher;
  /** Fetches pages, robots.txt and images for the link-preview check; without it, every check is refused. */
  probe?: ProbeFetcher;
  /** Counts page fetches per site (`PAGE_FETCHES` in sites.ts). */
  pageThrottle: Throttle;
  /** Counts page fetches per site and client address (`PAGE_FETCHES_PER_ADDRESS` in sites.ts). */
  pageAddressThrottle: Throttle;
  /** Counts a site's new cards per client address (`SITE_RENDERS_PER_ADDRESS` in sites/budget.ts). */
  siteAddressThrottle: Throttle;
  /** POSTs webhook deliveries SSRF-safely; without it, every delivery fails (and is retried). */
  postWebhook?: WebhookPoster;
  /**
   * With `QUEUE=redis`: where batch items wait (BullMQ), for `titlecard worker` processes; this
   * process then runs no batch runner. Default none: items wait in the record store.
   */
  itemQueue?: ItemQueue;
  /** With `GENERATE_ON_WORKERS`: `/generate`'s renders and links' new cards go to the workers too (images/pipeline.ts). */
  generationQueue?: GenerationQueue;
  /** `SITE_RECHECK`, seconds. */
  siteRecheckSeconds: number;
  /** Facebook's re-scrape of a site page whose card changed (`FACEBOOK_APP_TOKEN`); none: not sent. */
  rescrape?: Rescrape;
}

/** Every use case of Titlecard, by area. */
export interface Services {
  /** The clock the use cases read (the system's; a test's own): pages that say "3 days ago" read it too. */
  clock: Clock;
  /** Users, API tokens and bearer-token authentication (docs/api.md#endpoints). */
  accounts: Accounts;
  /** The monthly quota per tier as people see it (docs/api.md#limits). */
  quota: Quota;
  /** Workspaces, members, invitations and the tier (docs/workspaces.md). */
  workspaces: Workspaces;
  /** The audit log of each workspace (docs/workspaces.md#audit-log). */
  audit: AuditLog;
  /** Subscriptions by Stripe (docs/billing.md); undefined while billing is off. */
  billing: Billing | undefined;
  /**
   * The charge ledger: every unit of quota and of a site's budget is charged, settled and refunded
   * here (accounts/ledger.ts). The use cases charge through it; tests use up a month with it.
   */
  ledger: Ledger;
  /** Generating images: `/generate`, batch items, a worker's side, the charge sweep (docs/api.md#generate-options). */
  generation: Generation;
  /** Previews, the fit check and a card's large view: free, limited per account. */
  previews: Previews;
  /** The image records: list, one image, delete, the month's activity (docs/api.md#endpoints). */
  images: ImageRecords;
  /** The published files, for anyone, and the sweep of files no record points to. */
  files: PublishedFiles;
  /** Dashboard sign-up, sign-in and browser sessions. */
  sessions: Sessions;
  /**
   * A secret of the OAuth authorization server for `purpose` (its cookie key, its signing key's
   * seed; src/web/oauth/): 32 bytes derived from SECRETS_KEY (HMAC-SHA-256 of the purpose), so
   * that every process of a deployment holds the same.
   */
  oauthSecret(purpose: string): Buffer;
  /** Email verification and password reset links. */
  links: AccountLinks;
  /** Idempotency-Key for the requests that create or charge. */
  idempotency: Idempotency;
  /** OAuth 2.1 authorization of MCP clients: grants, codes and tokens (Settings → Connected apps). */
  oauth: OAuth;
  /** Uploads kept for reuse: backgrounds, logos, fonts. */
  assets: Assets;
  /** Saved designs. */
  presets: Presets;
  /** The user's own layouts, and the built-ins as documents (`/templates`). */
  templates: Templates;
  /** Signing keys, signed render links and their renders. */
  renderUrls: RenderUrls;
  /** Sites whose every page gets its card from one link (`/sites`, `/s/…`). */
  sites: Sites;
  /** The link-preview check: what each platform will show of a page (`/previews`, docs/previews.md). */
  linkPreviews: LinkPreviews;
  /** Many generations from one request, rendered in the background (`/batches`). */
  batches: Batches;
  /** Webhook endpoints, their signed deliveries and retries (`/webhooks`). */
  webhooks: Webhooks;
  /**
   * The background work of a serving process: the batch runner, webhook deliveries, and the hourly
   * charge sweep (images/generation.ts `sweepCharges`) with the audit log's prune. `start` is the server's to call (a CLI command runs
   * none); `close` stops it.
   */
  background: { start(): void };
  /**
   * A worker's side of the item queue: claims the item and renders it. Answers false when a fault
   * that is not the item's left it unfinished (the queue retries it).
   */
  processQueuedItem(batchId: string, index: number): Promise<boolean>;
  /**
   * With `QUEUE=redis`: enqueues again the items still queued in batches made before `before`
   * (a batch made while Redis was away; the queue adds none twice), and the running items whose
   * claim is older than `stalledBefore` (default {@link STALLED_AFTER_MS} ago: their job may have
   * run out of retries while a store was away; queued anew unless it still waits or runs).
   * Answers how many it handed over.
   */
  requeueWaiting(before: Date, stalledBefore?: Date): Promise<number>;
  /** A worker's side of a generation handed over (`GENERATE_ON_WORKERS`, images/generation.ts `renderQueued`). */
  processQueuedGeneration(job: QueuedGeneration): Promise<QueuedGenerationResult>;
  /**
   * Readiness (`GET /readyz`): whether the record store, the blob store and the queue (QUEUE=redis)
   * answer. Each check is `ok`, `slow: …` (no answer in 2 s) or the error it answered with. Not
   * ready only when the record store answers with an error: nothing can be served without it. The
   * files and the queue are shared by every replica, so their outage (and any slowness) leaves
   * each replica serving what it can, `degraded`, rather than taking them all out at once. A
   * subject detector that failed (render/photo/subjects.ts) is named in `subjects`, also `degraded`.
   * Never throws.
   */
  ready(): Promise<{
    ready: boolean;
    degraded: boolean;
    checks: { records: string; files: string; queue?: string; subjects?: string };
  }>;
  /** Closes the stores. In-flight calls should have finished. */
  close(): Promise<void>;
}

/**
 * A store that has not answered within this is reported `slow`, not failed (ms): the stores are
 * shared by every replica, so their slowness taking readiness away would take every replica out of
 * the load balancer at once (issue 44).
 */
const READY_TIMEOUT_MS = 2000;
/** A readiness check's answer that still counts as ready. */
const SLOW = `slow: no answer in ${READY_TIMEOUT_MS} ms`;

async function probe(check: () => Promise<unknown>): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const answered = await Promise.race([
      check().then(() => true),
      new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), READY_TIMEOUT_MS);
      }),
    ]);
    return answered ? 'ok' : SLOW;
  } catch (err) {
    return (err as Error).message;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * How often a serving process refunds the image charges whose image was never made (its process
 * died between the two), and how old such a charge must be, ms: an hour, far past any generation's
 * wait (GENERATE_WAIT_SECONDS + 60 s at most). It looks at a day of charges each time.
 */
const CHARGE_SWEEP_EVERY_MS = 3600_000;
const CHARGE_SWEEP_WINDOW_MS = 24 * 3600_000;

/** How long a running item's claim may go unrenewed before a worker queues it again (QUEUE=redis), ms. */
export const STALLED_AFTER_MS = 120_000;

export function createServices(deps: ServiceDeps): Services {
  const clock = deps.clock ?? systemClock;
  const { store } = deps;
  const ledger = createLedger(
    store,
    clock,
    deps.logger,
    deps.billing ? upgradeUrlOf(deps.publicUrl) : undefined,
  );
  const quota = createQuota(ledger);
  const assets = createAssets({ store, blobs: deps.blobs, clock });
  const templates = createTemplates({ store, clock, assets, fetchImage: deps.fetchImage });
  const presets = createPresets({ store, clock, assets, templates });
  const box = createSecretBox(deps.secretsKey);
  const webhooks = createWebhooks({
    store,
    clock,
    logger: deps.logger,
    box,
    secretsKey: deps.secretsKey,
    post:
      deps.postWebhook ??
      (async () => {
        throw new ValidationError('url', 'format', 'Could not fetch url: this server sends no webhooks');
      }),
  });
  const { generation, previews, images, files, requests, pipeline } = createImageServices({
    ...deps,
    ledger,
    clock,
    assets,
    presets,
    templates,
    onCreated: (userId, image, source) => webhooks.publish(userId, 'image.created', { ...image, ...source }),
  });
  const cache = createRenderCache({ ...deps, clock, ledger, requests, pipeline, assets, templates });
  const renderUrls = createRenderUrls({
    ...deps,
    clock,
    cache,
    assets,
    presets,
    box,
  });
  const sites = createSites({
    ...deps,
    clock,
    cache,
    presets,
    fetchPage:
      deps.fetchPage ??
      (async () => {
        throw new ValidationError('url', 'format', 'Could not fetch url: this server fetches no pages');
      }),
    pageThrottle: deps.pageThrottle,
    pageAddressThrottle: deps.pageAddressThrottle,
    addressThrottle: deps.siteAddressThrottle,
    ledger,
    options: { recheckSeconds: deps.siteRecheckSeconds },
    rescrape: deps.rescrape,
  });
  const linkPreviews = createLinkPreviews({
    blobs: deps.blobs,
    clock,
    fetch:
      deps.probe ??
      (async () => {
        throw new ValidationError('url', 'format', 'Could not fetch url: this server fetches no pages');
      }),
    throttle: deps.previewThrottle,
    inTurn: (account, work) => deps.renderer.inTurn(account, work),
    publicUrl: deps.publicUrl,
  });
  // One processor of batch items, for this process's runner and for a queue's workers.
  const processItem = createItemProcessor({
    store,
    clock,
    logger: deps.logger,
    generation,
    completed: (batch) => batchCompleted(batch),
  });
  const runner = createBatchRunner({
    store,
    clock,
    logger: deps.logger,
    process: processItem,
    concurrency: deps.renderer.load().concurrency,
  });
  const batches = createBatches({
    store,
    blobs: deps.blobs,
    clock,
    images,
    assets,
    presets,
    templates,
    enqueue: async (items) => {
      if (!deps.itemQueue) return runner.wake();
      // The batch is stored with its items queued: with Redis away, a worker queues them within
      // a minute (requeueWaiting), so the batch is answered as made.
      await deps.itemQueue.add(items).catch((err: unknown) => {
        if (!outageOf(err)) throw err;
        deps.logger.warn({ err }, 'batch items not queued (Redis away): the workers will queue them');
      });
    },
    completed: (batch) => batchCompleted(batch),
    webhookSecret: (id) => webhooks.batchSecret(id),
  });
  async function batchCompleted(batch: Batch): Promise<void> {
    await webhooks.publish(
      batch.userId,
      'batch.completed',
      await batches.viewOf(batch),
      batch.webhookUrl ? { url: batch.webhookUrl, batchId: batch.id } : undefined,
    );
  }
  const links = createAccountLinks({
    store,
    clock,
    mailer: deps.mailer,
    logger: deps.logger,
    resetThrottle: deps.resetThrottle,
    publicUrl: deps.publicUrl,
  });
  const sessions = createSessions({
    store,
    clock,
    throttle: deps.throttle,
    links,
    signUpMode: deps.signUpMode,
  });
  const oauth = createOAuth({ store, clock, publicUrl: deps.publicUrl });
  const audit = createAuditLog({ store, clock, logger: deps.logger });
  const billing = deps.billing
    ? createBilling({
        store,
        clock,
        mailer: deps.mailer,
        logger: deps.logger,
        audit,
        gateway: deps.billing.gateway,
        prices: deps.billing.prices,
        publicUrl: deps.publicUrl,
      })
    : undefined;
  /** Deletes a workspace: access first, then its records and files, the workspace record last. */
  const deleteWorkspace = async (id: string) => {
    await store.tokens.deleteAllForWorkspace(id);
    for (const member of await store.workspaces.members(id)) await oauth.endGrantsIn(id, member.userId);
    await store.invitations.deleteAllFor(id);
    await images.deleteAllOf(id);
    await sites.deleteAllOf(id);
    await batches.deleteAllOf(id);
    await webhooks.deleteAllOf(id);
    await renderUrls.deleteAllOf(id);
    await store.presets.deleteAllForUser(id);
    await store.templates.deleteAllForUser(id);
    await assets.deleteAllOf(id);
    await store.audit.deleteAllFor(id);
    await store.billing.delete(id);
    await store.workspaces.delete(id);
  };
  const accounts = createAccounts({
    store,
    clock,
    logger: deps.logger,
    links,
    sessions,
    throttle: deps.throttle,
    oauth,
    deleteWorkspace,
    audit,
  });
  const workspaces = createWorkspaces({
    store,
    clock,
    mailer: deps.mailer,
    logger: deps.logger,
    publicUrl: deps.publicUrl,
    audit,
    deleteWorkspace,
    endGrantsIn: (workspaceId, userId) => oauth.endGrantsIn(workspaceId, userId),
  });
  let chargeSweep: NodeJS.Timeout | undefined;
  /** Records an audited change after it succeeds (sites and webhooks: docs/workspaces.md#audit-log). */
  const recorded =
    <A extends unknown[], R>(
      action: AuditAction,
      work: (principal: Principal, ...args: A) => Promise<R>,
      target: (result: R, args: A) => string,
    ) =>
    async (principal: Principal, ...args: A): Promise<R> => {
      const result = await work(principal, ...args);
      await audit.record(principal, action, { target: target(result, args) });
      return result;
    };
  const sitesAudited: Sites = {
    ...sites,
    create: recorded(
      'site.created',
      (p, body) => sites.create(p, body),
      (site) => site.id,
    ),
    setBudget: recorded(
      'site.updated',
      (p, id, body) => sites.setBudget(p, id, body),
      (site) => site.id,
    ),
    delete: recorded(
      'site.deleted',
      (p, id: string) => sites.delete(p, id),
      (_r, [id]) => id,
    ),
  };
  const webhooksAudited: Webhooks = {
    ...webhooks,
    create: recorded(
      'webhook.created',
      (p, body) => webhooks.create(p, body),
      (hook) => hook.id,
    ),
    delete: recorded(
      'webhook.deleted',
      (p, id: string) => webhooks.delete(p, id),
      (_r, [id]) => id,
    ),
  };
  return {
    accounts,
    quota,
    workspaces,
    audit,
    billing,
    ledger,
    generation: guarded(generation, SCOPE_TABLES.generation),
    previews: guarded(previews, SCOPE_TABLES.previews),
    images: guarded(images, SCOPE_TABLES.images),
    files,
    sessions,
    links,
    idempotency: createIdempotency(store, clock),
    oauth,
    oauthSecret: (purpose) =>
      createHmac('sha256', deps.secretsKey).update(`titlecard oauth ${purpose}`).digest(),
    assets: guarded(assets, SCOPE_TABLES.assets),
    presets: guarded(presets, SCOPE_TABLES.presets),
    templates: guarded(templates, SCOPE_TABLES.templates),
    renderUrls: guarded(renderUrls, SCOPE_TABLES.renderUrls),
    sites: guarded(sitesAudited, SCOPE_TABLES.sites),
    linkPreviews: guarded(linkPreviews, SCOPE_TABLES.linkPreviews),
    clock,
    batches: guarded(batches, SCOPE_TABLES.batches),
    webhooks: guarded(webhooksAudited, SCOPE_TABLES.webhooks),
    background: {
      start() {
        if (!deps.itemQueue) runner.start();
        webhooks.start();
        chargeSweep ??= setInterval(() => {
          const now = clock.now().getTime();
          generation
            .sweepCharges({
              since: new Date(now - CHARGE_SWEEP_WINDOW_MS - CHARGE_SWEEP_EVERY_MS),
              olderThan: new Date(now - CHARGE_SWEEP_EVERY_MS),
            })
            .then(
              (keys) => keys.length > 0 && deps.logger.warn({ keys }, 'charges without their image refunded'),
              (err: unknown) => deps.logger.error({ err }, 'the charge sweep failed'),
            );
          // Audit entries are kept a year (workspaces/audit.ts); a payment past due keeps its tier 7 days.
          audit.prune().catch((err: unknown) => deps.logger.error({ err }, 'the audit log prune failed'));
          billing?.sweep().catch((err: unknown) => deps.logger.error({ err }, 'the billing sweep failed'));
        }, CHARGE_SWEEP_EVERY_MS);
        chargeSweep.unref();
      },
    },
    processQueuedGeneration: (job) => (job.card ? cache.renderQueued(job) : generation.renderQueued(job)),
    async requeueWaiting(before, stalledBefore = new Date(clock.now().getTime() - STALLED_AFTER_MS)) {
      if (!deps.itemQueue) return 0;
      const items = await store.batches.queuedBefore(before, 1000);
      if (items.length > 0) await deps.itemQueue.add(items);
      const stalled = await store.batches.stalledBefore(stalledBefore, 1000);
      if (stalled.length > 0) await deps.itemQueue.add(stalled, { again: true });
      return items.length + stalled.length;
    },
    async processQueuedItem(batchId, index) {
      const item = await store.batches.claimItem(batchId, index, clock.now());
      return item ? processItem(item) : true;
    },
    async ready() {
      const queue = deps.itemQueue;
      const [records, files, queued] = await Promise.all([
        probe(() => store.users.findById('usr_readiness_probe')),
        probe(() => deps.blobs.get('0000000000000000000000.png')),
        queue ? probe(() => queue.ping()) : undefined,
      ]);
      // The subject detector is this process's own: a failed one leaves cards centred, not refused.
      const subjects = deps.renderer.health().subjects;
      return {
        ready: records === 'ok' || records === SLOW,
        degraded:
          [records, files, queued].some((c) => c !== undefined && c !== 'ok') || subjects !== undefined,
        checks: {
          records,
          files,
          ...(queued === undefined ? {} : { queue: queued }),
          ...(subjects === undefined ? {} : { subjects: `failed: ${subjects}` }),
        },
      };
    },
    async close() {
      clearInterval(chargeSweep);
      await Promise.all([runner.stop(), webhooks.stop()]);
      await Promise.all([deps.store.close(), deps.blobs.close()]);
    },
  };
}
