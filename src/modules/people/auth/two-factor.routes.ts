/**
 * Routes of the second factors (docs/security.md "Two-factor sign-in" and "Passkeys"; docs/api.md
 * "Additions: the second factor"): one's own TOTP, recovery codes and passkeys under
 * /api/users/me, the forced enrolment and passkey options of a sign-in under /api/auth, and the
 * agency's policy under /api/security.
 */
import { Type } from 'typebox';
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, MessageEnvelope, done, ok, responses } from '../../../http/envelope.ts';
import { CsrfOnlyBody } from '../../../http/optional-body.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import { DateTime, Uuid } from '../../../http/schema-primitives.ts';
import { passkeyLoginOptions, passkeyRegistrationOptions, registerPasskey, removePasskey } from './passkeys.service.ts';
import {
  disableTotp,
  getTwoFactorPolicy,
  regenerateRecoveryCodes,
  setTwoFactorPolicy,
  startForcedEnrolment,
  startTotpEnrolment,
  twoFactorStatus,
  verifyTotpEnrolment,
} from './two-factor.service.ts';

const Challenge = Type.String({ minLength: 64, maxLength: 64, pattern: '^[0-9a-f]{64}$', description: 'the challenge of a 401 answer to a sign-in' });
const Code = Type.String({ minLength: 6, maxLength: 16, description: 'a 6-digit code of the authenticator app' });
const RecoveryCode = Type.String({ minLength: 10, maxLength: 32, description: 'a recovery code, xxxxx-xxxxx' });

const TotpOffer = Type.Object({
  secret: Type.String({ description: 'base32 secret, for typing into an app that cannot scan' }),
  otpauth_uri: Type.String({ description: 'otpauth://totp/... (Key Uri Format)' }),
  qr_code: Type.String({ description: 'the otpauth URI as a QR code, data:image/png;base64,...' }),
  period_s: Type.Integer({ description: 'seconds per code (30)' }),
  digits: Type.Integer({ description: 'digits per code (6)' }),
});
const RecoveryCodes = Type.Object({ recovery_codes: Type.Array(Type.String(), { description: 'shown once; each works once' }) });
const Passkey = Type.Object({ id: Uuid(), name: Type.String(), created_at: DateTime(), last_used_at: Type.Union([DateTime(), Type.Null()]) });
const Status = Type.Object({
  totp_enabled: Type.Boolean(),
  totp_enabled_at: Type.Union([DateTime(), Type.Null()]),
  recovery_codes_left: Type.Integer(),
  passkeys: Type.Array(Passkey),
  required: Type.Boolean({ description: "the policy requires a second factor of this account (its agency's staff policy, or SysOps)" }),
});
const CodeBody = Type.Object({ code: Type.Optional(Code), recovery_code: Type.Optional(RecoveryCode) }, { additionalProperties: false });
const AnyJson = (description: string) => Type.Object({}, { additionalProperties: true, description });
const Policy = Type.Object({ required: Type.Boolean(), sysops_always: Type.Optional(Type.Boolean()) });

/** Registers the second-factor routes (called by authRoutes). */
export function twoFactorRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    const caller = (request: Parameters<typeof requireAuth>[0]) => ({ ...actorOf(request), auth: requireAuth(request) });

    /** GET /api/users/me/two-factor: the caller's factors and whether a factor is required. */
    app.get('/api/users/me/two-factor', {
      config: { permission: 'authenticated' },
      schema: { tags: ['users'], summary: "The caller's second factors", response: responses(DataEnvelope(Status), [401, 429]) },
      handler: async (request) => ok(await twoFactorStatus(deps, requireAuth(request)), 'Two-factor status'),
    });

    /** POST /api/users/me/two-factor/totp: a new secret and its QR code; TOTP stays off until verified. */
    app.post('/api/users/me/two-factor/totp', {
      config: { permission: 'authenticated' },
      schema: {
        tags: ['users'],
        summary: 'Start setting up an authenticator app (TOTP)',
        description: 'Returns a new secret, its otpauth URI and QR code. Nothing changes at sign-in until POST .../totp/verify. 409 when TOTP is already on. Needs a CSRF token.',
        body: Type.Optional(CsrfOnlyBody),
        response: responses(DataEnvelope(TotpOffer), [401, 403, 409, 429]),
      },
      handler: async (request) => ok(await startTotpEnrolment(deps, caller(request)), 'Scan the QR code, then enter a code'),
    });

    /** POST /api/users/me/two-factor/totp/verify: turns TOTP on; returns the recovery codes once. */
    app.post('/api/users/me/two-factor/totp/verify', {
      config: { permission: 'authenticated' },
      schema: {
        tags: ['users'],
        summary: 'Confirm the authenticator app with a code; turns two-factor on',
        description: 'Returns ten recovery codes, shown once and stored hashed. Wrong codes count towards the same lock-out as passwords (429). Needs a CSRF token.',
        body: Type.Object({ code: Code }, { additionalProperties: false }),
        response: responses(DataEnvelope(RecoveryCodes), [400, 401, 403, 409, 429]),
      },
      handler: async (request) => ok(await verifyTotpEnrolment(deps, caller(request), request.body.code), 'Two-factor authentication is on'),
    });

    /** DELETE /api/users/me/two-factor/totp: turns TOTP off given a current code or recovery code. */
    app.delete('/api/users/me/two-factor/totp', {
      config: { permission: 'authenticated' },
      schema: {
        tags: ['users'],
        summary: 'Turn the authenticator app off',
        description: 'Body: exactly one of code or recovery_code. Deletes the recovery codes too. 403 when the policy requires a factor and no passkey is left. Needs a CSRF token.',
        body: CodeBody,
        response: responses(MessageEnvelope, [400, 401, 403, 409, 429]),
      },
      handler: async (request) => {
        await disableTotp(deps, caller(request), request.body);
        return done('Two-factor authentication is off');
      },
    });

    /** POST /api/users/me/two-factor/recovery-codes: new recovery codes, the old ones void. */
    app.post('/api/users/me/two-factor/recovery-codes', {
      config: { permission: 'authenticated' },
      schema: {
        tags: ['users'],
        summary: 'Replace the recovery codes',
        description: 'Body: exactly one of code or recovery_code. The old codes stop working. Needs a CSRF token.',
        body: CodeBody,
        response: responses(DataEnvelope(RecoveryCodes), [400, 401, 403, 409, 429]),
      },
      handler: async (request) => ok(await regenerateRecoveryCodes(deps, caller(request), request.body), 'New recovery codes'),
    });

    /** POST /api/users/me/passkeys/options: WebAuthn creation options for navigator.credentials.create. */
    app.post('/api/users/me/passkeys/options', {
      config: { permission: 'authenticated' },
      schema: {
        tags: ['users'],
        summary: 'Options for registering a passkey',
        description: 'PublicKeyCredentialCreationOptionsJSON; the challenge is kept for 5 minutes. Needs a CSRF token.',
        body: Type.Optional(CsrfOnlyBody),
        response: responses(DataEnvelope(AnyJson('PublicKeyCredentialCreationOptionsJSON')), [401, 403, 429]),
      },
      handler: async (request) => ok(await passkeyRegistrationOptions(deps, caller(request)), 'Passkey options'),
    });

    /** POST /api/users/me/passkeys: registers the passkey the browser created. */
    app.post('/api/users/me/passkeys', {
      config: { permission: 'authenticated' },
      schema: {
        tags: ['users'],
        summary: 'Register a passkey',
        description: 'Body: response (RegistrationResponseJSON from the browser) and an optional name. 400 when it does not verify; 409 without options or already registered. Needs a CSRF token.',
        body: Type.Object({ response: AnyJson('RegistrationResponseJSON'), name: Type.Optional(Type.String({ maxLength: 100 })) }, { additionalProperties: false }),
        response: responses(DataEnvelope(Passkey), [400, 401, 403, 409, 429], 201),
      },
      handler: async (request, reply) => {
        const passkey = await registerPasskey(deps, caller(request), { response: request.body.response as Record<string, unknown>, name: request.body.name });
        void reply.code(201);
        return ok(passkey, 'Passkey added');
      },
    });

    /** DELETE /api/users/me/passkeys/{id}: removes one of the caller's passkeys. */
    app.delete('/api/users/me/passkeys/:id', {
      config: { permission: 'authenticated' },
      schema: {
        tags: ['users'],
        summary: 'Remove a passkey',
        description: '404 when not one of the caller\'s; 403 when it is the last factor the policy requires. Needs a CSRF token.',
        params: Type.Object({ id: Uuid() }),
        body: Type.Optional(CsrfOnlyBody),
        response: responses(MessageEnvelope, [400, 401, 403, 404, 429]),
      },
      handler: async (request) => {
        await removePasskey(deps, caller(request), request.params.id);
        return done('Passkey removed');
      },
    });

    /** POST /api/auth/two-factor/enrol: the secret of a forced enrolment at sign-in. */
    app.post('/api/auth/two-factor/enrol', {
      config: { permission: 'public', csrf: false, failClosed: true },
      schema: {
        tags: ['auth'],
        summary: 'Set up an authenticator app during a sign-in the policy stopped',
        description:
          'Body: the challenge of a 401 second_factor_enrolment_required answer. Returns the secret and QR code; the sign-in ' +
          'finishes by sending the challenge with a code to the same sign-in endpoint, which turns TOTP on and returns recovery codes once.',
        body: Type.Object({ challenge: Challenge }, { additionalProperties: false }),
        response: responses(DataEnvelope(TotpOffer), [400, 401, 429]),
      },
      handler: async (request) => ok(await startForcedEnrolment(deps, request.body.challenge), 'Scan the QR code, then enter a code'),
    });

    /** POST /api/auth/passkey/options: WebAuthn request options for a passkey sign-in. */
    app.post('/api/auth/passkey/options', {
      config: { permission: 'public', csrf: false, failClosed: true },
      schema: {
        tags: ['auth'],
        summary: 'Options for signing in with a passkey',
        description:
          'With challenge (from a 401 second_factor_required): options naming that account\'s passkeys, the answer sent as passkey with the same challenge. ' +
          'Without: a password-less sign-in; the answer returns a new challenge, sent back with passkey to the endpoint named by credential ' +
          '(session: POST /api/auth/session, login: POST /api/auth/login, mobile: POST /api/security/mobile-auth).',
        body: Type.Object(
          {
            challenge: Type.Optional(Challenge),
            credential: Type.Optional(Type.Union([Type.Literal('session'), Type.Literal('login'), Type.Literal('mobile')], { description: 'default session' })),
            remember_me: Type.Optional(Type.Boolean()),
          },
          { additionalProperties: false },
        ),
        response: responses(
          DataEnvelope(Type.Object({ challenge: Type.String(), expires_at: Type.Union([DateTime(), Type.Null()]), options: AnyJson('PublicKeyCredentialRequestOptionsJSON') })),
          [400, 401, 429],
        ),
      },
      handler: async (request) =>
        ok(await passkeyLoginOptions(deps, { challenge: request.body.challenge, credential: request.body.credential ?? 'session', remember_me: request.body.remember_me }), 'Passkey options'),
    });

    /** GET /api/security/two-factor-policy: whether the caller's agency requires a second factor of staff. */
    app.get('/api/security/two-factor-policy', {
      config: { permission: 'authenticated' },
      schema: { tags: ['security'], summary: "The agency's two-factor policy", response: responses(DataEnvelope(Policy), [401, 429]) },
      handler: async (request) => ok(await getTwoFactorPolicy(deps, requireAuth(request)), 'Two-factor policy'),
    });

    /** PUT /api/security/two-factor-policy: require (or not) a second factor of the agency's staff. */
    app.put('/api/security/two-factor-policy', {
      config: { permission: 'api.agencies.current.manage' },
      schema: {
        tags: ['security'],
        summary: "Require a second factor of the agency's staff",
        description: 'Admins and agents without a factor must set one up at their next sign-in. Needs a CSRF token.',
        body: Type.Object({ required: Type.Boolean() }, { additionalProperties: false }),
        response: responses(DataEnvelope(Policy), [400, 401, 403, 429]),
      },
      handler: async (request) => ok(await setTwoFactorPolicy(deps, caller(request), request.body.required), 'Two-factor policy saved'),
    });
  };
}
