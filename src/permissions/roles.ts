/**
 * The built-in roles (spec 5.3a, issue "Foundation" item 5): each with a management level (a
 * larger level manages smaller ones, docs/api.md "Permission keys") and a default set of keys from the catalogue.
 * `syncBuiltinRoles` creates missing roles and grants newly catalogued default keys at start; it
 * never lowers a level or removes a key an administrator set.
 */
import type { DbOrTrx } from '../db/types.ts';
import { defaultKeysRecorded, ensureBuiltinRole, grantDefaultKeys } from './roles.repository.ts';
import { PERMISSIONS, type BuiltinRole } from './catalogue.ts';

export interface BuiltinRoleDef {
  code: BuiltinRole;
  name: string;
  level: number;
  description: string;
}

export const BUILTIN_ROLES: BuiltinRoleDef[] = [
  { code: 'sysops', name: 'SysOps', level: 100, description: 'Operators of the Caretaker platform; see every agency' },
  { code: 'admin', name: 'Admin', level: 80, description: 'Administrators of one agency' },
  { code: 'agent', name: 'Agent', level: 50, description: 'Letting agents of one branch' },
  { code: 'api', name: 'API', level: 40, description: 'Integrations of one agency calling the API directly' },
  { code: 'contractor', name: 'Contractor', level: 20, description: 'Contractors working on assigned jobs' },
  { code: 'tenant', name: 'Tenant', level: 10, description: 'Tenants reporting and following their repairs' },
  { code: 'landlord', name: 'Landlord', level: 15, description: "Landlords reading their own properties' jobs, quotes and invoices (docs/landlords.md)" },
];

/** Default permission keys of a built-in role, from the catalogue. */
export function defaultKeys(role: BuiltinRole): string[] {
  return PERMISSIONS.filter((p) => p.roles.includes(role)).map((p) => p.key);
}

/**
 * Creates missing built-in roles and records the catalogue's default keys for them; a key granted
 * once is recorded in `role_permission_defaults` so that an administrator's later removal of it
 * sticks across restarts.
 * @param now the time written to created_at/updated_at
 */
export async function syncBuiltinRoles(db: DbOrTrx, now: Date): Promise<void> {
  for (const def of BUILTIN_ROLES) {
    const roleId = await ensureBuiltinRole(db, def, now);
    const keys = defaultKeys(def.code);
    if (keys.length === 0) continue;
    const seen = await defaultKeysRecorded(db, roleId);
    const fresh = keys.filter((k) => !seen.has(k));
    if (fresh.length > 0) await grantDefaultKeys(db, roleId, fresh);
  }
}
