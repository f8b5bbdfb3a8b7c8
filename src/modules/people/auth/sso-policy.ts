/**
 * The password sign-in's single sign-on rule (docs/security.md "Single sign-on"): an agency may
 * require single sign-on for its staff, whose password sign-ins (login, session, mobile-auth) are
 * then refused with SSO_REQUIRED. Kept apart from sso.service.ts so that auth.service.ts imports
 * no part of the OpenID Connect flow.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { ssoRequiredFor } from './sso.repository.ts';

/** The sentence a password sign-in of staff gets when their agency requires single sign-on (403). */
export const SSO_REQUIRED = 'Your agency requires single sign-on for staff: use "Sign in with your organisation" instead of a password';

/**
 * True when the account's agency requires single sign-on for staff and the account is staff
 * (admin, agent, or a custom role of the agency at the agent's level or above).
 * @param userId the account signing in with a password
 */
export function ssoRequired(deps: AppDeps, userId: number): Promise<boolean> {
  return ssoRequiredFor(deps.db, userId);
}
