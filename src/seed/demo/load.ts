/**
 * The demo data set (API.md "demo data"): agencies Northwind Lettings (branches Leeds and York)
 * and Southbank Estates (branch London) with the named demo accounts. Deterministic: the same seed
 * and date give the same data.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { newUuid } from '../../lib/crypto.ts';
import { hashPassword } from '../../lib/passwords.ts';

export interface DemoOptions {
  seed: number;
  password: string;
  now: Date;
  log: (line: string) => void;
}

/**
 * Writes the demo data set in one transaction.
 * @returns the e-mail addresses of the demo accounts
 */
export async function loadDemoData(db: Kysely<Database>, opts: DemoOptions): Promise<string[]> {
  const { now } = opts;
  const passwordHash = await hashPassword(opts.password);
  return db.transaction().execute(async (trx) => {
    const roles = new Map((await trx.selectFrom('roles').select(['id', 'code']).execute()).map((r) => [r.code, r.id]));
    const role = (code: string) => {
      const id = roles.get(code);
      if (id === undefined) throw new Error(`role ${code} missing`);
      return id;
    };
    const agency = async (name: string) =>
      (await trx.insertInto('agencies').values({ uuid: newUuid(), name, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow()).id;
    const branch = async (agencyId: number, name: string) =>
      (await trx.insertInto('branches').values({ uuid: newUuid(), agency_id: agencyId, name, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow()).id;
    const northwind = await agency('Northwind Lettings');
    const southbank = await agency('Southbank Estates');
    const leeds = await branch(northwind, 'Leeds');
    await branch(northwind, 'York');
    const london = await branch(southbank, 'London');
    opts.log('demo: agencies and branches');

    const accounts: Array<{ email: string; name: string; role: string; agency: number | null; branch: number | null }> = [
      { email: 'sysops@caretaker.test', name: 'Sam Operator', role: 'sysops', agency: null, branch: null },
      { email: 'admin@northwind.test', name: 'Priya Shah', role: 'admin', agency: northwind, branch: null },
      { email: 'agent@northwind.test', name: 'Tom Hughes', role: 'agent', agency: northwind, branch: leeds },
      { email: 'contractor@northwind.test', name: 'Dave Fletcher', role: 'contractor', agency: northwind, branch: null },
      { email: 'tenant@northwind.test', name: 'Emily Clarke', role: 'tenant', agency: northwind, branch: null },
      { email: 'api@northwind.test', name: 'Northwind integration', role: 'api', agency: northwind, branch: null },
      { email: 'admin@southbank.test', name: 'Oliver Grant', role: 'admin', agency: southbank, branch: london },
    ];
    for (const a of accounts) {
      await trx
        .insertInto('users')
        .values({
          uuid: newUuid(),
          agency_id: a.agency,
          branch_id: a.branch,
          role_id: role(a.role),
          name: a.name,
          email: a.email,
          password_hash: passwordHash,
          created_at: now,
          updated_at: now,
        })
        .execute();
    }
    opts.log('demo: accounts');
    return accounts.map((a) => a.email);
  });
}
