/**
 * Demo step of the administration and agents areas: York shares its jobs with the agency's other
 * branches (so Leeds's agent sees York's jobs), and each agency has a custom "Senior agent" role
 * (level 60: the Agent role's keys plus reading the activity log and the roles). Owning agents of
 * jobs are set by the base step (agent@northwind.test on Leeds jobs).
 */
import { defaultKeys } from '../../permissions/roles.ts';
import type { DemoContext } from './context.ts';
import { insertId, insertRows, updateById } from '../../db/seed.repository.ts';

/** Keys a senior agent holds beyond the Agent role's defaults. */
const SENIOR_EXTRA_KEYS = ['api.admin.activity-log.manage', 'api.admin.roles.view'];

/** Turns York's sharing on and adds a Senior agent role to each agency. */
export async function organisationStep(ctx: DemoContext): Promise<void> {
  const { trx, now, ids } = ctx;
  await updateById(trx, 'branches', ids.branches.york, { sharing_enabled: true, updated_at: now });

  const keys = [...new Set([...defaultKeys('agent'), ...SENIOR_EXTRA_KEYS])].sort();
  for (const agency of ['northwind', 'southbank'] as const) {
    const agencyId = ids.agencies[agency];
    const roleId = await insertId(trx, 'roles', {
      name: 'Senior agent',
      code: `custom_${agencyId}_senior_agent`,
      level: 60,
      agency_id: agencyId,
      is_builtin: false,
      description: 'Agents who also read the activity log and the roles',
      created_at: now,
      updated_at: now,
    });
    await insertRows(trx, 'role_permissions', keys.map((k) => ({ role_id: roleId, permission_key: k })));
  }
  ctx.log('demo: York shares its jobs; Senior agent role in each agency');
}
