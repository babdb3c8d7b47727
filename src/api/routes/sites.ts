/**
 * Sites (src/domain/sites/sites.ts): `/sites` to add, list, verify and delete them, and
 * `/sites/{id}/pages` for what was last seen of their pages; and the public site links,
 * `GET /s/{siteId}.{png|jpg|webp}?url=<page URL>` (and HEAD), mounted at the root beside `/r/`.
 */
import express from 'express';
import { idPattern } from '../../domain/kernel/ids.js';
import { principalOf, requireAuth } from '../../http/auth.js';
import {
  envelope,
  errorResponses,
  idParameter,
  json,
  listEnvelope,
  messageResponse,
  ref,
  secured,
  unconfirmedResponse,
  type Resource,
} from '../describe.js';
import { ok } from '../../http/respond.js';
import { collectionRoutes } from '../collection.js';
import { cardResponse, redirectResponse, RENDER_LINK_CACHE_CONTROL, sendCard } from './render-links.js';
import { jsonBody } from '../../http/json-body.js';

export const sitesResource: Resource = {
  router(services) {
    const router = express.Router();
    const auth = requireAuth(services);
    const body = jsonBody('16kb');
    const { sites } = services;
    collectionRoutes(router, sites, { plural: 'sites', noun: 'Site', auth, body });
    router.patch('/sites/:id', auth, body, async (req, res) => {
      ok(res, await sites.setBudget(principalOf(res), req.params.id as string, req.body));
    });
    router.post('/sites/:id/verify', auth, async (req, res) => {
      ok(res, await sites.verify(principalOf(res), req.params.id as string));
    });
    router.get('/sites/:id/pages', auth, async (req, res) => {
      ok(res, { pages: await sites.pages(principalOf(res), req.params.id as string) });
    });
    router.get('/sites/:id/fetches', auth, async (req, res) => {
      ok(res, { pages: await sites.fetches(principalOf(res), req.params.id as string) });
    });
    return router;
  },

  paths: {
    '/sites': {
      post: secured({
        operationId: 'createSite',
        summary:
          'Add a site: every page of it gets its card from one link, once the origin is verified (docs/sites.md).',
        requestBody: { required: true, content: json(ref('SiteRequest')) },
        responses: {
          201: { description: 'Added, not verified yet.', content: json(envelope('Site')) },
          400: errorResponses[400],
          403: unconfirmedResponse,
        },
      }),
      get: secured({
        operationId: 'listSites',
        summary: 'Your sites, newest first.',
        responses: { 200: { description: 'Sites.', content: listEnvelope('sites', 'Site') } },
      }),
    },
    '/sites/{id}': {
      get: secured({
        operationId: 'getSite',
        summary: 'One site, with its verification token and the snippet for its pages.',
        parameters: [idParameter],
        responses: {
          200: { description: 'The site.', content: json(envelope('Site')) },
          404: errorResponses[404],
        },
      }),
      patch: secured({
        operationId: 'setSiteBudget',
        summary:
          "Set the site's budget of new cards per hour and per month (either or both); past it a page gets its earlier card or the fallback card, free (docs/sites.md).",
        parameters: [idParameter],
        requestBody: { required: true, content: json(ref('SiteBudgetRequest')) },
        responses: {
          200: { description: 'The site, with its new budget.', content: json(envelope('Site')) },
          400: errorResponses[400],
          404: errorResponses[404],
        },
      }),
      delete: secured({
        operationId: 'deleteSite',
        summary: 'Delete a site; its link answers 404.',
        parameters: [idParameter],
        responses: { 200: messageResponse('Done.'), 404: errorResponses[404] },
      }),
    },
    '/sites/{id}/verify': {
      post: secured({
        operationId: 'verifySite',
        summary:
          'Fetch the home page (its titlecard-site-verification meta tag) or /.well-known/titlecard-site-verification and compare the token.',
        parameters: [idParameter],
        responses: {
          200: { description: 'The site, verified.', content: json(envelope('Site')) },
          400: {
            description: 'The token was not found: the message says what each place held instead.',
            content: json(ref('ValidationErrorBody')),
          },
          404: errorResponses[404],
        },
      }),
    },
    '/sites/{id}/fetches': {
      get: secured({
        operationId: 'listSiteFetches',
        summary:
          "Which crawler has which card: per recent page, each platform's last fetch of its card, the version it got and whether it is the current one (docs/previews.md).",
        parameters: [idParameter],
        responses: {
          200: { description: 'Pages, newest check first.', content: listEnvelope('pages', 'PageFetches') },
          404: errorResponses[404],
        },
      }),
    },
    '/sites/{id}/pages': {
      get: secured({
        operationId: 'listSitePages',
        summary:
          "The site's 50 most recently checked pages, with the problem that gave a page the fallback card.",
        parameters: [idParameter],
        responses: {
          200: { description: 'Pages, newest check first.', content: listEnvelope('pages', 'SitePage') },
          404: errorResponses[404],
        },
      }),
    },
  },
};

export const siteLinksResource: Resource = {
  router(services) {
    const router = express.Router();
    router.get(/^\/s\/[^/]+$/, async (req, res) => {
      sendCard(
        req,
        res,
        await services.sites.fetch(
          req.path,
          req.query.url,
          req.headers['if-none-match'],
          req.ip,
          req.headers['user-agent'],
        ),
        RENDER_LINK_CACHE_CONTROL,
        { redirect: true },
      );
    });
    return router;
  },

  paths: {
    '/s/{link}': {
      servers: [{ url: '/' }],
      get: {
        operationId: 'fetchSiteLink',
        summary:
          "A site link: the card of a page of a verified site, from its og:title (or <title>) and the site's preset; a new card costs one unit of the owner quota. No token: only the verified origin's pages are read (docs/sites.md).",
        security: [],
        parameters: [
          {
            name: 'link',
            in: 'path',
            required: true,
            description: 'The site id and the format: sit_….png, .jpg or .webp.',
            schema: {
              type: 'string',
              pattern: `^${idPattern('sit', { anchored: false }).source}\\.(png|jpg|webp)$`,
            },
          },
          {
            name: 'url',
            in: 'query',
            required: true,
            description:
              "The page's URL, on the site's origin; its fragment, and its query unless the site keeps it, are dropped.",
            schema: { type: 'string' },
          },
          { name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' } },
        ],
        responses: {
          302: redirectResponse,
          200: cardResponse(
            "A stand-in (Titlecard-Fallback): the fallback card when the page cannot be read; an earlier card or the fallback card while the owner quota is used up, past the site's budget of new cards, or past this address's share of them (docs/sites.md).",
          ),
          304: { description: 'Not modified (If-None-Match matched the ETag).' },
          400: errorResponses[400],
          403: {
            description: 'The site is not verified yet.',
            content: json(ref('EndpointErrorBody')),
          },
          404: errorResponses[404],
          503: errorResponses[503],
        },
      },
    },
  },
};
