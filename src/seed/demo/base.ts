/**
 * Base demo step (issue "Foundation" item 4, docs/demo-data.md): agencies Northwind Lettings
 * (branches Leeds and York) and Southbank Estates (branch London), about 200 addresses, 150
 * tenants, 30 contractors, the named demo accounts and 1,000 jobs. Every row is deterministic
 * (ctx.rng, ctx.uuid, ctx.now); ids land in ctx.ids for the steps of other areas.
 */
import { createAddresses } from './addresses.ts';
import type { DemoContext } from './context.ts';
import { createJobs } from './jobs.ts';
import { createPeople, type DemoPeople } from './people.ts';
import { officeMomentDaysAgo } from './time.ts';
import { insertId, roleIdsByCode, tradeIdsByCode } from '../../db/seed.repository.ts';

/** The demo accounts (all share the demo password). */
export const DEMO_ACCOUNTS = [
  { email: 'sysops@caretaker.test', name: 'Sam Operator', role: 'sysops', agency: null, branch: null },
  { email: 'admin@northwind.test', name: 'Priya Shah', role: 'admin', agency: 'northwind', branch: null },
  { email: 'agent@northwind.test', name: 'Tom Hughes', role: 'agent', agency: 'northwind', branch: 'leeds' },
  { email: 'contractor@northwind.test', name: 'Dave Fletcher', role: 'contractor', agency: 'northwind', branch: null },
  { email: 'tenant@northwind.test', name: 'Emily Clarke', role: 'tenant', agency: 'northwind', branch: null },
  { email: 'api@northwind.test', name: 'Northwind integration', role: 'api', agency: 'northwind', branch: null },
  { email: 'admin@southbank.test', name: 'Oliver Grant', role: 'admin', agency: 'southbank', branch: 'london' },
] as const;

/** Agencies and branches, set up a few years before `now`. */
async function createOrganisation(ctx: DemoContext): Promise<void> {
  const { trx, rng, now } = ctx;
  const agency = async (name: string, since: Date) =>
    insertId(trx, 'agencies', { uuid: ctx.uuid(), name, created_at: since, updated_at: since });
  const branch = async (agencyId: number, name: string, since: Date) =>
    insertId(trx, 'branches', { uuid: ctx.uuid(), agency_id: agencyId, name, created_at: since, updated_at: since });
  const northwindSince = officeMomentDaysAgo(rng, now, 2400, 2600);
  const southbankSince = officeMomentDaysAgo(rng, now, 2400, 2600);
  const northwind = await agency('Northwind Lettings', northwindSince);
  const southbank = await agency('Southbank Estates', southbankSince);
  const leeds = await branch(northwind, 'Leeds', northwindSince);
  const york = await branch(northwind, 'York', officeMomentDaysAgo(rng, now, 1500, 1700));
  const london = await branch(southbank, 'London', southbankSince);
  ctx.ids.agencies = { northwind, southbank };
  ctx.ids.branches = { leeds, york, london };
  for (const [code, id] of await tradeIdsByCode(trx)) ctx.ids.trades[code] = id;
  ctx.log('demo: agencies and branches');
}

/** The named demo accounts; the tenant and contractor accounts are linked to their records. */
async function createAccounts(ctx: DemoContext, people: DemoPeople): Promise<void> {
  const { trx, now, passwordHash, ids } = ctx;
  const roles = await roleIdsByCode(trx);
  const since = new Date(now.getTime() - 400 * 86_400_000);
  for (const a of DEMO_ACCOUNTS) {
    const roleId = roles.get(a.role);
    if (roleId === undefined) throw new Error(`role ${a.role} missing`);
    ids.users[a.email] = await insertId(trx, 'users', {
      uuid: ctx.uuid(),
      agency_id: a.agency === null ? null : ids.agencies[a.agency],
      branch_id: a.branch === null ? null : ids.branches[a.branch],
      role_id: roleId,
      contractor_id: a.role === 'contractor' ? people.fletcher.id : null,
      tenant_id: a.role === 'tenant' ? people.emily.id : null,
      name: a.name,
      email: a.email,
      password_hash: passwordHash,
      created_at: since,
      updated_at: since,
    });
  }
  ctx.log('demo: accounts');
}

/** Creates the organisation, places, people, accounts and jobs. */
export async function baseStep(ctx: DemoContext): Promise<void> {
  await createOrganisation(ctx);
  const addresses = await createAddresses(ctx);
  const people = await createPeople(ctx, addresses);
  await createAccounts(ctx, people);
  await createJobs(ctx, people, addresses);
}
