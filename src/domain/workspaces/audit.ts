/**
 * The audit log of each workspace (docs/workspaces.md#audit-log): who did what, to what, when and
 * from which address. Entries are kept a year ({@link AUDIT_KEPT_MS}); the runtime's sweep prunes
 * older ones. Writing an entry never fails the action it records: a failed write is logged.
 */
import type { Logger } from 'pino';
import { newId } from '../kernel/ids.js';
import type { Clock, RecordStore } from '../kernel/ports.js';
import type { AuditEntry } from '../kernel/records.js';
import type { Principal } from './roles.js';

/** How long entries are kept: a year of 365 days (issue 51), in ms. */
export const AUDIT_KEPT_MS = 365 * 24 * 3600 * 1000;

/** What was done: the actions the log records (docs/workspaces.md#audit-log). */
export type AuditAction =
  | 'workspace.created'
  | 'workspace.updated'
  | 'workspace.transferred'
  | 'member.added'
  | 'member.role_changed'
  | 'member.removed'
  | 'invitation.sent'
  | 'invitation.accepted'
  | 'invitation.withdrawn'
  | 'token.created'
  | 'token.revoked'
  | 'webhook.created'
  | 'webhook.deleted'
  | 'site.created'
  | 'site.updated'
  | 'site.deleted'
  | 'subscription.changed';

export interface AuditLog {
  /**
   * Records `action` in `workspaceId` (the principal's own when omitted) by the principal (or the
   * operator, `null`), on `target` with `details`.
   */
  record(
    actor: Pick<Principal, 'user' | 'address' | 'workspace'> | null,
    action: AuditAction,
    options?: { target?: string; details?: Record<string, string>; workspaceId?: string },
  ): Promise<void>;
  /** One page of the log, newest first. */
  page(workspaceId: string, limit: number, offset: number): Promise<{ items: AuditEntry[]; total: number }>;
  /** Deletes entries older than a year; answers how many. */
  prune(): Promise<number>;
}

export function createAuditLog({
  store,
  clock,
  logger,
}: {
  store: RecordStore;
  clock: Clock;
  logger: Logger;
}): AuditLog {
  // Entries one process records within a millisecond keep their order: each is stamped at least
  // 1 ms after the one before (the log is read newest first, by time).
  let last = 0;
  return {
    async record(actor, action, { target, details, workspaceId } = {}) {
      const workspace = workspaceId ?? actor?.workspace.id;
      if (!workspace) throw new Error('An audit entry needs a workspace');
      const entry: AuditEntry = {
        id: newId('aud'),
        workspaceId: workspace,
        actorId: actor?.user.id ?? null,
        action,
        target: target ?? null,
        details: details ?? {},
        address: actor?.address ?? null,
        at: new Date((last = Math.max(clock.now().getTime(), last + 1))),
      };
      await store.audit
        .append(entry)
        .catch((err: unknown) => logger.error({ err, action, workspace }, 'audit entry not recorded'));
    },
    page: (workspaceId, limit, offset) => store.audit.page(workspaceId, limit, offset),
    prune: () => store.audit.prune(new Date(clock.now().getTime() - AUDIT_KEPT_MS)),
  };
}
