/** The success envelope of docs/api.md#responses, written once for every route. */
import type { Response } from 'express';
import type { StoredResponse } from '../domain/kernel/ports.js';

/** Sends `{success: true, data}` with `status` (200 by default; 201 for a creation, our choice). */
export function ok(res: Response, data: unknown, status = 200): void {
  res.status(status).json({ success: true, data });
}

/** Sends an answer made ahead of time (kept for Idempotency-Key retries): status, headers, JSON body. */
export function sendStored(res: Response, answer: StoredResponse): void {
  res.status(answer.status).set(answer.headers).type('json').send(answer.body);
}
