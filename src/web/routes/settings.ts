/** Settings: API tokens (docs/api.md#authentication), connected apps (OAuth grants) and the account itself. */
import express, { type Response } from 'express';
import type { Services } from '../../domain/services.js';
import { formText, noticeFrom, orRefusal } from '../forms.js';
import { day, page } from '../render.js';
import {
  clearSessionCookie,
  mustBeSignedIn,
  sessionPrincipal,
  sessionSecret,
  type CookieSettings,
} from '../session.js';

const NOTICES: Record<string, string> = {
  revoked: 'The token is revoked: requests with it are refused from now on.',
  profile: 'Your profile is saved.',
  'profile-email':
    'Your profile is saved. Your email changes once you open the link we sent to the new address; we told the old one.',
  password:
    'Your password is changed, and every other session and connected app is signed out. Your API tokens still work: revoke them below if someone else may have one.',
  'revoked-all': 'Every API token is revoked: requests with them are refused from now on.',
  everywhere: 'Every other session is signed out.',
  disconnected: 'The app is disconnected: its access ended at once.',
};

/** The notice for a `?done=` code, if it is one of ours. */
const noticeOf = (done: unknown) => noticeFrom(NOTICES, done);

/**
 * The token form: its name and the scopes ticked. The form says it offered scopes
 * (`scopesOffered`), so that none ticked is refused naming `scopes`; without it, the token gets
 * every scope of its maker.
 */
const tokenForm = (body: unknown) => {
  const form = (body ?? {}) as Record<string, unknown>;
  const ticked = form.scopes;
  const scopes = Array.isArray(ticked) ? ticked : typeof ticked === 'string' ? [ticked] : [];
  return {
    name: formText(body, 'name'),
    ...(form.scopesOffered === '1' || scopes.length > 0 ? { scopes } : {}),
  };
};

export function settingsRoutes(services: Services, cookie: CookieSettings): express.Router {
  const { accounts, sessions, oauth } = services;
  const router = express.Router();

  const tokensPage = async (res: Response, extra: Record<string, unknown> = {}, status = 200) => {
    page(
      res,
      'tokens',
      {
        title: 'API Tokens',
        section: 'settings',
        tab: 'tokens',
        tokens: await accounts.listTokens(sessionPrincipal(res)),
        day,
        ...extra,
      },
      status,
    );
  };
  const accountPage = async (res: Response, extra: Record<string, unknown> = {}, status = 200) => {
    page(
      res,
      'account',
      {
        title: 'Account',
        section: 'settings',
        tab: 'account',
        tokens: await accounts.listTokens(sessionPrincipal(res)),
        day,
        ...extra,
      },
      status,
    );
  };
  router.get('/settings', (_req, res) => {
    res.redirect(303, '/settings/tokens');
  });
  router.get('/settings/tokens', async (req, res) => {
    await tokensPage(res, { notice: noticeOf(req.query.done) });
  });
  router.post('/settings/tokens', async (req, res) => {
    await orRefusal(
      res,
      (error, status) => tokensPage(res, { error }, status),
      async () => {
        const created = await accounts.createToken(sessionPrincipal(res), tokenForm(req.body));
        // The secret is shown on this answer only (no redirect: it never sits in a URL or history).
        res.set('Cache-Control', 'no-store');
        await tokensPage(res, { created }, 201);
      },
    );
  });
  router.post('/settings/tokens/:id/revoke', async (req, res) => {
    await orRefusal(
      res,
      (error, status) => tokensPage(res, { error }, status),
      async () => {
        await accounts.revokeToken(sessionPrincipal(res), req.params.id);
        res.redirect(303, '/settings/tokens?done=revoked');
      },
    );
  });

  const appsPage = async (res: Response, extra: Record<string, unknown> = {}, status = 200) => {
    page(
      res,
      'apps',
      {
        title: 'Connected apps',
        section: 'settings',
        tab: 'apps',
        apps: await oauth.connectedApps(mustBeSignedIn(res).user),
        mcpUrl: oauth.resource,
        day,
        ...extra,
      },
      status,
    );
  };
  router.get('/settings/apps', async (req, res) => {
    await appsPage(res, { notice: noticeOf(req.query.done) });
  });
  router.post('/settings/apps/:clientId/disconnect', async (req, res) => {
    await orRefusal(
      res,
      (error, status) => appsPage(res, { error }, status),
      async () => {
        await oauth.disconnect(mustBeSignedIn(res).user, req.params.clientId);
        res.redirect(303, '/settings/apps?done=disconnected');
      },
    );
  });

  router.get('/settings/account', async (req, res) => {
    await accountPage(res, { notice: noticeOf(req.query.done) });
  });
  router.post('/settings/tokens/revoke-all', async (_req, res) => {
    await accounts.revokeAllTokens(mustBeSignedIn(res).user);
    res.redirect(303, '/settings/account?done=revoked-all');
  });
  router.post('/settings/account/profile', async (req, res) => {
    await orRefusal(
      res,
      (error, status) => accountPage(res, { error }, status),
      async () => {
        const { pendingEmail } = await accounts.updateProfile(
          mustBeSignedIn(res).user,
          {
            displayName: formText(req.body, 'displayName'),
            email: formText(req.body, 'email'),
            currentPassword: formText(req.body, 'currentPassword'),
          },
          req.ip ?? 'unknown',
        );
        res.redirect(303, `/settings/account?done=${pendingEmail ? 'profile-email' : 'profile'}`);
      },
    );
  });
  router.post('/settings/account/password', async (req, res) => {
    await orRefusal(
      res,
      (error, status) => accountPage(res, { error }, status),
      async () => {
        await accounts.changePassword(
          mustBeSignedIn(res).user,
          {
            currentPassword: formText(req.body, 'currentPassword'),
            password: formText(req.body, 'password'),
          },
          req.ip ?? 'unknown',
          sessionSecret(req, cookie),
        );
        res.redirect(303, '/settings/account?done=password');
      },
    );
  });
  router.post('/settings/account/sign-out-everywhere', async (req, res) => {
    await sessions.signOutEverywhere(mustBeSignedIn(res).user, sessionSecret(req, cookie));
    res.redirect(303, '/settings/account?done=everywhere');
  });
  router.post('/settings/account/delete', async (req, res) => {
    await orRefusal(
      res,
      (error, status) => accountPage(res, { error }, status),
      async () => {
        await accounts.deleteAccount(
          mustBeSignedIn(res).user,
          { password: formText(req.body, 'password') },
          req.ip ?? 'unknown',
        );
        clearSessionCookie(res, cookie);
        res.redirect(303, '/sign-up');
      },
    );
  });
  return router;
}
