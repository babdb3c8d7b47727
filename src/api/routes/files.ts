/**
 * Published files, `GET /files/{key}`: generated images and thumbnails, public (social networks fetch
 * them without a token) behind unguessable keys. Mounted at the root, not under `/api`. Used when the
 * blob store has no public URL of its own (no `S3_PUBLIC_URL`).
 */
import express from 'express';
import { BLOB_KEY_PATTERN, FILE_CACHE_CONTROL, FILE_TYPES } from '../../domain/files.js';
import { errorResponses, type Resource } from '../describe.js';

export const filesResource: Resource = {
  router(services) {
    const router = express.Router();
    router.get('/files/:key', async (req, res) => {
      const blob = await services.images.readFile(req.params.key);
      res.set({
        'Content-Type': blob.contentType,
        'Cache-Control': FILE_CACHE_CONTROL,
        'X-Content-Type-Options': 'nosniff',
        'Access-Control-Allow-Origin': '*',
      });
      res.send(blob.body);
    });
    return router;
  },

  paths: {
    '/files/{key}': {
      servers: [{ url: '/' }],
      get: {
        operationId: 'getFile',
        summary:
          'A generated image or thumbnail (the url and thumbnailUrl of a record). Public: no token needed.',
        security: [],
        parameters: [
          {
            name: 'key',
            in: 'path',
            required: true,
            schema: { type: 'string', pattern: BLOB_KEY_PATTERN.source },
          },
        ],
        responses: {
          200: {
            description: `The file, with Cache-Control: ${FILE_CACHE_CONTROL}.`,
            content: Object.fromEntries(Object.values(FILE_TYPES).map((t) => [t.contentType, {}])),
          },
          404: { description: 'No such file.', content: errorResponses[404].content },
        },
      },
    },
  },
};
