/**
 * The OpenAPI 3.1 document of the REST API, served at `/api/openapi.json`. Each resource router
 * describes its own routes (`routes/*.ts`); this module adds what they share: the info block, which
 * records every choice made where the contract says "not shown", the security scheme and the component
 * schemas. Request and response schemas are generated from the same zod schemas the code validates
 * with (JSON Schema 2020-12, which OpenAPI 3.1 uses), so the document cannot drift from the behaviour.
 * `npm run client` generates the typed client (`src/client`) from it.
 */
import { CONSTRAINTS } from '../domain/kernel/errors.js';
import { FILE_CACHE_CONTROL } from '../domain/images/files.js';
import {
  createdTokenSchema,
  createTokenBodySchema,
  tokenListEntrySchema,
  tokenValidationSchema,
  usageSchema,
} from '../domain/accounts/schemas.js';
import { assetSchema } from '../domain/assets/schemas.js';
import {
  imageDetailSchema,
  layoutReportSchema,
  imagePageSchema,
  imageRecordSchema,
} from '../domain/images/schemas.js';
import { presetBodySchema, presetSchema } from '../domain/presets/schemas.js';
import {
  createdSigningKeySchema,
  createSigningKeyBodySchema,
  renderUrlBodySchema,
  renderUrlSchema,
  signingKeySchema,
} from '../domain/render-links/schemas.js';
import {
  siteBodySchema,
  siteBudgetBodySchema,
  sitePageSchema,
  siteSchema,
  pageFetchesSchema,
} from '../domain/sites/schemas.js';
import { LIMITS } from '../domain/design.js';
import { MAX_ASPECT_RATIO, MAX_INPUT_PIXELS } from '../domain/render/index.js';
import { THUMBNAIL_WIDTH } from '../domain/render/index.js';
import { json, schemaOf, type Json, type Resource } from './describe.js';
import { assetsResource } from './routes/assets.js';
import { filesResource } from './routes/files.js';
import { presetsResource } from './routes/presets.js';
import { templatesResource } from './routes/templates.js';
import { templateDocumentSchema } from '../domain/render/index.js';
import { templateSchema } from '../domain/templates/schemas.js';
import { renderLinksResource } from './routes/render-links.js';
import { siteLinksResource, sitesResource } from './routes/sites.js';
import { batchesResource } from './routes/batches.js';
import { webhooksResource } from './routes/webhooks.js';
import {
  createdWebhookSchema,
  webhookBodySchema,
  webhookDeliverySchema,
  webhookEndpointSchema,
} from '../domain/webhooks/schemas.js';
import {
  batchBodySchema,
  batchDetailSchema,
  batchSchema,
  createdBatchSchema,
} from '../domain/batches/schemas.js';
import { imagesResource } from './routes/images.js';
import { layoutResource } from './routes/layout.js';
import { tokensResource } from './routes/tokens.js';
import { usageResource } from './routes/usage.js';
import { previewBodySchema, previewReportSchema } from '../domain/link-previews/schemas.js';
import { previewsResource } from './routes/previews.js';
import { workspacesResource } from './routes/workspaces.js';
import { billingResource } from './routes/billing.js';
import { billingViewSchema, checkoutBodySchema } from '../domain/billing/billing.js';
import {
  auditPageSchema,
  createWorkspaceSchema,
  invitationBodySchema,
  invitationSchema,
  memberSchema,
  memberUpdateSchema,
  updateWorkspaceSchema,
  workspaceSchema,
} from '../domain/workspaces/schemas.js';

/** The resources under `/api`, in the order the document lists them. */
export const API_RESOURCES: Resource[] = [
  imagesResource,
  layoutResource,
  usageResource,
  tokensResource,
  workspacesResource,
  billingResource,
  assetsResource,
  presetsResource,
  templatesResource,
  sitesResource,
  previewsResource,
  batchesResource,
  webhooksResource,
];

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
Choices made where the contract says "not shown":
- Creations answer 201 Created (POST /generate, POST /tokens); everything else that succeeds answers 200.
- Not found: 404 with {success:false, error:{code:"NOT_FOUND", message}}, for unknown routes, for revoking a token that is unknown, already revoked or another user's, and for reading or deleting an image that is unknown or another user's.
- GET /images/{id} and DELETE /images/{id} are ours, beside the API's list: the record with title, subtitle and format; deletion answers {success:true, message} like DELETE /tokens/{id}, removes the record and both files, and gives no quota back.
- VALIDATION_ERROR details.constraint is one of ${CONSTRAINTS.join(', ')}.
- 401 responses carry WWW-Authenticate: Bearer (RFC 6750).
- retryAfter (429) is in seconds until the quota resets, the first instant of the next UTC month; the Retry-After header carries the same value.
- Quota: successful generations per workspace per UTC calendar month. A failed request uses none.
- Tokens: "tc_" followed by 40 base62 characters; only a SHA-256 hash is stored. Names: 1 to 100 characters, need not be unique. At most ${LIMITS.activeTokensMax} active tokens per workspace. lastUsedAt is null until first use.
- Workspaces (ours, docs/workspaces.md): a token acts in one workspace, with scopes within its member's role; the quota, tier and every record are the workspace's. A request outside the token's scopes answers 403 FORBIDDEN naming the missing scope. GET /tokens/validate also names the workspace, the role and the scopes.
- Tiers are written free, pro, agency.
- title and subtitle lengths count user-perceived characters (grapheme clusters); leading and trailing white space is trimmed; a line feed forces a line break.
- position {x, y}: fractions 0 to 1 of the canvas, the centre of the text block, kept inside the safe zone.
- Thumbnails are ${THUMBNAIL_WIDTH} px wide (og 400×210, square 400×400, portrait 400×500), in the image's format.
- Background images of more than ${MAX_INPUT_PIXELS / 1e6} megapixels, or with an aspect ratio beyond ${MAX_ASPECT_RATIO}:1, are refused (400, constraint max); a file cut short or whose header promises more than its data holds is refused (400, constraint format).
- Image files are served publicly at {PUBLIC_URL}/files/{key} with an unguessable key and Cache-Control: ${FILE_CACHE_CONTROL}.
- The list is ordered with ties broken by id; title sorting ignores case.
- Ours, beside docs/api.md#generate-options: focus (what the cover crop keeps: auto, the default, keeps the faces, people, cats and dogs found whole; center, attention or {x, y}) and template auto (the calmest of bottom-left, left and right). POST /layout checks a layout without an image or quota (60 a minute per account). Every POST /generate answer carries the render report in the Titlecard-Render-Report header (JSON, ASCII), so that the record in the body stays as docs/api.md has it; a background enlarged more than 1.5 times to cover the card (it looks soft), and text under a 4.5:1 contrast ratio, are named in its warnings and in a Titlecard-Warning header.
- Idempotency-Key (ours, after the IETF draft) on POST /generate and POST /tokens: a retry with the same key and request within 24 h gets the first answer, not charged again; another request with the key is a 422, a retry while the first is under way a 409. Only successful answers are kept.
- Templates (ours): POST /templates saves a JSON document of layers; template in /generate, /layout, presets and render links takes its id (tpl_…), and fields fills its variables. The four built-ins are documents too, read-only at GET /templates/{name}.
- No versioning: no version marker in paths or headers.`;

/** Builds the document. Pure; called once at start-up. */
export function buildOpenApiDocument(): Json {
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
      ...Object.assign({}, ...API_RESOURCES.map((r) => r.paths)),
      '/openapi.json': {
        get: {
          operationId: 'getOpenApi',
          summary: 'This document.',
          security: [],
          responses: { 200: { description: 'OpenAPI 3.1 document.', content: json({ type: 'object' }) } },
        },
      },
      ...filesResource.paths,
      ...renderLinksResource.paths,
      ...siteLinksResource.paths,
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
        ImageDetail: schemaOf(imageDetailSchema),
        LayoutReport: schemaOf(layoutReportSchema),
        Usage: schemaOf(usageSchema),
        TokenValidation: schemaOf(tokenValidationSchema),
        CreatedToken: schemaOf(createdTokenSchema),
        TokenListEntry: schemaOf(tokenListEntrySchema),
        CreateTokenRequest: schemaOf(createTokenBodySchema, 'input'),
        BillingView: schemaOf(billingViewSchema),
        CheckoutRequest: schemaOf(checkoutBodySchema, 'input'),
        Workspace: schemaOf(workspaceSchema),
        CreateWorkspaceRequest: schemaOf(createWorkspaceSchema, 'input'),
        UpdateWorkspaceRequest: schemaOf(updateWorkspaceSchema, 'input'),
        Member: schemaOf(memberSchema),
        MemberUpdateRequest: schemaOf(memberUpdateSchema, 'input'),
        Invitation: schemaOf(invitationSchema),
        InvitationRequest: schemaOf(invitationBodySchema, 'input'),
        AuditPage: schemaOf(auditPageSchema),
        Asset: schemaOf(assetSchema),
        Preset: schemaOf(presetSchema),
        PresetRequest: schemaOf(presetBodySchema, 'input'),
        // The view's document is the document as saved, every default filled: the request's schema.
        Template: {
          ...schemaOf(templateSchema),
          properties: {
            ...(schemaOf(templateSchema).properties as Json),
            document: { $ref: '#/components/schemas/TemplateDocument' },
          },
        },
        TemplateDocument: schemaOf(templateDocumentSchema, 'input'),
        SigningKey: schemaOf(signingKeySchema),
        CreatedSigningKey: schemaOf(createdSigningKeySchema),
        CreateSigningKeyRequest: schemaOf(createSigningKeyBodySchema, 'input'),
        RenderUrlRequest: schemaOf(renderUrlBodySchema, 'input'),
        RenderUrl: schemaOf(renderUrlSchema),
        Site: schemaOf(siteSchema),
        SiteRequest: schemaOf(siteBodySchema, 'input'),
        SiteBudgetRequest: schemaOf(siteBudgetBodySchema, 'input'),
        SitePage: schemaOf(sitePageSchema),
        PageFetches: schemaOf(pageFetchesSchema),
        PreviewRequest: schemaOf(previewBodySchema, 'input'),
        PreviewReport: schemaOf(previewReportSchema),
        Batch: schemaOf(batchSchema),
        BatchDetail: schemaOf(batchDetailSchema),
        BatchRequest: schemaOf(batchBodySchema, 'input'),
        CreatedBatch: schemaOf(createdBatchSchema),
        WebhookRequest: schemaOf(webhookBodySchema, 'input'),
        WebhookEndpoint: schemaOf(webhookEndpointSchema),
        CreatedWebhook: schemaOf(createdWebhookSchema),
        WebhookDelivery: schemaOf(webhookDeliverySchema),
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
            upgradeUrl: {
              type: 'string',
              format: 'uri',
              description: 'Ours, with billing on (docs/billing.md): where the owner buys a larger plan.',
            },
          },
        },
      },
    },
  };
}
