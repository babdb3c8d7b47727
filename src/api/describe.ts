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

/** A reference to `#/components/schemas/<name>`. */
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** A JSON media type object. */
export const json = (schema: Json) => ({ 'application/json': { schema } });

/** The success envelope of spec 7.1 around a component schema: `{success: true, data}`. */
export const envelope = (name: string) => ({
  type: 'object',
  required: ['success', 'data'],
  properties: { success: { const: true }, data: ref(name) },
});

/** Responses several routes share (spec section 7). */
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

/** An operation that needs the bearer token (spec section 5): adds the 401 and 500 responses. */
export const secured = (op: Json) => ({
  ...op,
  responses: { ...(op.responses as Json), 401: errorResponses[401], 500: errorResponses[500] },
});

/**
 * Answers 405 with `Allow` (RFC 9110 section 15.5.6) to a request whose path is one of `paths` but
 * whose method none of its operations has. Mount it after the routers that serve `paths`.
 */
export function methodNotAllowed(paths: Json, prefix = ''): express.RequestHandler {
  const routes = Object.entries(paths).map(([template, item]) => {
    const methods = Object.keys(item as Json)
      .filter((k) => ['get', 'put', 'post', 'delete', 'patch'].includes(k))
      .map((m) => m.toUpperCase());
    if (methods.includes('GET')) methods.push('HEAD');
    const pattern = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+');
    return { match: new RegExp(`^${prefix}${pattern}/?$`), allow: methods.join(', ') };
  });
  return (req, res, next) => {
    const route = routes.find((r) => r.match.test(req.path));
    if (!route) return next();
    res
      .status(405)
      .set('Allow', route.allow)
      .json({
        success: false,
        error: {
          code: 'METHOD_NOT_ALLOWED',
          message: `${req.method} is not allowed on ${req.path}: use ${route.allow}`,
        },
      });
  };
}
