/**
 * Render links, `GET /r/{presetId}.{png|jpg|webp}?…&key=…&sig=…` (and HEAD): public, for crawlers
 * and browsers, mounted at the root. The first fetch renders (one unit of the link owner's quota);
 * later fetches are served from the store. The content hash is the strong ETag, so `If-None-Match`
 * gets a 304 (RFC 9110 section 13.1.2).
 *
 * `Cache-Control: public, max-age=3600` (RENDER_LINK_CACHE_CONTROL): a CDN or browser keeps a link's
 * image an hour. A preset edit makes the same link render anew on its next fetch that reaches the
 * server, so an edit shows within the hour everywhere.
 *
 * With the owner's quota used up, a first render answers a stand-in instead (an earlier card of the
 * link, or the preset's fallback card) with `Cache-Control: public, max-age=300` and
 * `Titlecard-Fallback: quota` (src/domain/render-links/render-cache.ts).
 */
import express from 'express';
import { idPattern } from '../../domain/kernel/ids.js';
import { errorResponses, json, ref, type Json, type Resource } from '../describe.js';
import { STAND_IN_CACHE_CONTROL, type ServedRender } from '../../domain/render-links/render-cache.js';

/** One hour: long enough for a CDN to absorb a crawler storm, short enough for a preset edit to show. */
export const RENDER_LINK_CACHE_CONTROL = 'public, max-age=3600';

/**
 * Answers a public link's card (a render link's or a site link's): its ETag, a Cache-Control of
 * `cacheControl` or, for a stand-in, {@link STAND_IN_CACHE_CONTROL} with `Titlecard-Fallback`; 304
 * when `If-None-Match` matched; no body for HEAD.
 */
export function sendCard(
  req: express.Request,
  res: express.Response,
  served: ServedRender,
  cacheControl = RENDER_LINK_CACHE_CONTROL,
): void {
  res.set({
    'Content-Type': served.contentType,
    'Cache-Control': served.standIn ? STAND_IN_CACHE_CONTROL : cacheControl,
    ETag: served.etag,
    'X-Content-Type-Options': 'nosniff',
    'Access-Control-Allow-Origin': '*',
  });
  if (served.standIn) res.set('Titlecard-Fallback', served.standIn);
  if (!served.body) {
    res.status(304).end();
    return;
  }
  res.set('Content-Length', String(served.body.length));
  if (req.method === 'HEAD') res.end();
  else res.end(served.body);
}

/** The 200 answer of a public link: the card, and its headers. */
export const cardResponse = (description: string): Json => ({
  description,
  headers: {
    ETag: { schema: { type: 'string' } },
    'Cache-Control': {
      schema: { type: 'string', enum: [RENDER_LINK_CACHE_CONTROL, STAND_IN_CACHE_CONTROL] },
    },
    'Titlecard-Fallback': {
      description:
        "Set on a stand-in: `quota` (the owner's quota is used up: an earlier card of the link, or the fallback card), `page` (a site's page could not be read, or the site's 60 page fetches of the minute are spent: the fallback card), `budget` (the site's new cards for this hour or month are made: an earlier card or the fallback card), `address` (this client address caused its 20 new cards of the site in 10 minutes, or its 20 page fetches of the minute: the same).",
      schema: { type: 'string', enum: ['quota', 'page', 'budget', 'address'] },
    },
  },
  content: {
    'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } },
    'image/jpeg': { schema: { type: 'string', contentMediaType: 'image/jpeg' } },
    'image/webp': { schema: { type: 'string', contentMediaType: 'image/webp' } },
  },
});

export const renderLinksResource: Resource = {
  router(services) {
    const router = express.Router();
    router.get(/^\/r\/[^/]+$/, async (req, res) => {
      const search = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
      sendCard(req, res, await services.renderUrls.fetch(req.path, search, req.headers['if-none-match']));
    });
    return router;
  },

  paths: {
    '/r/{link}': {
      servers: [{ url: '/' }],
      get: {
        operationId: 'fetchRenderLink',
        summary:
          'A signed render link: rendered on its first fetch (one unit of the owner quota), served from the store after; with the quota used up, an earlier card of the link or the preset fallback card. No token: the signature authorizes it (docs/render-links.md).',
        security: [],
        parameters: [
          {
            name: 'link',
            in: 'path',
            required: true,
            description: 'The preset id and the format: pre_….png, .jpg or .webp.',
            schema: {
              type: 'string',
              pattern: `^${idPattern('pre', { anchored: false }).source}\\.(png|jpg|webp)$`,
            },
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
          200: cardResponse(
            'The image, or a stand-in while the owner quota is used up (Titlecard-Fallback).',
          ),
          304: { description: 'Not modified (If-None-Match matched the ETag).' },
          400: errorResponses[400],
          403: {
            description: 'Missing or wrong signature, unknown or revoked key, or expired link.',
            content: json(ref('EndpointErrorBody')),
          },
          404: errorResponses[404],
          503: errorResponses[503],
        },
      },
    },
  },
};
