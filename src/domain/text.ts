/**
 * The text rules of docs/api.md#generate-options for a title, a subtitle and every other text the API takes: lengths in
 * user-perceived characters (extended grapheme clusters, UAX #29), leading and trailing white space
 * trimmed, no control character but line feed (a forced line break).
 */
import { z } from 'zod';

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Length in user-perceived characters (extended grapheme clusters, UAX #29): an emoji counts once. */
export function graphemeLength(text: string): number {
  let n = 0;
  for (const _ of graphemes.segment(text)) n++;
  return n;
}

/**
 * `text` cut to at most `max` user-perceived characters, the last of them an ellipsis (white space
 * before it trimmed); `text` itself when it fits. Segments no further than it needs, so a text of
 * any length costs what its first `max` characters do.
 */
export function cutGraphemes(text: string, max: number): string {
  const clusters: string[] = [];
  for (const { segment } of graphemes.segment(text)) {
    clusters.push(segment);
    if (clusters.length > max) break;
  }
  if (clusters.length <= max) return text;
  return `${clusters
    .slice(0, Math.max(1, max - 1))
    .join('')
    .trimEnd()}…`;
}

/** `text` safe inside HTML, XML or SVG, as an element's text or a quoted attribute: `& < > " '` escaped. */
export function escapeMarkup(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

// C0/C1 control characters other than line feed (a line feed is a forced line break).
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
/** {@link CONTROL_CHARS} excluded, and not all white space: the text rules as a JSON Schema pattern. */
const TEXT_PATTERN = '^(?=[\\s\\S]*\\S)[^\\u0000-\\u0009\\u000b-\\u001f\\u007f-\\u009f]*$';

/** A trimmed text of 1 to `max` characters, with no control characters but line feeds. */
export function textSchema(max: number) {
  return (
    z
      .string()
      .superRefine((value, ctx) => {
        // On the text as sent, before trimming: a control character at an end is refused too, as
        // the schema's pattern says (schemathesis found a leading vertical tab accepted).
        if (CONTROL_CHARS.test(value))
          ctx.addIssue({
            code: 'invalid_format',
            format: 'text without control characters',
            input: value,
            message: 'control characters other than line feed are not allowed',
          });
      })
      .trim()
      .superRefine((value, ctx) => {
        const n = graphemeLength(value);
        if (n < 1)
          ctx.addIssue({ code: 'too_small', origin: 'string', minimum: 1, inclusive: true, input: value });
        else if (n > max)
          ctx.addIssue({ code: 'too_big', origin: 'string', maximum: max, inclusive: true, input: value });
      })
      // The rules above in JSON Schema terms, so that the OpenAPI document and the server agree: at
      // least one character that is not white space, and no control character but line feed.
      .meta({ minLength: 1, maxLength: max, pattern: TEXT_PATTERN })
  );
}
