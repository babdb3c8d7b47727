/**
 * The REST edge (docs/api.md#endpoints): the `/api` router, one router per resource (`routes/`), each
 * beside the OpenAPI description of its routes, and the document at `/api/openapi.json`. Each route
 * parses its input, calls one domain use case and wraps the result in the API's envelope. Nothing
 * here listens: `src/app.ts` mounts it, `src/server.ts` listens.
 */
import express from 'express';
import type { Services } from '../domain/services.js';
import { methodRules, type Json } from './describe.js';
import { API_RESOURCES, buildOpenApiDocument } from './openapi.js';

/** The router mounted at `/api` (the API's base address, `{base_url}`). */
export function createApiRouter(services: Services): express.Router {
  const api = express.Router();
  const openapi = buildOpenApiDocument();
  api.get('/openapi.json', (_req, res) => {
    res.json(openapi);
  });
  const paths: Json = { '/openapi.json': { get: {} } };
  for (const resource of API_RESOURCES) Object.assign(paths, resource.paths);
  const methods = methodRules(paths);
  api.use(methods.before);
  for (const resource of API_RESOURCES) api.use(resource.router(services));
  api.use(methods.after);
  return api;
}
