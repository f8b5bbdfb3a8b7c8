/** SQL for roles and their permission keys. No rules here. */
import { sql } from 'kysely';
import type { DbOrTrx } from '../../../db/types.ts';
import { containsPattern } from '../../../db/text-match.ts';

export interface RoleFilter {
  /** null: every role (SysOps); a number: built-in and global roles plus this agency's. */
  agencyId: number | null;
  q?: string | undefined;
  limit: number;
  offset: number;
}

function scoped(db: DbOrTrx, agencyId: number | null) {
  let q = db.selectFrom('roles as r').leftJoin('agencies as a', 'a.id', 'r.agency_id');
  if (agencyId !== null) q = q.where((eb) => eb.or([eb('r.agency_id', 'is', null), eb('r.agency_id', '=', agencyId)]));
  return q;
}

/** Columns of a role row, with its sorted keys and the number of accounts holding it. */
function roleColumns(agencyId: number | null) {
  return [
    'r.id', 'r.name', 'r.code', 'r.level', 'r.is_builtin', 'r.agency_id', 'r.description', 'a.uuid as agency_uuid',
    sql<string[]>`array(select rp.permission_key from role_permissions rp where rp.role_id = r.id order by 1)`.as('permissions'),
    (agencyId === null
      ? sql<number>`(select count(*)::int from users u where u.role_id = r.id)`
      : sql<number>`(select count(*)::int from users u where u.role_id = r.id and u.agency_id = ${agencyId})`
    ).as('users_count'),
  ] as const;
}

/** One page of the roles visible in the scope, highest level first, and the total. */
export async function listRoles(db: DbOrTrx, f: RoleFilter) {
  let base = scoped(db, f.agencyId);
  if (f.q) {
    const like = containsPattern(f.q, { lowerCase: true });
    base = base.where((eb) => eb.or([eb(sql`lower(r.name)`, 'like', like), eb(sql`lower(r.code)`, 'like', like)]));
  }
  const [rows, total] = await Promise.all([
    base.select(roleColumns(f.agencyId)).orderBy('r.level', 'desc').orderBy('r.name').orderBy('r.id').limit(f.limit).offset(f.offset).execute(),
    base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}

/** One role visible in the scope, or undefined. */
export function findRole(db: DbOrTrx, id: number, agencyId: number | null) {
  return scoped(db, agencyId).select(roleColumns(agencyId)).where('r.id', '=', id).executeTakeFirst();
}

export type RoleRow = NonNullable<Awaited<ReturnType<typeof findRole>>>;

/** True when a role of the same agency slot (null: global) has this name, case-insensitively. */
export async function nameTaken(db: DbOrTrx, agencyId: number | null, name: string, exceptId?: number): Promise<boolean> {
  let q = db.selectFrom('roles').select('id').where(sql`lower(name)`, '=', name.toLowerCase());
  q = agencyId === null ? q.where('agency_id', 'is', null) : q.where((eb) => eb.or([eb('agency_id', '=', agencyId), eb('agency_id', 'is', null)]));
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

/** True when a role has this code. */
export async function codeTaken(db: DbOrTrx, code: string): Promise<boolean> {
  return (await db.selectFrom('roles').select('id').where('code', '=', code).executeTakeFirst()) !== undefined;
}

/** Inserts a role; returns its id. */
export async function insertRole(
  db: DbOrTrx,
  role: { name: string; code: string; level: number; agencyId: number | null; description: string; now: Date },
): Promise<number> {
  const row = await db
    .insertInto('roles')
    .values({
      name: role.name,
      code: role.code,
      level: role.level,
      agency_id: role.agencyId,
      is_builtin: false,
      description: role.description,
      created_at: role.now,
      updated_at: role.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Updates name, description or level of a role. */
export async function updateRole(db: DbOrTrx, id: number, set: { name?: string; description?: string; level?: number; now: Date }) {
  const { now, ...fields } = set;
  await db.updateTable('roles').set({ ...fields, updated_at: now }).where('id', '=', id).execute();
}

/** Replaces the permission keys of a role. */
export async function replaceKeys(db: DbOrTrx, roleId: number, keys: string[]): Promise<void> {
  await db.deleteFrom('role_permissions').where('role_id', '=', roleId).execute();
  if (keys.length > 0) {
    await db.insertInto('role_permissions').values(keys.map((k) => ({ role_id: roleId, permission_key: k }))).execute();
  }
}

/** Number of accounts (any agency) holding a role. */
export async function usersWithRole(db: DbOrTrx, roleId: number): Promise<number> {
  const row = await db.selectFrom('users').select(sql<number>`count(*)::int`.as('n')).where('role_id', '=', roleId).executeTakeFirstOrThrow();
  return row.n;
}

/** Deletes a role (its keys go by cascade). */
export async function deleteRole(db: DbOrTrx, id: number): Promise<void> {
  await db.deleteFrom('roles').where('id', '=', id).execute();
}

export { findAgency } from './branches.repository.ts';
