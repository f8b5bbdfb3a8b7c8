/** Request and response schemas of the users area (docs/users.md). */
import { Type, type Static } from 'typebox';
import { DateTime, Nullable, Uuid } from '../../../http/schema-primitives.ts';
import { Pagination, Sorting } from '../../../http/pagination.ts';
import { PASSWORD_MAX, PASSWORD_MIN } from '../../../lib/passwords.ts';
import { UserStatus } from './user-status.ts';

/** A new password: 8 to 128 characters, kept exactly as given. */
export const Password = (description = 'new password, 8 to 128 characters') =>
  Type.String({ minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX, description });

/** A role given by its numeric id or its code (for example `agent`). */
export const RoleRef = Type.Union(
  [Type.Integer({ minimum: 1 }), Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_.-]+$' })],
  { description: 'role id (integer) or role code (for example "agent")' },
);

export const UserUuidParams = Type.Object({ uuid: Uuid('the user') }, { additionalProperties: false });
export const SessionIdParams = Type.Object({ id: Type.Integer({ minimum: 1, description: 'session id' }) }, { additionalProperties: false });

export const CreateUserBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    email: Type.String({ format: 'email', maxLength: 254, description: 'unique across the service, stored in lower case' }),
    role: Type.Optional(RoleRef),
    role_id: Type.Optional(Type.Integer({ minimum: 1, description: 'the role by its ID, as read back in role_id (or send role)' })),
    branch_uuid: Type.Optional(Nullable(Uuid('branch of the agency (required for agents)'))),
    agency_uuid: Type.Optional(Uuid('SysOps only: the agency (else taken from the branch, tenant or contractor)')),
    tenant_uuid: Type.Optional(Uuid("links the account to this tenant record (the tenant's own login); role defaults to tenant")),
    contractor_uuid: Type.Optional(Uuid("links the account to this contractor record; role defaults to contractor")),
    landlord_uuid: Type.Optional(Uuid("links the account to this landlord record (the landlord's own login, docs/landlords.md); role defaults to landlord")),
    password: Type.Optional(Password('initial password, 8 to 128 characters (or send invite: true)')),
    invite: Type.Optional(Type.Boolean({ description: 'true: e-mail a single-use invitation link (valid 7 days) instead of setting a password' })),
  },
  { additionalProperties: false },
);
export type CreateUserInput = Static<typeof CreateUserBody>;

export const UpdateUserBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 254 })),
    role: Type.Optional(RoleRef),
    role_id: Type.Optional(Type.Integer({ minimum: 1, description: 'the role by its ID, as read back in role_id (or send role)' })),
    branch_uuid: Type.Optional(Nullable(Uuid('branch of the agency; null removes it'))),
  },
  { additionalProperties: false },
);
export type UpdateUserInput = Static<typeof UpdateUserBody>;

/** What GET /api/users sorts by (`sort`): name, e-mail, role name, branch name, status, last sign-in (docs/api.md). */
export const USER_SORTS = ['name', 'email', 'role', 'branch_name', 'status', 'last_login_at'] as const;

export const ListUsersQuery = Type.Object(
  {
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'text searched in name and e-mail (case-insensitive)' })),
    role: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'role id or code' })),
    branch_uuid: Type.Optional(Uuid('only users of this branch')),
    agency_uuid: Type.Optional(Uuid('SysOps only: only users of this agency')),
    status: Type.Optional(UserStatus()),
    ...Sorting(USER_SORTS, 'name', 'asc'),
    ...Pagination,
  },
  { additionalProperties: false },
);
export type ListUsersQuery = Static<typeof ListUsersQuery>;

export { CsrfOnlyBody } from '../../../http/optional-body.ts';


export const AcceptInvitationBody = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 200, description: 'token from the invitation e-mail' }), password: Password() },
  { additionalProperties: false },
);

export const ChangePasswordBody = Type.Object(
  {
    current_password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX }),
    new_password: Password(),
  },
  { additionalProperties: false },
);

export const ResetRequestBody = Type.Object(
  { email: Type.String({ minLength: 3, maxLength: 254, description: "the account's e-mail address" }) },
  { additionalProperties: false },
);

export const ResetConfirmBody = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 200, description: 'token from the reset e-mail' }), new_password: Password() },
  { additionalProperties: false },
);

export const UserDto = Type.Object(
  {
    uuid: Uuid(),
    name: Type.String(),
    email: Type.String(),
    role: Type.String({ description: 'role name' }),
    role_code: Type.String(),
    role_id: Type.Integer(),
    level: Type.Integer({ description: 'management level of the role' }),
    status: UserStatus(),
    agency_uuid: Type.Union([Uuid(), Type.Null()]),
    agency_name: Type.Union([Type.String(), Type.Null()]),
    branch_uuid: Type.Union([Uuid(), Type.Null()]),
    branch_name: Type.Union([Type.String(), Type.Null()]),
    tenant_uuid: Type.Union([Uuid(), Type.Null()]),
    contractor_uuid: Type.Union([Uuid(), Type.Null()]),
    last_login_at: Type.Union([DateTime(), Type.Null()]),
    disabled_at: Type.Union([DateTime(), Type.Null()]),
    invited_at: Type.Union([DateTime(), Type.Null()]),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { description: 'A user account (never carries a password hash or token)' },
);
export type UserDto = Static<typeof UserDto>;

export const SessionDto = Type.Object(
  {
    id: Type.Integer(),
    kind: Type.Union([Type.Literal('login'), Type.Literal('mobile'), Type.Literal('session')], {
      description: 'login: 90-day bearer; mobile: one-year bearer; session: browser cookie',
    }),
    remember_me: Type.Boolean(),
    created_at: DateTime(),
    last_used_at: DateTime(),
    expires_at: DateTime(),
    ip_address: Type.Union([Type.String(), Type.Null()]),
    user_agent: Type.Union([Type.String(), Type.Null()]),
    device: Type.Union([Type.String(), Type.Null()], {
      description: 'the device read from user_agent, e.g. "Chrome 131 on Windows 10"; an unknown agent as sent; null for none',
    }),
    current: Type.Boolean({ description: 'true for the token or session of this request' }),
  },
  { description: 'An active token or session (never the token or its hash)' },
);
export type SessionDto = Static<typeof SessionDto>;

export const RevokedData = Type.Object({ revoked: Type.Integer({ minimum: 0, description: 'tokens and sessions revoked' }) });
