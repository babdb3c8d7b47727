/**
 * API tokens (docs/api.md#endpoints): create, list, revoke, and validate the token in use; and their
 * OpenAPI description.
 */
import express from 'express';
import { fingerprintOf } from '../../domain/kernel/idempotency.js';
import type { StoredResponse } from '../../domain/kernel/ports.js';
import { principalOf, requireAuth } from '../../http/auth.js';
import {
  envelope,
  errorResponses,
  idempotent,
  idParameter,
  json,
  listEnvelope,
  messageResponse,
  ref,
  secretShownOnceResponses,
  secured,
  unconfirmedResponse,
  type Resource,
} from '../describe.js';
import { idempotently, secretShownOnce } from '../../http/idempotency.js';
import { ok, sendStored } from '../../http/respond.js';
import { jsonBody } from '../../http/json-body.js';

export const tokensResource: Resource = {
  router(services) {
    const router = express.Router();
    const auth = requireAuth(services);
    const { accounts, quota } = services;

    router.get('/tokens/validate', auth, async (_req, res) => {
      ok(res, await quota.validation(principalOf(res)));
    });
    router.post('/tokens', auth, jsonBody('16kb'), async (req, res) => {
      const create = async (): Promise<StoredResponse> => ({
        status: 201,
        body: JSON.stringify({
          success: true,
          data: await accounts.createToken(principalOf(res), req.body),
        }),
        headers: {},
      });
      const principal = principalOf(res);
      const response = await idempotently(req, services.idempotency, {
        caller: principal,
        fingerprint: async () => fingerprintOf(JSON.stringify(req.body ?? null)),
        work: create,
        // The secret is shown once and never stored: a retry learns which token its key made, and
        // whether it is still active, but not its secret (docs/api.md, "Idempotency-Key").
        ...secretShownOnce(
          async (id) => (await accounts.listTokens(principal)).find((t) => t.id === id),
          (id) =>
            `The token this Idempotency-Key created (${id}) has been revoked; create another with a new key`,
        ),
      });
      sendStored(res, response);
    });
    router.get('/tokens', auth, async (_req, res) => {
      ok(res, { tokens: await accounts.listTokens(principalOf(res)) });
    });
    router.delete('/tokens/:id', auth, async (req, res) => {
      await accounts.revokeToken(principalOf(res), req.params.id as string);
      // docs/api.md#endpoints: this answer has `message` in place of `data`.
      res.json({ success: true, message: `Token ${req.params.id as string} revoked` });
    });
    return router;
  },

  paths: {
    '/tokens': {
      post: secured(
        idempotent({
          operationId: 'createToken',
          summary: 'Create an API token; the secret is returned only here.',
          requestBody: { required: true, content: json(ref('CreateTokenRequest')) },
          responses: {
            201: { description: 'Created.', content: json(envelope('CreatedToken')) },
            400: errorResponses[400],
            403: unconfirmedResponse,
            ...secretShownOnceResponses('a token', 'TokenListEntry', 'revoked'),
          },
        }),
      ),
      get: secured({
        operationId: 'listTokens',
        summary: 'List active tokens, without secrets.',
        responses: {
          200: { description: 'Tokens, newest first.', content: listEnvelope('tokens', 'TokenListEntry') },
        },
      }),
    },
    '/tokens/validate': {
      get: secured({
        operationId: 'validateToken',
        summary: 'Validate the token in the Authorization header.',
        responses: {
          200: { description: 'Profile and usage.', content: json(envelope('TokenValidation')) },
        },
      }),
    },
    '/tokens/{id}': {
      delete: secured({
        operationId: 'revokeToken',
        summary: 'Revoke a token at once.',
        parameters: [idParameter],
        responses: {
          200: messageResponse('Revoked.'),
          404: {
            description: "Unknown, already revoked, or another user's token.",
            content: json(ref('EndpointErrorBody')),
          },
        },
      }),
    },
  },
};
