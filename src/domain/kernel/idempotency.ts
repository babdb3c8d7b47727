/**
 * Idempotency-Key for the requests that create or charge (`POST /generate`, `POST /tokens`), after
 * the IETF draft "The Idempotency-Key HTTP Header Field" (draft-ietf-httpapi-idempotency-key-header):
 * a retry with the same key and the same request within {@link IDEMPOTENCY_TTL_MS} gets the first
 * answer again, and is not charged again; the same key with another request is a 422; a retry while
 * the first is still under way is a 409. Keys are per account. Only successful answers are kept: a
 * request that failed may be retried with its key (a timeout must not mean paying twice, and an
 * error must not stick).
 *
 * A request under way holds its key by a lease of {@link IDEMPOTENCY_LEASE_MS}, renewed while it
 * runs (ours, issue 44): when its process dies, a retry after the lease takes the key over and runs
 * the request again with the first one's {@link Attempt.id}, from which a generation derives its
 * image id, so the retry answers the image the first request made (not charged twice) or makes it.
 */
import { createHash } from 'node:crypto';
import { TitlecardError, ValidationError } from './errors.js';
import type { Clock, RecordStore, StoredResponse } from './ports.js';

/** How long an answer is kept for retries: 24 hours. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
/** How long a request under way holds its key without renewing it, ms (renewed every third of it). */
export const IDEMPOTENCY_LEASE_MS = 15_000;

/** What `work` knows of its key: `id` is the same for a request and every take-over of it. */
export interface Attempt {
  /** SHA-256 (hex) of the account, the key and the first request's start. */
  id: string;
}
/** A key: 1 to 255 visible ASCII characters (a UUID is the usual choice). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** The key was used for another request (422). */
export class IdempotencyMismatchError extends TitlecardError {
  constructor() {
    super(
      'IDEMPOTENCY_MISMATCH',
      'This Idempotency-Key was used for another request: use a new key for a new request',
    );
  }
}

/** The first request with this key is still under way (409). */
export class IdempotencyInFlightError extends TitlecardError {
  constructor() {
    super(
      'IDEMPOTENCY_IN_FLIGHT',
      'A request with this Idempotency-Key is still under way: retry when it has been answered',
    );
  }
}

/** SHA-256 of the parts of a request, in order (the fingerprint compared on a retry). */
export function fingerprintOf(...parts: (string | Buffer)[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\0');
  return hash.digest('hex');
}

export interface Idempotency {
  /**
   * Runs `work` once for (`userId`, `key`, `fingerprint`); a retry gets its stored answer
   * (`replayed`). `work` answers what to send; only a 2xx answer is kept, and a throw frees the key.
   * A retry after the holder's lease ran out runs `work` again with the same {@link Attempt}.
   * `keep` (default: the answer itself) says what of the answer is stored for retries: an answer that
   * carries a secret keeps it out of the store. Throws ValidationError (field `Idempotency-Key`) for a
   * malformed key, IdempotencyMismatchError, IdempotencyInFlightError, and whatever `work` throws.
   */
  run(
    userId: string,
    key: string,
    fingerprint: string,
    work: (attempt: Attempt) => Promise<StoredResponse>,
    keep?: (response: StoredResponse) => StoredResponse,
  ): Promise<{ response: StoredResponse; replayed: boolean }>;
}

export function createIdempotency(store: RecordStore, clock: Clock): Idempotency {
  return {
    async run(userId, key, fingerprint, work, keep = (response) => response) {
      if (!IDEMPOTENCY_KEY_PATTERN.test(key))
        throw new ValidationError(
          'Idempotency-Key',
          'format',
          'Expected 1 to 255 visible ASCII characters for Idempotency-Key',
        );
      const now = clock.now();
      const leaseFrom = (at: Date) => new Date(at.getTime() + IDEMPOTENCY_LEASE_MS);
      const found = await store.idempotency.begin(
        userId,
        key,
        fingerprint,
        now,
        new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
        leaseFrom(now),
      );
      if (found.state === 'mismatch') throw new IdempotencyMismatchError();
      if (found.state === 'in-flight') throw new IdempotencyInFlightError();
      if (found.state === 'done') return { response: found.response, replayed: true };
      const renewal = setInterval(() => {
        store.idempotency.renew(userId, key, leaseFrom(clock.now())).catch(() => undefined);
      }, IDEMPOTENCY_LEASE_MS / 3);
      renewal.unref();
      let response: StoredResponse;
      try {
        response = await work({ id: fingerprintOf(userId, key, found.startedAt.toISOString()) });
      } catch (err) {
        await store.idempotency.abandon(userId, key);
        throw err;
      } finally {
        clearInterval(renewal);
      }
      if (response.status >= 200 && response.status < 300)
        await store.idempotency.complete(userId, key, keep(response));
      else await store.idempotency.abandon(userId, key);
      return { response, replayed: false };
    },
  };
}
