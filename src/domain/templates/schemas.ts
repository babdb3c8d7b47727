/** The templates' schema: a template as the API shows it (docs/templates.md). */
import { z } from 'zod';

/** A template as the API shows it. */
export const templateSchema = z.object({
  id: z.string().describe('A built-in name (bottom-left, left, right, split) or a template id tpl_….'),
  name: z.string(),
  version: z.number().int().describe('1 at creation, one more on every edit; 1 for a built-in.'),
  builtIn: z.boolean().describe('True for the four built-ins, which are read-only.'),
  document: z
    .record(z.string(), z.unknown())
    .describe('The template document (docs/templates.md), defaults filled.'),
  createdAt: z.string().nullable().describe('ISO 8601; null for a built-in.'),
  updatedAt: z.string().nullable().describe('ISO 8601; null for a built-in.'),
});
