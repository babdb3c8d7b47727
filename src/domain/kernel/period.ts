/**
 * Quota periods: UTC calendar months (docs/api.md#endpoints `period`, 4.7 `usage.month`).
 */

/** `YYYY-MM` of the UTC month containing `at`. */
export function monthOf(at: Date): string {
  return at.toISOString().slice(0, 7);
}

/** First instant of the UTC month containing `at`. */
export function monthStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

/** First instant of the next UTC month: when the quota resets. */
export function nextMonthStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
}

/** Whole seconds from `at` until the quota resets, rounded up, at least 1 (the `Retry-After` value). */
export function secondsUntilReset(at: Date): number {
  return Math.max(1, Math.ceil((nextMonthStart(at).getTime() - at.getTime()) / 1000));
}
