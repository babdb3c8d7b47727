/**
 * Presets, signing keys and render links: `/presets` CRUD, `/signing-keys`,
 * `POST /render-urls`; and their OpenAPI description. The links themselves are served at `/r/`
 * (render-links.ts).
 */
import express from 'express';
import { principalOf, requireAuth } from '../../http/auth.js';
import {
  envelope,
  errorResponses,
  idParameter,
  json,
  unconfirmedResponse,
  listEnvelope,
  messageResponse,
  ref,
  secured,
  type Resource,
} from '../describe.js';
import { ok } from '../../http/respond.js';
import { collectionRoutes } from '../collection.js';
import { jsonBody } from '../../http/json-body.js';

const idParameters = [idParameter];

export const presetsResource: Resource = {
  router(services) {
    const router = express.Router();
    const auth = requireAuth(services);
    const body = jsonBody('16kb');
    const { presets, renderUrls } = services;

    collectionRoutes(router, presets, { plural: 'presets', noun: 'Preset', auth, body });

    router.post('/signing-keys', auth, body, async (req, res) => {
      res.set('Cache-Control', 'no-store');
      res.status(201).json({ success: true, data: await renderUrls.createKey(principalOf(res), req.body) });
    });
    router.get('/signing-keys', auth, async (_req, res) => {
      ok(res, { keys: await renderUrls.listKeys(principalOf(res)) });
    });
    router.delete('/signing-keys/:id', auth, async (req, res) => {
      await renderUrls.revokeKey(principalOf(res), req.params.id as string);
      res.json({ success: true, message: `Signing key ${req.params.id as string} revoked` });
    });

    router.post('/render-urls', auth, body, async (req, res) => {
      ok(res, await renderUrls.createUrl(principalOf(res), req.body));
    });
    return router;
  },

  paths: {
    '/presets': {
      post: secured({
        operationId: 'createPreset',
        summary: 'Save a design: every generate option but the texts, a default background, a logo.',
        requestBody: { required: true, content: json(ref('PresetRequest')) },
        responses: {
          201: { description: 'Created, version 1.', content: json(envelope('Preset')) },
          400: errorResponses[400],
        },
      }),
      get: secured({
        operationId: 'listPresets',
        summary: 'Your presets, newest first.',
        responses: { 200: { description: 'Presets.', content: listEnvelope('presets', 'Preset') } },
      }),
    },
    '/presets/{id}': {
      get: secured({
        operationId: 'getPreset',
        summary: 'One preset.',
        parameters: idParameters,
        responses: {
          200: { description: 'The preset.', content: json(envelope('Preset')) },
          404: errorResponses[404],
        },
      }),
      put: secured({
        operationId: 'replacePreset',
        summary:
          'Replace a preset; its version goes up by one, so render links made with it render again on their next fetch.',
        parameters: idParameters,
        requestBody: { required: true, content: json(ref('PresetRequest')) },
        responses: {
          200: { description: 'The preset as saved.', content: json(envelope('Preset')) },
          400: errorResponses[400],
          404: errorResponses[404],
        },
      }),
      delete: secured({
        operationId: 'deletePreset',
        summary: 'Delete a preset; links naming it answer 404.',
        parameters: idParameters,
        responses: { 200: messageResponse('Done.'), 404: errorResponses[404] },
      }),
    },
    '/signing-keys': {
      post: secured({
        operationId: 'createSigningKey',
        summary: 'Create a key to sign render links with; the secret is returned only here.',
        requestBody: { required: true, content: json(ref('CreateSigningKeyRequest')) },
        responses: {
          201: { description: 'Created.', content: json(envelope('CreatedSigningKey')) },
          400: errorResponses[400],
          403: unconfirmedResponse,
        },
      }),
      get: secured({
        operationId: 'listSigningKeys',
        summary: 'Your active signing keys, without secrets.',
        responses: {
          200: { description: 'Keys, newest first.', content: listEnvelope('keys', 'SigningKey') },
        },
      }),
    },
    '/signing-keys/{id}': {
      delete: secured({
        operationId: 'revokeSigningKey',
        summary: 'Revoke a signing key: every link signed with it answers 403 from now on.',
        parameters: idParameters,
        responses: { 200: messageResponse('Done.'), 404: errorResponses[404] },
      }),
    },
    '/render-urls': {
      post: secured({
        operationId: 'createRenderUrl',
        summary:
          'A signed link under PUBLIC_URL/r/ that renders on its first fetch (one unit of quota) and is served from the store after. Free until fetched.',
        requestBody: { required: true, content: json(ref('RenderUrlRequest')) },
        responses: {
          200: { description: 'The link.', content: json(envelope('RenderUrl')) },
          400: errorResponses[400],
        },
      }),
    },
  },
};
