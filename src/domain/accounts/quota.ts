/**
 * The monthly quota (docs/api.md#limits) as people and headers see it: successful generations per
 * user per UTC calendar month, against the tier's limit. Units are charged, settled and refunded in
 * the charge ledger (ledger.ts), the one home of the usage counters.
 */
import type { z } from 'zod';
import { profileOf } from './accounts.js';
import type { Principal } from '../workspaces/roles.js';
import type { Account } from './ledger.js';
import { monthStart, nextMonthStart } from '../kernel/period.js';
import type { Ledger } from './ledger.js';
import type { tokenValidationSchema, usageSchema } from './schemas.js';

export type UsageView = z.infer<typeof usageSchema>;
export type TokenValidation = z.infer<typeof tokenValidationSchema>;

/** The quota's views: what an account has used of its month, for people and headers. */
export interface Quota {
  /** docs/api.md#endpoints. `period.end` is the first instant of the next UTC month; `percentUsed` has two decimals. */
  usage(account: Account): Promise<UsageView>;
  /**
   * docs/api.md#endpoints: the caller's profile (its `tier` the workspace's), this month's usage of
   * the workspace, and the workspace the caller acts in with their role and scopes.
   */
  validation(principal: Principal): Promise<TokenValidation>;
}

/** The quota's views over the charge ledger's counts (ledger.ts, where units are charged and refunded). */
export function createQuota(ledger: Pick<Ledger, 'used'>): Quota {
  return {
    async usage(account) {
      const c = await ledger.used(account);
      return {
        period: { start: monthStart(c.now).toISOString(), end: nextMonthStart(c.now).toISOString() },
        usage: {
          generated: c.generated,
          limit: c.limit,
          remaining: c.remaining,
          percentUsed: Math.round((c.generated / c.limit) * 10_000) / 100,
        },
        tier: account.tier,
      };
    },

    async validation({ user, workspace, role, scopes }) {
      const c = await ledger.used(workspace);
      return {
        user: profileOf(user, workspace),
        usage: { month: c.month, quota: c.limit, count: c.generated, remaining: c.remaining },
        workspace: { id: workspace.id, name: workspace.name, role, scopes: [...scopes] },
      };
    },
  };
}
