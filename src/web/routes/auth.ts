/** Sign-up, sign-in, sign-out, and the pages of the emailed links (verification, password reset). */
import express, { type Request, type Response } from 'express';
import type { Services } from '../../domain/services.js';
import { formText, orRefusal } from '../forms.js';
import { page } from '../render.js';
import {
  clearSessionCookie,
  mustBeSignedIn,
  requireSignIn,
  safeNext,
  sessionSecret,
  setSessionCookie,
  signedInOf,
  type CookieSettings,
} from '../session.js';

/** Renders `view` again, with `data` and the refusal's message, when the domain refuses `action`. */
const orShowError = (
  res: Response,
  view: string,
  data: Record<string, unknown> & { title: string },
  action: () => Promise<void>,
) => orRefusal(res, (error, status) => page(res, view, { ...data, error }, status), action);

export function authRoutes(services: Services, cookie: CookieSettings): express.Router {
  const { sessions, links } = services;
  const router = express.Router();

  router.get('/', (_req, res) => {
    res.redirect(303, signedInOf(res) ? '/overview' : '/sign-in');
  });

  // `next`: where signing in leads afterwards (an invitation's page, say), kept through sign-up.
  router.get('/sign-up', (req, res) => {
    if (signedInOf(res)) return res.redirect(303, safeNext(req.query.next));
    page(res, 'sign-up', {
      title: 'Create your account',
      closed: sessions.signUpMode === 'closed',
      next: safeNext(req.query.next),
      values: { email: typeof req.query.email === 'string' ? req.query.email : '' },
    });
  });
  router.post('/sign-up', async (req, res) => {
    const values = { email: formText(req.body, 'email'), displayName: formText(req.body, 'displayName') };
    const next = safeNext(formText(req.body, 'next'));
    await orShowError(res, 'sign-up', { title: 'Create your account', values, next }, async () => {
      await sessions.signUp({ ...values, password: formText(req.body, 'password') });
      // The same page whether or not the address had an account (no enumeration; sessions.ts).
      page(res, 'sign-up', {
        title: 'Create your account',
        next,
        sent: true,
        notice: res.locals.mailInTerminal
          ? `Check ${values.email}: we sent a link to confirm the address, and this server sends no email (no SMTP_URL), so it is printed in the terminal where the server runs. You can sign in now; to make API tokens, confirm it first.`
          : `Check ${values.email}: we sent a link to confirm the address. You can sign in now; to make API tokens, confirm it first.`,
      });
    });
  });

  const signInPage = (req: Request) => ({
    title: 'Sign in',
    next: safeNext(req.query.next ?? (req.body as Record<string, unknown> | undefined)?.next),
    signUpOpen: sessions.signUpMode === 'open',
  });
  router.get('/sign-in', (req, res) => {
    if (signedInOf(res)) return res.redirect(303, safeNext(req.query.next));
    const revoked = Number(req.query.revoked);
    const notice =
      req.query.done === 'reset'
        ? `Your password is set. Every session and connected app was signed out${Number.isInteger(revoked) && revoked > 0 ? `, and the account's ${revoked} API token${revoked === 1 ? ' was' : 's were'} revoked` : ', and any API token revoked'}. Sign in with it.`
        : undefined;
    page(res, 'sign-in', { ...signInPage(req), notice });
  });
  router.post('/sign-in', async (req, res) => {
    const email = formText(req.body, 'email');
    await orShowError(res, 'sign-in', { ...signInPage(req), values: { email } }, async () => {
      const signedIn = await sessions.signIn(
        { email, password: formText(req.body, 'password') },
        req.ip ?? 'unknown',
      );
      setSessionCookie(res, cookie, signedIn);
      res.redirect(303, safeNext(formText(req.body, 'next')));
    });
  });

  router.post('/sign-out', async (req, res) => {
    await sessions.signOut(sessionSecret(req, cookie));
    clearSessionCookie(res, cookie);
    res.redirect(303, '/sign-in');
  });

  router.get('/forgot-password', (_req, res) => {
    page(res, 'forgot-password', { title: 'Reset your password' });
  });
  router.post('/forgot-password', async (req, res) => {
    await orShowError(res, 'forgot-password', { title: 'Reset your password' }, async () => {
      await links.requestPasswordReset(formText(req.body, 'email'), req.ip ?? 'unknown');
      page(res, 'forgot-password', {
        title: 'Reset your password',
        sent: true,
        notice:
          'If an account has that email, a link to reset its password is on its way. It works once, within an hour.',
      });
    });
  });

  router.get('/reset-password', (req, res) => {
    page(res, 'reset-password', {
      title: 'Choose a new password',
      token: typeof req.query.token === 'string' ? req.query.token : '',
    });
  });
  router.post('/reset-password', async (req, res) => {
    const token = formText(req.body, 'token');
    await orShowError(res, 'reset-password', { title: 'Choose a new password', token }, async () => {
      const { revokedTokens } = await links.resetPassword(token, formText(req.body, 'password'));
      clearSessionCookie(res, cookie);
      res.redirect(303, `/sign-in?done=reset&revoked=${revokedTokens}`);
    });
  });

  router.get('/verify-email', (req, res) => {
    page(res, 'verify-email', {
      title: 'Confirm your email',
      token: typeof req.query.token === 'string' ? req.query.token : '',
    });
  });
  router.post('/verify-email', async (req, res) => {
    await orShowError(res, 'verify-email', { title: 'Confirm your email' }, async () => {
      const user = await links.verifyEmail(formText(req.body, 'token'));
      page(res, 'verify-email', {
        title: 'Confirm your email',
        notice: `Thank you: ${user.email} is confirmed.`,
      });
    });
  });
  router.post('/verify-email/resend', requireSignIn, async (_req, res) => {
    const { user } = mustBeSignedIn(res);
    links.sendVerification(user);
    page(res, 'verify-email', {
      title: 'Confirm your email',
      notice: `We sent a new link to ${user.email}.`,
    });
  });

  return router;
}
