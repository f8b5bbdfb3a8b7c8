/** Schemas of roles, permissions and the user-management policy (spec 4.10; docs/administration.md). */
import { Type, type Static } from 'typebox';
import { Pagination } from '../../../http/pagination.ts';
import { Uuid } from '../../../http/schema-primitives.ts';

/** Bounds of a management level (docs/api.md "Permission keys"). */
export const LEVEL_MIN = 0;
export const LEVEL_MAX = 1000;

const Level = (description: string) => Type.Integer({ minimum: LEVEL_MIN, maximum: LEVEL_MAX, description });
const Keys = Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
  maxItems: 500,
  description: 'permission keys from GET /api/admin/permissions',
});

export const Role = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    code: Type.String({ description: 'built-in code (sysops, admin, agent, api, contractor, tenant) or custom_<agency>_<slug>' }),
    level: Type.Integer({ description: 'management level: a larger level manages smaller ones' }),
    is_builtin: Type.Boolean(),
    agency_uuid: Type.Union([Uuid(), Type.Null()], { description: 'null for built-in and global roles' }),
    description: Type.String(),
    permissions: Type.Array(Type.String(), { description: 'sorted permission keys' }),
    users_count: Type.Integer({ description: 'accounts holding the role (of the caller\'s agency unless SysOps)' }),
  },
  { description: 'A role' },
);
export type RoleDto = Static<typeof Role>;

export const ListRolesQuery = Type.Object(
  {
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'part of the name or code' })),
    ...Pagination,
  },
  { additionalProperties: false },
);

export const RoleIdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) }, { additionalProperties: false });

export const CreateRoleBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    level: Level('below the caller\'s own level'),
    permissions: Type.Optional(Keys),
    description: Type.Optional(Type.String({ maxLength: 500 })),
    agency_uuid: Type.Optional(Uuid({ description: 'SysOps only: the agency of the role; omitted: a global role' })),
  },
  { additionalProperties: false },
);
export type CreateRoleInput = Static<typeof CreateRoleBody>;

export const UpdateRoleBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    level: Type.Optional(Level('below the caller\'s own level')),
    permissions: Type.Optional(Keys),
    description: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);
export type UpdateRoleInput = Static<typeof UpdateRoleBody>;

export const SetPermissionsBody = Type.Object(
  { permissions: Keys },
  { additionalProperties: false },
);

export const PolicyBody = Type.Object(
  {
    id: Type.Integer({ minimum: 1, description: 'role id (GET /api/admin/roles)' }),
    level: Level('the new management level'),
  },
  { additionalProperties: false },
);

export const Permission = Type.Object(
  {
    key: Type.String(),
    description: Type.String(),
    default_roles: Type.Array(Type.String(), { description: 'built-in role codes holding the key by default' }),
  },
  { description: 'A permission key of the catalogue' },
);

export const ListPermissionsQuery = Type.Object(
  { q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'part of the key or description' })), ...Pagination },
  { additionalProperties: false },
);
