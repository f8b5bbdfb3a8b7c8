/** SQL for the agents of branches and a job's owning agent. No rules here. */
import { sql } from 'kysely';
import type { DbOrTrx } from '../../../db/types.ts';
import { containsPattern } from '../../../db/text-match.ts';
import { visibleTo, type JobScope } from '../jobs/index.ts';

/**
 * Agents: accounts attached to a branch whose role is the built-in agent role or a custom role,
 * and that are not contractor or tenant accounts.
 */
function agents(db: DbOrTrx) {
  return db
    .selectFrom('users as u')
    .innerJoin('roles as r', 'r.id', 'u.role_id')
    .innerJoin('branches as b', 'b.id', 'u.branch_id')
    .where('u.contractor_id', 'is', null)
    .where('u.tenant_id', 'is', null)
    .where((eb) => eb.or([eb('r.code', '=', 'agent'), eb('r.is_builtin', '=', false)]));
}

const AGENT_COLUMNS = ['u.id', 'u.uuid', 'u.name', 'u.email', 'u.status', 'u.agency_id', 'u.branch_id', 'r.name as role', 'b.uuid as branch_uuid', 'b.name as branch_name'] as const;

/** One page of agents (agencyId null: any agency; branchId: one branch), and the total. */
export async function listAgents(db: DbOrTrx, f: { agencyId: number | null; branchId?: number | undefined; q?: string | undefined; limit: number; offset: number }) {
  let q = agents(db);
  if (f.agencyId !== null) q = q.where('u.agency_id', '=', f.agencyId);
  if (f.branchId !== undefined) q = q.where('u.branch_id', '=', f.branchId);
  if (f.q) {
    const like = containsPattern(f.q, { lowerCase: true });
    q = q.where((eb) => eb.or([eb(sql`lower(u.name)`, 'like', like), eb(sql`lower(u.email)`, 'like', like)]));
  }
  const [rows, total] = await Promise.all([
    q.select(AGENT_COLUMNS).orderBy('b.name').orderBy('u.name').orderBy('u.id').limit(f.limit).offset(f.offset).execute(),
    q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}

/** One agent of an agency by uuid, or undefined. */
export function findAgent(db: DbOrTrx, uuid: string, agencyId: number) {
  return agents(db).select(AGENT_COLUMNS).where('u.uuid', '=', uuid).where('u.agency_id', '=', agencyId).executeTakeFirst();
}

/** A job visible in the scope, with its branch's sharing flag and whether its status is open. */
export function findVisibleJob(db: DbOrTrx, scope: JobScope, uuid: string) {
  return db
    .selectFrom('jobs as j')
    .innerJoin('job_statuses as s', 's.id', 'j.status_id')
    .innerJoin('branches as jb', 'jb.id', 'j.branch_id')
    .select(['j.id', 'j.uuid', 'j.reference', 'j.agency_id', 'j.branch_id', 'j.agent_user_id', 's.is_open', 'jb.sharing_enabled'])
    .where('j.uuid', '=', uuid)
    .where('j.deleted_at', 'is', null)
    .where((eb) => visibleTo(eb, scope))
    .executeTakeFirst();
}

/** Sets (or clears) the owning agent of a job. */
export async function setJobAgent(db: DbOrTrx, jobId: number, agentUserId: number | null, now: Date): Promise<void> {
  await db.updateTable('jobs').set({ agent_user_id: agentUserId, updated_at: now }).where('id', '=', jobId).execute();
}
