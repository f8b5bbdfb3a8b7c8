/**
 * Sessions and password change of the users area (docs/users.md): one's own sessions
 * (`authenticated`), a user's sessions for administrators (`api.users.sessions.manage`), and
 * POST /api/users/me/password.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, ListEnvelope, list, ok, responses } from '../../../http/envelope.ts';
import { PaginationQuery } from '../../../http/pagination.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import { changePassword } from './password.service.ts';
import { listOwnSessions, listUserSessions, revokeOtherOwnSessions, revokeOwnSession, revokeUserSessions } from './sessions.service.ts';
import { ChangePasswordBody, CsrfOnlyBody, RevokedData, SessionDto, SessionIdParams, UserUuidParams } from './users.schemas.ts';

const SESSIONS = 'api.users.sessions.manage';
const FIELDS =
  'Active means not revoked, not expired and, for a browser session without Remember Me, used in the last 30 minutes. ' +
  'Each entry: id, kind (login, mobile, session), remember_me, created_at, last_used_at, expires_at, ip_address (the ' +
  'client address as the trusted proxies report it), user_agent, device (read from user_agent), current; never the token or its hash.';

/** Registers the session and password-change routes. */
export function sessionsRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    const caller = (request: Parameters<typeof requireAuth>[0]) => ({ ...actorOf(request), auth: requireAuth(request) });

    app.get('/api/users/me/sessions', {
      config: { permission: 'authenticated' },
      schema: {
        tags: ['users'],
        summary: "The caller's active sessions and tokens",
        description: `${FIELDS} current is true for the token or session of this request.`,
        querystring: PaginationQuery,
        response: responses(ListEnvelope(SessionDto), [400, 401, 429]),
      },
      handler: async (request) => {
        const { rows, total } = await listOwnSessions(deps, requireAuth(request), request.query);
        return list(rows, total, 'Sessions retrieved');
      },
    });

    app.delete('/api/users/me/sessions', {
      config: { permission: 'authenticated' },
      schema: {
        tags: ['users'],
        summary: 'Sign out everywhere else',
        description: 'Revokes every active token and session of the caller except the one of this request.',
        body: CsrfOnlyBody,
        response: responses(DataEnvelope(RevokedData), [401, 403, 429]),
      },
      handler: async (request) => ok({ revoked: await revokeOtherOwnSessions(deps, caller(request)) }, 'Signed out everywhere else'),
    });

    app.delete('/api/users/me/sessions/:id', {
      config: { permission: 'authenticated' },
      schema: {
        tags: ['users'],
        summary: 'Revoke one of the caller\'s sessions',
        description: 'The id comes from GET /api/users/me/sessions. Revoking the current one works like a logout. 404 for an id that is not an active session of the caller.',
        params: SessionIdParams,
        body: CsrfOnlyBody,
        response: responses(DataEnvelope(RevokedData), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => ok({ revoked: await revokeOwnSession(deps, caller(request), request.params.id) }, 'Session revoked'),
    });

    app.get('/api/users/:uuid/sessions', {
      config: { permission: SESSIONS },
      schema: {
        tags: ['users'],
        summary: "A user's active sessions and tokens (administrators)",
        description: `${FIELDS} Only for users of the caller's agency whose role is below the caller's level (or the caller); refusals are 403 and logged.`,
        params: UserUuidParams,
        querystring: PaginationQuery,
        response: responses(ListEnvelope(SessionDto), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => {
        const { rows, total } = await listUserSessions(deps, caller(request), request.params.uuid, request.query);
        return list(rows, total, 'Sessions retrieved');
      },
    });

    app.delete('/api/users/:uuid/sessions', {
      config: { permission: SESSIONS },
      schema: {
        tags: ['users'],
        summary: "Revoke all of a user's sessions and tokens (administrators)",
        description: 'Every token and session of the user gets 401 at once. Same level rule as the list.',
        params: UserUuidParams,
        body: CsrfOnlyBody,
        response: responses(DataEnvelope(RevokedData), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => ok({ revoked: await revokeUserSessions(deps, caller(request), request.params.uuid) }, 'Sessions revoked'),
    });

    app.post('/api/users/me/password', {
      config: { permission: 'authenticated' },
      schema: {
        tags: ['users'],
        summary: 'Change one\'s own password',
        description:
          'Body: current_password, new_password (8 to 128 characters). A wrong current password is 400 "Current password is ' +
          'incorrect" (logged; throttled per account like failed logins, then 429). On success every other token and session ' +
          'of the account is revoked; the one of this request stays valid.',
        body: ChangePasswordBody,
        response: responses(DataEnvelope(RevokedData), [400, 401, 403, 429]),
      },
      handler: async (request) => ok({ revoked: await changePassword(deps, caller(request), request.body) }, 'Password changed'),
    });
  };
}
