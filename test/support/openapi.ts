/**
 * Checks real responses against the OpenAPI document the server serves, with Ajv (JSON Schema
 * 2020-12, the dialect of OpenAPI 3.1).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { buildOpenApiDocument } from '../../src/api/openapi.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
export const openApiDocument = buildOpenApiDocument();
ajv.addSchema(openApiDocument, 'openapi');

const escape = (s: string) => encodeURIComponent(s.replaceAll('~', '~0').replaceAll('/', '~1'));

/** Throws unless `body` matches the document's schema for `method path` answering `status`. */
export function assertMatchesOpenApi(method: string, route: string, status: number, body: unknown): void {
  const pointer = `openapi#/paths/${escape(route)}/${method.toLowerCase()}/responses/${status}/content/application~1json/schema`;
  const validate = ajv.getSchema(pointer) ?? ajv.compile({ $ref: pointer });
  if (!validate(body))
    throw new Error(
      `${method} ${route} ${status} does not match the OpenAPI document: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body)}`,
    );
}

/** Whether `value` is valid against the document's component schema `name`. */
export function matchesComponent(name: string, value: unknown): boolean {
  const pointer = `openapi#/components/schemas/${name}`;
  const validate = ajv.getSchema(pointer) ?? ajv.compile({ $ref: pointer });
  return validate(value) === true;
}
