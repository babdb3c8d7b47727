/**
 * Schema pieces every subdomain's request and response schemas share: record ids, http URLs, template
 * ids, timestamps. Each subdomain keeps its own schemas beside it (images/schemas.ts,
 * accounts/schemas.ts, presets/schemas.ts, …), defined once with zod and reused at every edge: the
 * REST layer validates with them, the MCP tools use them as `inputSchema`/`outputSchema`, and the
 * OpenAPI document is generated from them. Every rule cites docs/api.md unless marked as our choice.
 */
import { z } from 'zod';
import { type IdPrefix, idPattern } from './kernel/ids.js';

/** An id of Titlecard's records: a prefix, `_`, and 22 base62 characters (src/domain/kernel/ids.ts). */
export const recordIdSchema = (prefix: IdPrefix) =>
  z
    .string()
    .regex(idPattern(prefix), `an id such as ${prefix}_3SJQtzQudCCNw7msvpESdd`)
    .describe(`An id such as ${prefix}_3SJQtzQudCCNw7msvpESdd.`);

/**
 * An http or https URL of at most 2048 characters (a webhook's, a batch's `webhookUrl`, MCP's
 * `imageUrl`): what is fetched or POSTed to. Whether its address may be reached is the SSRF-safe
 * fetcher's to decide (src/adapters/safe-fetch.ts), at each request.
 */
export const httpUrlSchema = () => z.url({ protocol: /^https?$/, error: 'an http or https URL' }).max(2048);

/** A template id: `tpl_` and 22 base62 characters (src/domain/kernel/ids.ts). */
export const TEMPLATE_ID = idPattern('tpl');

/** Whether `value` is a template id (a template of a user's, not a built-in name). */
export function isTemplateId(value: unknown): value is string {
  return typeof value === 'string' && TEMPLATE_ID.test(value);
}

export const isoTimestamp = z.iso.datetime().describe('ISO 8601 UTC timestamp');
