/**
 * The person's part of an authorization (src/web/oauth): sign-in through the dashboard's session,
 * then the consent page, at `/oauth/interaction/:uid`. The page cannot be framed, its POST must
 * come from this site's Origin (session.ts), and it names a client known by its metadata document
 * by the host that publishes it.
 */
import cookieParser from 'cookie-parser';
import express from 'express';
import { errors } from 'oidc-provider';
import type Provider from 'oidc-provider';
import { isConfirmed } from '../../domain/accounts/confirmation.js';
import { isCanonicalHttpsUrl, redirectSource } from '../../domain/oauth/clients.js';
import { OAUTH_SCOPE, shownClientName } from '../../domain/oauth/oauth.js';
import type { Runtime } from '../../runtime.js';
import { formText } from '../forms.js';
import { securityHeaders } from '../headers.js';
import { page } from '../render.js';
import { checkSameOrigin, cookieSettings, loadSession, signedInOf } from '../session.js';
import { INTERACTION_PATH } from './provider.js';

/** The consent pages' router, mounted at {@link INTERACTION_PATH}. */
export function createConsentRouter(runtime: Runtime, provider: Provider): express.Router {
  const { services, publicUrl } = runtime;
  const cookie = cookieSettings(publicUrl);
  const resource = services.oauth.resource;
  // The person's part: sign-in through the dashboard, then consent.
  const interaction = express.Router();
  interaction.use(
    securityHeaders(runtime),
    cookieParser(),
    express.urlencoded({ extended: false, limit: '16kb' }),
    checkSameOrigin(new URL(publicUrl).origin),
    loadSession(services.sessions, cookie),
  );
  interaction.all('/:uid', async (req, res) => {
    res.set('Cache-Control', 'no-store');
    let details;
    try {
      details = await provider.interactionDetails(req, res);
    } catch (err) {
      if (!(err instanceof errors.SessionNotFound)) throw err;
      res.status(400);
      page(
        res,
        'error',
        {
          title: 'This sign-in has ended',
          message:
            'This connection request expired or was already answered: start again from your assistant.',
        },
        400,
      );
      return;
    }
    const { uid, prompt, params } = details;
    const who = signedInOf(res);
    if (!who) {
      res.redirect(303, `/sign-in?next=${encodeURIComponent(`${INTERACTION_PATH}/${uid}`)}`);
      return;
    }
    // Signed in to the dashboard: that is the sign-in of this authorization (and a change of
    // account there is one here too).
    if (prompt.name === 'login' || details.session?.accountId !== who.user.id) {
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: who.user.id } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const clientId = String(params.client_id);
    const client = await provider.Client.find(clientId);
    // A client with one registered redirect URI may leave it out of the request (RFC 6749 section 3.1.2.3).
    const asked = params.redirect_uri;
    const redirectUri = typeof asked === 'string' ? asked : (client?.redirectUris?.[0] ?? '');
    const decision = req.method === 'POST' ? formText(req.body, 'decision') : '';
    const confirmed = isConfirmed(who.user);
    if (decision === 'deny') {
      await provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'The person denied access' },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    // The workspace the assistant acts in: one of the person's (their personal one by default).
    const chosenId = req.method === 'POST' ? formText(req.body, 'workspace') : '';
    const chosen = who.workspaces.find((w) => w.workspace.id === chosenId) ?? who.workspaces[0];
    if (decision === 'allow' && confirmed && chosen) {
      const grant = details.grantId
        ? ((await provider.Grant.find(details.grantId)) ??
          new provider.Grant({ accountId: who.user.id, clientId }))
        : new provider.Grant({ accountId: who.user.id, clientId });
      grant.addOIDCScope(OAUTH_SCOPE);
      grant.addResourceScope(resource, OAUTH_SCOPE);
      const grantId = await grant.save();
      await services.oauth.chooseWorkspace(grantId, who.user.id, chosen.workspace.id);
      await provider.interactionFinished(
        req,
        res,
        { consent: { grantId } },
        { mergeWithLastSubmission: true },
      );
      return;
    }
    const usage = await services.quota.usage(who.principal.workspace);
    const status = decision === 'allow' ? 403 : 200;
    const redirectHost = new URL(redirectUri).host || redirectUri;
    // A client known by its metadata document: the host that publishes it answers for its name.
    const publisher = isCanonicalHttpsUrl(clientId) ? new URL(clientId).host : undefined;
    // CSP form-action must allow the redirects that follow "Allow" or "Deny": the library's resume
    // URL (this site), then the client's redirect URI.
    securityHeaders(runtime, [redirectSource(redirectUri)])(req, res, () => {
      page(
        res,
        'consent',
        {
          title: 'Allow access',
          client: {
            name: shownClientName(client?.clientName) ?? publisher ?? redirectHost,
            host: redirectHost,
            publisher,
          },
          action: `${INTERACTION_PATH}/${uid}`,
          usage: usage.usage,
          usageOf: who.principal.workspace.name,
          user: who.user,
          choices: who.workspaces.map(({ workspace, role }) => ({
            id: workspace.id,
            name: workspace.name,
            personal: workspace.personalOf === who.user.id,
            role,
          })),
          confirmed,
        },
        status,
      );
    });
  });
  return interaction;
}
