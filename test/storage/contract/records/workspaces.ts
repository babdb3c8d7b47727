/**
 * The RecordStore contract, workspaces (issue 51): workspaces and members, invitations used once,
 * the audit log newest first and pruned, tokens with scopes in a workspace.
 */
import { expect, it } from 'vitest';
import { newId } from '../../../../src/domain/kernel/ids.js';
import type { AuditEntry, Invitation, Workspace } from '../../../../src/domain/kernel/records.js';
import { token, user, type ContractContext } from './fixtures.js';

const at = (iso: string) => new Date(iso);
const workspace = (name: string, personalOf: string | null = null): Workspace => ({
  id: personalOf ?? newId('wsp'),
  name,
  tier: 'pro',
  personalOf,
  createdAt: at('2026-11-01T00:00:00.000Z'),
});

export function workspacesContract({ open, email }: ContractContext): void {
  it('keeps workspaces with their members: the personal one first, then by name; roles change; members go', async () => {
    const store = await open();
    const ada = user(email());
    const bob = user(email());
    await store.users.create(ada);
    await store.users.create(bob);
    const personal = workspace('Ada', ada.id);
    const zeta = workspace('Zeta client');
    const acme = workspace('Acme client');
    for (const w of [zeta, personal, acme])
      await store.workspaces.create(w, {
        workspaceId: w.id,
        userId: ada.id,
        role: 'owner',
        createdAt: w.createdAt,
      });
    expect(await store.workspaces.find(acme.id)).toEqual(acme);
    expect((await store.workspaces.listFor(ada.id)).map((w) => [w.workspace.name, w.role])).toEqual([
      ['Ada', 'owner'],
      ['Acme client', 'owner'],
      ['Zeta client', 'owner'],
    ]);
    const joined = {
      workspaceId: acme.id,
      userId: bob.id,
      role: 'editor' as const,
      createdAt: at('2026-11-02T00:00:00.000Z'),
    };
    expect(await store.workspaces.addMember(joined)).toBe(true);
    expect(await store.workspaces.addMember(joined)).toBe(false);
    expect(await store.workspaces.member(acme.id, bob.id)).toEqual(joined);
    expect(await store.workspaces.member(zeta.id, bob.id)).toBeUndefined();
    expect(await store.workspaces.setRole(acme.id, bob.id, 'viewer')).toBe(true);
    expect((await store.workspaces.members(acme.id)).map((m) => [m.userId, m.role])).toEqual([
      [ada.id, 'owner'],
      [bob.id, 'viewer'],
    ]);
    expect(await store.workspaces.setRole(zeta.id, bob.id, 'admin')).toBe(false);
    expect(await store.workspaces.update(acme.id, { name: 'Acme Corp', tier: 'agency' })).toBe(true);
    expect(await store.workspaces.find(acme.id)).toMatchObject({ name: 'Acme Corp', tier: 'agency' });
    expect(await store.workspaces.update('wsp_missing', { name: 'x' })).toBe(false);
    expect(await store.workspaces.removeMember(acme.id, bob.id)).toBe(true);
    expect(await store.workspaces.removeMember(acme.id, bob.id)).toBe(false);
    await store.workspaces.delete(zeta.id);
    expect(await store.workspaces.find(zeta.id)).toBeUndefined();
    expect(await store.workspaces.member(zeta.id, ada.id)).toBeUndefined();
    expect((await store.workspaces.listFor(ada.id)).map((w) => w.workspace.id)).toEqual([
      personal.id,
      acme.id,
    ]);
    await store.close();
  });

  it('lists pending invitations only, finds one by its secret, and takes it once, also under concurrent accepts', async () => {
    const store = await open();
    const w = workspace('Invites');
    const base = {
      workspaceId: w.id,
      role: 'editor' as const,
      invitedBy: newId('usr'),
      createdAt: at('2026-11-01T00:00:00.000Z'),
      acceptedAt: null,
    };
    const live: Invitation = {
      ...base,
      id: newId('inv'),
      email: 'live@example.com',
      secretHash: newId('inv'),
      expiresAt: at('2026-11-08T00:00:00.000Z'),
    };
    const expired: Invitation = {
      ...base,
      id: newId('inv'),
      email: 'late@example.com',
      secretHash: newId('inv'),
      expiresAt: at('2026-11-02T00:00:00.000Z'),
    };
    await store.invitations.create(live);
    await store.invitations.create(expired);
    const now = at('2026-11-05T00:00:00.000Z');
    expect((await store.invitations.pending(w.id, now)).map((i) => i.id)).toEqual([live.id]);
    expect(await store.invitations.findBySecret(live.secretHash)).toEqual(live);
    const accepts = await Promise.all(
      Array.from({ length: 6 }, () => store.invitations.accept(live.id, now)),
    );
    expect(accepts.filter(Boolean)).toHaveLength(1);
    expect((await store.invitations.findBySecret(live.secretHash))?.acceptedAt).toEqual(now);
    expect(await store.invitations.pending(w.id, now)).toEqual([]);
    expect(await store.invitations.delete(w.id, expired.id)).toBe(true);
    expect(await store.invitations.delete(w.id, expired.id)).toBe(false);
    await store.invitations.deleteAllFor(w.id);
    expect(await store.invitations.findBySecret(live.secretHash)).toBeUndefined();
    await store.close();
  });

  it('pages the audit log newest first with its total, and prunes entries past their keep', async () => {
    const store = await open();
    const w = workspace('Audited');
    const entry = (action: string, iso: string): AuditEntry => ({
      id: newId('aud'),
      workspaceId: w.id,
      actorId: newId('usr'),
      action,
      target: null,
      details: { role: 'viewer' },
      address: '203.0.113.7',
      at: at(iso),
    });
    const old = entry('token.created', '2025-01-01T00:00:00.000Z');
    const a = entry('member.added', '2026-11-01T00:00:00.000Z');
    const b = entry('member.role_changed', '2026-11-02T00:00:00.000Z');
    for (const e of [a, old, b]) await store.audit.append(e);
    expect(await store.audit.page(w.id, 2, 0)).toEqual({ items: [b, a], total: 3 });
    expect((await store.audit.page(w.id, 2, 2)).items).toEqual([old]);
    expect(await store.audit.prune(at('2025-11-28T00:00:00.000Z'))).toBeGreaterThanOrEqual(1);
    expect((await store.audit.page(w.id, 10, 0)).items).toEqual([b, a]);
    await store.audit.deleteAllFor(w.id);
    expect((await store.audit.page(w.id, 10, 0)).total).toBe(0);
    await store.close();
  });

  it("keeps a token's workspace and scopes; lists a member's own; revokes what a member made there", async () => {
    const store = await open();
    const ada = user(email());
    const bob = user(email());
    await store.users.create(ada);
    await store.users.create(bob);
    const shared = newId('wsp');
    const adas = { ...token(ada.id, '2026-11-01T00:00:00Z', shared), scopes: ['images:read' as const] };
    const bobs = token(bob.id, '2026-11-02T00:00:00Z', shared);
    const bobsOwn = token(bob.id, '2026-11-03T00:00:00Z');
    for (const t of [adas, bobs, bobsOwn]) await store.tokens.create(t);
    expect(await store.tokens.findActiveByHash(adas.tokenHash)).toEqual(adas);
    expect((await store.tokens.listActive(shared)).map((t) => t.id)).toEqual([bobs.id, adas.id]);
    expect((await store.tokens.listActive(shared, ada.id)).map((t) => t.id)).toEqual([adas.id]);
    expect(await store.tokens.revoke(shared, adas.id, new Date(), bob.id)).toBe(false);
    expect(await store.tokens.revokeMade(bob.id, new Date(), shared)).toBe(1);
    expect(await store.tokens.findActiveByHash(bobs.tokenHash)).toBeUndefined();
    expect(await store.tokens.findActiveByHash(bobsOwn.tokenHash)).toEqual(bobsOwn);
    expect(await store.tokens.revokeMade(bob.id, new Date())).toBe(1);
    await store.tokens.deleteAllForWorkspace(shared);
    expect(await store.tokens.findActiveByHash(adas.tokenHash)).toBeUndefined();
    await store.close();
  });
}
