/** Request and response schemas of the auth and security endpoints (spec 2.6, 4.1 to 4.4). */
import { Type } from 'typebox';
import { PASSWORD_MAX } from '../../../lib/passwords.ts';
import { DateTime, Uuid } from '../../../http/schema-primitives.ts';

/**
 * The second call of a sign-in (docs/api.md "Additions: the second factor"): the challenge of the
 * first call's 401 with exactly one answer, instead of email and password.
 */
const FactorAnswerFields = {
  challenge: Type.Optional(Type.String({ minLength: 64, maxLength: 64, pattern: '^[0-9a-f]{64}$', description: 'the challenge of a 401 second_factor_required answer (second call only)' })),
  code: Type.Optional(Type.String({ minLength: 6, maxLength: 16, description: 'the 6-digit code of the authenticator app (second call)' })),
  recovery_code: Type.Optional(Type.String({ minLength: 10, maxLength: 32, description: 'one of the recovery codes (second call)' })),
  passkey: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'a WebAuthn assertion, AuthenticationResponseJSON (second call)' })),
};

export const LoginBody = Type.Object(
  {
    email: Type.Optional(Type.String({ minLength: 3, maxLength: 254, description: "the account's e-mail address (required on the first call)" })),
    password: Type.Optional(Type.String({ minLength: 1, maxLength: PASSWORD_MAX, description: 'required on the first call' })),
    remember_me: Type.Optional(Type.Boolean({ description: 'browser session lasts 30 days instead of 2 hours' })),
    ...FactorAnswerFields,
  },
  { additionalProperties: false },
);

export const LoginResult = Type.Object(
  {
    success: Type.Literal(true),
    token: Type.String({ description: 'bearer token, 64 hex characters' }),
    token_type: Type.Literal('Bearer'),
    expires_at: DateTime(),
    user: Type.Object({ name: Type.String(), email: Type.String(), account_type: Type.String() }),
    usage: Type.String(),
    recovery_codes: Type.Optional(Type.Array(Type.String(), { description: 'after a forced enrolment only: the recovery codes, shown once' })),
  },
  { description: 'Login result (spec 2.6): fields at the top level of the body' },
);

export const SessionStarted = Type.Object({
  expires_at: DateTime({ description: 'when the session cookie expires at the latest' }),
  remember_me: Type.Boolean(),
  user: Type.Object({ name: Type.String(), email: Type.String(), account_type: Type.String() }),
  recovery_codes: Type.Optional(Type.Array(Type.String(), { description: 'after a forced enrolment only: the recovery codes, shown once' })),
});

export const MobileAuthBody = Type.Object(
  {
    email: Type.Optional(Type.String({ minLength: 3, maxLength: 254, description: 'required on the first call' })),
    password: Type.Optional(Type.String({ minLength: 1, maxLength: PASSWORD_MAX, description: 'required on the first call' })),
    ...FactorAnswerFields,
  },
  { additionalProperties: false },
);

/** Recovery codes issued by a forced enrolment at sign-in: shown once (docs/security.md "Two-factor sign-in"). */
export const RecoveryCodesField = Type.Optional(Type.Array(Type.String(), { description: 'after a forced enrolment only: the recovery codes, shown once' }));

export const TokenData = Type.Object({
  token: Type.String({ description: '64 hexadecimal characters' }),
  expires_at: DateTime(),
});

/** POST /api/security/mobile-auth's answer: the token, plus recovery codes after a forced enrolment. */
export const MobileTokenData = Type.Object({
  token: Type.String({ description: '64 hexadecimal characters' }),
  expires_at: DateTime(),
  recovery_codes: RecoveryCodesField,
});

export const Me = Type.Object({
  uuid: Uuid(),
  name: Type.String(),
  email: Type.String(),
  role: Type.String(),
  level: Type.Integer(),
  agency_uuid: Type.Union([Uuid(), Type.Null()]),
  agency_name: Type.Union([Type.String(), Type.Null()]),
  branch_uuid: Type.Union([Uuid(), Type.Null()]),
  branch_name: Type.Union([Type.String(), Type.Null()]),
  session: Type.Object({ kind: Type.String(), expires_at: DateTime() }),
});

export const PermissionsData = Type.Object({
  user_uuid: Uuid(),
  role: Type.String(),
  level: Type.Integer(),
  permissions: Type.Array(Type.String()),
});
