/**
 * OAuth 2.1 for the MCP connector: Titlecard is the authorization server of its own accounts, so
 * that hosted assistants (claude.ai, ChatGPT, any client of the MCP authorization specification)
 * connect with a sign-in and a consent instead of a pasted API token.
 *
 * The protocol (metadata, Dynamic Client Registration, Client ID Metadata Documents, the
 * authorization and token endpoints, PKCE, refresh token rotation, revocation) is oidc-provider's,
 * configured in src/web/oauth/; its state is stored through state.ts in the record store's
 * OAuthRepository. This module holds what the rest of Titlecard asks of it:
 * - the bearer check of `/mcp`: a live access token for this server's `/mcp` (RFC 8707), of a grant
 *   that still stands, of an account that exists;
 * - a person's connected apps (Settings → Connected apps) and "Disconnect";
 * - ending every grant on a password change or reset, and deleting them with the account.
 * Every request looks its token up in the shared store, so a revocation holds at once in every
 * process.
 */
import type { User, Workspace } from '../kernel/records.js';
import type { Role } from '../design.js';
import { NotFoundError, OAuthRefusal } from '../kernel/errors.js';
import { hashToken } from '../kernel/ids.js';
import type { Clock, RecordStore } from '../kernel/ports.js';
import { oauthState, type OAuthModelState } from './state.js';

/** The one scope: everything the MCP tools do (generate, which uses the quota; list images; read usage). */
export const OAUTH_SCOPE = 'mcp';
/** Access token lifetime, seconds: one hour, after which the client refreshes. */
export const ACCESS_TOKEN_TTL_S = 3600;
/** Refresh token (and grant) lifetime, seconds: 30 days; each refresh issues a new one (rotation). */
export const REFRESH_TOKEN_TTL_S = 30 * 24 * 3600;
/** Authorization code lifetime, seconds: 5 minutes (OAuth 2.1 section 4.1.2 recommends at most 10). */
export const CODE_TTL_S = 300;

/** Most characters of a client's name shown on the consent page (ours: an app's name, not a sentence). */
export const CLIENT_NAME_SHOWN = 40;

/**
 * A client's `client_name` as the consent page shows it: its own claim, so only a name, not a
 * sentence that could pass for the page's words (issue 55, item 6: "Claude — This app is published
 * by claude.ai, which answers for its name." from an anonymous registration). Cut before a line
 * break, a control or format character (a bidi override), a dash (a hyphen only with a space
 * beside it), a bar or bracket, and sentence punctuation followed by a space or the end; then to
 * {@link CLIENT_NAME_SHOWN} characters (graphemes), with an ellipsis. Undefined when nothing is
 * left.
 */
export function shownClientName(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  // Control and format characters (bidi overrides), line breaks, any dash but a hyphen inside a
  // word, a bar or bracket, and sentence punctuation before a space or the end.
  const cut = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}|()[\]{}]|(?!-)\p{Pd}|\s-|-\s|[.,;:!?](?=\s|$)/u.exec(name);
  const head = (cut ? name.slice(0, cut.index) : name).trim();
  const graphemes = [...new Intl.Segmenter().segment(head)].map((s) => s.segment);
  if (graphemes.length === 0) return undefined;
  return graphemes.length > CLIENT_NAME_SHOWN
    ? `${graphemes
        .slice(0, CLIENT_NAME_SHOWN - 1)
        .join('')
        .trimEnd()}…`
    : head;
}
/** Our own entry beside the library's models: the workspace a grant acts in, keyed by the grant. */
const WORKSPACE_CHOICE = 'WorkspaceChoice';

/** `lastUsedAt` of a grant is written at most this often (ms). */
const TOUCH_EVERY_MS = 60_000;

/** The caller behind a valid access token: the person acting in the workspace chosen at consent. */
export interface OAuthPrincipal {
  user: User;
  workspace: Workspace;
  role: Role;
  clientId: string;
  scopes: string[];
  /** The resource the token is good for. */
  resource: string;
  expiresAt: Date;
}

/** One row of Settings → Connected apps. */
export interface ConnectedApp {
  clientId: string;
  /**
   * The client's registered `client_name`; for a client known by its metadata document (a URL),
   * that URL's host; else its id.
   */
  name: string;
  /** The latest "Allow". */
  allowedAt: Date;
  lastUsedAt: Date | null;
}

export interface OAuth {
  /** The resource its tokens are good for: PUBLIC_URL + `/mcp`. */
  readonly resource: string;
  /** The storage of each of the library's models (state.ts), its `adapter`. */
  readonly stateOf: (model: string) => OAuthModelState;
  /** Whether an account exists (the library's `findAccount`). */
  accountExists(id: string): Promise<boolean>;
  /** The caller behind an access token. OAuthRefusal `invalid_token` for anything but a live one. */
  verify(accessToken: string): Promise<OAuthPrincipal>;
  /** The clients with a live grant of `user`, latest "Allow" first. */
  connectedApps(user: User): Promise<ConnectedApp[]>;
  /** "Disconnect": ends every grant of `user` to `clientId` at once. NotFoundError when there is none. */
  disconnect(user: User, clientId: string): Promise<void>;
  /**
   * Records the workspace a grant acts in (the consent page's choice; the person's personal
   * workspace when none is recorded). Kept with the grant, and gone with it.
   */
  chooseWorkspace(grantId: string, userId: string, workspaceId: string): Promise<void>;
  /** Ends the grants of `userId` that act in `workspaceId` (the member removed). */
  endGrantsIn(workspaceId: string, userId: string): Promise<void>;
  /** Ends every grant of a user and its sign-ins at the authorization server (password change or reset). */
  endAllFor(userId: string): Promise<void>;
  /** Deletes every grant, code and token of a user (account deletion). */
  deleteAllFor(userId: string): Promise<void>;
}

/** A resource identifier compared without its fragment and one trailing slash. */
const comparable = (resource: string) => resource.replace(/#.*$/, '').replace(/\/$/, '');

/** The host of a client id that is a URL (a Client ID Metadata Document's); undefined otherwise. */
function hostOf(clientId: string): string | undefined {
  try {
    const url = new URL(clientId);
    return url.protocol === 'https:' ? url.host : undefined;
  } catch {
    return undefined;
  }
}

const text = (v: unknown) => (typeof v === 'string' ? v : undefined);

export function createOAuth({
  store,
  clock,
  publicUrl,
}: {
  store: RecordStore;
  clock: Clock;
  publicUrl: string;
}): OAuth {
  const resource = `${publicUrl}/mcp`;
  const oauth = store.oauth;
  const invalid = (why: string) => new OAuthRefusal('invalid_token', why);
  /** The workspace a grant acts in: the consent's choice, else the person's personal one (their id). */
  const chosenWorkspace = async (grantId: string, now: Date, accountId: string) => {
    const choice = await oauth.find(WORKSPACE_CHOICE, hashToken(grantId), now);
    return text(choice?.payload.workspaceId) ?? accountId;
  };

  return {
    resource,
    stateOf: oauthState(oauth, clock),

    async accountExists(id) {
      return (await store.users.findById(id)) !== undefined;
    },

    async verify(accessToken) {
      const now = clock.now();
      const token = await oauth.find('AccessToken', hashToken(accessToken), now);
      const payload = token?.payload ?? {};
      const accountId = text(payload.accountId);
      const grantId = text(payload.grantId);
      // Its expiry as stored, by this service's clock (state.ts: now + expiresIn); the payload's
      // `exp` is oidc-provider's, by the system clock, and only a fallback. Under the tests' clock
      // the two differ: a token refreshed after the clock moved an hour ahead read as expired.
      const expires = token?.expiresAt?.getTime() ?? Number(payload.exp) * 1000;
      if (!token || !accountId || !grantId || token.consumedAt || !(expires > now.getTime()))
        throw invalid('The access token is invalid, expired or was revoked');
      const audience = text(payload.aud);
      if (!audience || comparable(audience) !== comparable(resource))
        throw invalid(`This access token is for ${audience ?? 'another server'}, not ${resource}`);
      const grant = await oauth.find('Grant', hashToken(grantId), now);
      if (!grant) throw invalid('The access token was revoked');
      const user = await store.users.findById(accountId);
      if (!user) throw invalid('The account no longer exists');
      // The membership is read afresh: a member removed is refused at once, a role lowered acts lower.
      const workspaceId = await chosenWorkspace(grantId, now, accountId);
      const [membership, workspace] = await Promise.all([
        store.workspaces.member(workspaceId, accountId),
        store.workspaces.find(workspaceId),
      ]);
      if (!membership || !workspace)
        throw invalid('The account is no longer a member of the workspace of this access');
      if (!grant.lastUsedAt || now.getTime() - grant.lastUsedAt.getTime() >= TOUCH_EVERY_MS)
        await oauth.touchGrant(grant.key, now);
      return {
        user,
        workspace,
        role: membership.role,
        clientId: text(payload.clientId) ?? '',
        scopes: (text(payload.scope) ?? '').split(' ').filter(Boolean),
        resource: audience,
        expiresAt: token.expiresAt ?? now,
      };
    },

    async connectedApps(user) {
      const byClient = new Map<string, ConnectedApp>();
      for (const grant of await oauth.grantsOf(user.id, clock.now())) {
        const clientId = grant.clientId ?? '';
        const seen = byClient.get(clientId);
        if (seen) {
          if (grant.lastUsedAt && (!seen.lastUsedAt || grant.lastUsedAt > seen.lastUsedAt))
            seen.lastUsedAt = grant.lastUsedAt;
          continue;
        }
        const client = await oauth.find('Client', hashToken(clientId), clock.now());
        const iat = Number(grant.payload.iat);
        byClient.set(clientId, {
          clientId,
          name: text(client?.payload.client_name) ?? hostOf(clientId) ?? clientId,
          allowedAt: Number.isFinite(iat) ? new Date(iat * 1000) : clock.now(),
          lastUsedAt: grant.lastUsedAt,
        });
      }
      return [...byClient.values()];
    },

    async disconnect(user, clientId) {
      if ((await oauth.endGrants(user.id, clientId)) === 0)
        throw new NotFoundError(`No connected app with id ${clientId} on this account`);
    },

    async chooseWorkspace(grantId, userId, workspaceId) {
      await oauth.upsert(WORKSPACE_CHOICE, {
        key: hashToken(grantId),
        payload: { workspaceId },
        grantId,
        uid: null,
        accountId: userId,
        clientId: null,
        expiresAt: null,
      });
    },

    async endGrantsIn(workspaceId, userId) {
      const now = clock.now();
      for (const grant of await oauth.grantsOf(userId, now)) {
        const grantId = grant.grantId;
        if (grantId && (await chosenWorkspace(grantId, now, userId)) === workspaceId)
          await oauth.revokeByGrantId(grantId);
      }
    },

    async endAllFor(userId) {
      await oauth.endGrants(userId);
    },

    async deleteAllFor(userId) {
      await oauth.endGrants(userId);
    },
  };
}
