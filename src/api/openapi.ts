/**
 * The OpenAPI 3.1 document of the REST API, served at `/api/openapi.json`. Request and response
 * schemas are generated from the same zod schemas the code validates with (JSON Schema 2020-12, which
 * OpenAPI 3.1 uses), so the document cannot drift from the behaviour. It also records every choice
 * made where the spec says "not shown".
 */
import { z } from 'zod';
import { CONSTRAINTS } from '../domain/errors.js';
import {
  createdTokenSchema,
  createTokenBodySchema,
  generateOptionsSchema,
  imagePageSchema,
  imageRecordSchema,
  LIMITS,
  tokenListEntrySchema,
  tokenValidationSchema,
  usageSchema,
} from '../domain/schemas.js';
import { MAX_INPUT_PIXELS } from '../domain/render/decode.js';
import { THUMBNAIL_WIDTH } from '../domain/render/index.js';

type Json = Record<string, unknown>;

function schemaOf(s: z.ZodType, io: 'input' | 'output' = 'output'): Json {
  const { $schema: _drop, ...rest } = z.toJSONSchema(s, { io, unrepresentable: 'any' }) as Json;
  return rest;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Json) => ({ 'application/json': { schema } });
const envelope = (name: string) => ({
  type: 'object',
  required: ['success', 'data'],
  properties: { success: { const: true }, data: ref(name) },
});

const endpointErrorSchema = (code: Json, details?: Json): Json => ({
  type: 'object',
  required: ['success', 'error'],
  properties: {
    success: { const: false },
    error: {
      type: 'object',
      required: details ? ['code', 'message', 'details'] : ['code', 'message'],
      properties: { code, message: { type: 'string' }, ...(details ? { details } : {}) },
    },
  },
});

const CHOICES = `
Choices made where the spec says "not shown":
- Creations answer 201 Created (POST /generate, POST /tokens); everything else that succeeds answers 200.
- Not found: 404 with {success:false, error:{code:"NOT_FOUND", message}}, for unknown routes and for revoking a token that is unknown, already revoked or another user's.
- VALIDATION_ERROR details.constraint is one of ${CONSTRAINTS.join(', ')}.
- 401 responses carry WWW-Authenticate: Bearer (RFC 6750).
- retryAfter (429) is in seconds until the quota resets, the first instant of the next UTC month; the Retry-After header carries the same value.
- Quota: successful generations per user per UTC calendar month. A failed request uses none.
- Tokens: "tc_" followed by 40 base62 characters; only a SHA-256 hash is stored. Names: 1 to 100 characters, need not be unique. At most ${LIMITS.activeTokensMax} active tokens per account. lastUsedAt is null until first use.
- Tiers are written free, pro, agency.
- title and subtitle lengths count user-perceived characters (grapheme clusters); leading and trailing white space is trimmed; a line feed forces a line break.
- position {x, y}: fractions 0 to 1 of the canvas, the centre of the text block, kept inside the safe zone.
- Thumbnails are ${THUMBNAIL_WIDTH} px wide (og 400×210, square 400×400, portrait 400×500), in the image's format.
- Background images of more than ${MAX_INPUT_PIXELS / 1e6} megapixels are refused (400, constraint max).
- Image files are served publicly at {PUBLIC_URL}/files/{key} with an unguessable key and Cache-Control: public, max-age=31536000, immutable.
- The list is ordered with ties broken by id; title sorting ignores case.
- No versioning: no version marker in paths or headers.`;

/** Builds the document. Pure; called once at start-up. */
export function buildOpenApiDocument(): Json {
  const generateSchema = schemaOf(generateOptionsSchema, 'input');
  const generateProps = generateSchema.properties as Json;
  const multipart = {
    type: 'object',
    required: ['image', 'title'],
    properties: {
      image: {
        type: 'string',
        contentMediaType: 'application/octet-stream',
        description: `Background image: JPEG, PNG or WebP, judged by its bytes; at most ${LIMITS.imageBytes} bytes (10 MB) and ${MAX_INPUT_PIXELS / 1e6} megapixels.`,
      },
      ...generateProps,
      gradient: {
        ...(generateProps.gradient as Json),
        description: 'Form text "true" or "false". Default true.',
      },
      textShadow: {
        ...(generateProps.textShadow as Json),
        description: 'Form text "true" or "false". Default true.',
      },
    },
  };

  const errors = {
    400: {
      description: 'Invalid or missing parameter.',
      content: json(ref('ValidationErrorBody')),
    },
    401: {
      description: 'Missing header, or an invalid, expired or revoked token.',
      headers: { 'WWW-Authenticate': { schema: { type: 'string' } } },
      content: json(ref('AuthErrorBody')),
    },
    500: {
      description: 'Internal server error, with a request id in the message.',
      content: json(ref('EndpointErrorBody')),
    },
  };
  const secured = (op: Json) => ({
    ...op,
    responses: { ...(op.responses as Json), 401: errors[401], 500: errors[500] },
  });

  return {
    openapi: '3.1.0',
    info: {
      title: 'Titlecard API',
      version: '1.0.0',
      description: `Lays a title over a photo to make Open Graph and share images.${CHOICES}`,
    },
    servers: [{ url: '/api' }],
    security: [{ bearerAuth: [] }],
    paths: {
      '/generate': {
        post: secured({
          operationId: 'generateImage',
          summary: 'Generate a titled image (uses one unit of the monthly quota).',
          requestBody: {
            required: true,
            content: {
              'multipart/form-data': {
                schema: multipart,
                encoding: {
                  position: { contentType: 'application/json, text/plain' },
                  font: { contentType: 'application/json, text/plain' },
                },
              },
            },
          },
          responses: {
            201: { description: 'Created.', content: json(envelope('ImageRecord')) },
            400: errors[400],
            413: { description: 'Image larger than 10 MB.', content: json(ref('FileTooLargeBody')) },
            429: {
              description: 'Monthly quota exceeded.',
              headers: {
                'Retry-After': {
                  schema: { type: 'integer' },
                  description: 'Seconds until the quota resets.',
                },
              },
              content: json(ref('QuotaErrorBody')),
            },
          },
        }),
      },
      '/images': {
        get: secured({
          operationId: 'listImages',
          summary: 'List generated images.',
          parameters: [
            {
              name: 'limit',
              in: 'query',
              schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
            },
            { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0, default: 0 } },
            {
              name: 'sort',
              in: 'query',
              schema: { type: 'string', enum: ['createdAt', 'title'], default: 'createdAt' },
            },
            {
              name: 'order',
              in: 'query',
              schema: { type: 'string', enum: ['asc', 'desc'], default: 'desc' },
            },
          ],
          responses: {
            200: { description: 'One page.', content: json(envelope('ImagePage')) },
            400: errors[400],
          },
        }),
      },
      '/usage': {
        get: secured({
          operationId: 'getUsage',
          summary: 'Usage this month against the tier quota.',
          responses: { 200: { description: 'Usage.', content: json(envelope('Usage')) } },
        }),
      },
      '/tokens': {
        post: secured({
          operationId: 'createToken',
          summary: 'Create an API token; the secret is returned only here.',
          requestBody: { required: true, content: json(ref('CreateTokenRequest')) },
          responses: {
            201: { description: 'Created.', content: json(envelope('CreatedToken')) },
            400: errors[400],
          },
        }),
        get: secured({
          operationId: 'listTokens',
          summary: 'List active tokens, without secrets.',
          responses: {
            200: {
              description: 'Tokens, newest first.',
              content: json({
                type: 'object',
                required: ['success', 'data'],
                properties: {
                  success: { const: true },
                  data: {
                    type: 'object',
                    required: ['tokens'],
                    properties: { tokens: { type: 'array', items: ref('TokenListEntry') } },
                  },
                },
              }),
            },
          },
        }),
      },
      '/tokens/validate': {
        get: secured({
          operationId: 'validateToken',
          summary: 'Validate the token in the Authorization header.',
          responses: {
            200: { description: 'Profile and usage.', content: json(envelope('TokenValidation')) },
          },
        }),
      },
      '/tokens/{id}': {
        delete: secured({
          operationId: 'revokeToken',
          summary: 'Revoke a token at once.',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: {
            200: {
              description: 'Revoked.',
              content: json({
                type: 'object',
                required: ['success', 'message'],
                properties: { success: { const: true }, message: { type: 'string' } },
              }),
            },
            404: {
              description: "Unknown, already revoked, or another user's token.",
              content: json(ref('EndpointErrorBody')),
            },
          },
        }),
      },
      '/openapi.json': {
        get: {
          operationId: 'getOpenApi',
          summary: 'This document.',
          security: [],
          responses: { 200: { description: 'OpenAPI 3.1 document.', content: json({ type: 'object' }) } },
        },
      },
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
              schema: { type: 'string', pattern: '^[0-9A-Za-z]{22}(_thumb)?\\.(png|jpg|webp)$' },
            },
          ],
          responses: {
            200: {
              description: 'The file, with Cache-Control: public, max-age=31536000, immutable.',
              content: { 'image/png': {}, 'image/jpeg': {}, 'image/webp': {} },
            },
            404: { description: 'No such file.', content: json(ref('EndpointErrorBody')) },
          },
        },
      },
    },
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API token: tc_ followed by 40 base62 characters.',
        },
      },
      schemas: {
        ImageRecord: schemaOf(imageRecordSchema),
        ImagePage: schemaOf(imagePageSchema),
        Usage: schemaOf(usageSchema),
        TokenValidation: schemaOf(tokenValidationSchema),
        CreatedToken: schemaOf(createdTokenSchema),
        TokenListEntry: schemaOf(tokenListEntrySchema),
        CreateTokenRequest: schemaOf(createTokenBodySchema, 'input'),
        EndpointErrorBody: endpointErrorSchema({ type: 'string' }),
        ValidationErrorBody: endpointErrorSchema(
          { const: 'VALIDATION_ERROR' },
          {
            type: 'object',
            required: ['field', 'constraint'],
            properties: { field: { type: 'string' }, constraint: { enum: [...CONSTRAINTS] } },
          },
        ),
        FileTooLargeBody: endpointErrorSchema({ const: 'FILE_TOO_LARGE' }),
        AuthErrorBody: {
          type: 'object',
          required: ['error', 'message'],
          properties: { error: { const: 'Unauthorized' }, message: { type: 'string' } },
        },
        QuotaErrorBody: {
          type: 'object',
          required: ['error', 'message', 'retryAfter'],
          properties: {
            error: { const: 'Rate limit exceeded' },
            message: { type: 'string' },
            retryAfter: { type: 'integer', minimum: 1, description: 'Seconds until the quota resets.' },
          },
        },
      },
    },
  };
}
