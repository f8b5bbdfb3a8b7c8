/**
 * Public routes of the users area (docs/users.md): password reset by e-mail and the
 * acceptance of an invitation. No credentials and no CSRF token (there is no session yet).
 */
import type { AppDeps } from '../../../app-deps.ts';
import { MessageEnvelope, done, responses } from '../../../http/envelope.ts';
import { actorOf, type App } from '../../../http/route-types.ts';
import { acceptInvitation } from './invitations.service.ts';
import { confirmPasswordReset, requestPasswordReset, RESET_REQUESTED_MESSAGE } from './password.service.ts';
import { AcceptInvitationBody, ResetConfirmBody, ResetRequestBody } from './users.schemas.ts';

/** Registers the password-reset and invitation-acceptance routes. */
export function passwordRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    app.post('/api/auth/password-reset', {
      config: { permission: 'public', csrf: false, failClosed: true },
      schema: {
        tags: ['auth'],
        summary: 'Ask for a password-reset e-mail',
        description:
          'Always the same 200 answer, whether or not the e-mail belongs to an account. For an active account, a link with a ' +
          'single-use token valid one hour is e-mailed. Rate limited per IP and per e-mail address (429). No CSRF token.',
        body: ResetRequestBody,
        response: responses(MessageEnvelope, [400, 429, 503]),
      },
      handler: async (request) => {
        await requestPasswordReset(deps, actorOf(request), request.body.email);
        return done(RESET_REQUESTED_MESSAGE);
      },
    });

    app.post('/api/auth/password-reset/confirm', {
      config: { permission: 'public', csrf: false },
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with a reset token',
        description:
          'Body: token (from the e-mail), new_password (8 to 128 characters). The token works once, even under concurrency; ' +
          'every token and session of the account is revoked. Unknown, used or expired token: 400 "Invalid or expired reset token".',
        body: ResetConfirmBody,
        response: responses(MessageEnvelope, [400, 429]),
      },
      handler: async (request) => {
        await confirmPasswordReset(deps, actorOf(request), request.body);
        return done('Password has been reset. Log in with the new password.');
      },
    });

    app.post('/api/users/invitations/accept', {
      config: { permission: 'public', csrf: false },
      schema: {
        tags: ['users'],
        summary: 'Accept an invitation by choosing a password',
        description:
          'Body: token (from the invitation e-mail), password (8 to 128 characters). The account becomes active; log in ' +
          'afterwards. Unknown, used or expired token: 400 "Invalid or expired invitation token". No CSRF token.',
        body: AcceptInvitationBody,
        response: responses(MessageEnvelope, [400, 429]),
      },
      handler: async (request) => {
        await acceptInvitation(deps, actorOf(request), request.body);
        return done('Invitation accepted. Log in with your e-mail address and the new password.');
      },
    });
  };
}
