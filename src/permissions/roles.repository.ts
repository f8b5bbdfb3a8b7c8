/** SQL of the built-in roles' synchronisation (src/permissions/roles.ts has the rules). */
import type { DbOrTrx } from '../db/types.ts';

/** Inserts a built-in role unless its code exists; returns the role's id either way. */
export async function ensureBuiltinRole(db: DbOrTrx, def: { code: string; name: string; level: number; description: string }, now: Date): Promise<number> {
  await db
    .insertInto('roles')
    .values({ code: def.code, name: def.name, level: def.level, agency_id: null, is_builtin: true, description: def.description, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column('code').doNothing())
    .execute();
  const role = await db.selectFrom('roles').select('id').where('code', '=', def.code).executeTakeFirstOrThrow();
  return role.id;
}

/** The keys ever granted to a role by default (role_permission_defaults). */
export async function defaultKeysRecorded(db: DbOrTrx, roleId: number): Promise<Set<string>> {
  const rows = await db.selectFrom('role_permission_defaults').select('permission_key').where('role_id', '=', roleId).execute();
  return new Set(rows.map((r) => r.permission_key));
}

/** Grants keys to a role and records them as granted by default (existing rows kept). */
export async function grantDefaultKeys(db: DbOrTrx, roleId: number, keys: string[]): Promise<void> {
  const rows = keys.map((k) => ({ role_id: roleId, permission_key: k }));
  await db.insertInto('role_permissions').values(rows).onConflict((oc) => oc.doNothing()).execute();
  await db.insertInto('role_permission_defaults').values(rows).onConflict((oc) => oc.doNothing()).execute();
}
