/**
 * First run (issue "Foundation" item 4): on a database without users, creates the SysOps account
 * from CARETAKER_ADMIN_EMAIL / CARETAKER_ADMIN_PASSWORD, or with a generated password that is
 * printed once.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Config } from '../config.ts';
import type { Database } from '../db/schema.ts';
import { newUuid } from '../lib/crypto.ts';
import { hashPassword } from '../lib/passwords.ts';

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
  const any = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (any) return { created: false };
  const role = await db.selectFrom('roles').select('id').where('code', '=', 'sysops').executeTakeFirstOrThrow();
  const email = config.admin.email ?? 'sysops@caretaker.test';
  const generated = config.admin.password === undefined ? randomBytes(12).toString('base64url') : undefined;
  const password = config.admin.password ?? generated!;
  progress(`creating the SysOps account ${email} (the database holds no account yet)`);
  await db
    .insertInto('users')
    .values({
      uuid: newUuid(),
      agency_id: null,
      branch_id: null,
      role_id: role.id,
      name: 'Platform operator',
      email,
      password_hash: await hashPassword(password),
      created_at: now,
      updated_at: now,
    })
    .execute();
  return { created: true, email, ...(generated ? { generatedPassword: generated } : {}) };
}
