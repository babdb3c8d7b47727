/**
 * The link-preview check (docs/previews.md): `POST /previews {url}` answers what each platform will
 * show of the page and what is wrong; `GET /previews/{id}` the report again for a day;
 * `GET /previews/{id}/{platform}.png` its mock-up. No quota; with the playground's previews, 60 a
 * minute per workspace.
 */
import express from 'express';
import { principalOf, requireAuth } from '../../http/auth.js';
import { envelope, errorResponses, idParameter, json, ref, secured, type Resource } from '../describe.js';
import { ok } from '../../http/respond.js';
import { jsonBody } from '../../http/json-body.js';
import { PLATFORM_IDS } from '../../domain/link-previews/platforms.js';

export const previewsResource: Resource = {
  router(services) {
    const router = express.Router();
    const auth = requireAuth(services);
    router.post('/previews', auth, jsonBody('16kb'), async (req, res) => {
      ok(res, await services.linkPreviews.check(principalOf(res), req.body), 201);
    });
    router.get('/previews/:id', auth, async (req, res) => {
      ok(res, await services.linkPreviews.get(principalOf(res), req.params.id as string));
    });
    router.get('/previews/:id/:platform.png', auth, async (req, res) => {
      const png = await services.linkPreviews.mockup(
        principalOf(res),
        req.params.id as string,
        req.params.platform as string,
      );
      res.set({ 'Content-Type': 'image/png', 'Cache-Control': 'private, max-age=86400' }).end(png);
    });
    return router;
  },

  paths: {
    '/previews': {
      post: secured({
        operationId: 'checkLinkPreview',
        summary:
          "Check how a link will preview on X, Facebook, LinkedIn, Slack, Discord, iMessage, WhatsApp, Telegram, Mastodon and Bluesky: the tags, the image, each platform's card, and the problems with how to fix them. No quota; 60 a minute per workspace with the previews (docs/previews.md).",
        requestBody: { required: true, content: json(ref('PreviewRequest')) },
        responses: {
          201: { description: 'The report, kept a day.', content: json(envelope('PreviewReport')) },
          400: errorResponses[400],
          429: {
            description: 'More than 60 checks and previews in a minute.',
            headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait.' } },
            content: json(ref('QuotaErrorBody')),
          },
        },
      }),
    },
    '/previews/{id}': {
      get: secured({
        operationId: 'getLinkPreview',
        summary: 'A link-preview check made in the last day.',
        parameters: [idParameter],
        responses: {
          200: { description: 'The report.', content: json(envelope('PreviewReport')) },
          404: errorResponses[404],
        },
      }),
    },
    '/previews/{id}/{platform}.png': {
      get: secured({
        operationId: 'getLinkPreviewMockup',
        summary: "A check's preview as the platform will show it: a PNG mock-up, 560 px wide.",
        parameters: [
          idParameter,
          {
            name: 'platform',
            in: 'path',
            required: true,
            schema: { type: 'string', enum: [...PLATFORM_IDS] },
          },
        ],
        responses: {
          200: {
            description: 'The mock-up.',
            content: { 'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } } },
          },
          404: errorResponses[404],
        },
      }),
    },
  },
};
