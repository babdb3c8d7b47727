/**
 * Render links, `GET /r/{presetId}.{png|jpg|webp}?…&key=…&sig=…` (and HEAD): public, for crawlers
 * and browsers, mounted at the root. The first fetch renders (one unit of the link owner's quota);
 * later fetches are served from the store. The content hash is the strong ETag, so `If-None-Match`
 * gets a 304 (RFC 9110 section 13.1.2).
 *
 * `Cache-Control: public, max-age=3600` (RENDER_LINK_CACHE_CONTROL): a CDN or browser keeps a link's
 * image an hour. A preset edit makes the same link render anew on its next fetch that reaches the
 * server, so an edit shows within the hour everywhere.
 */
import express from 'express';
import { errorResponses, json, ref, type Resource } from '../describe.js';

/** One hour: long enough for a CDN to absorb a crawler storm, short enough for a preset edit to show. */
export const RENDER_LINK_CACHE_CONTROL = 'public, max-age=3600';

export const renderLinksResource: Resource = {
  router(services) {
    const router = express.Router();
    router.get(/^\/r\/[^/]+$/, async (req, res) => {
      const search = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
      const served = await services.renderUrls.fetch(req.path, search, req.headers['if-none-match']);
      res.set({
        'Content-Type': served.contentType,
        'Cache-Control': RENDER_LINK_CACHE_CONTROL,
        ETag: served.etag,
        'X-Content-Type-Options': 'nosniff',
        'Access-Control-Allow-Origin': '*',
      });
      if (!served.body) {
        res.status(304).end();
        return;
      }
      res.set('Content-Length', String(served.body.length));
      if (req.method === 'HEAD') res.end();
      else res.end(served.body);
    });
    return router;
  },

  paths: {
    '/r/{link}': {
      servers: [{ url: '/' }],
      get: {
        operationId: 'fetchRenderLink',
        summary:
          'A signed render link: rendered on its first fetch (one unit of the owner quota), served from the store after. No token: the signature authorizes it (docs/render-links.md).',
        security: [],
        parameters: [
          {
            name: 'link',
            in: 'path',
            required: true,
            description: 'The preset id and the format: pre_….png, .jpg or .webp.',
            schema: { type: 'string', pattern: '^pre_[0-9A-Za-z]{22}\\.(png|jpg|webp)$' },
          },
          { name: 'title', in: 'query', required: true, schema: { type: 'string' } },
          { name: 'subtitle', in: 'query', required: false, schema: { type: 'string' } },
          {
            name: 'image',
            in: 'query',
            required: false,
            description: "An asset id or an https URL; default the preset's background.",
            schema: { type: 'string' },
          },
          {
            name: 'exp',
            in: 'query',
            required: false,
            description: 'Expiry, Unix seconds.',
            schema: { type: 'string', pattern: '^[0-9]{1,12}$' },
          },
          {
            name: 'key',
            in: 'query',
            required: true,
            description: 'Signing key id.',
            schema: { type: 'string' },
          },
          {
            name: 'sig',
            in: 'query',
            required: true,
            description: 'base64url HMAC-SHA256 of the canonical string.',
            schema: { type: 'string' },
          },
          { name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' } },
        ],
        responses: {
          200: {
            description: 'The image.',
            headers: {
              ETag: { schema: { type: 'string' } },
              'Cache-Control': { schema: { type: 'string', const: RENDER_LINK_CACHE_CONTROL } },
            },
            content: {
              'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } },
              'image/jpeg': { schema: { type: 'string', contentMediaType: 'image/jpeg' } },
              'image/webp': { schema: { type: 'string', contentMediaType: 'image/webp' } },
            },
          },
          304: { description: 'Not modified (If-None-Match matched the ETag).' },
          400: errorResponses[400],
          403: {
            description: 'Missing or wrong signature, unknown or revoked key, or expired link.',
            content: json(ref('EndpointErrorBody')),
          },
          404: errorResponses[404],
          429: {
            description:
              "A first render with the owner's monthly quota used up (links already rendered keep working).",
            content: json(ref('QuotaErrorBody')),
          },
        },
      },
    },
  },
};
