/**
 * Roles, their permission keys and management levels (docs/administration.md, spec
 * 4.10; docs/api.md "Permission keys"; docs/security.md promise 10).
 *
 * Anti-escalation, applied to every change of a role (create, update, delete, keys, level):
 * - the role's current level and any new level must be below the caller's own level;
 * - nobody changes their own role;
 * - nobody grants a key they do not hold themselves, nor changes a role that holds one
 *   (docs/security.md promise 25);
 * - platform-wide keys (catalogue `platform`) go only to platform roles (SysOps, global custom);
 * - built-in and global roles are shared by every agency: only SysOps change them;
 * each refusal is 403 and an activity entry `role.deny` with the operation and the reason.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { changeIdentity } from '../../../core/auth-epoch.ts';
import { isSysOps, type Actor, type AuthContext } from '../../../core/auth-context.ts';
import { conflict, forbidden, invalidParam, notFound } from '../../../core/errors.ts';
import { isPlatformRole, PERMISSION_KEYS, PERMISSIONS, PLATFORM_KEYS } from '../../../permissions/catalogue.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { readAgency as agencyScope } from '../../../core/agency-scope.ts';
import { conflictOnUnique } from '../../../core/errors.ts';
import * as repo from './roles.repository.ts';
import type { CreateRoleInput, RoleDto, UpdateRoleInput } from './roles.schemas.ts';

type Operation = 'create' | 'update' | 'delete' | 'set_permissions' | 'set_level';

const REASONS = {
  shared_role: 'Built-in and global roles are shared by every agency; only SysOps may change them',
  own_role: 'You cannot change your own role',
  level: 'You can only manage roles below your own management level',
  unheld_keys: 'You cannot grant permission keys you do not hold',
  held_keys: 'You cannot change a role holding permission keys you do not hold',
  platform_key: 'Platform-wide permission keys belong only to platform roles',
} as const;

/** Wire shape of a role row. */
export function toRoleDto(row: repo.RoleRow): RoleDto {
  return {
    id: row.id,
    name: row.name,
    code: row.code,
    level: row.level,
    is_builtin: row.is_builtin,
    agency_uuid: row.agency_uuid,
    description: row.description,
    permissions: row.permissions,
    users_count: row.users_count,
  };
}

/** Records a refused attempt and returns the 403 to throw. */
async function deny(deps: AppDeps, actor: Actor, op: Operation, reason: keyof typeof REASONS, roleId: number | null, extra: Record<string, unknown> = {}) {
  await recordActivity(deps.db, actor, deps.clock.now(), {
    action: 'role.deny',
    resourceType: 'role',
    resourceId: roleId,
    details: { operation: op, reason, ...extra },
  });
  const detail = Array.isArray(extra.keys) ? `${REASONS[reason]}: ${String((extra.keys as string[]).join(', '))}` : REASONS[reason];
  return forbidden(detail);
}

/** 400 naming the first key that is not in the catalogue; returns the keys sorted, deduplicated. */
export function checkKnownKeys(keys: string[]): string[] {
  const unknown = keys.find((k) => !PERMISSION_KEYS.has(k));
  if (unknown !== undefined) throw invalidParam(`permissions (unknown key: ${unknown})`);
  return [...new Set(keys)].sort();
}

interface Change {
  op: Operation;
  /** Where a new role goes (create only): its agency, null for a global role. */
  newAgencyId?: number | null;
  newLevel?: number | undefined;
  /** Keys the change adds to the role. */
  granted?: string[];
}

/**
 * Applies the anti-escalation rules to a change of an existing role.
 * @throws 403 (logged as role.deny) when any rule forbids it
 */
async function guard(deps: AppDeps, auth: AuthContext, actor: Actor, role: repo.RoleRow | null, change: Change): Promise<void> {
  const roleId = role?.id ?? null;
  if (role) {
    if (!isSysOps(auth) && role.agency_id !== auth.agencyId) throw await deny(deps, actor, change.op, 'shared_role', roleId);
    if (role.id === auth.roleId) throw await deny(deps, actor, change.op, 'own_role', roleId);
    if (role.level >= auth.level) throw await deny(deps, actor, change.op, 'level', roleId, { role_level: role.level, own_level: auth.level });
    const held = role.permissions.filter((k) => !auth.permissions.has(k));
    if (held.length > 0) throw await deny(deps, actor, change.op, 'held_keys', roleId, { keys: held });
  }

  if (change.newLevel !== undefined && change.newLevel >= auth.level) {
    throw await deny(deps, actor, change.op, 'level', roleId, { requested_level: change.newLevel, own_level: auth.level });
  }
  const unheld = (change.granted ?? []).filter((k) => !auth.permissions.has(k));
  if (unheld.length > 0) throw await deny(deps, actor, change.op, 'unheld_keys', roleId, { keys: unheld });
  const platform = role ? isPlatformRole(role) : change.newAgencyId === null;
  const platformKeys = (change.granted ?? []).filter((k) => PLATFORM_KEYS.has(k));
  if (!platform && platformKeys.length > 0) throw await deny(deps, actor, change.op, 'platform_key', roleId, { keys: platformKeys });
}

/** A role visible to the caller, or 404 "Role not found". */
async function visibleRole(deps: AppDeps, auth: AuthContext, id: number): Promise<repo.RoleRow> {
  const role = await repo.findRole(deps.db, id, agencyScope(auth));
  if (!role) throw notFound('Role');
  return role;
}

/** A readable, unique code for a custom role: custom_<agency id or global>_<slug>[_n]. */
async function newRoleCode(deps: AppDeps, agencyId: number | null, name: string): Promise<string> {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 40) || 'role';
  const base = `custom_${agencyId ?? 'global'}_${slug}`;
  let code = base;
  for (let n = 2; await repo.codeTaken(deps.db, code); n++) code = `${base}_${n}`;
  return code;
}

/**
 * GET /api/admin/roles: roles the caller may point accounts at, highest level first.
 * @returns { rows: RoleDto[], total }
 */
export async function listRoles(deps: AppDeps, auth: AuthContext, q: { q?: string | undefined; limit: number; offset: number }) {
  const { rows, total } = await repo.listRoles(deps.db, { agencyId: agencyScope(auth), ...q });
  return { rows: rows.map(toRoleDto), total };
}

/**
 * POST /api/admin/roles: creates a custom role of the caller's agency (SysOps: of `agency_uuid`,
 * or global without it).
 * @throws 400 unknown key or blank name, 403 level or unheld keys (logged), 404 agency, 409 name
 */
export async function createRole(deps: AppDeps, auth: AuthContext, actor: Actor, input: CreateRoleInput): Promise<RoleDto> {
  const name = input.name.trim();
  if (!name) throw invalidParam('name');
  const keys = checkKnownKeys(input.permissions ?? []);
  let agencyId: number | null;
  if (isSysOps(auth)) {
    agencyId = null;
    if (input.agency_uuid) {
      const agency = await repo.findAgency(deps.db, input.agency_uuid);
      if (!agency) throw notFound('Agency');
      agencyId = agency.id;
    }
  } else {
    if (auth.agencyId === null) throw forbidden();
    if (input.agency_uuid) {
      const agency = await repo.findAgency(deps.db, input.agency_uuid);
      if (!agency || agency.id !== auth.agencyId) throw notFound('Agency');
    }
    agencyId = auth.agencyId;
  }
  await guard(deps, auth, actor, null, { op: 'create', newLevel: input.level, granted: keys, newAgencyId: agencyId });
  if (await repo.nameTaken(deps.db, agencyId, name)) throw conflict(`A role named ${name} already exists`);
  const code = await newRoleCode(deps, agencyId, name);
  const now = deps.clock.now();
  const id = await deps.db
    .transaction()
    .execute(async (trx) => {
      const roleId = await repo.insertRole(trx, { name, code, level: input.level, agencyId, description: input.description ?? '', now });
      await repo.replaceKeys(trx, roleId, keys);
      await recordActivity(trx, actor, now, { action: 'role.create', resourceType: 'role', resourceId: roleId, agencyId, details: { level: input.level, permissions: keys } });
      return roleId;
    })
    .catch(conflictOnUnique(`A role named ${name} already exists`));
  return toRoleDto((await repo.findRole(deps.db, id, null))!);
}

/**
 * PUT /api/admin/roles/{id}: renames a role, changes its description, level or keys.
 * @throws 400 nothing to change or unknown key, 403 (logged), 404, 409 name taken
 */
export async function updateRole(deps: AppDeps, auth: AuthContext, actor: Actor, id: number, input: UpdateRoleInput): Promise<RoleDto> {
  const name = input.name?.trim();
  if (name === '') throw invalidParam('name');
  if (name === undefined && input.level === undefined && input.permissions === undefined && input.description === undefined) throw invalidParam('name');
  const keys = input.permissions === undefined ? undefined : checkKnownKeys(input.permissions);
  const role = await visibleRole(deps, auth, id);
  const granted = keys?.filter((k) => !role.permissions.includes(k)) ?? [];
  await guard(deps, auth, actor, role, { op: 'update', newLevel: input.level, granted });
  if (name !== undefined && (await repo.nameTaken(deps.db, role.agency_id, name, role.id))) throw conflict(`A role named ${name} already exists`);
  const now = deps.clock.now();
  await changeIdentity(deps, async (trx) => {
    await repo.updateRole(trx, role.id, { ...(name !== undefined ? { name } : {}), ...(input.description !== undefined ? { description: input.description } : {}), ...(input.level !== undefined ? { level: input.level } : {}), now });
    if (keys) await repo.replaceKeys(trx, role.id, keys);
    await recordActivity(trx, actor, now, {
      action: 'role.update',
      resourceType: 'role',
      resourceId: role.id,
      agencyId: role.agency_id,
      details: { name, level: input.level, permissions: keys },
    });
  }).catch(conflictOnUnique(`A role named ${name ?? role.name} already exists`));
  return toRoleDto((await repo.findRole(deps.db, role.id, null))!);
}

/**
 * PUT /api/admin/roles/{id}/permissions: replaces a role's keys with the full list given.
 * @throws 400 unknown key, 403 (logged), 404
 */
export async function setRolePermissions(deps: AppDeps, auth: AuthContext, actor: Actor, id: number, permissions: string[]): Promise<RoleDto> {
  const keys = checkKnownKeys(permissions);
  const role = await visibleRole(deps, auth, id);
  const added = keys.filter((k) => !role.permissions.includes(k));
  const removed = role.permissions.filter((k) => !keys.includes(k));
  await guard(deps, auth, actor, role, { op: 'set_permissions', granted: added });
  const now = deps.clock.now();
  await changeIdentity(deps, async (trx) => {
    await repo.replaceKeys(trx, role.id, keys);
    await repo.updateRole(trx, role.id, { now });
    await recordActivity(trx, actor, now, { action: 'role.permissions_set', resourceType: 'role', resourceId: role.id, agencyId: role.agency_id, details: { added, removed } });
  });
  return toRoleDto((await repo.findRole(deps.db, role.id, null))!);
}

/**
 * DELETE /api/admin/roles/{id}: deletes a custom role no account holds.
 * @throws 403 (logged), 404, 409 built-in role or role still held
 */
export async function deleteRole(deps: AppDeps, auth: AuthContext, actor: Actor, id: number): Promise<string> {
  const role = await visibleRole(deps, auth, id);
  if (role.is_builtin) throw conflict('Built-in roles cannot be deleted');
  await guard(deps, auth, actor, role, { op: 'delete' });
  const now = deps.clock.now();
  await changeIdentity(deps, async (trx) => {
    const holders = await repo.usersWithRole(trx, role.id);
    if (holders > 0) throw conflict(`Role ${role.name} is held by ${holders} account(s); give them another role first`);
    await repo.deleteRole(trx, role.id);
    await recordActivity(trx, actor, now, { action: 'role.delete', resourceType: 'role', resourceId: role.id, agencyId: role.agency_id, details: { name: role.name, code: role.code } });
  });
  return role.name;
}

/**
 * PUT /api/admin/user-management-policy (spec 4.10): sets a role's management level.
 * SysOps may change any role below their level; agency administrators only their agency's
 * custom roles (built-in and global roles are shared by every agency).
 * @returns the confirmation message
 * @throws 403 (logged) per the anti-escalation rules, 404 unknown or other agency's role
 */
export async function setManagementLevel(deps: AppDeps, auth: AuthContext, actor: Actor, id: number, level: number): Promise<string> {
  const role = await visibleRole(deps, auth, id);
  await guard(deps, auth, actor, role, { op: 'set_level', newLevel: level });
  const now = deps.clock.now();
  await changeIdentity(deps, async (trx) => {
    await repo.updateRole(trx, role.id, { level, now });
    await recordActivity(trx, actor, now, { action: 'role.level_set', resourceType: 'role', resourceId: role.id, agencyId: role.agency_id, details: { from: role.level, to: level } });
  });
  return `Management level of role ${role.name} set to ${level}`;
}

/**
 * GET /api/admin/permissions: the catalogue sorted by key, filtered by `q` (part of the key or
 * description, case-insensitive), one page of it.
 * @returns { rows: { key, description, default_roles }[], total }
 */
export function listPermissions(q: { q?: string | undefined; limit: number; offset: number }) {
  const needle = q.q?.toLowerCase();
  const all = PERMISSIONS.filter((p) => !needle || p.key.toLowerCase().includes(needle) || p.description.toLowerCase().includes(needle))
    .map((p) => ({ key: p.key, description: p.description, default_roles: [...p.roles] }))
    .sort((a, b) => (a.key < b.key ? -1 : 1));
  return { rows: all.slice(q.offset, q.offset + q.limit), total: all.length };
}
