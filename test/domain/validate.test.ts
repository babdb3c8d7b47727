/**
 * parseOrThrow's messages (src/domain/kernel/validate.ts): the field, what was expected and what
 * arrived, in words a reader of the API can act on.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ValidationError } from '../../src/domain/kernel/errors.js';
import { parseOrThrow } from '../../src/domain/kernel/validate.js';
import { generateOptionsSchema } from '../../src/domain/images/schemas.js';
import { renderUrlBodySchema } from '../../src/domain/render-links/schemas.js';
import { recordIdSchema } from '../../src/domain/schemas.js';
import { templateDocumentSchema } from '../../src/domain/render/document/document.js';
import { webhookBodySchema } from '../../src/domain/webhooks/schemas.js';

/** The ValidationError parseOrThrow throws for `input`, as field, constraint and message. */
function refusal(schema: z.ZodType, input: unknown) {
  try {
    parseOrThrow(schema, input);
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    return { field: err.field, constraint: err.constraint, message: err.message };
  }
  throw new Error('expected a refusal');
}

describe('parseOrThrow messages', () => {
  const body = z.object({ items: z.array(z.string()).min(1).max(3), name: z.string().max(1) });

  it('counts the items of an array, and says when it is empty', () => {
    expect(refusal(body, { items: [], name: 'a' })).toEqual({
      field: 'items',
      constraint: 'min',
      message: 'Expected at least 1 item for items but received an empty array',
    });
    expect(refusal(body, { items: ['a', 'b', 'c', 'd'], name: 'a' })).toEqual({
      field: 'items',
      constraint: 'max',
      message: 'Expected at most 3 items for items but received an array of 4 items',
    });
  });

  it('puts the right article before a type', () => {
    expect(refusal(body, { items: {}, name: 'a' }).message).toBe(
      'Expected an array for items but received an object',
    );
    expect(refusal(body, { items: ['a'], name: 7 }).message).toBe(
      'Expected a string for name but received 7',
    );
    expect(refusal(z.object({ font: z.object({}) }), { font: 'x' }).message).toBe(
      'Expected an object for font but received "x"',
    );
  });

  it('says what a format is in words', () => {
    expect(refusal(z.object({ email: z.email() }), { email: 'bad' }).message).toBe(
      'Expected an email address for email but received "bad"',
    );
    expect(refusal(z.object({ asset: recordIdSchema('ast') }), { asset: 'x' })).toEqual({
      field: 'asset',
      constraint: 'format',
      message: 'Expected an id such as ast_3SJQtzQudCCNw7msvpESdd for asset but received "x"',
    });
    expect(refusal(generateOptionsSchema, { title: 'x', colorMode: 'custom', colorHex: 'red' }).message).toBe(
      'Expected a hex colour #RGB or #RRGGBB for colorHex but received "red"',
    );
    // A template's colours, which are not called colorHex.
    expect(
      refusal(z.object({ background: templateDocumentSchema.shape.background }), { background: 'red' })
        .message,
    ).toBe('Expected a hex colour #RGB or #RRGGBB for background but received "red"');
  });

  it('names the schemes a URL may have', () => {
    expect(refusal(webhookBodySchema, { url: 'ftp://example.com/hook' })).toEqual({
      field: 'url',
      constraint: 'format',
      message: 'Expected an http or https URL for url but received "ftp://example.com/hook"',
    });
  });

  it('lists the keys a body knows when it receives others', () => {
    expect(
      refusal(webhookBodySchema, { url: 'https://example.com/hook', events: ['image.created'] }),
    ).toEqual({
      field: 'body',
      constraint: 'enum',
      message: 'Expected only known keys in body but received events (the keys it knows: url)',
    });
  });

  it('names the options of a discriminated union, such as a layer type', () => {
    const layer = { box: { x: 0, y: 0, w: 1, h: 1 }, content: '{{title}}' };
    expect(refusal(templateDocumentSchema, { name: 'x', layers: [{ type: 'blob', ...layer }] })).toEqual({
      field: 'layers[0].type',
      constraint: 'enum',
      message: 'Expected one of image, rect, gradient, text, logo for layers[0].type but received "blob"',
    });
    expect(refusal(templateDocumentSchema, { name: 'x', layers: [layer] })).toEqual({
      field: 'layers[0].type',
      constraint: 'required',
      message:
        'Expected one of image, rect, gradient, text, logo for layers[0].type but received nothing: layers[0].type is required',
    });
  });

  it('puts unknown top-level keys before the fields they leave missing', () => {
    expect(refusal(webhookBodySchema, { uri: 'https://example.com/hook' }).message).toBe(
      'Expected only known keys in body but received uri (the keys it knows: url)',
    );
  });

  it("uses a refinement's own words for what it expects", () => {
    const preset = 'pre_3SJQtzQudCCNw7msvpESdd';
    expect(refusal(renderUrlBodySchema, { preset, title: 'x', image: 'http://example.com/a.jpg' })).toEqual({
      field: 'image',
      constraint: 'format',
      message:
        'Expected an asset id (ast_…) or an https URL for image but received "http://example.com/a.jpg"',
    });
    expect(refusal(generateOptionsSchema, { title: 'x', fields: { a: 'b' } }).message).toBe(
      'Expected fields only with a template id (tpl_…) for fields but received "{"a":"b"}"',
    );
  });

  it("keeps a refinement's own format name, as the title's control characters", () => {
    expect(refusal(generateOptionsSchema, { title: 'bell\u0007' })).toEqual({
      field: 'title',
      constraint: 'format',
      message: 'Expected text without control characters for title but received "bell\u0007"',
    });
  });

  it('counts characters in the singular too, and gives a text too long by its length, not quoted (issue 55, item 15)', () => {
    expect(refusal(body, { items: ['a'], name: 'ab' }).message).toBe(
      'Expected at most 1 character for name but received 2 characters',
    );
    expect(refusal(generateOptionsSchema, { title: '🙂'.repeat(201) })).toEqual({
      field: 'title',
      constraint: 'maxLength',
      message: 'Expected at most 200 characters for title but received 201 characters',
    });
  });
});
