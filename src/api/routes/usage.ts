/** Usage (docs/api.md#endpoints): this month's generations against the tier's quota, and its OpenAPI description. */
import express from 'express';
import { principalOf, requireAuth } from '../../http/auth.js';
import { envelope, json, secured, type Resource } from '../describe.js';
import { ok } from '../../http/respond.js';
import { requireScope } from '../../domain/workspaces/roles.js';

export const usageResource: Resource = {
  router(services) {
    const router = express.Router();
    router.get('/usage', requireAuth(services), async (_req, res) => {
      const principal = principalOf(res);
      requireScope(principal, 'usage:read');
      ok(res, await services.quota.usage(principal.workspace));
    });
    return router;
  },

  paths: {
    '/usage': {
      get: secured({
        operationId: 'getUsage',
        summary: 'Usage this month against the tier quota.',
        responses: { 200: { description: 'Usage.', content: json(envelope('Usage')) } },
      }),
    },
  },
};
