/** Every account's personal workspace (docs/workspaces.md): made with the account, gone with it. */
import type { Tier } from '../design.js';
import type { RecordStore } from '../kernel/ports.js';
import type { User, Workspace } from '../kernel/records.js';

/** A person's personal workspace: the account's own id and name, on `tier`. */
export function personalWorkspace(user: User, tier: Tier): Workspace {
  return { id: user.id, name: user.displayName, tier, personalOf: user.id, createdAt: user.createdAt };
}

/** Stores the personal workspace of a new account with the account as its owner, and answers it. */
export async function createPersonalWorkspace(
  store: RecordStore,
  user: User,
  tier: Tier,
): Promise<Workspace> {
  const workspace = personalWorkspace(user, tier);
  await store.workspaces.create(workspace, {
    workspaceId: workspace.id,
    userId: user.id,
    role: 'owner',
    createdAt: user.createdAt,
  });
  return workspace;
}
