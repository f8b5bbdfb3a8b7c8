/**
 * User administration rules (docs/users.md): create (with a password or an e-mailed
 * invitation), read, update, list, disable and enable, each write with its activity entry in the
 * same transaction. Privilege rules live in users.policy.ts.
 */
import { isUniqueViolation } from '../../../db/errors.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import type { AppDeps } from '../../../app-deps.ts';
import { changeIdentity } from '../../../core/auth-epoch.ts';
import { isSysOps, type Actor, type AuthContext } from '../../../core/auth-context.ts';
import { conflict, invalidParam, notFound } from '../../../core/errors.ts';
import { newToken, newUuid } from '../../../lib/crypto.ts';
import { hashPassword } from '../../../lib/passwords.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { revokeUserTokens } from '../auth/index.ts';
import { emitEvent } from '../../../events/index.ts';
import { agencyScope, assertAssignable, assertManageable, loadVisibleUser, refuse } from './users.policy.ts';
import * as repo from './users.repository.ts';
import type { UserRow } from './users.repository.ts';
import type { CreateUserInput, ListUsersQuery, UpdateUserInput, UserDto } from './users.schemas.ts';
import { issueInvitation, sendInvitation } from './invitations.service.ts';
import { toIsoOrNull } from '../../../lib/clock.ts';

type Caller = Actor & { auth: AuthContext };


/** Wire shape of a user (no hash, no token). */
export function toUserDto(r: UserRow): UserDto {
  return {
    uuid: r.uuid,
    name: r.name,
    email: r.email,
    role: r.role_name,
    role_code: r.role_code,
    role_id: r.role_id,
    level: r.level,
    status: r.status,
    agency_uuid: r.agency_uuid,
    agency_name: r.agency_name,
    branch_uuid: r.branch_uuid,
    branch_name: r.branch_name,
    tenant_uuid: r.tenant_uuid,
    contractor_uuid: r.contractor_uuid,
    last_login_at: toIsoOrNull(r.last_login_at),
    disabled_at: toIsoOrNull(r.disabled_at),
    invited_at: toIsoOrNull(r.invited_at),
    created_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
  };
}


const EMAIL_TAKEN = 'A user with this e-mail address already exists';

/**
 * Finds a landlord record by uuid (id and agency; undefined when missing or erased): the landlords
 * module's `findLandlordRef`, handed in by the composition root, so that an account can be linked
 * to a landlord without the people area importing the money area (docs/architecture.md "Layers").
 */
export type FindLandlord = (db: DbOrTrx, uuid: string) => Promise<{ id: number; agency_id: number } | undefined>;

/**
 * Decides the agency of a new user from the caller and the referenced records; each reference
 * must belong to that agency (else 404 "<Resource> not found").
 */
async function placeNewUser(deps: AppDeps, auth: AuthContext, input: CreateUserInput, findLandlord: FindLandlord) {
  let agencyId: number | null = isSysOps(auth) ? null : auth.agencyId;
  if (!isSysOps(auth) && agencyId === null) throw notFound('Agency');
  const claim = (resource: string, owner: number | undefined) => {
    if (owner === undefined) throw notFound(resource);
    if (agencyId === null) agencyId = owner;
    else if (owner !== agencyId) throw notFound(resource);
  };
  if (input.agency_uuid) claim('Agency', (await repo.findAgency(deps.db, input.agency_uuid))?.id);
  let branchId: number | null = null;
  if (input.branch_uuid) {
    const branch = await repo.findBranch(deps.db, input.branch_uuid);
    claim('Branch', branch && branch.closed_at === null ? branch.agency_id : undefined);
    branchId = branch!.id;
  }
  if ([input.tenant_uuid, input.contractor_uuid, input.landlord_uuid].filter(Boolean).length > 1) throw invalidParam(input.landlord_uuid ? 'landlord_uuid' : 'contractor_uuid');
  let tenantId: number | null = null;
  let contractorId: number | null = null;
  if (input.tenant_uuid) {
    const tenant = await repo.findTenant(deps.db, input.tenant_uuid);
    claim('Tenant', tenant?.agency_id);
    tenantId = tenant!.id;
  }
  if (input.contractor_uuid) {
    const contractor = await repo.findContractor(deps.db, input.contractor_uuid);
    claim('Contractor', contractor?.agency_id);
    contractorId = contractor!.id;
  }
  let landlordId: number | null = null;
  if (input.landlord_uuid) {
    const landlord = await findLandlord(deps.db, input.landlord_uuid);
    claim('Landlord', landlord?.agency_id);
    landlordId = landlord!.id;
  }
  if (agencyId === null) throw invalidParam('agency_uuid');
  return { agencyId: agencyId as number, branchId, tenantId, contractorId, landlordId };
}

/**
 * The role named by a write: `role` (id or code) or `role_id` (the field a user reads back).
 * @throws 400 role_id when both are sent and name different roles
 */
function writtenRole(input: { role?: number | string | undefined; role_id?: number | undefined }): number | string | undefined {
  if (input.role_id === undefined) return input.role;
  if (input.role !== undefined && String(input.role) !== String(input.role_id)) throw invalidParam('role_id');
  return input.role ?? input.role_id;
}

/** Checks that a role fits the account's links: tenant and contractor roles need their record, agents a branch. */
function assertRoleFits(role: { code: string }, links: { tenantId: number | null; contractorId: number | null; landlordId: number | null; branchId: number | null }) {
  if ((links.landlordId !== null) !== (role.code === 'landlord')) throw invalidParam(links.landlordId !== null ? 'role' : 'landlord_uuid');
  if ((links.tenantId !== null) !== (role.code === 'tenant')) throw invalidParam(links.tenantId !== null ? 'role' : 'tenant_uuid');
  if ((links.contractorId !== null) !== (role.code === 'contractor')) throw invalidParam(links.contractorId !== null ? 'role' : 'contractor_uuid');
  if (role.code === 'agent' && links.branchId === null) throw invalidParam('branch_uuid');
}

/**
 * POST /api/users: creates a user with a password (8 to 128 characters) or, with `invite: true`,
 * in status `invited` with an e-mailed single-use invitation (valid 7 days).
 * @returns the new user and whether the invitation e-mail was accepted by the mail transport
 * @throws 400 (missing password/invite, role not fitting the links), 403 (role at or above the
 *   caller's level, logged), 404 (agency, branch, tenant, contractor or role not found or of another
 *   agency), 409 (e-mail taken, tenant or contractor already linked)
 */
export async function createUser(deps: AppDeps, caller: Caller, input: CreateUserInput, findLandlord: FindLandlord) {
  const { auth } = caller;
  if (input.password !== undefined && input.invite === true) throw invalidParam('invite');
  if (input.password === undefined && input.invite !== true) throw invalidParam('password');
  const place = await placeNewUser(deps, auth, input, findLandlord);
  const roleRef = writtenRole(input) ?? (place.tenantId !== null ? 'tenant' : place.contractorId !== null ? 'contractor' : place.landlordId !== null ? 'landlord' : undefined);
  if (roleRef === undefined) throw invalidParam('role');
  const role = await repo.findRole(deps.db, roleRef, place.agencyId);
  if (!role) throw notFound('Role');
  await assertAssignable(deps, caller, null, role, 'create');
  assertRoleFits(role, place);
  const email = input.email.toLowerCase();
  if (await repo.emailTaken(deps.db, email)) throw conflict(EMAIL_TAKEN);
  if (place.tenantId !== null && (await repo.linkTaken(deps.db, 'tenant_id', place.tenantId))) {
    throw conflict('This tenant already has a login account');
  }
  if (place.contractorId !== null && (await repo.linkTaken(deps.db, 'contractor_id', place.contractorId))) {
    throw conflict('This contractor already has a login account');
  }
  if (place.landlordId !== null && (await repo.linkTaken(deps.db, 'landlord_id', place.landlordId))) {
    throw conflict('This landlord already has a login account');
  }
  const invite = input.invite === true;
  // An invited account gets the hash of a random secret nobody knows: it cannot log in, and a
  // login attempt costs the same time as for any other account.
  const passwordHash = await hashPassword(invite ? newToken() : input.password!);
  const now = deps.clock.now();
  let invitation: { token: string; expiresAt: Date } | undefined;
  const userId = await deps.db
    .transaction()
    .execute(async (trx) => {
      const row = await repo.insertUser(trx, {
        uuid: newUuid(),
        agency_id: place.agencyId,
        branch_id: place.branchId,
        role_id: role.id,
        tenant_id: place.tenantId,
        contractor_id: place.contractorId,
        landlord_id: place.landlordId,
        name: input.name,
        email,
        password_hash: passwordHash,
        status: invite ? 'invited' : 'active',
        invited_at: invite ? now : null,
        created_at: now,
        updated_at: now,
      });
      await recordActivity(trx, caller, now, {
        action: 'user.create',
        resourceType: 'user',
        resourceId: row.id,
        agencyId: place.agencyId,
        details: { role: role.code, invite },
      });
      await emitEvent(trx, now, { name: 'user.created', agencyId: place.agencyId, payload: { user_id: row.id, role_code: role.code } });
      if (invite) invitation = await issueInvitation(trx, caller, { id: row.id, agency_id: place.agencyId }, now);
      return row.id;
    })
    .catch((err: unknown) => {
      if (isUniqueViolation(err)) throw conflict(EMAIL_TAKEN);
      throw err;
    });
  const user = (await repo.findUserById(deps.db, userId))!;
  const invitationSent = invitation ? await sendInvitation(deps, caller, user, invitation) : false;
  return { user: toUserDto(user), invitationSent };
}

/** GET /api/users/{uuid}: one user of the caller's agency (SysOps: any). @throws 404 */
export async function getUser(deps: AppDeps, auth: AuthContext, uuid: string): Promise<UserDto> {
  return toUserDto(await loadVisibleUser(deps, auth, uuid));
}

/**
 * GET /api/users: users of the caller's agency (SysOps: all, or `agency_uuid`), filtered by `q`
 * (name or e-mail, case-insensitive), `role` (id or code), `branch_uuid`, `status`; sorted by
 * `sort` (USER_SORTS, default name) in `order` (default asc), the id breaking ties (docs/api.md).
 * @throws 404 for an unknown or foreign role, branch or agency filter
 */
export async function listUsers(deps: AppDeps, auth: AuthContext, query: ListUsersQuery) {
  let agencyId = agencyScope(auth);
  if (query.agency_uuid) {
    const agency = await repo.findAgency(deps.db, query.agency_uuid);
    if (!agency || (agencyId !== undefined && agency.id !== agencyId)) throw notFound('Agency');
    agencyId = agency.id;
  }
  let roleId: number | undefined;
  if (query.role) {
    const role = await repo.findRole(deps.db, query.role, agencyId ?? 'any');
    if (!role) throw notFound('Role');
    roleId = role.id;
  }
  let branchId: number | undefined;
  if (query.branch_uuid) {
    const branch = await repo.findBranch(deps.db, query.branch_uuid);
    if (!branch || (agencyId !== undefined && branch.agency_id !== agencyId)) throw notFound('Branch');
    branchId = branch.id;
  }
  const { rows, total } = await repo.listUsers(deps.db, {
    agencyId,
    q: query.q?.trim() || undefined,
    roleId,
    branchId,
    status: query.status,
    sort: query.sort ?? 'name',
    order: query.order ?? 'asc',
    limit: query.limit,
    offset: query.offset,
  });
  return { rows: rows.map(toUserDto), total };
}

/**
 * PUT /api/users/{uuid}: changes name, email, role and branch (null removes the branch). One's
 * own name, e-mail and branch may be changed, never one's own role.
 * @throws 400, 403 (target or role at or above the caller's level, own role; logged), 404, 409
 */
export async function updateUser(deps: AppDeps, caller: Caller, uuid: string, input: UpdateUserInput): Promise<UserDto> {
  const target = await loadVisibleUser(deps, caller.auth, uuid);
  await assertManageable(deps, caller, target, 'update', true);
  const changes: { name?: string; email?: string; role_id?: number; branch_id?: number | null } = {};
  let roleCode = target.role_code;
  const roleRef = writtenRole(input);
  if (roleRef !== undefined) {
    const role = await repo.findRole(deps.db, roleRef, target.agency_id);
    if (!role) throw notFound('Role');
    if (role.id !== target.role_id) {
      if (target.id === caller.auth.userId) {
        await refuse(deps, caller, target, 'own_role', 'You cannot change your own role', { role: role.code });
      }
      await assertAssignable(deps, caller, target, role, 'update');
      changes.role_id = role.id;
      roleCode = role.code;
    }
  }
  let branchId = target.branch_id;
  if (input.branch_uuid !== undefined) {
    if (input.branch_uuid === null) branchId = null;
    else {
      const branch = await repo.findBranch(deps.db, input.branch_uuid);
      if (!branch || branch.closed_at !== null || branch.agency_id !== target.agency_id) throw notFound('Branch');
      branchId = branch.id;
    }
    if (branchId !== target.branch_id) changes.branch_id = branchId;
  }
  const links = await repo.linksOf(deps.db, target.id);
  assertRoleFits({ code: roleCode }, { tenantId: links.tenant_id, contractorId: links.contractor_id, landlordId: links.landlord_id, branchId });
  if (input.name !== undefined && input.name !== target.name) changes.name = input.name;
  if (input.email !== undefined && input.email.toLowerCase() !== target.email) {
    changes.email = input.email.toLowerCase();
    if (await repo.emailTaken(deps.db, changes.email, target.id)) throw conflict(EMAIL_TAKEN);
  }
  const fields = Object.keys(changes);
  if (fields.length === 0) return toUserDto(target);
  const now = deps.clock.now();
  await changeIdentity(deps, async (trx) => {
    await repo.updateUser(trx, target.id, { ...changes, updated_at: now });
    await recordActivity(trx, caller, now, {
      action: 'user.update',
      resourceType: 'user',
      resourceId: target.id,
      agencyId: target.agency_id,
      details: { fields, ...(changes.role_id !== undefined ? { role_from: target.role_code, role_to: roleCode } : {}) },
    });
  }).catch((err: unknown) => {
    if (isUniqueViolation(err)) throw conflict(EMAIL_TAKEN);
    throw err;
  });
  return toUserDto((await repo.findUserById(deps.db, target.id))!);
}

/**
 * POST /api/users/{uuid}/disable and /enable. Disabling revokes every token and session of the
 * user and closes open invitation and reset tokens, in the same transaction; enabling returns the
 * account to `active` (or `invited` while an invitation was never accepted).
 * @throws 403 (own account, or target at or above the caller's level; logged), 404, 409 (already so)
 */
export async function setUserEnabled(deps: AppDeps, caller: Caller, uuid: string, enabled: boolean): Promise<UserDto> {
  const target = await loadVisibleUser(deps, caller.auth, uuid);
  const operation = enabled ? 'enable' : 'disable';
  if (target.id === caller.auth.userId) {
    await refuse(deps, caller, target, `self_${operation}`, `You cannot ${operation} your own account`);
  }
  await assertManageable(deps, caller, target, operation, false);
  if (enabled && target.status !== 'disabled') throw conflict('User is not disabled');
  if (!enabled && target.status === 'disabled') throw conflict('User is already disabled');
  const now = deps.clock.now();
  await changeIdentity(deps, async (trx) => {
    let revoked = 0;
    if (enabled) {
      await repo.updateUser(trx, target.id, { status: target.invited_at !== null ? 'invited' : 'active', disabled_at: null, updated_at: now });
    } else {
      await repo.updateUser(trx, target.id, { status: 'disabled', disabled_at: now, updated_at: now });
      revoked = await revokeUserTokens(trx, target.id, now, 'user disabled');
      await repo.closeUserTokens(trx, target.id, now);
    }
    await recordActivity(trx, caller, now, {
      action: `user.${operation}`,
      resourceType: 'user',
      resourceId: target.id,
      agencyId: target.agency_id,
      ...(enabled ? {} : { details: { revoked_tokens: revoked } }),
    });
  });
  return toUserDto((await repo.findUserById(deps.db, target.id))!);
}
