/**
 * The free fit check, `POST /layout` (ours): the texts and options of `POST /generate` as JSON, no
 * image; answers how they would be set (size, lines, truncation, fallback fonts, characters no font
 * covers). No quota; 60 a minute per account.
 */
import express from 'express';
import { principalOf, requireAuth } from '../../http/auth.js';
import { envelope, errorResponses, json, ref, schemaOf, secured, type Resource } from '../describe.js';
import { generateOptionsSchema } from '../../domain/images/schemas.js';
import { ok } from '../../http/respond.js';
import { jsonBody } from '../../http/json-body.js';

export const layoutResource: Resource = {
  router(services) {
    const router = express.Router();
    router.post('/layout', requireAuth(services), jsonBody('16kb'), async (req, res) => {
      ok(res, await services.previews.checkLayout(principalOf(res), req.body));
    });
    return router;
  },

  paths: {
    '/layout': {
      post: secured({
        operationId: 'checkLayout',
        summary:
          'Check how a title would be set, before generating: no image, no quota. 60 a minute per account. template auto is laid out as bottom-left (choosing needs the photo).',
        requestBody: { required: true, content: json(schemaOf(generateOptionsSchema, 'input')) },
        responses: {
          200: { description: 'The layout report.', content: json(envelope('LayoutReport')) },
          400: errorResponses[400],
          429: {
            description: 'More than 60 checks in a minute.',
            headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait.' } },
            content: json(ref('QuotaErrorBody')),
          },
        },
      }),
    },
  },
};
