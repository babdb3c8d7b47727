/**
 * The token verifier of `/mcp` for the access tokens of connected apps (the authorization server
 * of src/web/oauth), with the MCP SDK v2's bearer middleware (http.ts).
 */
import type { OAuthTokenVerifier as McpTokenVerifier } from '@modelcontextprotocol/express';
import { OAuthError as McpOAuthError, OAuthErrorCode } from '@modelcontextprotocol/server';
import { OAuthRefusal } from '../domain/kernel/errors.js';
import type { Services } from '../domain/services.js';
import { memberPrincipal } from '../domain/workspaces/roles.js';

/**
 * The token verifier of `/mcp` (with the MCP SDK v2's bearer middleware): a live access token for
 * this resource. Throws the v2 `OAuthError` `invalid_token` (a 401 with its challenge) for a token
 * that is unknown, expired, revoked or for another resource.
 */
export function oauthVerifier(services: Services): McpTokenVerifier {
  return {
    async verifyAccessToken(token) {
      try {
        const who = await services.oauth.verify(token);
        return {
          token,
          clientId: who.clientId,
          scopes: who.scopes,
          expiresAt: Math.floor(who.expiresAt.getTime() / 1000),
          resource: new URL(who.resource),
          extra: { principal: memberPrincipal(who.user, who.workspace, who.role) },
        };
      } catch (err) {
        if (err instanceof OAuthRefusal) throw new McpOAuthError(OAuthErrorCode.InvalidToken, err.message);
        throw err;
      }
    },
  };
}
