/**
 * Routes of single sign-on by OpenID Connect (docs/security.md "Single sign-on", docs/users.md
 * "Single sign-on"): the agency's provider settings (GET, PUT, DELETE /api/auth/sso/settings),
 * the sign-in page's lookup (GET /api/auth/sso/discover), and the browser's round trip
 * (GET /api/auth/sso/{agency}/start, GET /api/auth/sso/callback).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, MessageEnvelope, done, ok, responses } from '../../../http/envelope.ts';
import { sendLinkHtml, wantsHtml } from '../../../http/link-pages.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import { CsrfOnlyBody } from '../../../http/optional-body.ts';
import { SESSION_COOKIE, type LoginGuard } from './auth.service.ts';
import { ssoRefusedPage } from './sso-pages.ts';
import {
  SsoCallbackQuery, SsoDiscoverQuery, SsoDiscovered, SsoErrorEnvelope, SsoSettings, SsoSettingsBody, SsoStartParams, SsoStartQuery,
} from './sso.schemas.ts';
import {
  deleteSsoSettings, discover, finishSso, getSsoSettings, putSsoSettings, SSO_BROWSER_COOKIE, SsoFailure, startSso,
} from './sso.service.ts';

const TAGS = ['auth'];
const PERMISSION = 'api.sso.settings.manage';
const Redirect = Type.Null({ description: 'redirect (Location header)' });
const BROWSER_COOKIE_PATH = '/api/auth/sso';

/** A refusal: the page to a browser, the envelope {success:false, error, reason} to anything else. */
function sendFailure(request: FastifyRequest, reply: FastifyReply, f: SsoFailure): FastifyReply {
  void reply.clearCookie(SSO_BROWSER_COOKIE, { path: BROWSER_COOKIE_PATH });
  if (wantsHtml(request)) return sendLinkHtml(reply, f.status, ssoRefusedPage(f.message, f.reason));
  return reply.status(f.status).header('cache-control', 'no-store').send({ success: false, error: f.message, reason: f.reason });
}

function meta(request: FastifyRequest) {
  const ua = request.headers['user-agent'];
  return { ...actorOf(request), userAgent: typeof ua === 'string' ? ua : null };
}

/**
 * Registers the single sign-on routes.
 * @param guard the blacklist's account check (a blocked account cannot sign in by SSO either)
 */
export function ssoRoutes(deps: AppDeps, guard: LoginGuard) {
  return async function plugin(app: App): Promise<void> {
    /** GET /api/auth/sso/settings: the agency's provider settings (no secret), data null when none. */
    app.get('/api/auth/sso/settings', {
      config: { permission: PERMISSION },
      schema: {
        tags: TAGS,
        summary: "The agency's single sign-on settings",
        description: 'data null when single sign-on is not set up. The client secret is never returned (client_secret_set). 403 for SysOps (no agency).',
        response: responses(DataEnvelope(Type.Union([SsoSettings, Type.Null()])), [401, 403, 429]),
      },
      handler: async (request) => ok(await getSsoSettings(deps, requireAuth(request)), 'Single sign-on settings retrieved'),
    });

    /** PUT /api/auth/sso/settings: sets the agency's OpenID Connect provider. */
    app.put('/api/auth/sso/settings', {
      config: { permission: PERMISSION },
      schema: {
        tags: TAGS,
        summary: "Set the agency's single sign-on (OpenID Connect) provider",
        description:
          'The issuer\'s discovery document is read before saving (400 when it cannot be). client_secret is required the first time and kept when omitted. ' +
          'domains: the agency\'s own e-mail domains (not a public mail service, not claimed by another agency). create_users needs default_role; ' +
          'an agent default role needs default_branch_uuid. require_for_staff refuses password sign-in for staff. Needs a CSRF token.',
        body: SsoSettingsBody,
        response: responses(DataEnvelope(SsoSettings), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => ok(await putSsoSettings(deps, requireAuth(request), actorOf(request), request.body), 'Single sign-on settings saved'),
    });

    /** DELETE /api/auth/sso/settings: removes the agency's provider. */
    app.delete('/api/auth/sso/settings', {
      config: { permission: PERMISSION },
      schema: {
        tags: TAGS,
        summary: "Remove the agency's single sign-on",
        description: 'Password sign-in works again for everyone; sessions already started run to their end. Needs a CSRF token.',
        body: Type.Optional(CsrfOnlyBody),
        response: responses(MessageEnvelope, [401, 403, 404, 429]),
      },
      handler: async (request) => {
        await deleteSsoSettings(deps, requireAuth(request), actorOf(request));
        return done('Single sign-on removed');
      },
    });

    /** GET /api/auth/sso/discover: the single sign-on of an e-mail's domain or of an agency. */
    app.get('/api/auth/sso/discover', {
      config: { permission: 'public' },
      schema: {
        tags: TAGS,
        summary: 'Find the single sign-on of an e-mail domain or an agency',
        description: 'email (its domain) or agency (uuid). 404 when none is set up and enabled.',
        querystring: SsoDiscoverQuery,
        response: responses(DataEnvelope(SsoDiscovered), [400, 404, 429]),
      },
      handler: async (request) => ok(await discover(deps, request.query), 'Single sign-on found'),
    });

    /** GET /api/auth/sso/{agency}/start: redirects the browser to the agency's provider. */
    app.get('/api/auth/sso/:agency/start', {
      config: { permission: 'public' },
      schema: {
        tags: TAGS,
        summary: "Start single sign-on at the agency's provider (a browser navigation)",
        description:
          '302 to the provider\'s authorization endpoint (code flow with PKCE S256, state and nonce, scope "openid email profile"), ' +
          'setting a short-lived HttpOnly cookie that binds the sign-in to this browser (10 minutes). 404 when the agency has no single sign-on, ' +
          '403 when it is suspended, 502 when the provider cannot be reached: an HTML page to a browser, else {success:false, error, reason}.',
        params: SsoStartParams,
        querystring: SsoStartQuery,
        response: { 302: Redirect, 400: SsoErrorEnvelope, 403: SsoErrorEnvelope, 404: SsoErrorEnvelope, 429: responses(Redirect, [429])[429]!, 502: SsoErrorEnvelope },
      },
      handler: async (request, reply) => {
        try {
          const started = await startSso(deps, { agency: request.params.agency, returnTo: request.query.return_to, loginHint: request.query.login_hint });
          void reply.setCookie(SSO_BROWSER_COOKIE, started.browser, {
            path: BROWSER_COOKIE_PATH, httpOnly: true, secure: deps.config.cookieSecure, sameSite: 'lax', maxAge: started.stateTtlS,
          });
          return reply.header('cache-control', 'no-store').redirect(started.url, 302);
        } catch (err) {
          if (err instanceof SsoFailure) return sendFailure(request, reply, err);
          throw err;
        }
      },
    });

    /** GET /api/auth/sso/callback: the provider's answer; starts a browser session. */
    app.get('/api/auth/sso/callback', {
      config: { permission: 'public' },
      schema: {
        tags: TAGS,
        summary: "The provider's answer (redirect URI): checks it and starts a browser session",
        description:
          'On success sets the session cookie (as POST /api/auth/session; no bearer token; it ends when the provider\'s ID token expires, ' +
          'at most 2 hours) and redirects (302) to the return path. Refused (401 unless stated) with a reason: unknown_state, replayed_state, ' +
          'expired_state, other_browser, provider_refused, wrong_audience, wrong_issuer, bad_token, no_email, email_unverified, other_domain, ' +
          'not_in_agency, no_account, account_disabled, account_blocked, agency_suspended (403), not_configured (404), provider_unavailable (502); ' +
          'an HTML page to a browser, else {success:false, error, reason}. No session is started on a refusal.',
        querystring: SsoCallbackQuery,
        response: { 302: Redirect, 401: SsoErrorEnvelope, 403: SsoErrorEnvelope, 404: SsoErrorEnvelope, 429: responses(Redirect, [429])[429]!, 502: SsoErrorEnvelope },
      },
      handler: async (request, reply) => {
        try {
          const url = new URL(`${deps.config.mail.publicUrl}${request.url}`);
          const signed = await finishSso(deps, guard, url, request.cookies[SSO_BROWSER_COOKIE], meta(request));
          void reply.clearCookie(SSO_BROWSER_COOKIE, { path: BROWSER_COOKIE_PATH });
          void reply.setCookie(SESSION_COOKIE, signed.sessionToken, {
            path: '/', httpOnly: true, secure: deps.config.cookieSecure, sameSite: 'lax', maxAge: signed.lifetimeS,
          });
          return reply.header('cache-control', 'no-store').redirect(signed.returnTo, 302);
        } catch (err) {
          if (err instanceof SsoFailure) return sendFailure(request, reply, err);
          throw err;
        }
      },
    });
  };
}
