/**
 * The routes of a collection an account owns (presets, templates, sites, webhook endpoints), written
 * once: `POST /things` creates (201, our choice for a creation), `GET /things` lists under the
 * collection's plural name, and `GET`, `PUT` and `DELETE /things/:id` read, replace and delete, each
 * only where the domain service has the method. Every method takes the caller's principal first; its
 * errors (400 `VALIDATION_ERROR`, 404 `NOT_FOUND` for another account's id, 409 `CONFLICT`) reach the
 * error handler unchanged.
 */
import type { Handler, Request, Router } from 'express';
import type { Principal } from '../domain/accounts/accounts.js';
import { fingerprintOf, type Idempotency } from '../domain/kernel/idempotency.js';
import { principalOf } from '../http/auth.js';
import { idempotently, secretShownOnce } from '../http/idempotency.js';
import { ok, sendStored } from '../http/respond.js';

/** What a collection's domain service offers; `get` and `replace` are optional. */
export interface OwnedCollection {
  create(principal: Principal, body: unknown): Promise<unknown>;
  list(principal: Principal): Promise<unknown[]>;
  get?(principal: Principal, id: string): Promise<unknown>;
  replace?(principal: Principal, id: string, body: unknown): Promise<unknown>;
  delete(principal: Principal, id: string): Promise<void>;
}

export interface CollectionRoutes {
  /** The path and the list's key, e.g. `templates` for `/templates` and `{templates: […]}`. */
  plural: string;
  /** What the deletion's message calls one, e.g. `Template` in "Template tpl_… deleted". */
  noun: string;
  auth: Handler;
  /** The JSON body parser, with the collection's size limit. */
  body: Handler;
  /** The creation's answer holds a secret shown once: sent with `Cache-Control: no-store`. */
  secretOnCreate?: boolean;
  /**
   * Creations take an `Idempotency-Key` (src/http/idempotency.ts): a retry makes nothing new. With
   * `secretOnCreate`, the secret is not kept: a retry answers 200 with the thing as the list shows
   * it (without its secret), or 404 when it has since been deleted.
   */
  idempotency?: Idempotency;
}

/** Adds the collection's routes to `router`; other routes of the resource go beside them. */
export function collectionRoutes(router: Router, service: OwnedCollection, options: CollectionRoutes): void {
  const { plural, noun, auth, body } = options;
  const path = `/${plural}`;
  const idOf = (req: Request) => req.params.id as string;
  router.post(path, auth, body, async (req, res) => {
    if (options.secretOnCreate) res.set('Cache-Control', 'no-store');
    const principal = principalOf(res);
    const create = async () => ({
      status: 201,
      body: JSON.stringify({ success: true, data: await service.create(principal, req.body) }),
      headers: {},
    });
    if (!options.idempotency) {
      sendStored(res, await create());
      return;
    }
    sendStored(
      res,
      await idempotently(req, options.idempotency, {
        caller: principal,
        fingerprint: async () => fingerprintOf(JSON.stringify(req.body ?? null)),
        work: create,
        ...(options.secretOnCreate
          ? secretShownOnce(
              async (id) => (await service.list(principal)).find((t) => (t as { id?: string }).id === id),
              (id) =>
                `The ${noun.toLowerCase()} this Idempotency-Key created (${id}) has been deleted; create another with a new key`,
            )
          : {}),
      }),
    );
  });
  router.get(path, auth, async (_req, res) => {
    ok(res, { [plural]: await service.list(principalOf(res)) });
  });
  if (service.get)
    router.get(`${path}/:id`, auth, async (req, res) => {
      ok(res, await service.get?.(principalOf(res), idOf(req)));
    });
  if (service.replace)
    router.put(`${path}/:id`, auth, body, async (req, res) => {
      ok(res, await service.replace?.(principalOf(res), idOf(req), req.body));
    });
  router.delete(`${path}/:id`, auth, async (req, res) => {
    await service.delete(principalOf(res), idOf(req));
    res.json({ success: true, message: `${noun} ${idOf(req)} deleted` });
  });
}
