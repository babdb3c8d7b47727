/**
 * Images (docs/api.md#generate-options, 4.2): `POST /generate` and `GET /images`, and their OpenAPI description.
 */
import { readFile } from 'node:fs/promises';
import express from 'express';
import { fingerprintOf, type Attempt } from '../../domain/kernel/idempotency.js';
import type { GenerateRequestReader } from '../../domain/images/images.js';
import type { StoredResponse } from '../../domain/kernel/ports.js';
import { MAX_INPUT_PIXELS } from '../../domain/render/index.js';
import {
  generateOptionsSchema,
  listImagesQuerySchema,
  type RenderReport,
} from '../../domain/images/schemas.js';
import { derivedId, idPattern } from '../../domain/kernel/ids.js';
import { LIMITS } from '../../domain/design.js';
import { principalOf, requireAuth, setRateLimitHeaders } from '../../http/auth.js';
import {
  envelope,
  errorResponses,
  idempotent,
  idParameter,
  json,
  messageResponse,
  ref,
  schemaOf,
  secured,
  type Json,
  type Resource,
  queryParameters,
} from '../describe.js';
import { decodeFields } from '../../http/form.js';
import { receiveForm, type ReceivedForm } from '../../http/multipart.js';
import { idempotently } from '../../http/idempotency.js';
import { ok, sendStored } from '../../http/respond.js';

/** The header of `POST /generate` that carries the render report (see `renderReportSchema`). */
export const RENDER_REPORT_HEADER = 'Titlecard-Render-Report';
/** The render report's warnings, in words (ours; docs/api.md): a soft, enlarged background, text under 4.5:1. */
export const WARNING_HEADER = 'Titlecard-Warning';

/** JSON for a header value: ASCII only (RFC 9110 field values), other characters as \uXXXX escapes. */
function headerJson(report: RenderReport | null): string {
  return JSON.stringify(report).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

const generateForm = (): Json => {
  const generate = schemaOf(generateOptionsSchema, 'input');
  const props = generate.properties as Json;
  return {
    type: 'object',
    required: ['title'],
    properties: {
      image: {
        type: 'string',
        contentMediaType: 'application/octet-stream',
        description: `Background image: JPEG, PNG or WebP, judged by its bytes; at most ${LIMITS.imageBytes} bytes (10 MB) and ${MAX_INPUT_PIXELS / 1e6} megapixels. Required unless asset, imageUrl or a preset with a background gives one (exactly one of image, asset and imageUrl).`,
      },
      asset: {
        type: 'string',
        pattern: idPattern('ast').source,
        description: 'Background: an image uploaded with POST /assets, instead of image.',
      },
      imageUrl: {
        type: 'string',
        format: 'uri',
        description:
          'Background: an http or https URL the server fetches (public addresses only, at most 10 MB and 10 s), instead of image.',
      },
      preset: {
        type: 'string',
        pattern: idPattern('pre').source,
        description:
          "A preset: its options and background apply, and this request's own fields override them.",
      },
      ...props,
      gradient: { ...(props.gradient as Json), description: 'Form text "true" or "false". Default true.' },
      textShadow: {
        ...(props.textShadow as Json),
        description: 'Form text "true" or "false". Default true.',
      },
    },
  };
};

export const imagesResource: Resource = {
  router(services) {
    const router = express.Router();
    const auth = requireAuth(services);

    router.post('/generate', auth, async (req, res) => {
      const upload: { form?: ReceivedForm } = {};
      // No file is fine when the form names another background (asset, imageUrl, a preset's):
      // the domain decides, and answers "image is required" when there is none.
      const requestOf = (form: ReceivedForm) => ({
        image: form.image && { path: form.image.path },
        options: decodeFields(form.fields),
      });
      /** One generation, as the answer to send (status, body, headers). */
      const generateNow = async (read: GenerateRequestReader, attempt?: Attempt): Promise<StoredResponse> => {
        // A retry taking over a request whose process died makes (or finds) the same image.
        const imageId = attempt && derivedId('img', attempt.id);
        const { image, report } = await services.generation.generate(principalOf(res), read, { imageId });
        return {
          status: 201,
          body: JSON.stringify({ success: true, data: image }),
          headers: {
            [RENDER_REPORT_HEADER]: headerJson(report),
            // A retry answered from the record has no report (null): nothing to warn of then.
            ...(report?.warnings.length ? { [WARNING_HEADER]: report.warnings.join(' ') } : {}),
          },
        };
      };
      try {
        // The upload is read only once a unit of quota is reserved (429 first when none is left),
        // unless an Idempotency-Key is sent: then the whole request is read first, since its
        // fingerprint decides whether this is a retry (answered from the store, not charged).
        const answer = await idempotently(req, services.idempotency, {
          caller: principalOf(res),
          fingerprint: async () => {
            const form = (upload.form = await receiveForm(req));
            return fingerprintOf(
              JSON.stringify(Object.entries(form.fields).sort(([a], [b]) => a.localeCompare(b))),
              form.image ? await readFile(form.image.path) : '',
            );
          },
          work: (attempt) =>
            generateNow(async () => requestOf((upload.form ??= await receiveForm(req))), attempt),
        });
        // The image is made: a store blip reading the usage costs the headers, not the answer.
        const caller = principalOf(res);
        const usage = caller.scopes.has('usage:read')
          ? await services.quota.usage(caller.workspace).catch(() => undefined)
          : undefined;
        if (usage) setRateLimitHeaders(res, usage);
        sendStored(res, answer);
      } finally {
        await upload.form?.cleanup();
      }
    });

    router.get('/images', auth, async (req, res) => {
      ok(res, await services.images.list(principalOf(res), decodeFields(req.query)));
    });
    router.get('/images/:id', auth, async (req, res) => {
      ok(res, await services.images.get(principalOf(res), req.params.id as string));
    });

    router.delete('/images/:id', auth, async (req, res) => {
      await services.images.delete(principalOf(res), req.params.id as string);
      // The shape of DELETE /tokens/{id} (docs/api.md#endpoints): `message` in place of `data`.
      res.json({ success: true, message: `Image ${req.params.id as string} deleted` });
    });
    return router;
  },

  paths: {
    '/generate': {
      post: secured(
        idempotent({
          operationId: 'generateImage',
          summary: 'Generate a titled image (uses one unit of the monthly quota).',
          requestBody: {
            required: true,
            content: {
              'multipart/form-data': {
                schema: generateForm(),
                encoding: {
                  position: { contentType: 'application/json, text/plain' },
                  font: { contentType: 'application/json, text/plain' },
                  focus: { contentType: 'application/json, text/plain' },
                },
              },
            },
          },
          responses: {
            201: {
              description: 'Created.',
              headers: {
                [WARNING_HEADER]: {
                  description:
                    '(Ours.) Present when the card is worse than it could be, in words to show a person: the background was enlarged more than 1.5 times to cover the card (it looks soft), or the text stayed under a 4.5:1 contrast ratio. The render report has the same text in `warnings`.',
                  schema: { type: 'string' },
                },
                [RENDER_REPORT_HEADER]: {
                  description:
                    "The render report as JSON (ASCII, non-ASCII characters escaped as \\uXXXX): a RenderReport. Kept out of the body so that the API's record stays exactly as it is.",
                  schema: { type: 'string' },
                },
              },
              content: json(envelope('ImageRecord')),
            },
            400: errorResponses[400],
            413: { description: 'Image larger than 10 MB.', content: json(ref('FileTooLargeBody')) },
            503: {
              description:
                'BUSY: the expected wait for a render in this process is past RENDER_MAX_WAIT (30 s by default), or RENDER_QUEUE generations already wait, or (GENERATE_ON_WORKERS) no worker took the render within GENERATE_WAIT_SECONDS. UNAVAILABLE: the record store, the file store or the queue does not answer. Nothing was charged; try again after Retry-After (with the same Idempotency-Key, a retry answers an image a worker made after all).',
              headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait.' } },
              content: json(ref('EndpointErrorBody')),
            },
            429: {
              description:
                'Monthly quota exceeded; or (ours) this account had 10 failed imageUrl fetches in 5 minutes, and an imageUrl is refused without a fetch until that window ends (docs/security.md).',
              headers: {
                'Retry-After': {
                  schema: { type: 'integer' },
                  description: 'Seconds until the quota resets, or until the window of failed fetches ends.',
                },
              },
              content: json(ref('QuotaErrorBody')),
            },
          },
        }),
      ),
    },
    '/images': {
      get: secured({
        operationId: 'listImages',
        summary:
          'List generated images. An empty query value (order=) counts as not sent: the default applies.',
        parameters: queryParameters(listImagesQuerySchema),
        responses: {
          200: { description: 'One page.', content: json(envelope('ImagePage')) },
          400: errorResponses[400],
        },
      }),
    },
    '/images/{id}': {
      get: secured({
        operationId: 'getImage',
        summary: 'One of your images, with its title, subtitle and format.',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          200: { description: 'The image.', content: json(envelope('ImageDetail')) },
          404: { description: "Unknown, or another user's image.", content: errorResponses[404].content },
        },
      }),
      delete: secured({
        operationId: 'deleteImage',
        summary:
          'Delete one of your images: the record and both files (their URLs answer 404 from then on). The quota unit it used stays used.',
        parameters: [idParameter],
        responses: {
          200: messageResponse('Deleted.'),
          404: { description: "Unknown, or another user's image.", content: errorResponses[404].content },
        },
      }),
    },
  },
};
