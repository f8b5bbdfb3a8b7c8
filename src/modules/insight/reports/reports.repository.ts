/** SQL of the aggregate reports and of report subscriptions (docs/insight.md "Reports"). */
import { sql } from 'kysely';
import type { DbOrTrx } from '../../../db/types.ts';
import { visibleTo, type JobScope } from '../../jobs/jobs/index.ts';

/**
 * Per contractor of the agency (null: every agency): its visible jobs created in [from, to):
 * assigned, completed, cancelled, median seconds from creation to completion, first-time fixes
 * (completed jobs scheduled at most once and never recalled) and the agreed cost of completed jobs in pence.
 */
export function contractorPerformance(db: DbOrTrx, scope: JobScope, agencyId: number | null, from: Date, to: Date) {
  let q = db
    .selectFrom('contractors as c')
    .leftJoin(
      db
        .selectFrom('jobs as j')
        .where('j.deleted_at', 'is', null)
        .where((w) => visibleTo(w, scope))
        .where('j.created_at', '>=', from)
        .where('j.created_at', '<', to)
        .where('j.contractor_id', 'is not', null)
        .select([
          'j.contractor_id', 'j.completed_at', 'j.cancelled_at', 'j.created_at', 'j.agreed_cost_pence',
          sql<boolean>`(select count(*) from job_status_history h where h.job_id = j.id and h.to_status_id = 5) <= 1
            and not exists (select 1 from job_recalls rc where rc.original_job_id = j.id)`.as('ftf'),
        ])
        .as('jj'),
      'jj.contractor_id', 'c.id',
    )
    .groupBy(['c.id', 'c.uuid', 'c.company_name'])
    .select([
      'c.uuid', 'c.company_name',
      sql<number>`count(jj.contractor_id)::int`.as('jobs_assigned'),
      sql<number>`(count(*) filter (where jj.completed_at is not null))::int`.as('completed'),
      sql<number>`(count(*) filter (where jj.cancelled_at is not null))::int`.as('cancelled'),
      sql<number | null>`percentile_cont(0.5) within group (order by extract(epoch from (jj.completed_at - jj.created_at)))`.as('median_complete_s'),
      sql<number>`(count(*) filter (where jj.completed_at is not null and jj.ftf))::int`.as('first_time_fixed'),
      sql<number>`coalesce(sum(jj.agreed_cost_pence) filter (where jj.completed_at is not null), 0)::int`.as('agreed_total_pence'),
    ])
    .orderBy('c.company_name')
    .orderBy('c.id');
  if (agencyId !== null) q = q.where('c.agency_id', '=', agencyId);
  return q.execute();
}

/** Per address with visible jobs: its tenants, jobs in total, open jobs and the latest job's creation. */
export function tenantJobsPerProperty(db: DbOrTrx, scope: JobScope) {
  return db
    .selectFrom('jobs as j')
    .innerJoin('job_statuses as s', 's.id', 'j.status_id')
    .innerJoin('addresses as a', 'a.id', 'j.address_id')
    .where('j.deleted_at', 'is', null)
    .where((eb) => visibleTo(eb, scope))
    .groupBy(['a.id', 'a.uuid', 'a.line1', 'a.town', 'a.postcode'])
    .select([
      'a.uuid', 'a.line1', 'a.town', 'a.postcode',
      sql<string>`coalesce((select string_agg(t.name, '; ' order by t.name) from tenant_addresses ta
        join tenants t on t.id = ta.tenant_id where ta.address_id = a.id and t.erased_at is null), '')`.as('tenants'),
      sql<number>`count(*)::int`.as('jobs_total'),
      sql<number>`(count(*) filter (where s.is_open))::int`.as('jobs_open'),
      sql<Date>`max(j.created_at)`.as('last_job_at'),
    ])
    .orderBy('a.postcode')
    .orderBy('a.line1')
    .orderBy('a.id')
    .execute();
}
