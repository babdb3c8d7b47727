/**
 * Templates: `/templates` CRUD (docs/templates.md) and their OpenAPI description. The four
 * built-ins are listed and read by name (`GET /templates/bottom-left`) and are read-only.
 */
import express from 'express';
import { requireAuth } from '../../http/auth.js';
import { TEMPLATE_LIMITS } from '../../domain/render/index.js';
import { TEMPLATES_PER_ACCOUNT } from '../../domain/templates/templates.js';
import {
  envelope,
  errorResponses,
  idParameter,
  json,
  listEnvelope,
  messageResponse,
  ref,
  secured,
  type Resource,
} from '../describe.js';
import { collectionRoutes } from '../collection.js';
import { jsonBody } from '../../http/json-body.js';

const idParameters = [
  {
    ...idParameter,
    description: 'A template id (tpl_…), or a built-in name: bottom-left, left, right, split.',
  },
];
const forbidden = (description: string) => ({ description, content: json(ref('EndpointErrorBody')) });

export const templatesResource: Resource = {
  router(services) {
    const router = express.Router();
    const auth = requireAuth(services);
    // The document's own limit is checked by the domain, with a message naming it; this only keeps
    // a body far past it from being parsed at all.
    const body = jsonBody(`${2 * TEMPLATE_LIMITS.bytes}b`);
    collectionRoutes(router, services.templates, { plural: 'templates', noun: 'Template', auth, body });
    return router;
  },

  paths: {
    '/templates': {
      post: secured({
        operationId: 'createTemplate',
        summary: `Save a template: a JSON document of layers (docs/templates.md). At most ${TEMPLATE_LIMITS.layers} layers, ${TEMPLATE_LIMITS.imageLayers} image layers, ${TEMPLATE_LIMITS.variables} variables, ${TEMPLATE_LIMITS.bytes} bytes; ${TEMPLATES_PER_ACCOUNT} templates an account.`,
        requestBody: { required: true, content: json(ref('TemplateDocument')) },
        responses: {
          201: { description: 'Created, version 1.', content: json(envelope('Template')) },
          400: errorResponses[400],
          403: forbidden(`The account has ${TEMPLATES_PER_ACCOUNT} templates already.`),
        },
      }),
      get: secured({
        operationId: 'listTemplates',
        summary: 'The four built-ins, then your templates, newest first.',
        responses: { 200: { description: 'Templates.', content: listEnvelope('templates', 'Template') } },
      }),
    },
    '/templates/{id}': {
      get: secured({
        operationId: 'getTemplate',
        summary: 'One template with its document; a built-in by name, to copy as a starting point.',
        parameters: idParameters,
        responses: {
          200: { description: 'The template.', content: json(envelope('Template')) },
          404: errorResponses[404],
        },
      }),
      put: secured({
        operationId: 'replaceTemplate',
        summary:
          'Replace a template; its version goes up by one, so render links using it render again on their next fetch.',
        parameters: idParameters,
        requestBody: { required: true, content: json(ref('TemplateDocument')) },
        responses: {
          200: { description: 'The template as saved.', content: json(envelope('Template')) },
          400: errorResponses[400],
          403: forbidden('A built-in template, which is read-only.'),
          404: errorResponses[404],
        },
      }),
      delete: secured({
        operationId: 'deleteTemplate',
        summary: 'Delete a template.',
        parameters: idParameters,
        responses: {
          200: messageResponse('Done.'),
          403: forbidden('A built-in template, which is read-only.'),
          404: errorResponses[404],
          409: {
            description: 'A preset uses the template (code CONFLICT).',
            content: json(ref('EndpointErrorBody')),
          },
        },
      }),
    },
  },
};
