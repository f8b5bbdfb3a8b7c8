/**
 * Base demo step: agencies Northwind Lettings (branches Leeds and York) and Southbank Estates
 * (branch London) with the named demo accounts (API.md "demo data").
 */
import { newUuid } from '../../lib/crypto.ts';
import type { DemoContext } from './context.ts';

/** Creates the organisation and the demo accounts. */
export async function baseStep(ctx: DemoContext): Promise<void> {
  const { trx, now, passwordHash } = ctx;
  {
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
    const york = await branch(northwind, 'York');
    const london = await branch(southbank, 'London');
    ctx.ids.agencies = { northwind, southbank };
    ctx.ids.branches = { leeds, york, london };
    ctx.log('demo: agencies and branches');

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
      const row = await trx
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
        .returning('id')
        .executeTakeFirstOrThrow();
      ctx.ids.users[a.email] = row.id;
    }
    ctx.log('demo: accounts');
  }
}
