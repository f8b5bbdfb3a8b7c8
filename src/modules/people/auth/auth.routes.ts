/**
 * Routes: POST /api/auth/login (spec 4.1), POST /api/auth/session (docs/api.md "Additions"), POST /api/auth/logout, GET /api/auth/me, and the
 * security area's POST/DELETE /api/security/mobile-auth (4.2, 4.3) and GET
 * /api/security/csrf-token (4.4).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppDeps } from '../../../app-deps.ts';
import { CsrfOnlyBody } from '../../../http/optional-body.ts';
import { issueCsrfToken } from '../../../http/csrf.ts';
import { DataEnvelope, MessageEnvelope, done, ok, responses } from '../../../http/envelope.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import { getMe } from './me.service.ts';
import { LoginBody, LoginResult, Me, MobileAuthBody, MobileTokenData, SessionStarted, TokenData } from './auth.schemas.ts';
import { invalidParam } from '../../../core/errors.ts';
import type { FactorAnswer } from './two-factor.service.ts';
import { twoFactorRoutes } from './two-factor.routes.ts';
import { issueLogin, issueMobile, issueMobileToken, issueSession, LIFETIMES, login, passSignInFactor, revokeCurrentToken, SESSION_COOKIE, startSession, type LoginGuard } from './auth.service.ts';

function meta(request: FastifyRequest) {
  const ua = request.headers['user-agent'];
  return { ...actorOf(request), userAgent: typeof ua === 'string' ? ua : null };
}

function setSession(deps: AppDeps, reply: FastifyReply, token: string, rememberMe: boolean) {
  void reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    secure: deps.config.cookieSecure,
    sameSite: 'lax',
    maxAge: rememberMe ? LIFETIMES.rememberMe : LIFETIMES.session,
  });
}

type SignInBody = { email?: string | undefined; password?: string | undefined; challenge?: string | undefined; code?: string | undefined; recovery_code?: string | undefined; passkey?: object | undefined };

/**
 * Which call of a sign-in a body is (docs/api.md "Additions: the second factor"): the second when it
 * carries a challenge (and no e-mail or password), else the first, which needs e-mail and password.
 * @throws 400 naming the first missing or misplaced field
 */
function callOf(body: SignInBody): { answer: FactorAnswer } | { creds: { email: string; password: string } } {
  if (body.challenge !== undefined) {
    if (body.email !== undefined || body.password !== undefined) throw invalidParam(body.email !== undefined ? 'email' : 'password');
    return { answer: { challenge: body.challenge, code: body.code, recovery_code: body.recovery_code, passkey: body.passkey as Record<string, unknown> | undefined } };
  }
  if (body.code !== undefined || body.recovery_code !== undefined || body.passkey !== undefined) throw invalidParam('challenge');
  if (body.email === undefined) throw invalidParam('email');
  if (body.password === undefined) throw invalidParam('password');
  return { creds: { email: body.email, password: body.password } };
}

function clearSession(deps: AppDeps, reply: FastifyReply) {
  void reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, secure: deps.config.cookieSecure, sameSite: 'lax' });
}

/**
 * Registers the auth and security routes.
 * @param guard the blacklist's account check and throttle hook, used by both logins
 */
export function authRoutes(deps: AppDeps, guard: LoginGuard) {
  return async function plugin(app: App): Promise<void> {
    await twoFactorRoutes(deps)(app);
    /** POST /api/auth/login (spec 4.1): 90-day bearer token plus a browser session cookie. */
    app.post('/api/auth/login', {
      config: { permission: 'public', csrf: false, failClosed: true },
      schema: {
        tags: ['auth'],
        summary: 'Log in with e-mail and password',
        description:
          'Returns a 90-day bearer token (fields at the top level, spec 2.6) and sets the browser session cookie ' +
          '(HttpOnly, Secure, SameSite=Lax; 2 h, 30 min idle, or 30 days with remember_me). Revokes every earlier ' +
          'active bearer token (login and mobile) of the account; browser sessions of other devices stay signed in. ' +
          'No CSRF token needed.',
        body: LoginBody,
        response: responses(LoginResult, [400, 401, 403, 429, 503]),
      },
      handler: async (request, reply) => {
        const call = callOf(request.body);
        let recoveryCodes: string[] | undefined;
        let result;
        if ('answer' in call) {
          const passed = await passSignInFactor(deps, guard, call.answer, 'login', meta(request));
          result = await issueLogin(deps, passed.account, { rememberMe: passed.rememberMe }, meta(request));
          recoveryCodes = passed.recoveryCodes;
        } else {
          result = await login(deps, guard, { ...call.creds, rememberMe: request.body.remember_me === true }, meta(request));
        }
        setSession(deps, reply, result.sessionToken, result.rememberMe);
        return {
          success: true as const,
          token: result.token,
          token_type: 'Bearer' as const,
          expires_at: result.expiresAt.toISOString(),
          user: result.user,
          usage: 'Send the token on every request as the header "Authorization: Bearer <token>". ' +
            'Fetch a CSRF token from GET /api/security/csrf-token before each POST, PUT or DELETE.',
          ...(recoveryCodes ? { recovery_codes: recoveryCodes } : {}),
        };
      },
    });

    /**
     * POST /api/auth/session (docs/api.md "Additions"): a browser sign-in. Body as login; sets the
     * session cookie only (no bearer token) and revokes nothing. 200 data {expires_at, remember_me,
     * user}; 400, 401 'Invalid email or password', 403, 429 as login.
     */
    app.post('/api/auth/session', {
      config: { permission: 'public', csrf: false, failClosed: true },
      schema: {
        tags: ['auth'],
        summary: 'Sign in a browser: a session cookie only, one per device',
        description:
          'Body as POST /api/auth/login. Sets the browser session cookie (HttpOnly, Secure, SameSite=Lax; 2 h, 30 min idle, ' +
          'or 30 days with remember_me) and issues no bearer token. Revokes nothing: the sessions of other devices and the ' +
          "apps' tokens stay valid. No CSRF token needed.",
        body: LoginBody,
        response: responses(DataEnvelope(SessionStarted), [400, 401, 403, 429, 503]),
      },
      handler: async (request, reply) => {
        const call = callOf(request.body);
        let recoveryCodes: string[] | undefined;
        let result;
        if ('answer' in call) {
          const passed = await passSignInFactor(deps, guard, call.answer, 'session', meta(request));
          result = await issueSession(deps, passed.account, { rememberMe: passed.rememberMe }, meta(request));
          recoveryCodes = passed.recoveryCodes;
        } else {
          result = await startSession(deps, guard, { ...call.creds, rememberMe: request.body.remember_me === true }, meta(request));
        }
        setSession(deps, reply, result.sessionToken, result.rememberMe);
        return ok(
          { expires_at: result.sessionExpiresAt.toISOString(), remember_me: result.rememberMe, user: result.user, ...(recoveryCodes ? { recovery_codes: recoveryCodes } : {}) },
          'Signed in',
        );
      },
    });

    /** POST /api/auth/logout: revokes the token or session of the request and clears the cookie. */
    app.post('/api/auth/logout', {
      config: { permission: 'authenticated' },
      schema: {
        tags: ['auth'],
        summary: 'Log out: revoke the current token or session',
        body: Type.Optional(CsrfOnlyBody),
        response: responses(MessageEnvelope, [401, 403, 429]),
      },
      handler: async (request, reply) => {
        await revokeCurrentToken(deps, requireAuth(request), actorOf(request), 'auth.logout');
        clearSession(deps, reply);
        return done('Logged out');
      },
    });

    /** GET /api/auth/me: the caller's account, role, agency, branch and session expiry. */
    app.get('/api/auth/me', {
      config: { permission: 'authenticated' },
      schema: { tags: ['auth'], summary: 'The current account', response: responses(DataEnvelope(Me), [401, 429]) },
      handler: async (request) => ok(await getMe(deps, requireAuth(request)), 'Current user'),
    });

    /** POST /api/security/mobile-auth (spec 4.2): a one-year token for apps and API clients. */
    app.post('/api/security/mobile-auth', {
      config: { permission: 'public', csrf: false, failClosed: true },
      schema: {
        tags: ['security'],
        summary: 'Issue a long-lived (one year) bearer token for a mobile app or API client',
        description: 'Revokes nothing. No CSRF token needed.',
        body: MobileAuthBody,
        response: responses(DataEnvelope(MobileTokenData), [400, 401, 403, 429, 503]),
      },
      handler: async (request) => {
        const call = callOf(request.body);
        if ('answer' in call) {
          const passed = await passSignInFactor(deps, guard, call.answer, 'mobile', meta(request));
          const result = await issueMobile(deps, passed.account, meta(request));
          return ok(
            { token: result.token, expires_at: result.expiresAt.toISOString(), ...(passed.recoveryCodes ? { recovery_codes: passed.recoveryCodes } : {}) },
            'Token issued',
          );
        }
        const result = await issueMobileToken(deps, guard, call.creds, meta(request));
        return ok({ token: result.token, expires_at: result.expiresAt.toISOString() }, 'Token issued');
      },
    });

    /** DELETE /api/security/mobile-auth (spec 4.3): revokes the bearer token of the request. */
    app.delete('/api/security/mobile-auth', {
      config: { permission: 'bearer' },
      schema: {
        tags: ['security'],
        summary: 'Revoke the bearer token sent with this request',
        description: 'Needs a CSRF token (body csrf_token or header X-CSRF-Token) fetched with the same bearer token.',
        body: Type.Optional(CsrfOnlyBody),
        response: responses(MessageEnvelope, [401, 403, 429]),
      },
      handler: async (request) => {
        await revokeCurrentToken(deps, requireAuth(request), actorOf(request), 'auth.mobile_token_revoke');
        return done('Token revoked');
      },
    });

    /** GET /api/security/csrf-token (spec 4.4): a single-use token for the caller's session. */
    app.get('/api/security/csrf-token', {
      config: { permission: 'authenticated' },
      schema: {
        tags: ['security'],
        summary: 'Fetch a single-use CSRF token for the current token or session',
        response: responses(DataEnvelope(TokenData), [401, 429]),
      },
      handler: async (request) => {
        const { token, expiresAt } = await issueCsrfToken(deps, requireAuth(request));
        return ok({ token, expires_at: expiresAt.toISOString() }, 'CSRF token issued');
      },
    });
  };
}
