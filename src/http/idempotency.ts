/**
 * `Idempotency-Key` at the HTTP edge (IETF draft-ietf-httpapi-idempotency-key-header), written once
 * for every route that creates or charges. The rule (what a retry gets, how long a key lives, what
 * a mismatch is) is the domain's, {@link Idempotency}; this only reads the header.
 */
import type { Request } from 'express';
import { NotFoundError } from '../domain/kernel/errors.js';
import type { Attempt, Idempotency } from '../domain/kernel/idempotency.js';
import type { StoredResponse } from '../domain/kernel/ports.js';
import type { Principal } from '../domain/workspaces/roles.js';

/** What a route gives {@link idempotently}: how to fingerprint its request, and the work itself. */
export interface IdempotentRequest {
  /** The caller: keys are per person in a workspace ({@link idempotencyScope}). */
  caller: Pick<Principal, 'user' | 'workspace'>;
  /**
   * The request's fingerprint (`fingerprintOf` of its fields and bytes). Called only when an
   * `Idempotency-Key` was sent, before `work`; it may read the whole body.
   */
  fingerprint: () => Promise<string>;
  /**
   * Does what the request asks and answers what to send (only a 2xx answer is kept for retries).
   * `attempt` (with an `Idempotency-Key` only) is the same for a retry that takes over a request
   * whose process died (the domain's idempotency.ts).
   */
  work: (attempt?: Attempt) => Promise<StoredResponse>;
  /** What of the first answer is kept for retries (default all of it); see {@link replay}. */
  keep?: (response: StoredResponse) => StoredResponse;
  /** The answer to a retry, from what was kept (default: what was kept, as it is). */
  replay?: (kept: StoredResponse) => Promise<StoredResponse>;
}

/**
 * Whose keys a request's are: one person's in one workspace, so that two members' keys, or one
 * person's in two workspaces, never answer each other. A person in their personal workspace keeps
 * the scope of the account before workspaces (its id), so a retry across the upgrade still finds
 * its key.
 */
export function idempotencyScope({ user, workspace }: Pick<Principal, 'user' | 'workspace'>): string {
  return user.id === workspace.id ? user.id : `${workspace.id}/${user.id}`;
}

/**
 * Runs `work` once per ({@link idempotencyScope}, `Idempotency-Key`, fingerprint): without the header, it just runs
 * it; with it, a retry gets the first answer again and is not charged again. Throws ValidationError
 * (field `Idempotency-Key`) for a malformed key, IdempotencyMismatchError (422),
 * IdempotencyInFlightError (409), and whatever `work` throws.
 */
export async function idempotently(
  req: Request,
  idempotency: Idempotency,
  { caller, fingerprint, work, keep, replay }: IdempotentRequest,
): Promise<StoredResponse> {
  const key = req.headers['idempotency-key'];
  if (typeof key !== 'string') return work();
  const scope = idempotencyScope(caller);
  const { response, replayed } = await idempotency.run(scope, key, await fingerprint(), work, keep);
  return replayed && replay ? replay(response) : response;
}

/** The id of the thing a creation's answer made (`{success, data: {id}}`, or `{id}` as kept). */
function createdId(body: string): string {
  const parsed = JSON.parse(body) as { id?: string; data?: { id?: string } };
  return parsed.data?.id ?? parsed.id ?? '';
}

/**
 * `keep` and `replay` for a creation whose answer holds a secret shown once (an API token, a
 * webhook endpoint): only the id is kept, never the secret; a retry answers 200 with the thing as
 * `find` gives it now (without its secret), or NotFoundError with `gone(id)` when it is no more.
 */
export function secretShownOnce(
  find: (id: string) => Promise<unknown>,
  gone: (id: string) => string,
): Pick<IdempotentRequest, 'keep' | 'replay'> {
  return {
    keep: (first) => ({ ...first, body: JSON.stringify({ id: createdId(first.body) }) }),
    replay: async (kept) => {
      const id = createdId(kept.body);
      const thing = await find(id);
      if (!thing) throw new NotFoundError(gone(id));
      return { status: 200, body: JSON.stringify({ success: true, data: thing }), headers: {} };
    },
  };
}
