/** Workspaces, their members, invitations and audit logs (docs/workspaces.md) on SQLite. */
import type Database from 'better-sqlite3';
import type { Role } from '../../../domain/design.js';
import type { AuditEntry, Invitation, Membership, Workspace } from '../../../domain/kernel/records.js';
import type { RecordStore } from '../../../domain/kernel/ports.js';

interface WorkspaceRow {
  id: string;
  name: string;
  tier: Workspace['tier'];
  personal_of: string | null;
  created_at: string;
}
interface MembershipRow {
  workspace_id: string;
  user_id: string;
  role: Role;
  created_at: string;
}
interface InvitationRow {
  id: string;
  workspace_id: string;
  email: string;
  role: Role;
  invited_by: string;
  secret_hash: string;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
}
interface AuditRow {
  id: string;
  workspace_id: string;
  actor_id: string | null;
  action: string;
  target: string | null;
  details: string;
  address: string | null;
  at: string;
}

const toWorkspace = (r: WorkspaceRow): Workspace => ({
  id: r.id,
  name: r.name,
  tier: r.tier,
  personalOf: r.personal_of,
  createdAt: new Date(r.created_at),
});
const toMembership = (r: MembershipRow): Membership => ({
  workspaceId: r.workspace_id,
  userId: r.user_id,
  role: r.role,
  createdAt: new Date(r.created_at),
});
const toInvitation = (r: InvitationRow): Invitation => ({
  id: r.id,
  workspaceId: r.workspace_id,
  email: r.email,
  role: r.role,
  invitedBy: r.invited_by,
  secretHash: r.secret_hash,
  createdAt: new Date(r.created_at),
  expiresAt: new Date(r.expires_at),
  acceptedAt: r.accepted_at ? new Date(r.accepted_at) : null,
});
const toAudit = (r: AuditRow): AuditEntry => ({
  id: r.id,
  workspaceId: r.workspace_id,
  actorId: r.actor_id,
  action: r.action,
  target: r.target,
  details: JSON.parse(r.details) as Record<string, string>,
  address: r.address,
  at: new Date(r.at),
});

/** The `workspaces` repository of the {@link RecordStore} on SQLite. */
export function sqliteWorkspaces(db: Database.Database): RecordStore['workspaces'] {
  const q = {
    insert: db.prepare(
      `INSERT INTO workspaces (id, name, tier, personal_of, created_at)
       VALUES (@id, @name, @tier, @personalOf, @createdAt)`,
    ),
    insertMember: db.prepare(
      `INSERT OR IGNORE INTO memberships (workspace_id, user_id, role, created_at)
       VALUES (@workspaceId, @userId, @role, @createdAt)`,
    ),
    find: db.prepare<[string], WorkspaceRow>('SELECT * FROM workspaces WHERE id = ?'),
    delete: db.prepare('DELETE FROM workspaces WHERE id = ?'),
    update: db.prepare('UPDATE workspaces SET name = @name, tier = @tier WHERE id = @id'),
    deleteMembers: db.prepare('DELETE FROM memberships WHERE workspace_id = ?'),
    listFor: db.prepare<{ userId: string }, WorkspaceRow & { role: Role }>(
      `SELECT w.*, m.role FROM memberships m JOIN workspaces w ON w.id = m.workspace_id
       WHERE m.user_id = @userId ORDER BY w.id <> @userId, w.name, w.id`,
    ),
    member: db.prepare<[string, string], MembershipRow>(
      'SELECT * FROM memberships WHERE workspace_id = ? AND user_id = ?',
    ),
    members: db.prepare<[string], MembershipRow>(
      'SELECT * FROM memberships WHERE workspace_id = ? ORDER BY created_at, user_id',
    ),
    setRole: db.prepare('UPDATE memberships SET role = ? WHERE workspace_id = ? AND user_id = ?'),
    removeMember: db.prepare('DELETE FROM memberships WHERE workspace_id = ? AND user_id = ?'),
  };
  const create = db.transaction((w: Workspace, owner: Membership) => {
    q.insert.run({ ...w, createdAt: w.createdAt.toISOString() });
    q.insertMember.run({ ...owner, createdAt: owner.createdAt.toISOString() });
  });
  const remove = db.transaction((id: string) => {
    q.deleteMembers.run(id);
    q.delete.run(id);
  });
  return {
    async create(workspace, owner) {
      create(workspace, owner);
    },
    async find(id) {
      const r = q.find.get(id);
      return r && toWorkspace(r);
    },
    async update(id, changes) {
      const found = q.find.get(id);
      if (!found) return false;
      q.update.run({ id, name: changes.name ?? found.name, tier: changes.tier ?? found.tier });
      return true;
    },
    async delete(id) {
      remove(id);
    },
    async listFor(userId) {
      return q.listFor.all({ userId }).map((r) => ({ workspace: toWorkspace(r), role: r.role }));
    },
    async member(workspaceId, userId) {
      const r = q.member.get(workspaceId, userId);
      return r && toMembership(r);
    },
    async members(workspaceId) {
      return q.members.all(workspaceId).map(toMembership);
    },
    async addMember(m) {
      return q.insertMember.run({ ...m, createdAt: m.createdAt.toISOString() }).changes === 1;
    },
    async setRole(workspaceId, userId, role) {
      return q.setRole.run(role, workspaceId, userId).changes === 1;
    },
    async removeMember(workspaceId, userId) {
      return q.removeMember.run(workspaceId, userId).changes === 1;
    },
  };
}

/** The `invitations` repository of the {@link RecordStore} on SQLite. */
export function sqliteInvitations(db: Database.Database): RecordStore['invitations'] {
  const q = {
    insert: db.prepare(
      `INSERT INTO invitations (id, workspace_id, email, role, invited_by, secret_hash, created_at, expires_at, accepted_at)
       VALUES (@id, @workspaceId, @email, @role, @invitedBy, @secretHash, @createdAt, @expiresAt, NULL)`,
    ),
    pending: db.prepare<[string, string], InvitationRow>(
      `SELECT * FROM invitations WHERE workspace_id = ? AND accepted_at IS NULL AND expires_at > ?
       ORDER BY created_at DESC, id DESC`,
    ),
    bySecret: db.prepare<[string], InvitationRow>('SELECT * FROM invitations WHERE secret_hash = ?'),
    accept: db.prepare('UPDATE invitations SET accepted_at = ? WHERE id = ? AND accepted_at IS NULL'),
    delete: db.prepare('DELETE FROM invitations WHERE workspace_id = ? AND id = ?'),
    deleteAll: db.prepare('DELETE FROM invitations WHERE workspace_id = ?'),
  };
  return {
    async create(i) {
      q.insert.run({ ...i, createdAt: i.createdAt.toISOString(), expiresAt: i.expiresAt.toISOString() });
    },
    async pending(workspaceId, now) {
      return q.pending.all(workspaceId, now.toISOString()).map(toInvitation);
    },
    async findBySecret(secretHash) {
      const r = q.bySecret.get(secretHash);
      return r && toInvitation(r);
    },
    async accept(id, at) {
      return q.accept.run(at.toISOString(), id).changes === 1;
    },
    async delete(workspaceId, id) {
      return q.delete.run(workspaceId, id).changes === 1;
    },
    async deleteAllFor(workspaceId) {
      q.deleteAll.run(workspaceId);
    },
  };
}

/** The `audit` repository of the {@link RecordStore} on SQLite. */
export function sqliteAudit(db: Database.Database): RecordStore['audit'] {
  const q = {
    insert: db.prepare(
      `INSERT INTO audit_entries (id, workspace_id, actor_id, action, target, details, address, at)
       VALUES (@id, @workspaceId, @actorId, @action, @target, @details, @address, @at)`,
    ),
    page: db.prepare<[string, number, number], AuditRow>(
      'SELECT * FROM audit_entries WHERE workspace_id = ? ORDER BY at DESC, id DESC LIMIT ? OFFSET ?',
    ),
    count: db.prepare<[string], { n: number }>(
      'SELECT count(*) AS n FROM audit_entries WHERE workspace_id = ?',
    ),
    prune: db.prepare('DELETE FROM audit_entries WHERE at < ?'),
    deleteAll: db.prepare('DELETE FROM audit_entries WHERE workspace_id = ?'),
  };
  return {
    async append(e) {
      q.insert.run({ ...e, details: JSON.stringify(e.details), at: e.at.toISOString() });
    },
    async page(workspaceId, limit, offset) {
      return {
        items: q.page.all(workspaceId, limit, offset).map(toAudit),
        total: q.count.get(workspaceId)?.n ?? 0,
      };
    },
    async prune(before) {
      return q.prune.run(before.toISOString()).changes;
    },
    async deleteAllFor(workspaceId) {
      q.deleteAll.run(workspaceId);
    },
  };
}
