/** The success envelope of spec 7.1, written once for every route. */
import type { Response } from 'express';

/** Sends `{success: true, data}` with `status` (200 by default; 201 for a creation, our choice). */
export function ok(res: Response, data: unknown, status = 200): void {
  res.status(status).json({ success: true, data });
}
