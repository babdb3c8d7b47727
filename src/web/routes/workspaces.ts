/**
 * The dashboard's workspace pages (docs/workspaces.md): the switcher, Members (invite, change a
 * role, remove, pending invitations, a new workspace), the audit log, and an invitation's page,
 * where the invited person signs in (or signs up) and accepts.
 */
import express, { type Response } from 'express';
import { ROLES } from '../../domain/design.js';
import type { Services } from '../../domain/services.js';
import { formText, noticeFrom, orRefusal } from '../forms.js';
import { day, page } from '../render.js';
import {
  mustBeSignedIn,
  requireSignIn,
  sessionPrincipal,
  setWorkspaceCookie,
  type CookieSettings,
} from '../session.js';
import { INVITATION_PATH } from '../../domain/workspaces/workspaces.js';

const NOTICES = {
  invited: 'Invitation sent: the link in it works once, for 7 days.',
  withdrawn: 'Invitation withdrawn: its link no longer works.',
  role: 'Role changed: it applies at once, to their tokens too.',
  removed: 'Member removed: their tokens here stopped working at once.',
  created: 'Workspace made: you are its owner, and it is the one you work in now.',
  left: 'You left the workspace.',
};

export function workspacesRoutes(services: Services, cookie: CookieSettings): express.Router {
  const { workspaces } = services;
  const router = express.Router();

  const membersPage = async (res: Response, extra: Record<string, unknown> = {}, status = 200) => {
    const who = sessionPrincipal(res);
    const admin = who.scopes.has('workspace:admin');
    const [workspace, members, invitations] = await Promise.all([
      workspaces.get(who, who.workspace.id),
      workspaces.members(who, who.workspace.id),
      admin ? workspaces.invitations(who, who.workspace.id) : [],
    ]);
    page(
      res,
      'members',
      {
        title: 'Members',
        section: 'settings',
        tab: 'members',
        current: workspace,
        members,
        invitations,
        admin,
        owner: who.role === 'owner',
        roles: ROLES,
        day,
        ...extra,
      },
      status,
    );
  };

  router.post('/workspaces/switch', requireSignIn, (req, res) => {
    const chosen = formText(req.body, 'workspace');
    const mine = mustBeSignedIn(res).workspaces.some((w) => w.workspace.id === chosen);
    if (mine) setWorkspaceCookie(res, cookie, chosen);
    res.redirect(303, '/overview');
  });
  router.post('/workspaces', requireSignIn, async (req, res) => {
    await orRefusal(
      res,
      (error, status) => membersPage(res, { error }, status),
      async () => {
        const made = await workspaces.create(sessionPrincipal(res), { name: formText(req.body, 'name') });
        setWorkspaceCookie(res, cookie, made.id);
        res.redirect(303, '/settings/members?done=created');
      },
    );
  });

  router.get('/settings/members', async (req, res) => {
    await membersPage(res, { notice: noticeFrom(NOTICES, req.query.done) });
  });
  router.post('/settings/members/invite', async (req, res) => {
    const values = { email: formText(req.body, 'email'), role: formText(req.body, 'role') };
    await orRefusal(
      res,
      (error, status) => membersPage(res, { error, values }, status),
      async () => {
        const who = sessionPrincipal(res);
        await workspaces.invite(who, who.workspace.id, values);
        res.redirect(303, '/settings/members?done=invited');
      },
    );
  });
  router.post('/settings/members/:userId/role', async (req, res) => {
    await orRefusal(
      res,
      (error, status) => membersPage(res, { error }, status),
      async () => {
        const who = sessionPrincipal(res);
        await workspaces.setRole(who, who.workspace.id, req.params.userId, {
          role: formText(req.body, 'role'),
        });
        res.redirect(303, '/settings/members?done=role');
      },
    );
  });
  router.post('/settings/members/:userId/remove', async (req, res) => {
    await orRefusal(
      res,
      (error, status) => membersPage(res, { error }, status),
      async () => {
        const who = sessionPrincipal(res);
        await workspaces.removeMember(who, who.workspace.id, req.params.userId);
        if (req.params.userId !== who.user.id) return res.redirect(303, '/settings/members?done=removed');
        // Left: back to the personal workspace.
        setWorkspaceCookie(res, cookie, who.user.id);
        res.redirect(303, '/overview');
      },
    );
  });
  router.post('/settings/invitations/:id/withdraw', async (req, res) => {
    await orRefusal(
      res,
      (error, status) => membersPage(res, { error }, status),
      async () => {
        const who = sessionPrincipal(res);
        await workspaces.withdraw(who, who.workspace.id, req.params.id);
        res.redirect(303, '/settings/members?done=withdrawn');
      },
    );
  });

  router.get('/settings/audit', async (req, res) => {
    await orRefusal(
      res,
      (error, status) =>
        page(
          res,
          'audit',
          { title: 'Audit log', section: 'settings', tab: 'audit', error, entries: [], day },
          status,
        ),
      async () => {
        const who = sessionPrincipal(res);
        const offset = Number(req.query.offset ?? 0);
        const log = await workspaces.audit(who, who.workspace.id, {
          limit: 50,
          offset: Number.isInteger(offset) ? offset : 0,
        });
        page(res, 'audit', { title: 'Audit log', section: 'settings', tab: 'audit', ...log, day });
      },
    );
  });

  // An invitation's page: open to anyone with the link; accepting needs the invited address.
  const invitationPage = async (
    res: Response,
    token: string,
    extra: Record<string, unknown> = {},
    status = 200,
  ) => {
    await orRefusal(
      res,
      (error, s) => page(res, 'invitation', { title: 'Invitation', error, token }, s),
      async () => {
        const invitation = await workspaces.preview(token);
        const here = `${INVITATION_PATH}?token=${encodeURIComponent(token)}`;
        page(res, 'invitation', { title: 'Invitation', invitation, token, here, day, ...extra }, status);
      },
    );
  };
  router.get(INVITATION_PATH, async (req, res) => {
    res.set('Cache-Control', 'no-store');
    await invitationPage(res, typeof req.query.token === 'string' ? req.query.token : '');
  });
  router.post(INVITATION_PATH, requireSignIn, async (req, res) => {
    const token = formText(req.body, 'token');
    await orRefusal(
      res,
      (error, status) => invitationPage(res, token, { error }, status),
      async () => {
        const joined = await workspaces.accept(mustBeSignedIn(res).user, token, req.ip);
        setWorkspaceCookie(res, cookie, joined.id);
        res.redirect(303, '/overview');
      },
    );
  });
  return router;
}
