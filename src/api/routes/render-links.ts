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
import { FILE_CACHE_CONTROL } from '../../domain/images/files.js';
import { FILE_TYPES } from '../../domain/design.js';

/** One hour: long enough for a CDN to absorb a crawler storm, short enough for a preset edit to show. */
export const RENDER_LINK_CACHE_CONTROL = 'public, max-age=3600';

/**
 * A card by its content hash, `/c/{hash}.{ext}`, never changes: any cache may keep it a year
 * (RFC 9111 `max-age`, RFC 8246 `immutable`), as the published files.
 */
export const CARD_CACHE_CONTROL = FILE_CACHE_CONTROL;

/** `/c/{hash}.{ext}` of a served card (its ETag is the quoted hash; the extension its type's). */
export function cardPath(served: ServedRender): string {
  const ext = Object.values(FILE_TYPES).find((t) => t.contentType === served.contentType)?.extension ?? 'png';
  return `/c/${served.etag.replaceAll('"', '')}.${ext}`;
}

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
  { redirect = false }: { redirect?: boolean } = {},
): void {
  // A link's own card (not a stand-in) is a redirect to its content-hashed URL: a card of new
  // content gets a new URL, which crawlers and CDNs fetch anew (docs/previews.md).
  if (redirect && !served.standIn && served.body) {
    res.set({ 'Cache-Control': cacheControl, ETag: served.etag, 'Access-Control-Allow-Origin': '*' });
    res.redirect(302, cardPath(served));
    return;
  }
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

/** The 302 of a link whose card is its own: to the card's content-hashed URL. */
export const redirectResponse: Json = {
  description:
    "The link's card: a redirect to its content-hashed URL, /c/{hash}.{ext} (a card of new content gets a new URL); Cache-Control as the link's, an hour.",
  headers: {
    Location: { schema: { type: 'string' }, description: '/c/{hash}.{ext}' },
    ETag: { schema: { type: 'string' } },
  },
};

export const renderLinksResource: Resource = {
  router(services) {
    const router = express.Router();
    router.get(/^\/r\/[^/]+$/, async (req, res) => {
      const search = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
      sendCard(
        req,
        res,
        await services.renderUrls.fetch(req.path, search, req.headers['if-none-match']),
        undefined,
        {
          redirect: true,
        },
      );
    });
    router.get(/^\/c\/[^/]+$/, async (req, res) => {
      const [, hash = '', ext = ''] = /^\/c\/([^/.]+)\.([a-z]+)$/.exec(req.path) ?? [];
      sendCard(
        req,
        res,
        await services.renderUrls.card(hash, ext, req.headers['if-none-match']),
        CARD_CACHE_CONTROL,
      );
    });
    return router;
  },

  paths: {
    '/c/{card}': {
      servers: [{ url: '/' }],
      get: {
        operationId: 'fetchCard',
        summary:
          'A card a render or site link made, by its content hash: it never changes, so it may be kept a year (Cache-Control immutable). Links redirect here.',
        security: [],
        parameters: [
          {
            name: 'card',
            in: 'path',
            required: true,
            description: 'The hash and the format: 64 hex digits and .png, .jpg or .webp.',
            schema: { type: 'string', pattern: '^[0-9a-f]{64}\\.(png|jpg|webp)$' },
          },
          { name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' } },
        ],
        responses: {
          200: {
            description: 'The card.',
            headers: {
              ETag: { schema: { type: 'string' } },
              'Cache-Control': { schema: { type: 'string', enum: [CARD_CACHE_CONTROL] } },
            },
            content: cardResponse('').content as Json,
          },
          304: { description: 'Not modified (If-None-Match matched the ETag).' },
          404: errorResponses[404],
        },
      },
    },
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
          200: cardResponse('A stand-in while the owner quota is used up (Titlecard-Fallback).'),
          302: redirectResponse,
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
