/**
 * Form fields arrive as text; this turns them into the typed values the shared schemas expect.
 * Booleans are `true`/`false`, numbers decimals, `position`, `font` and `fields` JSON objects (a bare font name
 * is accepted too; `focus` may be a name or a JSON object too). A value that does not decode is passed on as text, so the schema reports a
 * `type` error naming the field. An empty optional field counts as not sent (HTML forms send empty
 * inputs). Unknown fields are ignored.
 */
import { ValidationError } from '../domain/kernel/errors.js';

const BOOLEANS = new Set(['gradient', 'textShadow']);
const NUMBERS = new Set(['fontSize', 'limit', 'offset']);
const JSON_OBJECTS = new Set(['position', 'font', 'focus', 'fields']);
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)$/;

export function decodeField(name: string, value: string): unknown {
  if (BOOLEANS.has(name)) return value === 'true' ? true : value === 'false' ? false : value;
  if (NUMBERS.has(name)) return DECIMAL.test(value.trim()) ? Number(value) : value;
  if (JSON_OBJECTS.has(name) && value.trim().startsWith('{')) {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      throw new ValidationError(
        name,
        'format',
        `Expected a JSON object for ${name} but received text that is not valid JSON`,
      );
    }
  }
  return value;
}

/** Decodes every non-empty field. */
export function decodeFields(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value !== 'string') out[name] = value;
    else if (value !== '') out[name] = decodeField(name, value);
  }
  return out;
}
