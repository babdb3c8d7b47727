/** The assets' schema: an upload as the API shows it (`POST /assets`, `POST /fonts`). */
import { z } from 'zod';
import { isoTimestamp } from '../schemas.js';

/** An upload as the API shows it (`POST /assets`, `POST /fonts`). */
export const assetSchema = z.object({
  id: z.string(),
  kind: z.enum(['background', 'logo', 'font']),
  name: z.string(),
  format: z.enum(['png', 'jpeg', 'webp', 'ttf', 'otf']),
  width: z.number().int().describe('Pixels; 0 for a font.'),
  height: z.number().int().describe('Pixels; 0 for a font.'),
  bytes: z.number().int(),
  createdAt: isoTimestamp,
});
