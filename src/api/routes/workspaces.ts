/**
 * Workspaces (docs/workspaces.md): the caller's workspaces, one workspace, its members,
 * invitations and audit log; and their OpenAPI description. A token acts in its own workspace:
 * another `{id}` answers 404.
 */
import express from 'express';
import { principalOf, requireAuth } from '../../http/auth.js';
import {
  envelope,
  errorResponses,
  idParameter,
  json,
  listEnvelope,
  messageResponse,
  queryParameters,
  ref,
  secured,
  unconfirmedResponse,
  type Resource,
} from '../describe.js';
import { ok } from '../../http/respond.js';
import { jsonBody } from '../../http/json-body.js';
import { decodeFields } from '../../http/form.js';
import { auditQuerySchema } from '../../domain/workspaces/schemas.js';

const userIdParameter = { name: 'userId', in: 'path', required: true, schema: { type: 'string' } };
const invitationIdParameter = {
  name: 'invitationId',
  in: 'path',
  required: true,
  schema: { type: 'string' },
};
const conflict = (description: string) => ({ description, content: json(ref('EndpointErrorBody')) });

export const workspacesResource: Resource = {
  router(services) {
    const router = express.Router();
    const auth = requireAuth(services);
    const body = jsonBody('16kb');
    const { workspaces } = services;
    const id = (params: { id?: string }) => params.id as string;

    router.get('/workspaces', auth, async (_req, res) => {
      ok(res, { workspaces: await workspaces.list(principalOf(res).user) });
    });
    router.post('/workspaces', auth, body, async (req, res) => {
      res.status(201).json({ success: true, data: await workspaces.create(principalOf(res), req.body) });
    });
    router.get('/workspaces/:id', auth, async (req, res) => {
      ok(res, await workspaces.get(principalOf(res), id(req.params)));
    });
    router.patch('/workspaces/:id', auth, body, async (req, res) => {
      ok(res, await workspaces.update(principalOf(res), id(req.params), req.body));
    });
    router.delete('/workspaces/:id', auth, async (req, res) => {
      await workspaces.delete(principalOf(res), id(req.params));
      res.json({ success: true, message: `Workspace ${id(req.params)} deleted` });
    });
    router.get('/workspaces/:id/members', auth, async (req, res) => {
      ok(res, { members: await workspaces.members(principalOf(res), id(req.params)) });
    });
    router.patch('/workspaces/:id/members/:userId', auth, body, async (req, res) => {
      ok(
        res,
        await workspaces.setRole(principalOf(res), id(req.params), req.params.userId as string, req.body),
      );
    });
    router.delete('/workspaces/:id/members/:userId', auth, async (req, res) => {
      await workspaces.removeMember(principalOf(res), id(req.params), req.params.userId as string);
      res.json({ success: true, message: `Member ${req.params.userId as string} removed` });
    });
    router.get('/workspaces/:id/invitations', auth, async (req, res) => {
      ok(res, { invitations: await workspaces.invitations(principalOf(res), id(req.params)) });
    });
    router.post('/workspaces/:id/invitations', auth, body, async (req, res) => {
      res
        .status(201)
        .json({ success: true, data: await workspaces.invite(principalOf(res), id(req.params), req.body) });
    });
    router.delete('/workspaces/:id/invitations/:invitationId', auth, async (req, res) => {
      await workspaces.withdraw(principalOf(res), id(req.params), req.params.invitationId as string);
      res.json({ success: true, message: `Invitation ${req.params.invitationId as string} withdrawn` });
    });
    router.get('/workspaces/:id/audit', auth, async (req, res) => {
      // As GET /images reads its query: an empty value is not sent, a number a number.
      ok(res, await workspaces.audit(principalOf(res), id(req.params), decodeFields(req.query)));
    });
    return router;
  },

  paths: {
    '/workspaces': {
      get: secured({
        operationId: 'listWorkspaces',
        summary:
          "The token's member's workspaces with their role in each: the personal one first, then by name.",
        responses: { 200: { description: 'Workspaces.', content: listEnvelope('workspaces', 'Workspace') } },
      }),
      post: secured({
        operationId: 'createWorkspace',
        summary: 'Make a workspace (Free tier) with the caller as its owner; needs workspace:admin.',
        requestBody: { required: true, content: json(ref('CreateWorkspaceRequest')) },
        responses: {
          201: { description: 'Created.', content: json(envelope('Workspace')) },
          400: errorResponses[400],
          403: unconfirmedResponse,
        },
      }),
    },
    '/workspaces/{id}': {
      get: secured({
        operationId: 'getWorkspace',
        summary: "The token's workspace, with its seats.",
        parameters: [idParameter],
        responses: {
          200: { description: 'The workspace.', content: json(envelope('Workspace')) },
          404: errorResponses[404],
        },
      }),
      patch: secured({
        operationId: 'updateWorkspace',
        summary: 'Rename (workspace:admin) or hand over to a member (owners).',
        parameters: [idParameter],
        requestBody: { required: true, content: json(ref('UpdateWorkspaceRequest')) },
        responses: {
          200: { description: 'The workspace.', content: json(envelope('Workspace')) },
          400: errorResponses[400],
          404: errorResponses[404],
          409: conflict('CONFLICT: a personal workspace is not handed over.'),
        },
      }),
      delete: secured({
        operationId: 'deleteWorkspace',
        summary:
          'Delete with every record and file (owners; a personal workspace goes only with its account).',
        parameters: [idParameter],
        responses: {
          200: messageResponse('Deleted.'),
          404: errorResponses[404],
          409: conflict('CONFLICT: a personal workspace.'),
        },
      }),
    },
    '/workspaces/{id}/members': {
      get: secured({
        operationId: 'listMembers',
        summary: 'The members, oldest first.',
        parameters: [idParameter],
        responses: {
          200: { description: 'Members.', content: listEnvelope('members', 'Member') },
          404: errorResponses[404],
        },
      }),
    },
    '/workspaces/{id}/members/{userId}': {
      patch: secured({
        operationId: 'updateMember',
        summary: "Change a member's role at once, in every process (workspace:admin; owners make owners).",
        parameters: [idParameter, userIdParameter],
        requestBody: { required: true, content: json(ref('MemberUpdateRequest')) },
        responses: {
          200: { description: 'The member.', content: json(envelope('Member')) },
          400: errorResponses[400],
          404: errorResponses[404],
          409: conflict('CONFLICT: the last owner cannot be demoted.'),
        },
      }),
      delete: secured({
        operationId: 'removeMember',
        summary:
          'Remove a member (workspace:admin) or leave (oneself): their tokens here stop working at once.',
        parameters: [idParameter, userIdParameter],
        responses: {
          200: messageResponse('Removed.'),
          404: errorResponses[404],
          409: conflict('CONFLICT: the last owner cannot leave or be removed.'),
        },
      }),
    },
    '/workspaces/{id}/invitations': {
      get: secured({
        operationId: 'listInvitations',
        summary: 'Pending invitations, newest first (workspace:admin).',
        parameters: [idParameter],
        responses: {
          200: { description: 'Invitations.', content: listEnvelope('invitations', 'Invitation') },
          404: errorResponses[404],
        },
      }),
      post: secured({
        operationId: 'createInvitation',
        summary:
          'Invite by email with a role: a single-use link good for 7 days is mailed (workspace:admin). Refused with 403 when the seats are taken.',
        parameters: [idParameter],
        requestBody: { required: true, content: json(ref('InvitationRequest')) },
        responses: {
          201: { description: 'Sent.', content: json(envelope('Invitation')) },
          400: errorResponses[400],
          403: {
            description:
              'FORBIDDEN: the seats are taken (Free 1, Pro 3, Agency 10, pending invitations included; the message names the limit), the email is not confirmed, or a scope is missing.',
            content: json(ref('EndpointErrorBody')),
          },
          404: errorResponses[404],
          409: conflict('CONFLICT: already a member, or invited already.'),
        },
      }),
    },
    '/workspaces/{id}/invitations/{invitationId}': {
      delete: secured({
        operationId: 'withdrawInvitation',
        summary: 'Withdraw a pending invitation: its link stops working (workspace:admin).',
        parameters: [idParameter, invitationIdParameter],
        responses: { 200: messageResponse('Withdrawn.'), 404: errorResponses[404] },
      }),
    },
    '/workspaces/{id}/audit': {
      get: secured({
        operationId: 'listAuditEntries',
        summary: 'The audit log, newest first, kept a year (workspace:admin).',
        parameters: [idParameter, ...queryParameters(auditQuerySchema)],
        responses: {
          200: { description: 'A page of entries.', content: json(envelope('AuditPage')) },
          400: errorResponses[400],
          404: errorResponses[404],
        },
      }),
    },
  },
};
