/**
 * Published files, `GET /files/{key}` (and HEAD): generated images and thumbnails, public (social
 * networks fetch them without a token) behind unguessable keys. Mounted at the root, not under
 * `/api`. Used when the blob store has no public URL of its own (no `S3_PUBLIC_URL`).
 *
 * Files are streamed, never read whole into memory. A key names one immutable file, so the key is
 * its strong ETag: `If-None-Match` gets a 304 (RFC 9110 section 13.1.2). A single byte range gets a
 * 206 (section 14), an unsatisfiable one a 416, several ranges the whole file (section 14.2 allows it).
 */
import { pipeline } from 'node:stream/promises';
import express from 'express';
import { BLOB_KEY_PATTERN, FILE_CACHE_CONTROL } from '../../domain/images/files.js';
import { FILE_TYPES } from '../../domain/design.js';
import { errorResponses, type Resource } from '../describe.js';

export const filesResource: Resource = {
  router(services) {
    const router = express.Router();
    router.get('/files/:key', async (req, res) => {
      const key = req.params.key;
      const { size, contentType } = await services.files.fileInfo(key);
      const etag = `"${key}"`;
      res.set({
        'Content-Type': contentType,
        'Cache-Control': FILE_CACHE_CONTROL,
        ETag: etag,
        'Accept-Ranges': 'bytes',
        'X-Content-Type-Options': 'nosniff',
        'Access-Control-Allow-Origin': '*',
      });
      const match = req.headers['if-none-match'];
      if (
        match &&
        (match.trim() === '*' || match.split(',').some((t) => t.trim().replace(/^W\//, '') === etag))
      ) {
        res.status(304).end();
        return;
      }
      const ranges = req.headers.range ? req.range(size) : undefined;
      if (ranges === -1 && /^\s*bytes=/i.test(req.headers.range ?? '')) {
        res.status(416).set('Content-Range', `bytes */${size}`).end();
        return;
      }
      // Only a single range in bytes is served as a range; any other unit is ignored (RFC 9110
      // section 14.2: a server MAY ignore a Range of a unit it does not support).
      const range =
        Array.isArray(ranges) && ranges.type === 'bytes' && ranges.length === 1 ? ranges[0] : undefined;
      res.status(range ? 206 : 200).set('Content-Length', String(range ? range.end - range.start + 1 : size));
      if (range) res.set('Content-Range', `bytes ${range.start}-${range.end}/${size}`);
      if (req.method === 'HEAD') {
        res.end();
        return;
      }
      await pipeline(await services.files.openFile(key, range), res).catch((err: unknown) => {
        // A client that goes away mid-file is not an error of ours.
        if ((err as { code?: string }).code !== 'ERR_STREAM_PREMATURE_CLOSE') throw err;
      });
    });
    return router;
  },

  paths: {
    '/files/{key}': {
      servers: [{ url: '/' }],
      get: {
        operationId: 'getFile',
        summary:
          'A generated image or thumbnail (the url and thumbnailUrl of a record). Public: no token needed. Supports HEAD, If-None-Match (the ETag is the key) and a single byte Range.',
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
            description: `The file, with Cache-Control: ${FILE_CACHE_CONTROL} and a strong ETag.`,
            content: Object.fromEntries(Object.values(FILE_TYPES).map((t) => [t.contentType, {}])),
          },
          206: { description: 'The byte range asked for, with Content-Range.' },
          304: { description: 'Not modified: the If-None-Match names this file.' },
          404: { description: 'No such file.', content: errorResponses[404].content },
          416: { description: 'The range lies outside the file; Content-Range gives its size.' },
        },
      },
    },
  },
};
