/**
 * Roles, the permission catalogue and the user-management policy (spec 4.10;
 * docs/administration.md). Rules live in roles.service.ts.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, ListEnvelope, MessageEnvelope, done, list, ok, responses } from '../../../http/envelope.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import {
  CreateRoleBody, ListPermissionsQuery, ListRolesQuery, Permission, PolicyBody, Role, RoleIdParams, SetPermissionsBody, UpdateRoleBody,
} from './roles.schemas.ts';
import * as service from './roles.service.ts';

const TAGS = ['administration'];
const RULES =
  'Anti-escalation: the role\'s level and any new level must be below the caller\'s own level, never the caller\'s own role, ' +
  'no key the caller does not hold; built-in and global roles only by SysOps. Each refusal is 403 and is written to the activity log.';

/** Registers the roles, permissions and policy routes. */
export function rolesRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    /** GET /api/admin/roles: the roles the caller may point accounts at. */
    app.get('/api/admin/roles', {
      config: { permission: 'api.admin.roles.view' },
      schema: {
        tags: TAGS,
        summary: 'List roles',
        description: 'Built-in and global roles plus the custom roles of the caller\'s agency (SysOps: every role), highest level first. Filter q matches name or code.',
        querystring: ListRolesQuery,
        response: responses(ListEnvelope(Role), [400, 401, 403, 429]),
      },
      handler: async (request) => {
        const { rows, total } = await service.listRoles(deps, requireAuth(request), request.query);
        return list(rows, total, 'Roles retrieved');
      },
    });

    /** POST /api/admin/roles: creates a custom role. */
    app.post('/api/admin/roles', {
      config: { permission: 'api.admin.roles.manage' },
      schema: {
        tags: TAGS,
        summary: 'Create a custom role',
        description: `The role belongs to the caller's agency; SysOps pass agency_uuid or create a global role. Unknown keys: 400 naming the key; a name already used: 409. ${RULES}`,
        body: CreateRoleBody,
        response: responses(DataEnvelope(Role), [400, 401, 403, 404, 409, 429], 201),
      },
      handler: async (request, reply) => {
        const role = await service.createRole(deps, requireAuth(request), actorOf(request), request.body);
        void reply.status(201);
        return ok(role, 'Role created');
      },
    });

    /** PUT /api/admin/roles/{id}: renames a role or changes its description, level or keys. */
    app.put('/api/admin/roles/:id', {
      config: { permission: 'api.admin.roles.manage' },
      schema: {
        tags: TAGS,
        summary: 'Update a role',
        description: `Any of name, description, level and permissions (the full list). ${RULES}`,
        params: RoleIdParams,
        body: UpdateRoleBody,
        response: responses(DataEnvelope(Role), [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) => ok(await service.updateRole(deps, requireAuth(request), actorOf(request), request.params.id, request.body), 'Role updated'),
    });

    /** PUT /api/admin/roles/{id}/permissions: replaces the role's keys with the full list. */
    app.put('/api/admin/roles/:id/permissions', {
      config: { permission: 'api.admin.roles.manage' },
      schema: {
        tags: TAGS,
        summary: "Set a role's permission keys",
        description: `The body carries the complete list; keys missing from it are removed. ${RULES}`,
        params: RoleIdParams,
        body: SetPermissionsBody,
        response: responses(DataEnvelope(Role), [400, 401, 403, 404, 429]),
      },
      handler: async (request) =>
        ok(await service.setRolePermissions(deps, requireAuth(request), actorOf(request), request.params.id, request.body.permissions), 'Role permissions updated'),
    });

    /** DELETE /api/admin/roles/{id}: deletes a custom role no account holds. */
    app.delete('/api/admin/roles/:id', {
      config: { permission: 'api.admin.roles.manage' },
      schema: {
        tags: TAGS,
        summary: 'Delete a custom role',
        description: `Built-in roles: 409. A role still held by an account: 409. ${RULES}`,
        params: RoleIdParams,
        response: responses(MessageEnvelope, [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) => {
        const name = await service.deleteRole(deps, requireAuth(request), actorOf(request), request.params.id);
        return done(`Role ${name} deleted`);
      },
    });

    /** GET /api/admin/permissions: the permission catalogue. */
    app.get('/api/admin/permissions', {
      config: { permission: 'api.admin.permissions.view' },
      schema: {
        tags: TAGS,
        summary: 'List the permission catalogue',
        description: 'Every key with its description and the built-in roles that hold it by default, sorted by key. Filter q matches key or description.',
        querystring: ListPermissionsQuery,
        response: responses(ListEnvelope(Permission), [400, 401, 403, 429]),
      },
      handler: async (request) => {
        const { rows, total } = service.listPermissions(request.query);
        return list(rows, total, 'Permissions retrieved');
      },
    });

    /** PUT /api/admin/user-management-policy (spec 4.10): sets a role's management level. */
    app.put('/api/admin/user-management-policy', {
      config: { permission: 'api.admin.user_management_policy.manage' },
      schema: {
        tags: TAGS,
        summary: 'Set the management level of a role',
        description:
          'id is a role id, level 0 to 1000 (a larger level manages smaller ones). The role\'s current level and the new level must both be below the caller\'s ' +
          'own level, and never the caller\'s own role. Agency administrators change only their agency\'s custom roles; SysOps any role below them. ' +
          'Refusals are 403 and are written to the activity log.',
        body: PolicyBody,
        response: responses(MessageEnvelope, [400, 401, 403, 404, 429]),
      },
      handler: async (request) =>
        done(await service.setManagementLevel(deps, requireAuth(request), actorOf(request), request.body.id, request.body.level)),
    });
  };
}
