/**
 * Helpers for describing routes in OpenAPI 3.1, shared by the resource routers (each describes its
 * own routes beside them) and by `openapi.ts`, which assembles the document. Schemas come from the
 * domain's zod schemas, converted to JSON Schema 2020-12 (the dialect of OpenAPI 3.1).
 */
import type express from 'express';
import { z } from 'zod';
import type { Services } from '../domain/services.js';

/** A JSON object of the OpenAPI document. */
export type Json = Record<string, unknown>;

/** A REST resource: its routes, and the OpenAPI path items that describe them. */
export interface Resource {
  /** Path items keyed by path relative to the document's server (`/api`), e.g. `/tokens/{id}`. */
  paths: Json;
  /** The resource's Express routes, built on the domain services. */
  router(services: Services): express.Router;
}

/** The JSON Schema of a zod schema, as it is read (`input`) or written (`output`). */
export function schemaOf(s: z.ZodType, io: 'input' | 'output' = 'output'): Json {
  const { $schema: _drop, ...rest } = z.toJSONSchema(s, { io, unrepresentable: 'any' }) as Json;
  return rest;
}

/**
 * The query parameters of a zod object schema (`listImagesQuerySchema`), each with the JSON Schema
 * of its field as it is read (defaults included) and the field's description: the OpenAPI document
 * states the domain's rules, never a copy of them. An empty value counts as not sent.
 */
export function queryParameters(s: z.ZodObject): Json[] {
  const properties = (schemaOf(s, 'input').properties ?? {}) as Record<string, Json>;
  return Object.entries(properties).map(([name, { description, ...schema }]) => ({
    name,
    in: 'query',
    allowEmptyValue: true,
    ...(description ? { description } : {}),
    schema,
  }));
}

/** A reference to `#/components/schemas/<name>`. */
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** A JSON media type object. */
export const json = (schema: Json) => ({ 'application/json': { schema } });

/** The success envelope of docs/api.md#responses around a component schema: `{success: true, data}`. */
export const envelope = (name: string) => ({
  type: 'object',
  required: ['success', 'data'],
  properties: { success: { const: true }, data: ref(name) },
});

/** The `{id}` path parameter of a resource. */
export const idParameter = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };

/** A success envelope whose `data` is `{<key>: [<component item>…]}` (a list answer). */
export const listEnvelope = (key: string, item: string) =>
  json({
    type: 'object',
    required: ['success', 'data'],
    properties: {
      success: { const: true },
      data: {
        type: 'object',
        required: [key],
        properties: { [key]: { type: 'array', items: ref(item) } },
      },
    },
  });

/** An answer with `message` in place of `data` (docs/api.md#endpoints shape, for deletions and revocations). */
export const messageResponse = (description: string) => ({
  description,
  content: json({
    type: 'object',
    required: ['success', 'message'],
    properties: { success: { const: true }, message: { type: 'string' } },
  }),
});

/** Responses several routes share (docs/api.md#errors). */
export const errorResponses = {
  400: { description: 'Invalid or missing parameter.', content: json(ref('ValidationErrorBody')) },
  401: {
    description: 'Missing header, or an invalid, expired or revoked token.',
    headers: { 'WWW-Authenticate': { schema: { type: 'string' } } },
    content: json(ref('AuthErrorBody')),
  },
  404: { description: 'No such resource.', content: json(ref('EndpointErrorBody')) },
  500: {
    description: 'Internal server error, with a request id in the message.',
    content: json(ref('EndpointErrorBody')),
  },
  503: {
    description:
      '(Ours.) BUSY: renders queued past RENDER_MAX_WAIT, or no render worker took the job in time; UNAVAILABLE: the record store, the file store or the queue does not answer. Nothing was charged or kept; try again after Retry-After.',
    headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait.' } },
    content: json(ref('EndpointErrorBody')),
  },
};

/**
 * 403 `FORBIDDEN` for a caller without the scope an operation needs, the message naming it
 * (docs/workspaces.md#scopes); `secured` adds it to every operation.
 */
export const forbiddenResponse = {
  description:
    "FORBIDDEN: the token lacks the scope this needs, or the member's role in the workspace does not allow it; the message names the scope (docs/workspaces.md#scopes).",
  content: json(ref('EndpointErrorBody')),
};

/** 403 `FORBIDDEN`: the account's email is not confirmed (src/domain/accounts/confirmation.ts), or a scope is missing. */
export const unconfirmedResponse = {
  description:
    "The account's email is not confirmed yet: it makes no lasting credentials until then (docs/security.md). Or FORBIDDEN for a missing scope, as for every operation (docs/workspaces.md#scopes).",
  content: json(ref('EndpointErrorBody')),
};

/** The `Idempotency-Key` request header and its answers, for operations that create or charge. */
export const idempotent = (op: Json) => ({
  ...op,
  parameters: [
    ...((op.parameters as unknown[] | undefined) ?? []),
    {
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Optional, 1 to 255 visible ASCII characters (a UUID). A retry with the same key and request within 24 h gets the first answer and is not charged again (IETF draft idempotency-key-header). Only successful answers are kept.',
      schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,255}$' },
    },
  ],
  responses: {
    ...(op.responses as Json),
    409: {
      description: 'A request with this Idempotency-Key is still under way.',
      content: json(ref('EndpointErrorBody')),
    },
    422: {
      description: 'This Idempotency-Key was used for another request.',
      content: json(ref('EndpointErrorBody')),
    },
  },
});

/**
 * The answers of a retried creation whose secret was shown once (src/http/idempotency.ts,
 * `secretShownOnce`): 200 with the thing as `listed` shows it, 404 once it is gone. `a` names one
 * ("a token"), `gone` what ended it ("revoked").
 */
export const secretShownOnceResponses = (a: string, listed: string, gone: string) => {
  const noun = a.replace(/^an? /, '');
  return {
    200: {
      description: `A retry with the Idempotency-Key of ${a} created before: that ${noun}, without its secret (shown only in the 201).`,
      content: json(envelope(listed)),
    },
    404: {
      description: `A retry whose Idempotency-Key created ${a} that has since been ${gone}.`,
      content: json(ref('EndpointErrorBody')),
    },
  };
};

/**
 * An operation that needs the bearer token (docs/api.md#authentication): adds the 401, 500 and 503
 * responses (an operation's own 503 stays).
 */
export const secured = (op: Json) => ({
  ...op,
  responses: {
    403: forbiddenResponse,
    503: errorResponses[503],
    ...(op.responses as Json),
    401: errorResponses[401],
    500: errorResponses[500],
  },
});

/** Which methods each path of `paths` allows (`Allow`, RFC 9110 section 10.2.1), by a request path. */
function allowedMethods(paths: Json, prefix: string): (path: string) => string | undefined {
  const routes = Object.entries(paths).map(([template, item]) => {
    const methods = Object.keys(item as Json)
      .filter((k) => ['get', 'put', 'post', 'delete', 'patch'].includes(k))
      .map((m) => m.toUpperCase());
    if (methods.includes('GET')) methods.push('HEAD');
    const pattern = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+');
    return { match: new RegExp(`^${prefix}${pattern}/?$`), allow: methods.join(', ') };
  });
  // The first template that matches wins: paths list fixed segments (/tokens/validate) before
  // parameters (/tokens/{id}), as the routers match them.
  return (path) => routes.find((r) => r.match.test(path))?.allow;
}

/**
 * For a request whose path is one of `paths`: OPTIONS answers 204 with the path's own `Allow`
 * (Express would list the methods of every route matching the URL, e.g. DELETE /tokens/{id} for
 * /tokens/validate), and a method none of its operations has answers 405 with `Allow` (RFC 9110
 * section 15.5.6). Mount `before` ahead of the routers that serve `paths`, and `after` behind them.
 */
export function methodRules(
  paths: Json,
  prefix = '',
): { before: express.RequestHandler; after: express.RequestHandler } {
  const allowOf = allowedMethods(paths, prefix);
  return {
    before(req, res, next) {
      const allow = req.method === 'OPTIONS' ? allowOf(req.path) : undefined;
      if (!allow) return next();
      res.status(204).set('Allow', allow).end();
    },
    after(req, res, next) {
      const allow = allowOf(req.path);
      if (!allow) return next();
      res
        .status(405)
        .set('Allow', allow)
        .json({
          success: false,
          error: {
            code: 'METHOD_NOT_ALLOWED',
            message: `${req.method} is not allowed on ${req.path}: use ${allow}`,
          },
        });
    },
  };
}
