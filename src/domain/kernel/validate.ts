/**
 * Turns zod issues into one {@link ValidationError} whose message names the field, what was expected
 * and what arrived ("Expected a number between 24 and 120 for fontSize but received 300"), in the
 * manner of sharp's `invalidParameterError`.
 */
import type { z } from 'zod';
import { graphemeLength } from '../text.js';
import { ValidationError, type Constraint } from './errors.js';

type Issue = z.core.$ZodIssue;

/** Short, safe rendering of a received value for a message (never more than 60 characters). */
function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string') {
    const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
    return `"${shown}"`;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value))
    return value.length === 0 ? 'an empty array' : `an array of ${countOf(value.length, 'item')}`;
  return `an ${typeof value}`;
}

/** A text past `maximum` characters, by its length in the units that pass it (graphemes, else UTF-16). */
function tooLong(text: string, maximum: number): string {
  const graphemes = graphemeLength(text);
  return countOf(graphemes > maximum ? graphemes : text.length, 'character');
}

/** `n` and `noun`, plural unless n is 1: "1 item", "4 items". */
function countOf(n: number | bigint, noun: string): string {
  return `${String(n)} ${noun}${Number(n) === 1 ? '' : 's'}`;
}

/** A type's name with its indefinite article: "an array", "an object", "a number". */
function withArticle(type: string): string {
  return `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
}

/** Formats in words, by zod's name for them (z.email, z.url, z.iso.datetime). */
const FORMAT_PHRASES: Record<string, string> = {
  email: 'an email address',
  url: 'a URL',
  datetime: 'an ISO 8601 date and time',
};

/** Whether `message` is a schema's own (what it expects, in words) rather than zod's ("Invalid …"). */
const ownMessage = (message: string) => !message.startsWith('Invalid');

/**
 * What an `invalid_format` issue expected, in words. For zod's formats (a regex, z.url, z.email):
 * the schema's own message (recordIdSchema's "an id such as ast_…"), else the format's phrase. A
 * refinement that names its own format (`fields only with a template id`) keeps that.
 */
function formatPhrase(issue: Extract<Issue, { code: 'invalid_format' }>): string {
  const known = issue.format === 'regex' || issue.format in FORMAT_PHRASES;
  if (!known) return issue.format;
  return ownMessage(issue.message) ? issue.message : (FORMAT_PHRASES[issue.format] ?? issue.format);
}

function firstLeaf(issue: Issue): Issue {
  if (issue.code !== 'invalid_union') return issue;
  // Pick the branch the input was meant for: first one whose issues all lie below the root (its type
  // matched and a nested value failed), then one that did not fail on the type itself.
  const input = issue.input;
  const branches = issue.errors;
  const matching =
    branches.find((b) => b.length > 0 && b.every((i) => i.path.length > 0)) ??
    branches.find((b) => b.every((i) => !(i.code === 'invalid_type' && i.path.length === 0))) ??
    branches[0];
  const leaf = matching?.[0];
  if (!leaf) return issue;
  return firstLeaf({
    ...leaf,
    path: [...issue.path, ...leaf.path],
    input: leaf.path.length > 0 ? leaf.input : (leaf.input ?? input),
  } as Issue);
}

/**
 * `fromIssue` with, for keys the body's top level does not know, the keys it does: a client that
 * sent `events` to POST /webhooks learns that `url` is all there is.
 */
function fromIssueOf(schema: z.ZodType, issue: Issue, prefix: string[]): ValidationError {
  const error = fromIssue(issue, prefix);
  const shape = (schema as { shape?: Record<string, unknown> }).shape;
  if (issue.code !== 'unrecognized_keys' || issue.path.length > 0 || !shape) return error;
  return new ValidationError(
    error.field,
    error.constraint,
    `${error.message} (the keys it knows: ${Object.keys(shape).join(', ')})`,
  );
}

function fromIssue(raw: Issue, prefix: string[]): ValidationError {
  const issue = firstLeaf(raw);
  // Array indices as brackets: `layers[3].box.w`, as a reader of the JSON would write the path.
  const field =
    [...prefix, ...issue.path].reduce<string>(
      (at, key) => (typeof key === 'number' ? `${at}[${key}]` : at ? `${at}.${String(key)}` : String(key)),
      '',
    ) || 'body';
  // A secret is never echoed into a message (messages reach pages and logs); a text too long is
  // described by its length, which is what the limit is about (a 201-character title was quoted):
  // in user-perceived characters where those pass the limit (the API's texts count them), else in
  // UTF-16 units (zod's own maximum counts those).
  const got = /password/i.test(field)
    ? `${typeof issue.input === 'string' ? issue.input.length : 0} characters`
    : issue.code === 'too_big' && typeof issue.input === 'string'
      ? tooLong(issue.input, Number(issue.maximum))
      : describe(issue.input);
  // A discriminated union whose discriminator (a layer's `type`) matched no option: say which.
  if (issue.code === 'invalid_union' && issue.discriminator !== undefined && issue.errors.length === 0) {
    const value = (issue.input as Record<string, unknown> | undefined)?.[issue.discriminator];
    // zod 4 sets `options` (the discriminator's values) on this issue; its type does not declare it.
    const options = ((issue as { options?: unknown[] }).options ?? []).map((o) => String(o)).join(', ');
    return value === undefined
      ? new ValidationError(
          field,
          'required',
          `Expected one of ${options} for ${field} but received nothing: ${field} is required`,
        )
      : new ValidationError(
          field,
          'enum',
          `Expected one of ${options} for ${field} but received ${describe(value)}`,
        );
  }
  let constraint: Constraint;
  let expected: string;
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) {
        constraint = 'required';
        return new ValidationError(
          field,
          constraint,
          issue.message.includes('required when')
            ? `Expected ${field} to be set (${issue.message})`
            : `Expected a value for ${field} but received nothing: ${field} is required`,
        );
      }
      constraint = 'type';
      expected = withArticle(issue.expected === 'int' ? 'integer' : issue.expected);
      break;
    case 'too_small':
      constraint = issue.origin === 'string' ? 'minLength' : 'min';
      expected =
        issue.origin === 'string'
          ? `at least ${countOf(issue.minimum, 'character')}`
          : issue.origin === 'array'
            ? `at least ${countOf(issue.minimum, 'item')}`
            : `a number of at least ${String(issue.minimum)}`;
      break;
    case 'too_big':
      constraint = issue.origin === 'string' ? 'maxLength' : 'max';
      expected =
        issue.origin === 'string'
          ? `at most ${countOf(issue.maximum, 'character')}`
          : issue.origin === 'array'
            ? `at most ${countOf(issue.maximum, 'item')}`
            : `a number of at most ${String(issue.maximum)}`;
      break;
    case 'invalid_value':
      constraint = 'enum';
      expected = `one of ${issue.values.map((v) => String(v)).join(', ')}`;
      break;
    case 'invalid_format':
      constraint = 'format';
      expected = formatPhrase(issue);
      break;
    case 'unrecognized_keys':
      return new ValidationError(
        field,
        'enum',
        `Expected only known keys in ${field} but received ${issue.keys.join(', ')}`,
      );
    default:
      constraint = 'format';
      // A refinement's message says what it expects ("an asset id (ast_…) or an https URL").
      expected = issue.code === 'custom' && ownMessage(issue.message) ? issue.message : 'a valid value';
  }
  return new ValidationError(field, constraint, `Expected ${expected} for ${field} but received ${got}`);
}

/**
 * Parses `input` with `schema`; returns the typed result or throws the {@link ValidationError} of the
 * first issue. `fieldPrefix` is prepended to paths (for nested bodies).
 */
export function parseOrThrow<S extends z.ZodType>(
  schema: S,
  input: unknown,
  fieldPrefix: string[] = [],
): z.output<S> {
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  // Keys the top level does not know first: a misspelt or wrapped field (`nmae`, `{document: …}`)
  // explains the `required` issues that zod lists before it.
  const issue =
    result.error.issues.find((i) => i.code === 'unrecognized_keys' && i.path.length === 0) ??
    result.error.issues[0];
  if (!issue) throw new ValidationError('body', 'format', 'Expected a valid request');
  throw fromIssueOf(schema, issue, fieldPrefix);
}
