/**
 * Workspaces, their members, invitations and audit logs (docs/workspaces.md) on MongoDB; and the
 * upgrade of a database written before workspaces, run at open: each account gets its personal
 * workspace (the account's id, name and tier) with itself as owner, and each token its workspace
 * (its account's). Every step is an insert of a unique `_id` or an update of documents still
 * lacking the field, so processes opening the store together, or an open that stopped midway and
 * runs again, do it once.
 */
import type { Collection, Db } from 'mongodb';
import type { Role } from '../../../domain/design.js';
import type { AuditEntry, Invitation, Membership, Workspace } from '../../../domain/kernel/records.js';
import type { RecordStore } from '../../../domain/kernel/ports.js';
import { isDuplicateKey, type TokenDoc, type UserDoc } from './documents.js';

interface WorkspaceDoc extends Omit<Workspace, 'id'> {
  _id: string;
}
/** `_id` is `workspaceId:userId`. */
interface MembershipDoc extends Membership {
  _id: string;
}
interface InvitationDoc extends Omit<Invitation, 'id'> {
  _id: string;
}
interface AuditDoc extends Omit<AuditEntry, 'id'> {
  _id: string;
}

const toWorkspace = ({ _id, ...rest }: WorkspaceDoc): Workspace => ({ id: _id, ...rest });
const toMembership = ({ _id: _i, ...rest }: MembershipDoc): Membership => rest;
const toInvitation = ({ _id, ...rest }: InvitationDoc): Invitation => ({ id: _id, ...rest });
const toAudit = ({ _id, ...rest }: AuditDoc): AuditEntry => ({ id: _id, ...rest });

/** Inserts, leaving alone the documents whose `_id` is already there. */
async function insertMissing<T extends { _id: string }>(collection: Collection<T>, docs: T[]): Promise<void> {
  for (const doc of docs) {
    try {
      await collection.insertOne(doc as never);
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
  }
}

/** The upgrade to workspaces (see the module comment). */
async function upgradeAccounts(
  db: Db,
  workspaces: Collection<WorkspaceDoc>,
  members: Collection<MembershipDoc>,
) {
  const users: Collection<UserDoc> = db.collection('users');
  const tokens: Collection<TokenDoc> = db.collection('tokens');
  const stale = await tokens.find({ workspaceId: { $exists: false } }).toArray();
  for (const token of stale)
    await tokens.updateOne(
      { _id: token._id, workspaceId: { $exists: false } },
      { $set: { workspaceId: token.userId, scopes: null } },
    );
  const accounts = await users.find({ tier: { $exists: true } }).toArray();
  if (accounts.length === 0) return;
  const known = new Set(
    (
      await workspaces
        .find({ _id: { $in: accounts.map((u) => u._id) } }, { projection: { _id: 1 } })
        .toArray()
    ).map((w) => w._id),
  );
  const missing = accounts.filter((u) => !known.has(u._id));
  await insertMissing(
    workspaces,
    missing.map((u) => ({
      _id: u._id,
      name: u.displayName,
      tier: (u.tier ?? 'free') as Workspace['tier'],
      personalOf: u._id,
      createdAt: u.createdAt,
    })),
  );
  // Every account still to upgrade gets its membership, also when its workspace is there already
  // (an upgrade that stopped midway, or another process's under way): inserts by a unique `_id`.
  await insertMissing(
    members,
    accounts.map((u) => ({
      _id: `${u._id}:${u._id}`,
      workspaceId: u._id,
      userId: u._id,
      role: 'owner' as const,
      createdAt: u.createdAt,
    })),
  );
  // The tier is the workspace's now; the account keeps none.
  await users.updateMany({ _id: { $in: accounts.map((u) => u._id) } }, { $unset: { tier: '' } });
}

/** The `workspaces` repository of the {@link RecordStore} on MongoDB; upgrades and creates its indexes first. */
export async function mongoWorkspaces(db: Db): Promise<RecordStore['workspaces']> {
  const workspaces: Collection<WorkspaceDoc> = db.collection('workspaces');
  const members: Collection<MembershipDoc> = db.collection('memberships');
  await Promise.all([
    members.createIndex({ userId: 1 }, { name: 'memberships_by_user' }),
    members.createIndex({ workspaceId: 1, createdAt: 1 }, { name: 'memberships_by_workspace' }),
  ]);
  await upgradeAccounts(db, workspaces, members);
  return {
    async create(workspace, owner) {
      const { id, ...rest } = workspace;
      await workspaces.insertOne({ _id: id, ...rest });
      await members.insertOne({ _id: `${owner.workspaceId}:${owner.userId}`, ...owner });
    },
    async find(id) {
      const doc = await workspaces.findOne({ _id: id });
      return doc ? toWorkspace(doc) : undefined;
    },
    async update(id, changes) {
      const set = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
      return (await workspaces.updateOne({ _id: id }, { $set: set })).matchedCount === 1;
    },
    async delete(id) {
      await members.deleteMany({ workspaceId: id });
      await workspaces.deleteOne({ _id: id });
    },
    async listFor(userId) {
      const mine = await members.find({ userId }).toArray();
      const found = await workspaces.find({ _id: { $in: mine.map((m) => m.workspaceId) } }).toArray();
      const roles = new Map(mine.map((m) => [m.workspaceId, m.role]));
      return found
        .map((w) => ({ workspace: toWorkspace(w), role: roles.get(w._id) as Role }))
        .sort(
          (a, b) =>
            Number(a.workspace.id !== userId) - Number(b.workspace.id !== userId) ||
            (a.workspace.name < b.workspace.name ? -1 : a.workspace.name > b.workspace.name ? 1 : 0) ||
            (a.workspace.id < b.workspace.id ? -1 : 1),
        );
    },
    async member(workspaceId, userId) {
      const doc = await members.findOne({ _id: `${workspaceId}:${userId}` });
      return doc ? toMembership(doc) : undefined;
    },
    async members(workspaceId) {
      return (await members.find({ workspaceId }).sort({ createdAt: 1, userId: 1 }).toArray()).map(
        toMembership,
      );
    },
    async addMember(m) {
      try {
        await members.insertOne({ _id: `${m.workspaceId}:${m.userId}`, ...m });
        return true;
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
    },
    async setRole(workspaceId, userId, role) {
      return (
        (await members.updateOne({ _id: `${workspaceId}:${userId}` }, { $set: { role } })).matchedCount === 1
      );
    },
    async removeMember(workspaceId, userId) {
      return (await members.deleteOne({ _id: `${workspaceId}:${userId}` })).deletedCount === 1;
    },
  };
}

/** The `invitations` repository of the {@link RecordStore} on MongoDB; creates its indexes first. */
export async function mongoInvitations(db: Db): Promise<RecordStore['invitations']> {
  const invitations: Collection<InvitationDoc> = db.collection('invitations');
  // An acceptance is an insert of the invitation's id here: a unique `_id` holds on every server
  // that speaks the protocol, where a conditional update does not (FerretDB reads, then writes;
  // see index.ts), so of concurrent accepts exactly one wins.
  const accepted: Collection<{ _id: string; at: Date }> = db.collection('invitation_acceptances');
  await Promise.all([
    invitations.createIndex({ secretHash: 1 }, { unique: true, name: 'invitations_by_secret' }),
    invitations.createIndex({ workspaceId: 1, createdAt: -1 }, { name: 'invitations_by_workspace' }),
  ]);
  return {
    async create(invitation) {
      const { id, ...rest } = invitation;
      await invitations.insertOne({ _id: id, ...rest });
    },
    async pending(workspaceId, now) {
      return (
        await invitations
          .find({ workspaceId, acceptedAt: null, expiresAt: { $gt: now } })
          .sort({ createdAt: -1, _id: -1 })
          .toArray()
      ).map(toInvitation);
    },
    async findBySecret(secretHash) {
      const doc = await invitations.findOne({ secretHash });
      return doc ? toInvitation(doc) : undefined;
    },
    async accept(id, at) {
      if (!(await invitations.findOne({ _id: id, acceptedAt: null }))) return false;
      try {
        await accepted.insertOne({ _id: id, at });
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
      await invitations.updateOne({ _id: id }, { $set: { acceptedAt: at } });
      return true;
    },
    async delete(workspaceId, id) {
      const deleted = (await invitations.deleteOne({ _id: id, workspaceId })).deletedCount === 1;
      if (deleted) await accepted.deleteOne({ _id: id });
      return deleted;
    },
    async deleteAllFor(workspaceId) {
      const ids = (await invitations.find({ workspaceId }, { projection: { _id: 1 } }).toArray()).map(
        (d) => d._id,
      );
      await invitations.deleteMany({ workspaceId });
      await accepted.deleteMany({ _id: { $in: ids } });
    },
  };
}

/** The `audit` repository of the {@link RecordStore} on MongoDB; creates its indexes first. */
export async function mongoAudit(db: Db): Promise<RecordStore['audit']> {
  const entries: Collection<AuditDoc> = db.collection('audit_entries');
  await Promise.all([
    entries.createIndex({ workspaceId: 1, at: -1, _id: -1 }, { name: 'audit_by_workspace' }),
    entries.createIndex({ at: 1 }, { name: 'audit_by_time' }),
  ]);
  return {
    async append(entry) {
      const { id, ...rest } = entry;
      await entries.insertOne({ _id: id, ...rest });
    },
    async page(workspaceId, limit, offset) {
      const [items, total] = await Promise.all([
        entries.find({ workspaceId }).sort({ at: -1, _id: -1 }).skip(offset).limit(limit).toArray(),
        entries.countDocuments({ workspaceId }),
      ]);
      return { items: items.map(toAudit), total };
    },
    async prune(before) {
      return (await entries.deleteMany({ at: { $lt: before } })).deletedCount;
    },
    async deleteAllFor(workspaceId) {
      await entries.deleteMany({ workspaceId });
    },
  };
}
