/**
 * First run (issue "Foundation" item 4): on a database without users, creates the SysOps account
 * from CARETAKER_ADMIN_EMAIL / CARETAKER_ADMIN_PASSWORD, or with a generated password that is
 * printed once.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Config } from '../config/config.ts';
import type { Database } from '../db/schema.ts';
import { newUuid } from '../lib/crypto.ts';
import { hashPassword } from '../lib/passwords.ts';
import { hasAnyUser, insertRows, roleIdsByCode } from '../db/seed.repository.ts';

export interface FirstRunResult {
  created: boolean;
  email?: string;
  /** Set only when the password was generated (to be shown once). */
  generatedPassword?: string;
}

/**
 * Creates the SysOps account when the users table is empty.
 * @param progress told 'creating the SysOps account ...' before the (slow) password hashing
 */
export async function ensureSysOpsAccount(
  db: Kysely<Database>,
  config: Readonly<Config>,
  now: Date,
  progress: (message: string) => void = () => {},
): Promise<FirstRunResult> {
  if (await hasAnyUser(db)) return { created: false };
  const roleId = (await roleIdsByCode(db)).get('sysops');
  if (roleId === undefined) throw new Error('the built-in sysops role is missing (migrations not applied?)');
  const email = config.admin.email ?? 'sysops@caretaker.test';
  const generated = config.admin.password === undefined ? randomBytes(12).toString('base64url') : undefined;
  const password = config.admin.password ?? generated!;
  progress(`creating the SysOps account ${email} (the database holds no account yet)`);
  await insertRows(db, 'users', [{
    uuid: newUuid(),
    agency_id: null,
    branch_id: null,
    role_id: roleId,
    name: 'Platform operator',
    email,
    password_hash: await hashPassword(password),
    created_at: now,
    updated_at: now,
  }]);
  return { created: true, email, ...(generated ? { generatedPassword: generated } : {}) };
}
