/** Request and response schemas of single sign-on (docs/security.md "Single sign-on"). */
import { Type } from 'typebox';
import { DateTime, Nullable, Uuid } from '../../../http/schema-primitives.ts';

const Provider = Type.Union([Type.Literal('microsoft'), Type.Literal('google'), Type.Literal('other')], {
  description: 'which button the sign-in page shows: microsoft (Entra ID), google (Workspace), other ("your organisation")',
});

const Domain = Type.String({
  minLength: 3,
  maxLength: 253,
  pattern: '^([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z]{2,63}$',
  description: 'an e-mail domain of the agency, e.g. example-lettings.co.uk',
});

export const SsoSettingsBody = Type.Object(
  {
    provider: Provider,
    issuer: Type.String({
      minLength: 10,
      maxLength: 500,
      format: 'uri',
      pattern: '^https?://[^\\s?#]+$',
      description: 'the issuer, e.g. https://login.microsoftonline.com/<tenant id>/v2.0 or https://accounts.google.com (https only; no query)',
    }),
    client_id: Type.String({ minLength: 1, maxLength: 255, pattern: '^\\S+$', description: "the application's client id at the provider" }),
    client_secret: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'the client secret; required the first time, kept when omitted later; never shown again' })),
    domains: Type.Array(Domain, { minItems: 1, maxItems: 20, description: "the agency's own e-mail domains: only addresses there are matched or created" }),
    enabled: Type.Optional(Type.Boolean({ default: true })),
    create_users: Type.Optional(Type.Boolean({ default: false, description: 'create an account on first sign-in with default_role' })),
    default_role: Type.Optional(Nullable(Type.Union([Type.Literal('agent'), Type.Literal('admin')], { description: 'role of created accounts' }))),
    default_branch_uuid: Type.Optional(Nullable(Uuid({ description: 'branch of created accounts (required for agent)' }))),
    require_for_staff: Type.Optional(Type.Boolean({ default: false, description: 'refuse password sign-in for staff (admins, agents, custom roles at agent level or above)' })),
  },
  { additionalProperties: false },
);

export const SsoSettings = Type.Object({
  provider: Provider,
  issuer: Type.String(),
  client_id: Type.String(),
  client_secret_set: Type.Boolean({ description: 'the secret itself is never returned' }),
  domains: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  create_users: Type.Boolean(),
  default_role: Nullable(Type.String()),
  default_branch_uuid: Nullable(Type.String()),
  require_for_staff: Type.Boolean(),
  redirect_uri: Type.String({ description: 'register this redirect URI at the provider' }),
  scopes: Type.String({ description: 'the scopes asked: openid email profile' }),
  updated_at: DateTime(),
});

export const SsoDiscoverQuery = Type.Object(
  {
    email: Type.Optional(Type.String({ minLength: 3, maxLength: 254, pattern: '^[^@\\s]+@[^@\\s]+$' })),
    agency: Type.Optional(Uuid({ description: "the agency's uuid" })),
  },
  { additionalProperties: false },
);

export const SsoDiscovered = Type.Object({
  agency_uuid: Type.String(),
  agency_name: Type.String(),
  provider: Provider,
  start_url: Type.String({ description: 'open this in the browser (a top-level navigation)' }),
});

export const SsoStartParams = Type.Object({ agency: Uuid({ description: "the agency's uuid" }) }, { additionalProperties: false });

export const SsoStartQuery = Type.Object(
  {
    return_to: Type.Optional(Type.String({ maxLength: 500, description: 'a path of this site to return to after signing in' })),
    login_hint: Type.Optional(Type.String({ maxLength: 254, description: 'the e-mail address typed, passed to the provider' })),
  },
  { additionalProperties: false },
);

export const SsoCallbackQuery = Type.Object(
  {
    code: Type.Optional(Type.String({ maxLength: 4096 })),
    state: Type.Optional(Type.String({ maxLength: 512 })),
    iss: Type.Optional(Type.String({ maxLength: 500 })),
    error: Type.Optional(Type.String({ maxLength: 200 })),
    error_description: Type.Optional(Type.String({ maxLength: 1000 })),
    session_state: Type.Optional(Type.String({ maxLength: 500 })),
    scope: Type.Optional(Type.String({ maxLength: 1000 })),
    authuser: Type.Optional(Type.String({ maxLength: 50 })),
    hd: Type.Optional(Type.String({ maxLength: 253 })),
    prompt: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: true, description: 'the authorization response (RFC 6749 4.1.2, RFC 9207 iss); other parameters a provider adds are ignored' },
);

export const SsoErrorEnvelope = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.String({ description: 'the sentence shown' }),
    reason: Type.Optional(Type.String({ description: 'stable code, docs/security.md "Single sign-on" (absent on a 400 for a malformed request)' })),
  },
  { description: 'Single sign-on refused (an HTML page instead when the client accepts text/html)' },
);
