/**
 * Routes of the users area: GET /api/users/permissions (spec 4.5) and user administration
 * (docs/users.md): list, create (password or invitation), read, update, disable, enable, invite.
 * Sessions and passwords are in sessions.routes.ts and password.routes.ts.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, ListEnvelope, MessageEnvelope, done, list, ok, responses } from '../../../http/envelope.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import { PermissionsData } from '../auth/index.ts';
import { resolvedPermissions } from '../auth/index.ts';
import { reinvite } from './invitations.service.ts';
import { passwordRoutes } from './password.routes.ts';
import { sessionsRoutes } from './sessions.routes.ts';
import { CreateUserBody, CsrfOnlyBody, ListUsersQuery, UpdateUserBody, UserDto, UserUuidParams } from './users.schemas.ts';
import { createUser, getUser, listUsers, setUserEnabled, updateUser, type FindLandlord } from './users.service.ts';

const MANAGE = 'api.users.manage';
const LEVEL_RULE =
  'An agency administrator manages users of their own agency only (another agency\'s user: 404), only users whose role ' +
  'level is below their own, and assigns only roles below their own level; nobody changes their own role. Refusals are 403 ' +
  'and are written to the activity log as user.escalation_denied.';

/**
 * Registers the users routes (and the sessions and password routes of the area).
 * @param findLandlord the landlords module's lookup, for accounts linked to a landlord (`landlord_uuid`)
 */
export function usersRoutes(deps: AppDeps, findLandlord: FindLandlord) {
  return async function plugin(app: App): Promise<void> {
    /** GET /api/users/permissions (spec 4.5): the caller's role, level and sorted permission keys. */
    app.get('/api/users/permissions', {
      config: { permission: 'authenticated' },
      schema: {
        tags: ['users'],
        summary: "The caller's resolved permissions",
        response: responses(DataEnvelope(PermissionsData), [401, 429]),
      },
      handler: async (request) => ok(resolvedPermissions(requireAuth(request)), 'Permissions retrieved'),
    });

    /** GET /api/users: the users of the caller's agency, filtered and paginated. */
    app.get('/api/users', {
      config: { permission: MANAGE },
      schema: {
        tags: ['users'],
        summary: 'List users',
        description:
          'Users of the caller\'s agency (SysOps: every agency, or agency_uuid), ordered by name. q searches name and ' +
          'e-mail (case-insensitive); role takes a role id or code; status is active, disabled or invited.',
        querystring: ListUsersQuery,
        response: responses(ListEnvelope(UserDto), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => {
        const { rows, total } = await listUsers(deps, requireAuth(request), request.query);
        return list(rows, total, 'Users retrieved');
      },
    });

    /** POST /api/users: creates a user with a password, or invites them by e-mail. */
    app.post('/api/users', {
      config: { permission: MANAGE },
      schema: {
        tags: ['users'],
        summary: 'Create a user (with a password or an e-mailed invitation)',
        description:
          'Body: name, email, role (id or code), branch_uuid (required for agents), and either password (8 to 128 ' +
          'characters) or invite: true (e-mails a single-use link valid 7 days; the account is `invited` until accepted). ' +
          'tenant_uuid or contractor_uuid links the login to a tenant or contractor record of the same agency (role ' +
          'defaults to tenant or contractor). SysOps name the agency with agency_uuid or through the branch. Unknown ' +
          `fields (agency_id, level, password_hash, ...) are ignored. ${LEVEL_RULE} 409 when the e-mail is taken.`,
        body: CreateUserBody,
        response: responses(DataEnvelope(UserDto), [400, 401, 403, 404, 409, 429], 201),
      },
      handler: async (request, reply) => {
        const { user, invitationSent } = await createUser(deps, { ...actorOf(request), auth: requireAuth(request) }, request.body, findLandlord);
        void reply.status(201);
        const message = request.body.invite !== true
          ? 'User created'
          : invitationSent
            ? 'User created and invitation sent'
            : 'User created, but the invitation e-mail could not be sent: send it again with POST /api/users/{uuid}/invite';
        return ok(user, message);
      },
    });

    /** GET /api/users/{uuid}: one user. */
    app.get('/api/users/:uuid', {
      config: { permission: MANAGE },
      schema: {
        tags: ['users'],
        summary: 'Read a user',
        params: UserUuidParams,
        response: responses(DataEnvelope(UserDto), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => ok(await getUser(deps, requireAuth(request), request.params.uuid), 'User retrieved'),
    });

    /** PUT /api/users/{uuid}: changes name, email, role, branch. */
    app.put('/api/users/:uuid', {
      config: { permission: MANAGE },
      schema: {
        tags: ['users'],
        summary: 'Update a user (name, email, role, branch)',
        description: `All fields optional; branch_uuid null removes the branch. One's own name, e-mail and branch may be changed. ${LEVEL_RULE}`,
        params: UserUuidParams,
        body: UpdateUserBody,
        response: responses(DataEnvelope(UserDto), [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) =>
        ok(await updateUser(deps, { ...actorOf(request), auth: requireAuth(request) }, request.params.uuid, request.body), 'User updated'),
    });

    for (const action of ['disable', 'enable'] as const) {
      /** POST /api/users/{uuid}/disable | enable. */
      app.post(`/api/users/:uuid/${action}`, {
        config: { permission: MANAGE },
      schema: {
          tags: ['users'],
          summary: action === 'disable' ? 'Disable a user (revokes all their tokens and sessions at once)' : 'Enable a disabled user',
          description:
            (action === 'disable'
              ? 'The account can no longer log in; every token and session of it gets 401 immediately; open invitation and reset links stop working. '
              : 'The account returns to active (or invited, if it never accepted its invitation; send a new one). ') +
            `Not for one's own account. 409 when already ${action}d. ${LEVEL_RULE}`,
          params: UserUuidParams,
          body: CsrfOnlyBody,
          response: responses(DataEnvelope(UserDto), [400, 401, 403, 404, 409, 429]),
        },
        handler: async (request) =>
          ok(
            await setUserEnabled(deps, { ...actorOf(request), auth: requireAuth(request) }, request.params.uuid, action === 'enable'),
            action === 'enable' ? 'User enabled' : 'User disabled',
          ),
      });
    }

    /** POST /api/users/{uuid}/invite: a fresh invitation e-mail for a user still `invited`. */
    app.post('/api/users/:uuid/invite', {
      config: { permission: MANAGE },
      schema: {
        tags: ['users'],
        summary: 'Send a new invitation e-mail',
        description: `For a user in status invited; earlier links stop working. 409 once accepted or when disabled; 502 when the mail server refuses. ${LEVEL_RULE}`,
        params: UserUuidParams,
        body: CsrfOnlyBody,
        response: responses(MessageEnvelope, [400, 401, 403, 404, 409, 429, 502]),
      },
      handler: async (request, reply) => {
        const sent = await reinvite(deps, { ...actorOf(request), auth: requireAuth(request) }, request.params.uuid);
        if (!sent) return reply.status(502).send({ success: false, error: 'The invitation e-mail could not be sent' });
        return done('Invitation sent');
      },
    });

    await app.register(sessionsRoutes(deps));
    await app.register(passwordRoutes(deps));
  };
}
