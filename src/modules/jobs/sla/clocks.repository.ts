/**
 * SQL of the SLA clocks' upkeep (docs/sla.md): loading what the engine needs for a batch of jobs,
 * writing its plan, and the conditional updates that move running clocks to at_risk and breached
 * (each clock moves once even when two instances scan at the same time).
 */
import { sql, type Expression, type RawBuilder } from 'kysely';
import { PreparedQuery, type Params } from '../../../db/prepared.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import type { AgencySettings, ClockPlan, ExistingClock, HistoryInput, JobInput, RuleInput } from './clock-engine.ts';
import type { OfficeHours, UkRegion } from './working-time.ts';

const DATE_FIELDS = [
  'created_at', 'approved_at', 'assigned_at', 'scheduled_for', 'attended_at',
  'completed_at', 'invoiced_at', 'closed_at', 'cancelled_at', 'updated_at',
] as const;

/**
 * The engine's date fields of a job created at `now`: created_at and updated_at set, every other
 * one null (as loadJobs would read the new row).
 */
export function newJobDates(now: Date): Record<string, Date | null> {
  return Object.fromEntries(DATE_FIELDS.map((f) => [f, f === 'created_at' || f === 'updated_at' ? now : null]));
}

/** Jobs by id (not deleted), locked for the rest of the transaction, as the engine reads them. */
export async function loadJobs(trx: DbOrTrx, ids: readonly number[]): Promise<JobInput[]> {
  if (ids.length === 0) return [];
  const rows = await trx
    .selectFrom('jobs')
    .select(['id', 'agency_id', 'branch_id', 'job_type_id', 'priority', 'status_id', 'deleted_at', ...DATE_FIELDS])
    .where('id', 'in', ids)
    .orderBy('id')
    .forUpdate()
    .execute();
  return rows
    .filter((r) => r.deleted_at === null)
    .map((r) => ({
      id: r.id,
      agency_id: r.agency_id,
      branch_id: r.branch_id,
      job_type_id: r.job_type_id,
      priority: r.priority,
      status_id: r.status_id,
      dates: Object.fromEntries(DATE_FIELDS.map((f) => [f, r[f] === null ? null : new Date(r[f])])),
    }));
}

/** Status history of the jobs, oldest first, grouped by job id. */
export async function loadHistory(trx: DbOrTrx, ids: readonly number[]): Promise<Map<number, HistoryInput[]>> {
  const out = new Map<number, HistoryInput[]>();
  if (ids.length === 0) return out;
  const rows = await trx
    .selectFrom('job_status_history')
    .select(['job_id', 'to_status_id', 'created_at'])
    .where('job_id', 'in', ids)
    .orderBy('job_id')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  for (const r of rows) {
    const list = out.get(r.job_id) ?? [];
    list.push({ to_status_id: r.to_status_id, created_at: new Date(r.created_at) });
    out.set(r.job_id, list);
  }
  return out;
}

/** Live rules of the branches, grouped by branch id. */
export async function loadRules(trx: DbOrTrx, branchIds: readonly number[]): Promise<Map<number, RuleInput[]>> {
  const out = new Map<number, RuleInput[]>();
  if (branchIds.length === 0) return out;
  const rows = await trx
    .selectFrom('branch_sla_rules')
    .select([
      'id', 'branch_id', 'job_status_from_id', 'job_status_to_id', 'job_type_id', 'job_priority',
      'date_field_to_compare', 'date_field_to_track', 'minimum_response_days', 'response_hours', 'calendar',
    ])
    .where('branch_id', 'in', branchIds)
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .execute();
  for (const { branch_id, ...rule } of rows) {
    const list = out.get(branch_id) ?? [];
    list.push(rule);
    out.set(branch_id, list);
  }
  return out;
}

/** One stored weekday of office hours (table agency_office_hours). */
export interface OfficeHoursRow {
  weekday: number;
  opens_minute: number;
  closes_minute: number;
}

/**
 * An agency's office hours from its rows (weekday 0 = Monday); undefined without rows (the engine
 * then uses DEFAULT_OFFICE_HOURS).
 */
export function officeHoursOf(rows: readonly OfficeHoursRow[] | null | undefined): OfficeHours | undefined {
  if (!rows || rows.length === 0) return undefined;
  const week: Array<readonly [number, number] | null> = [null, null, null, null, null, null, null];
  for (const r of rows) week[r.weekday] = [r.opens_minute, r.closes_minute];
  return week;
}

/** Office hours rows of the agencies, grouped by agency id. */
export async function loadOfficeHours(trx: DbOrTrx, agencyIds: readonly number[]): Promise<Map<number, OfficeHoursRow[]>> {
  const out = new Map<number, OfficeHoursRow[]>();
  if (agencyIds.length === 0) return out;
  const rows = await trx
    .selectFrom('agency_office_hours')
    .select(['agency_id', 'weekday', 'opens_minute', 'closes_minute'])
    .where('agency_id', 'in', agencyIds)
    .orderBy('agency_id')
    .orderBy('weekday')
    .execute();
  for (const { agency_id, ...r } of rows) out.set(agency_id, [...(out.get(agency_id) ?? []), r]);
  return out;
}

/** Region, at-risk share and office hours of the agencies, by agency id. */
export async function loadAgencySettings(trx: DbOrTrx, agencyIds: readonly number[]): Promise<Map<number, AgencySettings>> {
  const [rows, hours] = agencyIds.length
    ? await Promise.all([
        trx.selectFrom('agencies').select(['id', 'uk_region', 'sla_at_risk_percent']).where('id', 'in', agencyIds).execute(),
        loadOfficeHours(trx, agencyIds),
      ])
    : [[], new Map<number, OfficeHoursRow[]>()];
  return new Map(
    rows.map((r) => [r.id, { region: r.uk_region as UkRegion, atRiskPercent: r.sla_at_risk_percent, officeHours: officeHoursOf(hours.get(r.id)) }]),
  );
}

/** What starting a new job's clocks needs: the live rules of its branch and its agency's settings. */
export interface StartInputs {
  rules: RuleInput[];
  /** undefined when the agency row is missing */
  settings: AgencySettings | undefined;
}

/**
 * StartInputs as one SQL value (a JSON object, or null without the agency row); read it with
 * parseStartInputs.
 */
function startInputsSql(branchId: Expression<number>, agencyId: Expression<number>): RawBuilder<unknown> {
  return sql`(select json_build_object('region', a.uk_region, 'at_risk_percent', a.sla_at_risk_percent, 'office_hours', (
      select json_agg(json_build_object('weekday', h.weekday, 'opens_minute', h.opens_minute, 'closes_minute', h.closes_minute) order by h.weekday)
      from agency_office_hours h where h.agency_id = a.id), 'rules', coalesce((
      select json_agg(json_build_object(
        'id', r.id, 'job_status_from_id', r.job_status_from_id, 'job_status_to_id', r.job_status_to_id,
        'job_type_id', r.job_type_id, 'job_priority', r.job_priority, 'date_field_to_compare', r.date_field_to_compare,
        'date_field_to_track', r.date_field_to_track, 'minimum_response_days', r.minimum_response_days,
        'response_hours', r.response_hours, 'calendar', r.calendar
      ) order by r.id)
      from branch_sla_rules r where r.branch_id = ${branchId} and r.deleted_at is null), '[]'::json))
    from agencies a where a.id = ${agencyId})`;
}

/**
 * Reads the value of startInputsSql (PostgreSQL hands JSON back parsed, PGlite as text).
 * @returns the inputs, or undefined without the agency row (then read the rules with loadRules)
 */
function parseStartInputs(value: unknown): StartInputs | undefined {
  const v = (typeof value === 'string' ? JSON.parse(value) : value) as
    | { region: string; at_risk_percent: number; office_hours: OfficeHoursRow[] | null; rules: RuleInput[] }
    | null;
  if (!v) return undefined;
  return { rules: v.rules, settings: { region: v.region as UkRegion, atRiskPercent: v.at_risk_percent, officeHours: officeHoursOf(v.office_hours) } };
}

/** Read once per job creation: a named prepared statement (src/db/prepared.ts). */
const START_INPUTS = new PreparedQuery('sla_start_inputs', (db, _shape: 'one', p: Params<{ branchId: number; agencyId: number }>) =>
  db.selectNoFrom(startInputsSql(p('branchId'), p('agencyId')).as('inputs')),
);

/** The statement reading a branch's StartInputs, not yet run (for src/db/pipeline.ts); read its row with startInputsOf. */
export function startInputsQuery(trx: DbOrTrx, branchId: number, agencyId: number) {
  return START_INPUTS.statement(trx, 'one', { branchId, agencyId });
}

/**
 * The StartInputs in the row of startInputsQuery; without the agency row, the branch's rules read
 * on their own and no settings.
 */
export async function startInputsOf(trx: DbOrTrx, row: { inputs: unknown } | undefined, branchId: number): Promise<StartInputs> {
  return parseStartInputs(row?.inputs) ?? { rules: (await loadRules(trx, [branchId])).get(branchId) ?? [], settings: undefined };
}

/** Stored clocks of the jobs, grouped by job id. */
export async function loadClocks(trx: DbOrTrx, ids: readonly number[]): Promise<Map<number, ExistingClock[]>> {
  const out = new Map<number, ExistingClock[]>();
  if (ids.length === 0) return out;
  const rows = await trx
    .selectFrom('sla_clocks')
    .select(['id', 'job_id', 'rule_id', 'state', 'stopped_at', 'at_risk_flagged_at'])
    .where('job_id', 'in', ids)
    .execute();
  for (const { job_id, ...c } of rows) {
    const list = out.get(job_id) ?? [];
    list.push(c);
    out.set(job_id, list);
  }
  return out;
}

/**
 * Inserts or updates clocks (one row per job and rule). A clock made final meanwhile (by a
 * concurrent scan) is not overwritten, except to fill the stop of the same outcome.
 */
export async function upsertClocks(trx: DbOrTrx, rows: ClockRow[], now: Date) {
  for (let i = 0; i < rows.length; i += 500) await upsertClocksQuery(trx, rows.slice(i, i + 500), now).execute();
}

/** A clock to write: the plan's values and the job's ids. */
export type ClockRow = ClockPlan & { job_id: number; agency_id: number; branch_id: number };

/** The upsert of upsertClocks for at most 500 rows, not yet run. */
export function upsertClocksQuery(trx: DbOrTrx, chunk: ClockRow[], now: Date) {
  return trx
    .insertInto('sla_clocks')
    .values(chunk.map((r) => ({ ...r, created_at: now, updated_at: now })))
    .onConflict((oc) =>
      oc.columns(['job_id', 'rule_id']).doUpdateSet((eb) => ({
        state: eb.ref('excluded.state'),
        started_at: eb.ref('excluded.started_at'),
        due_at: eb.ref('excluded.due_at'),
        at_risk_at: eb.ref('excluded.at_risk_at'),
        stopped_at: eb.ref('excluded.stopped_at'),
        paused_seconds: eb.ref('excluded.paused_seconds'),
        at_risk_flagged_at: eb.ref('excluded.at_risk_flagged_at'),
        branch_id: eb.ref('excluded.branch_id'),
        updated_at: eb.ref('excluded.updated_at'),
      })).where(sql<boolean>`sla_clocks.state not in ('met', 'breached') or sla_clocks.state = excluded.state`),
    );
}

/** Deletes clocks by id. */
export async function deleteClocks(trx: DbOrTrx, ids: readonly number[]): Promise<void> {
  if (ids.length) await trx.deleteFrom('sla_clocks').where('id', 'in', ids).execute();
}

/** A clock that just moved to at_risk or breached, with what its event needs. */
export interface FlaggedClock {
  id: number;
  job_id: number;
  agency_id: number;
  rule_id: number;
  due_at: Date;
}

/**
 * Moves clocks whose due_at has come (running or at_risk) to breached, at most `limit` of them,
 * skipping rows another transaction holds. Only the rows this call moved are returned, so two
 * concurrent scans never both report the same clock.
 * @param jobIds limit to these jobs (recompute); omitted: any job (the periodic scan)
 */
export async function flagBreached(trx: DbOrTrx, now: Date, limit: number, jobIds?: readonly number[]): Promise<FlaggedClock[]> {
  if (jobIds && jobIds.length === 0) return [];
  const due = trx
    .selectFrom('sla_clocks')
    .select('id')
    .where('state', 'in', ['running', 'at_risk'])
    .where('due_at', '<=', now)
    .$if(jobIds !== undefined, (q) => q.where('job_id', 'in', jobIds!))
    .orderBy('due_at')
    .limit(limit)
    .forUpdate()
    .skipLocked();
  return trx
    .updateTable('sla_clocks')
    .set({ state: 'breached', breached_at: now, updated_at: now })
    .where('id', 'in', due)
    .where('state', 'in', ['running', 'at_risk'])
    .returning(['id', 'job_id', 'agency_id', 'rule_id', 'due_at'])
    .execute();
}

/**
 * Moves running clocks past their at-risk instant (and not yet due) to at_risk; same guarantees
 * as flagBreached.
 */
export async function flagAtRisk(trx: DbOrTrx, now: Date, limit: number, jobIds?: readonly number[]): Promise<FlaggedClock[]> {
  if (jobIds && jobIds.length === 0) return [];
  const due = trx
    .selectFrom('sla_clocks')
    .select('id')
    .where('state', '=', 'running')
    .where('at_risk_at', '<=', now)
    .where('due_at', '>', now)
    .$if(jobIds !== undefined, (q) => q.where('job_id', 'in', jobIds!))
    .orderBy('at_risk_at')
    .limit(limit)
    .forUpdate()
    .skipLocked();
  return trx
    .updateTable('sla_clocks')
    .set({ state: 'at_risk', at_risk_flagged_at: now, updated_at: now })
    .where('id', 'in', due)
    .where('state', '=', 'running')
    .returning(['id', 'job_id', 'agency_id', 'rule_id', 'due_at'])
    .execute();
}

/** Job references and rule uuids for flagged clocks' events. */
export async function refsOf(trx: DbOrTrx, clocks: readonly FlaggedClock[]) {
  if (clocks.length === 0) return { jobs: new Map(), rules: new Map() };
  const jobs = await trx
    .selectFrom('jobs')
    .select(['id', 'uuid', 'reference', 'branch_id'])
    .where('id', 'in', [...new Set(clocks.map((c) => c.job_id))])
    .execute();
  const rules = await trx
    .selectFrom('branch_sla_rules')
    .select(['id', 'uuid'])
    .where('id', 'in', [...new Set(clocks.map((c) => c.rule_id))])
    .execute();
  return { jobs: new Map(jobs.map((j) => [j.id, j])), rules: new Map(rules.map((r) => [r.id, r.uuid])) };
}

/**
 * One batch of open, not deleted jobs (ids above `afterId`, ascending) of a branch or an agency.
 * @returns job ids
 */
export async function openJobIds(db: DbOrTrx, where: { branchId?: number; agencyId?: number }, afterId: number, limit: number): Promise<number[]> {
  let q = db
    .selectFrom('jobs')
    .select('id')
    .where('deleted_at', 'is', null)
    .where('status_id', 'not in', [9, 10])
    .where('id', '>', afterId);
  if (where.branchId !== undefined) q = q.where('branch_id', '=', where.branchId);
  if (where.agencyId !== undefined) q = q.where('agency_id', '=', where.agencyId);
  const rows = await q.orderBy('id').limit(limit).execute();
  return rows.map((r) => r.id);
}

/** How many open jobs there are over every agency (the `sla.clocks` backfill's total). */
export async function countOpenJobs(db: DbOrTrx): Promise<number> {
  const row = await db
    .selectFrom('jobs')
    .select((eb) => eb.cast<number>(eb.fn.countAll(), 'integer').as('n'))
    .where('deleted_at', 'is', null)
    .where('status_id', 'not in', [9, 10])
    .executeTakeFirstOrThrow();
  return row.n;
}
