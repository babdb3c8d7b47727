/**
 * The authorization server's storage, in the shape of oidc-provider's `Adapter` (upsert, find,
 * findByUid, consume, destroy, revokeByGrantId; src/web/oauth/ hands it to the library), on the
 * record store's OAuthRepository, so that the authorization
 * server's state is shared by every process as the rest of Titlecard's is (SQLite in DATA_DIR, or
 * MongoDB), and "Disconnect" or a revocation holds at once in all of them.
 *
 * - Entries are keyed by the SHA-256 of their id: a code's or token's id is the bearer secret
 *   itself, so only its hash is stored, and its payload is stored without its `jti` (added back
 *   from the id asked for). A Session keeps its `jti`, as the library looks sessions up by `uid`.
 * - A consumed code or refresh token is kept, marked, until it expires: the library sees a second
 *   use and revokes the grant (OAuth 2.1 section 4.3.1, refresh token replay).
 */
import { hashToken } from '../kernel/ids.js';
import type { Clock, OAuthRepository } from '../kernel/ports.js';

/** A model's payload as the library hands it over and reads it back; its shape is the library's. */
export type OAuthPayload = Record<string, unknown>;

/** The storage of one model of the library (`Session`, `Grant`, `AccessToken`, …). */
export interface OAuthModelState {
  /** Stores `payload` under `id`, expiring `expiresIn` seconds from now (none: never). */
  upsert(id: string, payload: OAuthPayload, expiresIn?: number): Promise<void>;
  find(id: string): Promise<OAuthPayload | undefined>;
  findByUid(uid: string): Promise<OAuthPayload | undefined>;
  findByUserCode(userCode: string): Promise<OAuthPayload | undefined>;
  /** Marks the entry used; false when it was already (a concurrent second use). */
  consume(id: string): Promise<boolean>;
  destroy(id: string): Promise<void>;
  revokeByGrantId(grantId: string): Promise<void>;
}

/** The models whose payload keeps its `jti` (see the module comment). */
const KEEPS_ID = new Set(['Session']);
/** Marks a payload stored without its `jti`. */
const ID_REMOVED = 'titlecardIdRemoved';

const text = (v: unknown) => (typeof v === 'string' ? v : null);

/** The storage of each model, by name (oidc-provider's `adapter` option: one adapter per model). */
export function oauthState(store: OAuthRepository, clock: Clock): (model: string) => OAuthModelState {
  return (model) => {
    const keyOf = (id: string) => hashToken(id);
    const payloadOf = (id: string, stored: OAuthPayload, consumedAt: Date | null): OAuthPayload => {
      const { [ID_REMOVED]: removed, ...rest } = stored;
      return {
        ...rest,
        ...(removed ? { jti: id } : {}),
        ...(consumedAt ? { consumed: Math.floor(consumedAt.getTime() / 1000) } : {}),
      };
    };
    return {
      async upsert(id, payload, expiresIn) {
        const { jti, ...rest } = payload;
        const stored =
          KEEPS_ID.has(model) || jti !== id
            ? { ...rest, ...(jti !== undefined ? { jti } : {}) }
            : { ...rest, [ID_REMOVED]: true };
        await store.upsert(model, {
          key: keyOf(id),
          payload: stored,
          grantId: model === 'Grant' ? id : text(payload.grantId),
          uid: text(payload.uid),
          accountId: text(payload.accountId),
          clientId: text(payload.clientId),
          expiresAt:
            expiresIn === undefined || expiresIn === null
              ? null
              : new Date(clock.now().getTime() + expiresIn * 1000),
        });
      },
      async find(id) {
        const entry = await store.find(model, keyOf(id), clock.now());
        return entry && payloadOf(id, entry.payload, entry.consumedAt);
      },
      async findByUid(uid) {
        const entry = await store.findByUid(model, uid, clock.now());
        const id = entry && text(entry.payload.jti);
        return entry && id ? payloadOf(id, entry.payload, entry.consumedAt) : undefined;
      },
      async findByUserCode() {
        // The device flow is off (src/web/oauth/): no user codes.
        return undefined;
      },
      async consume(id) {
        return store.consume(model, keyOf(id), clock.now());
      },
      async destroy(id) {
        await store.destroy(model, keyOf(id));
      },
      async revokeByGrantId(grantId) {
        await store.revokeByGrantId(grantId);
      },
    };
  };
}
