/** SQL of the users area (docs/users.md). No rules here: see users.service.ts. */
import { sql } from 'kysely';
import type { Insertable, Updateable } from 'kysely';
import type { UserTable } from '../../../db/schema.ts';
import { sortOrderSql, type SortDirection, type SortKey } from '../../../db/sort-order.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { rowIdFromDigits } from '../../../lib/row-id.ts';

/** A user row with role, agency, branch, tenant and contractor for the wire shape and the rules. */
export function userQuery(db: DbOrTrx) {
  return db
    .selectFrom('users as u')
    .innerJoin('roles as r', 'r.id', 'u.role_id')
    .leftJoin('agencies as a', 'a.id', 'u.agency_id')
    .leftJoin('branches as b', 'b.id', 'u.branch_id')
    .leftJoin('tenants as t', 't.id', 'u.tenant_id')
    .leftJoin('contractors as c', 'c.id', 'u.contractor_id')
    .select([
      'u.id', 'u.uuid', 'u.name', 'u.email', 'u.status', 'u.agency_id', 'u.branch_id', 'u.role_id',
      'u.last_login_at', 'u.disabled_at', 'u.invited_at', 'u.created_at', 'u.updated_at',
      'r.name as role_name', 'r.code as role_code', 'r.level',
      'a.uuid as agency_uuid', 'a.name as agency_name', 'b.uuid as branch_uuid', 'b.name as branch_name',
      't.uuid as tenant_uuid', 'c.uuid as contractor_uuid',
    ]);
}

export type UserRow = NonNullable<Awaited<ReturnType<ReturnType<typeof userQuery>['executeTakeFirst']>>>;

/** One user by uuid (any agency), or undefined. */
export function findUserByUuid(db: DbOrTrx, uuid: string) {
  return userQuery(db).where('u.uuid', '=', uuid).executeTakeFirst();
}

/** One user by id, or undefined. */
export function findUserById(db: DbOrTrx, id: number) {
  return userQuery(db).where('u.id', '=', id).executeTakeFirst();
}

export interface UserFilter {
  agencyId?: number;
  q?: string;
  roleId?: number;
  branchId?: number;
  status?: 'active' | 'disabled' | 'invited';
  /** the sort field (GET /api/users `sort`) and direction */
  sort: 'name' | 'email' | 'role' | 'branch_name' | 'status' | 'last_login_at';
  order: SortDirection;
  limit: number;
  offset: number;
}

/** Escapes % _ and \ for a LIKE pattern. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The column each sort field of the users list orders by; the nullable ones put empty values last either way. */
const USER_SORT_KEYS: Record<UserFilter['sort'], SortKey> = {
  name: 'u.name',
  email: 'u.email',
  role: 'r.name',
  branch_name: { key: 'b.name', nulls: 'last' },
  status: 'u.status',
  last_login_at: { key: 'u.last_login_at', nulls: 'last' },
};

/**
 * One page of users in `f.sort` order (`f.order`; users without a branch or a sign-in last either
 * way; the id breaks ties in the same direction), and the total matching count. The default, name
 * ascending, is the list's order of old.
 */
export async function listUsers(db: DbOrTrx, f: UserFilter) {
  let q = userQuery(db);
  if (f.agencyId !== undefined) q = q.where('u.agency_id', '=', f.agencyId);
  if (f.roleId !== undefined) q = q.where('u.role_id', '=', f.roleId);
  if (f.branchId !== undefined) q = q.where('u.branch_id', '=', f.branchId);
  if (f.status !== undefined) q = q.where('u.status', '=', f.status);
  if (f.q !== undefined) {
    const pattern = likePattern(f.q);
    q = q.where((eb) => eb.or([eb('u.name', 'ilike', pattern), eb('u.email', 'ilike', pattern)]));
  }
  const [rows, total] = await Promise.all([
    q
      .orderBy(sortOrderSql(USER_SORT_KEYS[f.sort], f.order, 'u.id'))
      .limit(f.limit)
      .offset(f.offset)
      .execute(),
    q.clearSelect().select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}

/**
 * A role by id or code that the given agency may use (built-in or its own), or undefined.
 * @param agencyId the agency; null: built-in roles only; 'any': every role (SysOps filters)
 * @param ref a role id (digits beyond the integer range match nothing) or a role code
 */
export async function findRole(db: DbOrTrx, ref: number | string, agencyId: number | null | 'any') {
  let q = db.selectFrom('roles').select(['id', 'code', 'name', 'level', 'agency_id']);
  const id = typeof ref === 'number' ? ref : rowIdFromDigits(ref);
  // Digits beyond the id column's range name no role (they never reach the database).
  if (id === undefined) return undefined;
  q = id === null ? q.where('code', '=', String(ref)) : q.where('id', '=', id);
  if (agencyId === 'any') return q.executeTakeFirst();
  return q
    .where((eb) => (agencyId === null ? eb('agency_id', 'is', null) : eb.or([eb('agency_id', 'is', null), eb('agency_id', '=', agencyId)])))
    .executeTakeFirst();
}

/** The permission keys of a role, sorted. */
export async function roleKeys(db: DbOrTrx, roleId: number): Promise<string[]> {
  const rows = await db.selectFrom('role_permissions').select('permission_key').where('role_id', '=', roleId).orderBy('permission_key').execute();
  return rows.map((r) => r.permission_key);
}

/** An agency, a branch, a tenant or a contractor by uuid (any agency): the owning modules' lookups. */
export { findAgency, findBranchRef as findBranch } from '../admin/index.ts';
export { findTenantRef as findTenant } from '../tenants/index.ts';
export { findContractorRef as findContractor } from '../contractors/index.ts';

/** Inserts a user; returns its id. @throws the database's unique violation for a taken e-mail */
export async function insertUser(db: DbOrTrx, row: Insertable<UserTable>): Promise<{ id: number }> {
  return db.insertInto('users').values(row).returning('id').executeTakeFirstOrThrow();
}

/** Sets fields of a user. @throws the database's unique violation for a taken e-mail */
export async function updateUser(db: DbOrTrx, id: number, set: Updateable<UserTable>): Promise<void> {
  await db.updateTable('users').set(set).where('id', '=', id).execute();
}

/** The tenant, contractor and landlord a user account is linked to (null when none). */
export function linksOf(db: DbOrTrx, id: number) {
  return db.selectFrom('users').select(['tenant_id', 'contractor_id', 'landlord_id']).where('id', '=', id).executeTakeFirstOrThrow();
}

/** True when some account already uses the e-mail (optionally other than `exceptUserId`). */
export async function emailTaken(db: DbOrTrx, email: string, exceptUserId?: number): Promise<boolean> {
  let q = db.selectFrom('users').select('id').where('email', '=', email);
  if (exceptUserId !== undefined) q = q.where('id', '!=', exceptUserId);
  return (await q.executeTakeFirst()) !== undefined;
}

/** True when a login account is already linked to the tenant or contractor. */
export async function linkTaken(db: DbOrTrx, column: 'tenant_id' | 'contractor_id' | 'landlord_id', id: number): Promise<boolean> {
  return (await db.selectFrom('users').select('id').where(column, '=', id).executeTakeFirst()) !== undefined;
}

/** The stored password hash of a user (for a password check only; never leaves the service). */
export async function passwordHashOf(db: DbOrTrx, userId: number): Promise<string | undefined> {
  const row = await db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirst();
  return row?.password_hash;
}

/** Stores a new single-use token (hash only). */
export async function insertUserToken(
  db: DbOrTrx,
  t: { userId: number; purpose: 'invitation' | 'password_reset'; tokenHash: string; createdAt: Date; expiresAt: Date; createdBy: number | null },
): Promise<void> {
  await db
    .insertInto('user_tokens')
    .values({ user_id: t.userId, purpose: t.purpose, token_hash: t.tokenHash, created_at: t.createdAt, expires_at: t.expiresAt, created_by_user_id: t.createdBy })
    .execute();
}

/** The open (unused, unexpired) token of a purpose for a hash, or undefined. */
export function findOpenUserToken(db: DbOrTrx, tokenHash: string, purpose: 'invitation' | 'password_reset', now: Date) {
  return db
    .selectFrom('user_tokens')
    .select(['id', 'user_id'])
    .where('token_hash', '=', tokenHash)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/**
 * Marks an open token used in one statement; returns its user id, or undefined when it was used,
 * expired or unknown (a concurrent second consumer gets undefined).
 */
export async function consumeUserToken(db: DbOrTrx, tokenHash: string, purpose: 'invitation' | 'password_reset', now: Date) {
  const row = await db
    .updateTable('user_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id;
}

/** Closes every open token of a user (optionally of one purpose); returns how many. */
export async function closeUserTokens(db: DbOrTrx, userId: number, now: Date, purpose?: 'invitation' | 'password_reset'): Promise<number> {
  let q = db.updateTable('user_tokens').set({ used_at: now }).where('user_id', '=', userId).where('used_at', 'is', null);
  if (purpose) q = q.where('purpose', '=', purpose);
  return Number((await q.executeTakeFirst()).numUpdatedRows);
}

/**
 * The active tokens and sessions of a user: not revoked, not expired, and browser sessions not
 * idle past `idleCutoff` (unless Remember Me). Newest first.
 */
export async function listActiveTokens(db: DbOrTrx, userId: number, now: Date, idleCutoff: Date, page: { limit: number; offset: number }) {
  const q = db
    .selectFrom('auth_tokens')
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .where((eb) => eb.or([eb('kind', '!=', 'session'), eb('remember_me', '=', true), eb('last_used_at', '>', idleCutoff)]));
  const [rows, total] = await Promise.all([
    q
      .select(['id', 'kind', 'remember_me', 'created_at', 'last_used_at', 'expires_at', 'ip_address', 'user_agent'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}

/** One active token of a user by id, or undefined. */
export function findActiveToken(db: DbOrTrx, userId: number, tokenId: number, now: Date) {
  return db
    .selectFrom('auth_tokens')
    .select(['id', 'kind'])
    .where('id', '=', tokenId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** Sets a user's password hash (and, for an accepted invitation, the status), stamping updated_at. */
export async function setPasswordHash(db: DbOrTrx, userId: number, passwordHash: string, now: Date, activate = false): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, updated_at: now, ...(activate ? { status: 'active', invited_at: null } : {}) })
    .where('id', '=', userId)
    .execute();
}
