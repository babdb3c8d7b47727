/**
 * Storage ports: the small interfaces the domain needs from its adapters. The embedded default
 * implements them with SQLite and local disk (`src/adapters/storage`); other adapters (MongoDB, S3) plug in
 * behind the same interfaces and must pass the same contract test suites (`test/storage/contract`).
 * All methods are async so that networked adapters fit.
 */
import type { Readable } from 'node:stream';
import type {
  AccountLink,
  AccountLinkPurpose,
  Asset,
  AssetKind,
  Batch,
  BatchItem,
  BatchItemStatus,
  Preset,
  TemplateRecord,
  RenderEntry,
  SigningKey,
  ImagePageQuery,
  ImageRecord,
  OAuthEntry,
  Session,
  Site,
  CrawlerFetch,
  SiteBudget,
  SitePage,
  WebhookDelivery,
  WebhookEndpoint,
} from './records.js';
import type {
  AuditRepository,
  BillingRepository,
  InvitationRepository,
  TokenRepository,
  UserRepository,
  WorkspaceRepository,
} from './account-ports.js';

export type {
  AuditRepository,
  BillingRepository,
  InvitationRepository,
  TokenRepository,
  UserRepository,
  WorkspaceRepository,
} from './account-ports.js';

export interface ImageRepository {
  insert(image: ImageRecord): Promise<void>;
  /** One page of a user's images and the total count. Ties are broken by id, so pages never overlap. */
  list(userId: string, query: ImagePageQuery): Promise<{ items: ImageRecord[]; total: number }>;
  /** Every blob key some record points to (image and thumbnail), for the orphan sweep. */
  allBlobKeys(): AsyncIterable<string>;
  /** The user's image `id`; undefined when there is none (unknown, or another user's). */
  findById(userId: string, id: string): Promise<ImageRecord | undefined>;
  /** Deletes the user's image `id` and returns it; undefined when there was none. */
  delete(userId: string, id: string): Promise<ImageRecord | undefined>;
  /** Deletes every image record of the user and returns them (their files are the caller's to delete). */
  deleteAllForUser(userId: string): Promise<ImageRecord[]>;
  /** The user's images created in [from, to), counted per UTC day: `{'2026-11-03': 4, …}` (days with none are absent). */
  countByDay(userId: string, from: Date, to: Date): Promise<Record<string, number>>;
}

export interface SessionRepository {
  create(session: Session): Promise<void>;
  /** The session with this hash, whatever its expiry (the domain judges expiry). */
  find(idHash: string): Promise<Session | undefined>;
  /** Records a request at `at` (the idle expiry counts from the last one). */
  touch(idHash: string, at: Date): Promise<void>;
  delete(idHash: string): Promise<void>;
  /** Deletes every session of the user, except `keepIdHash` when given ("sign out everywhere else"). */
  deleteAllForUser(userId: string, keepIdHash?: string): Promise<void>;
}

export interface AccountLinkRepository {
  create(link: AccountLink): Promise<void>;
  /**
   * Uses up the link atomically: returns it and deletes it when it exists with this purpose and has
   * not expired at `at`; undefined otherwise. Two concurrent uses of one link: exactly one succeeds.
   */
  consume(idHash: string, purpose: AccountLinkPurpose, at: Date): Promise<AccountLink | undefined>;
  /** Deletes the user's links of `purpose`, or all of them (a new link replaces older ones; account deletion). */
  deleteAllForUser(userId: string, purpose?: AccountLinkPurpose): Promise<void>;
}

/**
 * Counters per subject and period: an account's generations per month (`userId`, `YYYY-MM`), and a
 * site's new cards (`site:<id>`, per `YYYY-MM` and per hour `YYYY-MM-DDTHH`; sites/budget.ts).
 */
export interface UsageRepository {
  /** Generations charged to `userId` in `month` (`YYYY-MM`, UTC). */
  get(userId: string, month: string): Promise<number>;
  /**
   * Atomically charges one generation if fewer than `limit` are charged in `month`. Returns a
   * receipt for {@link refund} when charged, undefined when the quota is used up. Must be exact
   * under concurrency, across processes sharing the store.
   */
  tryCharge(userId: string, month: string, limit: number): Promise<string | undefined>;
  /**
   * As {@link tryCharge}, once per `key` in `month`: when a charge with this key exists, answers its
   * receipt and charges nothing (a batch item retried after a crash is charged once). The key is
   * stored with the charge in one atomic step.
   */
  tryChargeOnce(userId: string, month: string, limit: number, key: string): Promise<string | undefined>;
  /**
   * Up to `limit` charges made once per a key that starts with `prefix`, charged at `from` or later
   * and before `to` and not settled (the charge sweep: an image's charge whose image was never
   * made, its process having died), oldest first.
   */
  keyedBetween(
    prefix: string,
    from: Date,
    to: Date,
    limit: number,
  ): Promise<{ userId: string; month: string; key: string; receipt: string }[]>;
  /**
   * Gives back the generation charged with `receipt` in `month` (never below zero; a second refund
   * is a no-op where the store can tell). With `key` (a charge made once per key), only while
   * `receipt` is still that key's: a receipt whose unit was refunded and charged again for another
   * generation is not refunded twice.
   */
  refund(userId: string, month: string, receipt: string, key?: string): Promise<void>;
  /**
   * Marks the charge of `key` as made good (its image was recorded): the charge sweep
   * ({@link keyedBetween}) no longer lists it, so an image deleted later is not refunded.
   */
  settle(key: string): Promise<void>;
}

/** A response kept for an Idempotency-Key: what to answer a retry with. */
export interface StoredResponse {
  status: number;
  /** The JSON body, serialised. */
  body: string;
  headers: Record<string, string>;
}

/** What {@link IdempotencyRepository.begin} found. */
export type IdempotencyStart =
  /** Free, or taken over from a holder whose lease ran out: `startedAt` is the first request's. */
  | { state: 'started'; startedAt: Date }
  | { state: 'in-flight' }
  | { state: 'mismatch' }
  | { state: 'done'; response: StoredResponse };

export interface IdempotencyRepository {
  /**
   * Claims `key` for `userId` atomically (across processes): `started` when it was free, its
   * record expired at `at`, or its request is under way with a lease that ran out before `at` (its
   * holder died; taken over with the first `startedAt`). The caller then runs the request, renews
   * the lease until `leaseUntil` while it does, and calls complete or abandon;
   * otherwise what is there: `mismatch` for another fingerprint, `in-flight`, or the stored answer.
   */
  begin(
    userId: string,
    key: string,
    fingerprint: string,
    at: Date,
    expiresAt: Date,
    leaseUntil: Date,
  ): Promise<IdempotencyStart>;
  /** Extends the lease of a key still under way (its holder lives). */
  renew(userId: string, key: string, leaseUntil: Date): Promise<void>;
  /** Stores the answer of a started key. */
  complete(userId: string, key: string, response: StoredResponse): Promise<void>;
  /**
   * Frees a started key (the request failed in a way a retry may fix): its lease ends now. A retry
   * of the same request takes it over with the first start (the same image id: a generation that
   * failed here but was made by a worker after all is answered, not made twice); another request
   * with the key starts anew.
   */
  abandon(userId: string, key: string): Promise<void>;
}

/**
 * The state of the MCP connector's authorization server (oidc-provider's models, through its
 * adapter, src/domain/oauth/state.ts), and what the domain asks of it (src/domain/oauth/oauth.ts):
 * a person's grants, their last use, and ending them. Entries are keyed by model and the SHA-256 of
 * their id; an expired entry is never answered.
 */
export interface OAuthRepository {
  /** Inserts or replaces the entry `(model, key)`. */
  upsert(model: string, entry: Omit<OAuthEntry, 'consumedAt' | 'lastUsedAt'>): Promise<void>;
  /** The live entry `(model, key)`; undefined when there is none or it expired at `now`. */
  find(model: string, key: string, now: Date): Promise<OAuthEntry | undefined>;
  /** The live entry of `model` whose `uid` is `uid`. */
  findByUid(model: string, uid: string, now: Date): Promise<OAuthEntry | undefined>;
  /**
   * Marks the entry used at `at` (kept until it expires, so that a second use is seen): true for
   * the one call that did (atomic: of two concurrent uses exactly one gets true).
   */
  consume(model: string, key: string, at: Date): Promise<boolean>;
  destroy(model: string, key: string): Promise<void>;
  /** Deletes every entry of every model that belongs to the grant `grantId`, the Grant included. */
  revokeByGrantId(grantId: string): Promise<void>;
  /** The live Grants of `accountId`, newest first. */
  grantsOf(accountId: string, now: Date): Promise<OAuthEntry[]>;
  /** Records a use of the Grant `key` at `at`; never moves `lastUsedAt` back. */
  touchGrant(key: string, at: Date): Promise<void>;
  /**
   * Ends the grants of `accountId` (only those of `clientId` when given) with every code and token
   * issued under them; without `clientId`, also its sign-in sessions at the authorization server.
   * Answers how many grants ended.
   */
  endGrants(accountId: string, clientId?: string): Promise<number>;
}

/** Uploads kept for reuse: background photos, logos and fonts (`POST /assets`, `POST /fonts`). */
export interface AssetRepository {
  create(asset: Asset): Promise<void>;
  /** The user's asset `id`; undefined when there is none (unknown, or another user's). */
  find(userId: string, id: string): Promise<Asset | undefined>;
  /** The user's assets of these kinds, newest first. */
  list(userId: string, kinds: readonly AssetKind[]): Promise<Asset[]>;
  /** Deletes and returns the user's asset `id`; undefined when there was none. */
  delete(userId: string, id: string): Promise<Asset | undefined>;
  /** Deletes every asset record of the user and returns them (their files are the caller's to delete). */
  deleteAllForUser(userId: string): Promise<Asset[]>;
}

export interface PresetRepository {
  create(preset: Preset): Promise<void>;
  find(userId: string, id: string): Promise<Preset | undefined>;
  /** The user's presets, newest first. */
  list(userId: string): Promise<Preset[]>;
  /**
   * Replaces the editable fields of the user's preset and adds one to its version, atomically;
   * answers the preset as stored, or undefined when there is none.
   */
  update(
    userId: string,
    id: string,
    changes: Pick<Preset, 'name' | 'options' | 'backgroundAssetId' | 'logo' | 'fontId' | 'updatedAt'>,
  ): Promise<Preset | undefined>;
  delete(userId: string, id: string): Promise<boolean>;
  /** How many of the user's presets use the asset, font or template `id` (background, logo, font or template). */
  countUsing(userId: string, id: string): Promise<number>;
  deleteAllForUser(userId: string): Promise<void>;
}

export interface TemplateRepository {
  create(template: TemplateRecord): Promise<void>;
  /** The user's template `id`; undefined when there is none (unknown, or another user's). */
  find(userId: string, id: string): Promise<TemplateRecord | undefined>;
  /** The user's templates, newest first. */
  list(userId: string): Promise<TemplateRecord[]>;
  /** How many templates the user has. */
  count(userId: string): Promise<number>;
  /**
   * Replaces the user's template's name and document and adds one to its version, atomically;
   * answers the template as stored, or undefined when there is none.
   */
  update(
    userId: string,
    id: string,
    changes: Pick<TemplateRecord, 'name' | 'document' | 'updatedAt'>,
  ): Promise<TemplateRecord | undefined>;
  delete(userId: string, id: string): Promise<boolean>;
  /** How many of the user's templates use the asset or font `id` (an image layer's source, a text layer's font). */
  countUsing(userId: string, id: string): Promise<number>;
  deleteAllForUser(userId: string): Promise<void>;
}

export interface SigningKeyRepository {
  create(key: SigningKey): Promise<void>;
  /** The key `id` of any user, revoked or not (a render link names only its key). */
  find(id: string): Promise<SigningKey | undefined>;
  /** The user's active keys, newest first. */
  listActive(userId: string): Promise<SigningKey[]>;
  /** Revokes the user's active key `id`; false when there is none. */
  revoke(userId: string, id: string, at: Date): Promise<boolean>;
  deleteAllForUser(userId: string): Promise<void>;
}

/** What {@link RenderRepository.claim} found. */
export type RenderClaim =
  { state: 'claimed' } | { state: 'rendering' } | { state: 'done'; entry: RenderEntry };

/** Rendered render links by content hash, with the claim that makes concurrent first fetches render once. */
export interface RenderRepository {
  find(hash: string): Promise<RenderEntry | undefined>;
  /**
   * Claims the render of `hash` atomically across processes: `claimed` when there was no entry, or
   * only a claim older than `staleBefore` (its renderer died); else what is there.
   */
  claim(hash: string, userId: string, at: Date, staleBefore: Date): Promise<RenderClaim>;
  /** Marks a claimed render done with its file. */
  complete(hash: string, blobKey: string, contentType: string): Promise<void>;
  /** Drops a claim whose render failed (so that another fetch may try again). */
  release(hash: string): Promise<void>;
  /**
   * Remembers `hash` (a done render) as the newest of the link `link` (a render link's identity, the
   * SHA-256 of its canonical string): what the link answers while its owner's quota is used up.
   */
  setLatest(link: string, userId: string, hash: string): Promise<void>;
  /** The newest render remembered for `link`, if any. */
  latest(link: string): Promise<string | undefined>;
  /** Deletes the user's entries and returns them (account deletion; the files are the caller's). */
  deleteAllForUser(userId: string): Promise<RenderEntry[]>;
}

/** Sites (src/domain/sites/sites.ts) and what was last seen of their pages. */
export interface SiteRepository {
  create(site: Site): Promise<void>;
  /** The site `id` of any user (a site link names only its site). */
  find(id: string): Promise<Site | undefined>;
  /** The user's sites, newest first. */
  list(userId: string): Promise<Site[]>;
  /** Marks the user's site verified at `at`; false when there is none. */
  setVerified(userId: string, id: string, at: Date): Promise<boolean>;
  /** Sets the user's site's budget of new cards; false when there is none. */
  setBudget(userId: string, id: string, budget: SiteBudget): Promise<boolean>;
  /** Deletes the user's site and its pages; false when there was none. */
  delete(userId: string, id: string): Promise<boolean>;
  /** Deletes the user's sites and their pages (account deletion). */
  deleteAllForUser(userId: string): Promise<void>;
  /** Inserts or replaces the page `(siteId, url)`. */
  savePage(page: SitePage): Promise<void>;
  findPage(siteId: string, url: string): Promise<SitePage | undefined>;
  /** The site's most recently checked pages, newest first, at most `limit`. */
  listPages(siteId: string, limit: number): Promise<SitePage[]>;
  /**
   * The version of page `url`'s card `hash`: its number when seen before, else with `at` the next
   * one (1 for the first; atomic across processes), recorded at `at`; without `at`, undefined.
   */
  cardVersion(siteId: string, url: string, hash: string, at?: Date): Promise<number | undefined>;
  /** Records a crawler's fetch, replacing the platform's last of the page unless it is the same card within 10 min. */
  recordFetch(fetch: CrawlerFetch): Promise<void>;
  /** The site's crawler fetches (the last per page and platform), newest first, at most `limit`. */
  listFetches(siteId: string, limit: number): Promise<CrawlerFetch[]>;
}

/** Batches and their items (src/domain/batches), with the claim by which a runner takes an item. */
export interface BatchRepository {
  /** Stores the batch and all its items, in one step where the store allows. */
  create(batch: Batch, items: BatchItem[]): Promise<void>;
  /** The user's batch `id`; undefined when there is none. */
  find(userId: string, id: string): Promise<Batch | undefined>;
  /** The user's batches, newest first, at most `limit`. */
  list(userId: string, limit: number): Promise<Batch[]>;
  /** A batch's items by index. */
  items(batchId: string): Promise<BatchItem[]>;
  /** How many of a batch's items are in each status. */
  counts(batchId: string): Promise<Record<BatchItemStatus, number>>;
  /**
   * Claims the oldest item that is queued, or running under a claim older than `staleBefore` (its
   * runner died), of an account not in `busy` (account ids), setting it running at `at`: atomic, so
   * two runners rarely take one item (and an item taken twice is still charged and recorded once).
   */
  claimNext(at: Date, staleBefore: Date, busy: readonly string[]): Promise<BatchItem | undefined>;
  /**
   * Claims one item (a queue delivered it): sets it running at `at` when it is queued or running
   * (a retry after its worker died); undefined when it is finished, cancelled or unknown.
   */
  claimItem(batchId: string, index: number, at: Date): Promise<BatchItem | undefined>;
  /**
   * Items still queued in batches made before `before`, oldest first, at most `limit`: what a queue
   * may have missed (QUEUE=redis, Redis away when the batch was made).
   */
  queuedBefore(before: Date, limit: number): Promise<{ batchId: string; index: number }[]>;
  /**
   * Up to `limit` running items whose claim is older than `claimedBefore`: their job may have run
   * out of retries (QUEUE=redis, a store away longer than the backoff), so they are queued again.
   */
  stalledBefore(claimedBefore: Date, limit: number): Promise<{ batchId: string; index: number }[]>;
  /** Renews the claims of these running items at `at` (a runner's heartbeat). */
  renew(items: { batchId: string; index: number }[], at: Date): Promise<void>;
  /** Records how a running item ended. */
  finishItem(
    batchId: string,
    index: number,
    result:
      | { status: 'done'; imageId: string; warnings?: string[] }
      | { status: 'failed'; error: NonNullable<BatchItem['error']> },
  ): Promise<void>;
  /** Cancels the user's batch: its queued items become cancelled; answers how many. */
  cancel(userId: string, id: string, at: Date): Promise<number>;
  /**
   * Marks the batch completed at `at` when none of its items is queued or running: true for the
   * one call that did (the `batch.completed` event is sent once).
   */
  complete(batchId: string, at: Date): Promise<boolean>;
  /** Deletes the user's batch `id` and its items if the batch is completed; true when it did. */
  removeFinished(userId: string, id: string): Promise<boolean>;
  deleteAllForUser(userId: string): Promise<void>;
}

/** Webhook endpoints and their deliveries (src/domain/webhooks). */
export interface WebhookRepository {
  createEndpoint(endpoint: WebhookEndpoint): Promise<void>;
  /** The user's endpoints, newest first. */
  listEndpoints(userId: string): Promise<WebhookEndpoint[]>;
  /** Deletes the user's endpoint and its deliveries; false when there was none. */
  deleteEndpoint(userId: string, id: string): Promise<boolean>;
  /** Stores deliveries to send (one per receiver of an event). */
  enqueue(deliveries: WebhookDelivery[]): Promise<void>;
  /**
   * Takes the oldest pending delivery due at `at` of an account not in `busy` (account ids),
   * atomically pushing its `nextAttemptAt` to `leaseUntil` (so no other runner takes it while it is
   * sent); undefined when none is due.
   */
  claimDue(at: Date, leaseUntil: Date, busy: readonly string[]): Promise<WebhookDelivery | undefined>;
  /** Records an attempt's outcome: the new status, attempts, next due time, last status and error. */
  recordAttempt(
    id: string,
    outcome: Pick<
      WebhookDelivery,
      'status' | 'attempts' | 'nextAttemptAt' | 'lastStatus' | 'lastError' | 'deliveredAt'
    >,
  ): Promise<void>;
  /** The user's newest deliveries (of one endpoint when given), at most `limit`. */
  listDeliveries(userId: string, limit: number, endpointId?: string): Promise<WebhookDelivery[]>;
  deleteAllForUser(userId: string): Promise<void>;
}

/** The record stores, opened and closed together. */
export interface RecordStore {
  users: UserRepository;
  tokens: TokenRepository;
  workspaces: WorkspaceRepository;
  invitations: InvitationRepository;
  audit: AuditRepository;
  billing: BillingRepository;
  images: ImageRepository;
  usage: UsageRepository;
  sessions: SessionRepository;
  links: AccountLinkRepository;
  idempotency: IdempotencyRepository;
  oauth: OAuthRepository;
  assets: AssetRepository;
  presets: PresetRepository;
  templates: TemplateRepository;
  signingKeys: SigningKeyRepository;
  renders: RenderRepository;
  sites: SiteRepository;
  batches: BatchRepository;
  webhooks: WebhookRepository;
  close(): Promise<void>;
}

/** Bytes `start` to `end` of a file, both inclusive (as in an HTTP Range, RFC 9110 section 14.1.2). */
export interface ByteRange {
  start: number;
  end: number;
}

/** A stored file's bytes and Content-Type. */
export interface Blob {
  body: Buffer;
  contentType: string;
}

/** Where image files live. Keys are flat names such as `Ab3…_thumb.png` (no slashes). */
export interface BlobStore {
  /** Writes the whole file or nothing (a reader never sees a partial file). */
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<Blob | undefined>;
  /** A file's size in bytes and Content-Type, without reading it; undefined when missing. */
  stat(key: string): Promise<{ size: number; contentType: string } | undefined>;
  /**
   * The file's bytes as a stream, all of them or `range` (byte offsets, both inclusive, within the
   * size); undefined when missing. Nothing is held in memory beyond the stream's buffer.
   */
  open(key: string, range?: ByteRange): Promise<Readable | undefined>;
  /** Deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Every file in the store, with when it was last written (for the orphan sweep's grace period). */
  list(): AsyncIterable<{ key: string; modifiedAt: Date }>;
  /** Public URL of a key when the store serves files itself (a public bucket or CDN), else undefined. */
  publicUrl(key: string): string | undefined;
  /**
   * The path on this computer of a stored key when the store keeps its files on local disk, else
   * undefined (the file need not exist: `stat` says whether it does).
   */
  localPath(key: string): string | undefined;
  close(): Promise<void>;
}

/**
 * Fetches an image by URL, refusing private and local addresses (src/adapters/safe-fetch.ts). Throws
 * ValidationError on `imageUrl`, FileTooLargeError.
 */
export type ImageFetcher = (url: string) => Promise<Buffer>;

/**
 * Fetches a web page by URL, with the same refusals (src/adapters/safe-fetch.ts): its bytes, Content-Type and
 * URL after redirects. Throws ValidationError on `url` with the reason (a refused address, a status
 * other than 2xx, no answer in time, larger than 1 MiB).
 */
export type PageFetcher = (url: string) => Promise<{ body: Buffer; contentType: string; url: string }>;

/**
 * Fetches a page, its robots.txt or an image for the link-preview check (safe-fetch.ts): any HTTP
 * status is an answer, with the fetch's time, ms. Throws ValidationError on `url` when there is
 * none (a refused address, no answer in time, too many bytes).
 */
export type ProbeFetcher = (
  url: string,
  kind: 'page' | 'robots' | 'image',
) => Promise<{ status: number; body: Buffer; contentType: string; url: string; ms: number }>;

/**
 * POSTs a webhook delivery with the same address refusals as the fetchers (src/adapters/safe-fetch.ts),
 * within 10 s, following no redirect. Answers the receiver's HTTP status; throws ValidationError
 * on `url` when there is none (refused address, no answer in time, connection refused).
 */
export type WebhookPoster = (url: string, body: string, headers: Record<string, string>) => Promise<number>;

/**
 * Where batch items wait when the record store is not their queue: BullMQ on Redis (src/adapters/queue.ts,
 * `QUEUE=redis`), consumed by `titlecard worker` processes.
 */
export interface ItemQueue {
  /**
   * Enqueues items; an item already enqueued is not added twice (its job id is `batchId-index`).
   * With `again` (items whose claim went stale, src/worker.ts): a job that failed for good or
   * finished is queued anew; a waiting or running one is left alone. ServiceUnavailableError while
   * the queue cannot be reached.
   */
  add(items: { batchId: string; index: number }[], options?: { again?: boolean }): Promise<void>;
  /** Answers when the queue answers; throws otherwise (`GET /readyz`). */
  ping(): Promise<void>;
}

/** A generation handed to a worker (`GENERATE_ON_WORKERS`): what it renders, and where its record goes. */
export interface QueuedGeneration {
  userId: string;
  /** The request's options, as `/generate` read them (preset, asset or imageUrl included). */
  options: Record<string, unknown>;
  /** The uploaded background, put in the blob store for the worker (`<stem>_upload.bin`); deleted after. */
  uploadKey: string | null;
  /** The edge's name for the upload's field (for refusals). */
  imageField: string;
  /**
   * The id the image record gets; for a link's card (`card`), `card-<its content hash>`. Also the
   * job's id, so a job queued twice runs once.
   */
  imageId: string;
  /**
   * Set for a render link's or a site link's card (render-links/render-cache.ts): its content hash
   * and whether it is a stand-in. The worker stores the card under the hash instead of an image
   * record; `options` are the card's, `uploadKey` null.
   */
  card?: { hash: string; standIn: boolean } | undefined;
}

/** What a worker answers for a {@link QueuedGeneration}: the render report, or the domain error it threw. */
export type QueuedGenerationResult =
  | { ok: true; report: unknown }
  | { ok: false; error: { code: string; message: string; field: string | null; constraint: string | null } };

/**
 * Runs a generation's render on a worker (BullMQ, src/adapters/queue.ts) and waits for it: its result, or
 * `{ ok: true, report: null }` as soon as `written()` (the record exists) says it was made. Rejects
 * with ServiceBusyError when no worker took it in time (the job withdrawn: none will make it), and
 * ServiceUnavailableError when the queue cannot be reached or the job failed for good.
 */
export interface GenerationQueue {
  run(job: QueuedGeneration, written: () => Promise<boolean>): Promise<QueuedGenerationResult>;
}

/** The time source, injectable so tests can cross a month boundary. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/**
 * Counts failures per key over a window (failed sign-ins per account and per address, previews per
 * account). Implemented with rate-limiter-flexible (`src/adapters/storage/throttle.ts`).
 */
export interface Throttle {
  /** Seconds `key` must still wait before trying again; 0 when it may try now. */
  blockedFor(key: string): Promise<number>;
  /** Counts one attempt against `key`; returns the seconds it must now wait (0 while under the limit). */
  hit(key: string): Promise<number>;
  /**
   * Counts one attempt against `key` in one step (no check before it that parallel attempts could
   * all pass): true when it was within the limit (the last allowed one included), false past it.
   */
  take(key: string): Promise<boolean>;
  /** Forgets `key` (a successful sign-in clears its account's failures). */
  reset(key: string): Promise<void>;
}

/** An email to one person, plain text. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends email: SMTP through nodemailer when `SMTP_URL` is set, else printed in the terminal (`src/adapters/mail.ts`). */
export interface Mailer {
  /** Throws when the message could not be handed over. */
  send(message: MailMessage): Promise<void>;
}
