/**
 * Demo step of the administration and agents areas: York shares its jobs with Leeds, each agency
 * has a custom "Senior agent" role (level 60) with a York senior agent and a York agent account,
 * and some open jobs get an owning agent of their branch.
 */
import { newUuid } from '../../lib/crypto.ts';
import { defaultKeys } from '../../permissions/roles.ts';
import type { DemoContext } from './context.ts';

/** Keys a senior agent holds beyond the Agent role's defaults. */
const SENIOR_EXTRA_KEYS = ['api.admin.activity-log.manage', 'api.admin.roles.view'];

/** Adds sharing, custom roles, two York accounts and owning agents. */
export async function organisationStep(ctx: DemoContext): Promise<void> {
  const { trx, now, ids } = ctx;
  await trx.updateTable('branches').set({ sharing_enabled: true, updated_at: now }).where('id', '=', ids.branches.york).execute();

  const keys = [...new Set([...defaultKeys('agent'), ...SENIOR_EXTRA_KEYS])].sort();
  const seniorRoles: Record<'northwind' | 'southbank', number> = { northwind: 0, southbank: 0 };
  for (const agency of ['northwind', 'southbank'] as const) {
    const agencyId = ids.agencies[agency];
    const role = await trx
      .insertInto('roles')
      .values({
        name: 'Senior agent',
        code: `custom_${agencyId}_senior_agent`,
        level: 60,
        agency_id: agencyId,
        is_builtin: false,
        description: 'Agents who also read the activity log and the roles',
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx.insertInto('role_permissions').values(keys.map((k) => ({ role_id: role.id, permission_key: k }))).execute();
    seniorRoles[agency] = role.id;
  }

  const agentRole = (await trx.selectFrom('roles').select('id').where('code', '=', 'agent').executeTakeFirstOrThrow()).id;
  const accounts = [
    { email: 'senior@northwind.test', name: 'Hannah Booth', role: seniorRoles.northwind },
    { email: 'agent.york@northwind.test', name: 'Ravi Patel', role: agentRole },
  ];
  for (const a of accounts) {
    const row = await trx
      .insertInto('users')
      .values({
        uuid: newUuid(),
        agency_id: ids.agencies.northwind,
        branch_id: ids.branches.york,
        role_id: a.role,
        name: a.name,
        email: a.email,
        password_hash: ctx.passwordHash,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.users[a.email] = row.id;
  }

  // Owning agents: about 40 % of the open jobs get an agent of their own branch.
  const staff = await trx
    .selectFrom('users as u')
    .innerJoin('roles as r', 'r.id', 'u.role_id')
    .select(['u.id', 'u.branch_id'])
    .where('u.branch_id', 'is not', null)
    .where((eb) => eb.or([eb('r.code', '=', 'agent'), eb('r.is_builtin', '=', false)]))
    .orderBy('u.id')
    .execute();
  const byBranch = new Map<number, number[]>();
  for (const s of staff) byBranch.set(s.branch_id!, [...(byBranch.get(s.branch_id!) ?? []), s.id]);
  if (ids.jobs.length === 0 || byBranch.size === 0) return;
  const jobs = await trx
    .selectFrom('jobs as j')
    .innerJoin('job_statuses as s', 's.id', 'j.status_id')
    .select(['j.id', 'j.branch_id'])
    .where('j.id', 'in', ids.jobs)
    .where('s.is_open', '=', true)
    .orderBy('j.id')
    .execute();
  let assigned = 0;
  for (const job of jobs) {
    const agents = byBranch.get(job.branch_id);
    if (!agents || !ctx.rng.chance(0.4)) continue;
    await trx.updateTable('jobs').set({ agent_user_id: ctx.rng.pick(agents) }).where('id', '=', job.id).execute();
    assigned++;
  }
  ctx.log(`demo: York shares, Senior agent roles, ${assigned} jobs with an owning agent`);
}
