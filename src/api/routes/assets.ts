/**
 * Uploads kept for reuse: background photos and logos at `/assets`, fonts at `/fonts`;
 * and their OpenAPI description. The files stay private (never served by `/files`).
 */
import express, { type Response } from 'express';
import { FONT_MAX_BYTES } from '../../domain/assets/assets.js';
import { LIMITS } from '../../domain/design.js';
import { MAX_INPUT_PIXELS } from '../../domain/render/index.js';
import { FONT_BOUNDS } from '../../domain/render/index.js';
import type { Services } from '../../domain/services.js';
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
  type Json,
  type Resource,
} from '../describe.js';
import { decodeFields } from '../../http/form.js';
import { receiveForm } from '../../http/multipart.js';
import { ok } from '../../http/respond.js';

/** `POST` of a multipart upload whose file is `field`, kept by `keep`. */
function upload(
  services: Services,
  field: 'image' | 'font',
  limit: number,
  keep: (
    res: Response,
    file: { path: string } | undefined,
    fields: Record<string, unknown>,
    name?: string,
  ) => Promise<unknown>,
): express.RequestHandler {
  return async (req, res) => {
    const form = await receiveForm(req, field, limit);
    try {
      const created = await keep(
        res,
        form.image && { path: form.image.path },
        decodeFields(form.fields),
        form.fileName,
      );
      res.status(201).json({ success: true, data: created });
    } finally {
      await form.cleanup();
    }
  };
}

const list = (name: string, summary: string): Json => ({
  operationId: `list${name}s`,
  summary,
  responses: {
    200: { description: 'Newest first.', content: listEnvelope(`${name.toLowerCase()}s`, 'Asset') },
  },
});

const remove = (name: string, what: string): Json => ({
  operationId: `delete${name}`,
  summary: `Delete ${what} and its file.`,
  parameters: [idParameter],
  responses: {
    200: messageResponse('Deleted.'),
    404: errorResponses[404],
    409: {
      description: `A preset uses this ${name.toLowerCase()}: change or delete it first.`,
      content: json(ref('EndpointErrorBody')),
    },
  },
});

const created = (description: string, file: Json, fields: Json): Json => ({
  requestBody: {
    required: true,
    content: {
      'multipart/form-data': {
        schema: { type: 'object', required: Object.keys(file), properties: { ...file, ...fields } },
      },
    },
  },
  responses: {
    201: { description, content: json(envelope('Asset')) },
    400: errorResponses[400],
    403: unconfirmedResponse,
    413: { description: 'The file is over the limit.', content: json(ref('FileTooLargeBody')) },
  },
});

export const assetsResource: Resource = {
  router(services) {
    const router = express.Router();
    const auth = requireAuth(services);
    const { assets } = services;

    router.post(
      '/assets',
      auth,
      upload(services, 'image', LIMITS.imageBytes, (res, file, fields, name) =>
        assets.uploadImage(principalOf(res), file, fields, name),
      ),
    );
    router.get('/assets', auth, async (_req, res) => {
      ok(res, { assets: await assets.list(principalOf(res), ['background', 'logo']) });
    });
    router.delete('/assets/:id', auth, async (req, res) => {
      await assets.delete(principalOf(res), req.params.id as string);
      res.json({ success: true, message: `Asset ${req.params.id as string} deleted` });
    });
    router.post(
      '/fonts',
      auth,
      upload(services, 'font', FONT_MAX_BYTES, (res, file, fields, name) =>
        assets.uploadFont(principalOf(res), file, fields, name),
      ),
    );
    router.get('/fonts', auth, async (_req, res) => {
      ok(res, { fonts: await assets.list(principalOf(res), ['font']) });
    });
    router.delete('/fonts/:id', auth, async (req, res) => {
      await assets.delete(principalOf(res), req.params.id as string);
      res.json({ success: true, message: `Font ${req.params.id as string} deleted` });
    });
    return router;
  },

  paths: {
    '/assets': {
      post: secured({
        operationId: 'uploadAsset',
        summary: 'Upload a background photo or a logo once, to reuse by id (asset, a preset, a render link).',
        ...created(
          'Stored: upright, metadata stripped, in its own format (PNG and WebP keep alpha).',
          {
            image: {
              type: 'string',
              contentMediaType: 'application/octet-stream',
              description: `JPEG, PNG or WebP, judged by its bytes; at most ${LIMITS.imageBytes} bytes (10 MB) and ${MAX_INPUT_PIXELS / 1e6} megapixels.`,
            },
          },
          {
            kind: { enum: ['background', 'logo'], default: 'background', description: 'What it is for.' },
            name: {
              type: 'string',
              maxLength: 100,
              description: "Default (also when sent empty, as a blank form field is): the file's name.",
            },
          },
        ),
      }),
      get: secured(list('Asset', 'Your uploaded backgrounds and logos.')),
    },
    '/assets/{id}': { delete: secured(remove('Asset', 'an upload')) },
    '/fonts': {
      post: secured({
        operationId: 'uploadFont',
        summary: 'Upload a TrueType or OpenType font, to use as font: {"custom": id}.',
        ...created(
          'Stored after parsing it. Characters it lacks are drawn by the bundled fallback fonts.',
          {
            font: {
              type: 'string',
              contentMediaType: 'application/octet-stream',
              description: `A .ttf or .otf file (not a collection or WOFF), at most ${FONT_MAX_BYTES} bytes (10 MB), within the bounds of docs/security.md: at most ${FONT_BOUNDS.pointsPerGlyph} outline points per glyph, and per colour glyph ${FONT_BOUNDS.paintsPerGlyph} paint operations, ${FONT_BOUNDS.paintDepth} deep, ${FONT_BOUNDS.clipPointsPerGlyph} clip points (400 on font, constraint max, naming the glyph).`,
            },
          },
          {
            name: {
              type: 'string',
              maxLength: 100,
              description: "Default (also when sent empty, as a blank form field is): the file's name.",
            },
          },
        ),
      }),
      get: secured(list('Font', 'Your uploaded fonts.')),
    },
    '/fonts/{id}': { delete: secured(remove('Font', 'a font')) },
  },
};
