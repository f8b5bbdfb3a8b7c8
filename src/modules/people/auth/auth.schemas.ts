/** Request and response schemas of the auth and security endpoints (spec 2.6, 4.1 to 4.4). */
import { Type } from 'typebox';
import { PASSWORD_MAX } from '../../../lib/passwords.ts';
import { DateTime, Uuid } from '../../../http/schema-primitives.ts';

export const LoginBody = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 254, description: "the account's e-mail address" }),
    password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX }),
    remember_me: Type.Optional(Type.Boolean({ description: 'browser session lasts 30 days instead of 2 hours' })),
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
  },
  { description: 'Login result (spec 2.6): fields at the top level of the body' },
);

export const SessionStarted = Type.Object({
  expires_at: DateTime({ description: 'when the session cookie expires at the latest' }),
  remember_me: Type.Boolean(),
  user: Type.Object({ name: Type.String(), email: Type.String(), account_type: Type.String() }),
});

export const MobileAuthBody = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 254 }),
    password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX }),
  },
  { additionalProperties: false },
);

export const TokenData = Type.Object({
  token: Type.String({ description: '64 hexadecimal characters' }),
  expires_at: DateTime(),
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
