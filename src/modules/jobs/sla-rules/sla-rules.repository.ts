/** SQL for branch SLA response-time rules (spec 4.7, 4.8). Scope rules come from the service. */
import { sql } from 'kysely';
import type { BranchSlaRuleTable } from '../../../db/schema.ts';
import type { Insertable, Updateable } from 'kysely';
import type { DbOrTrx } from '../../../db/types.ts';

/** Which rules a caller reaches: all (SysOps), an agency's, one branch's, or none. */
export type SlaScope =
  | { kind: 'all' }
  | { kind: 'agency'; agencyId: number }
  | { kind: 'branch'; agencyId: number; branchId: number }
  | { kind: 'none' };

const COLUMNS = [
  'r.id', 'r.uuid', 'r.agency_id', 'r.branch_id', 'b.uuid as branch_uuid', 'b.name as branch_name',
  'r.job_status_from_id', 'r.job_status_to_id', 'r.job_type_id', 'r.job_priority',
  'r.date_field_to_track', 'r.date_field_to_compare', 'r.minimum_response_days', 'r.response_hours', 'r.calendar', 'r.description',
  'r.created_at', 'r.updated_at',
] as const;

function rulesQuery(db: DbOrTrx, scope: SlaScope) {
  let q = db
    .selectFrom('branch_sla_rules as r')
    .innerJoin('branches as b', 'b.id', 'r.branch_id')
    .where('r.deleted_at', 'is', null);
  if (scope.kind === 'none') q = q.where(sql<boolean>`false`);
  if (scope.kind === 'agency' || scope.kind === 'branch') q = q.where('r.agency_id', '=', scope.agencyId);
  if (scope.kind === 'branch') q = q.where('r.branch_id', '=', scope.branchId);
  return q;
}

/** One live rule in scope by uuid, or undefined. */
export function findRule(db: DbOrTrx, scope: SlaScope, uuid: string) {
  return rulesQuery(db, scope).select(COLUMNS).where('r.uuid', '=', uuid).executeTakeFirst();
}
export type SlaRuleRow = NonNullable<Awaited<ReturnType<typeof findRule>>>;

/** One page of live rules in scope (optionally of one branch), by branch name then id, and the total. */
export async function listRules(db: DbOrTrx, scope: SlaScope, f: { branchId?: number; limit: number; offset: number }) {
  let q = rulesQuery(db, scope);
  if (f.branchId !== undefined) q = q.where('r.branch_id', '=', f.branchId);
  const [rows, total] = await Promise.all([
    q.select(COLUMNS).orderBy('b.name').orderBy('r.id').limit(f.limit).offset(f.offset).execute(),
    q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}

/** The ids among `ids` that are job statuses. */
export async function existingStatusIds(db: DbOrTrx, ids: number[]): Promise<Set<number>> {
  const rows = await db.selectFrom('job_statuses').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

/** Inserts a rule; returns its id. */
export async function insertRule(db: DbOrTrx, rule: Insertable<BranchSlaRuleTable>): Promise<number> {
  return (await db.insertInto('branch_sla_rules').values(rule).returning('id').executeTakeFirstOrThrow()).id;
}

/** Updates a live rule by id. */
export async function updateRule(db: DbOrTrx, id: number, changes: Updateable<BranchSlaRuleTable>): Promise<void> {
  await db.updateTable('branch_sla_rules').set(changes).where('id', '=', id).where('deleted_at', 'is', null).execute();
}
