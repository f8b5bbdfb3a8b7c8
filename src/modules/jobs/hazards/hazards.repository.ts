/**
 * SQL of hazards and their statutory clocks (docs/compliance.md "Hazards and statutory clocks"):
 * the hazard of a job, its clocks, the conditional updates that move clocks to at_risk and breached
 * once each (two scans at once never flag a clock twice), and the hazard breaches list over the
 * jobs the caller sees (the jobs module's scope).
 */
import { sql } from 'kysely';
import type { DbOrTrx } from '../../../db/types.ts';
import { jobsQuery, type JobScope } from '../jobs/index.ts';
import type { ClockKind, HazardClockPlan } from './statutory-clocks.ts';

const HAZARD_COLUMNS = [
  'h.id', 'h.uuid', 'h.agency_id', 'h.job_id', 'h.category', 'h.severity', 'h.description', 'h.reported_at', 'h.made_safe_at',
  'h.investigated_at', 'h.summary_sent_at', 'h.works_started_at', 'h.works_completed_at', 'h.works_working_days',
  'h.summary_findings', 'h.summary_actions', 'h.summary_text', 'h.created_at', 'h.updated_at',
  'h.awareness_reason', 'h.scope', 'h.further_works_required', 'h.further_works_reason', 'h.further_works_started_at',
  'h.made_safe_recorded_at', 'h.investigated_recorded_at', 'h.works_started_recorded_at', 'h.further_works_started_recorded_at', 'h.works_completed_recorded_at',
  'h.summary_delivered_at', 'h.summary_delivered_recorded_at', 'h.summary_delivery_method', 'h.summary_fallback', 'h.summary_fallback_at', 'h.summary_event_id',
] as const;

/** The hazard of a job (none: undefined). */
export function findHazardOfJob(db: DbOrTrx, jobId: number) {
  return db.selectFrom('job_hazards as h').select(HAZARD_COLUMNS).where('h.job_id', '=', jobId).executeTakeFirst();
}
export type HazardRow = NonNullable<Awaited<ReturnType<typeof findHazardOfJob>>>;

/** Region, at-risk share and default works period of an agency. */
export function agencyHazardSettings(db: DbOrTrx, agencyId: number) {
  return db.selectFrom('agencies').select(['sla_at_risk_percent', 'hazard_works_working_days', 'hazard_private_rented_policy']).where('id', '=', agencyId).executeTakeFirst();
}

/**
 * What decides a hazard's scope and the default moment of awareness: the job's report time, its
 * property's postcode and stated scope, and the agency's private rented policy.
 */
export function scopeContext(db: DbOrTrx, jobId: number) {
  return db
    .selectFrom('jobs as j')
    .innerJoin('agencies as ag', 'ag.id', 'j.agency_id')
    .leftJoin('addresses as a', 'a.id', 'j.address_id')
    .leftJoin('hazard_property_scopes as ps', 'ps.address_id', 'j.address_id')
    .select(['j.created_at as reported_at', 'a.postcode', 'ps.tenure', 'ps.nation', 'ag.hazard_private_rented_policy'])
    .where('j.id', '=', jobId)
    .executeTakeFirst();
}

/** The stored scope of a property of the agency (none: undefined). */
export function propertyScope(db: DbOrTrx, addressId: number) {
  return db.selectFrom('hazard_property_scopes').select(['tenure', 'nation', 'updated_at']).where('address_id', '=', addressId).executeTakeFirst();
}

/** Writes the scope of a property. */
export async function upsertPropertyScope(
  db: DbOrTrx,
  row: { address_id: number; agency_id: number; tenure: 'social' | 'private_rented'; nation: 'england' | 'wales' | 'scotland' | 'northern_ireland' | null; updated_by_user_id: number | null; updated_at: Date },
): Promise<void> {
  await db.insertInto('hazard_property_scopes').values(row)
    .onConflict((oc) => oc.column('address_id').doUpdateSet({ tenure: row.tenure, nation: row.nation, updated_by_user_id: row.updated_by_user_id, updated_at: row.updated_at }))
    .execute();
}

/** A property of the agency by uuid, with its postcode (none: undefined). */
export function agencyAddress(db: DbOrTrx, agencyId: number, uuid: string) {
  return db.selectFrom('addresses').select(['id', 'uuid', 'postcode']).where('uuid', '=', uuid).where('agency_id', '=', agencyId).executeTakeFirst();
}

/** Open hazards (not yet covering a job elsewhere) at a property: their ids and job ids. */
export function hazardsAtAddress(db: DbOrTrx, addressId: number) {
  return db.selectFrom('job_hazards as h').innerJoin('jobs as j', 'j.id', 'h.job_id').select(['h.id', 'h.job_id']).where('j.address_id', '=', addressId).execute();
}

/** Hazards of an agency (the private rented policy changed). */
export function hazardsOfAgency(db: DbOrTrx, agencyId: number) {
  return db.selectFrom('job_hazards').select(['id', 'job_id']).where('agency_id', '=', agencyId).execute();
}

/** Sets the agency's private rented policy. */
export async function setPrivateRentedPolicy(db: DbOrTrx, agencyId: number, on: boolean, now: Date): Promise<void> {
  await db.updateTable('agencies').set({ hazard_private_rented_policy: on, updated_at: now }).where('id', '=', agencyId).execute();
}

/** Sets the agency's default works period (working days). */
export async function setWorksWorkingDays(db: DbOrTrx, agencyId: number, days: number, now: Date): Promise<void> {
  await db.updateTable('agencies').set({ hazard_works_working_days: days, updated_at: now }).where('id', '=', agencyId).execute();
}

/** Inserts a hazard; returns its id. */
export async function insertHazard(
  db: DbOrTrx,
  row: {
    uuid: string; agency_id: number; job_id: number; category: string; severity: 'emergency' | 'significant'; description: string;
    reported_at: Date; works_working_days: number; created_by_user_id: number | null; created_at: Date; updated_at: Date;
    awareness_reason: string | null; further_works_required: boolean; further_works_reason: string | null;
  },
): Promise<number> {
  const r = await db.insertInto('job_hazards').values(row).returning('id').executeTakeFirstOrThrow();
  return r.id;
}

/** Updates fields of a hazard. */
export async function updateHazard(
  db: DbOrTrx,
  id: number,
  set: Partial<{
    category: string; severity: 'emergency' | 'significant'; description: string; reported_at: Date; works_working_days: number;
    made_safe_at: Date; investigated_at: Date; summary_sent_at: Date; works_started_at: Date; works_completed_at: Date;
    summary_findings: string; summary_actions: string; summary_text: string;
    awareness_reason: string | null; scope: 'social' | 'private_rented_policy' | 'not_covered'; further_works_required: boolean; further_works_reason: string | null;
    further_works_started_at: Date; made_safe_recorded_at: Date; investigated_recorded_at: Date; works_started_recorded_at: Date;
    further_works_started_recorded_at: Date; works_completed_recorded_at: Date;
    summary_delivered_at: Date; summary_delivered_recorded_at: Date; summary_delivery_method: 'email' | 'sms' | 'post';
    summary_fallback: 'sms' | 'letter'; summary_fallback_at: Date; summary_posted_by_user_id: number | null; summary_event_id: string;
  }>,
  now: Date,
): Promise<void> {
  await db.updateTable('job_hazards').set({ ...set, updated_at: now }).where('id', '=', id).execute();
}

/** The stored clocks of a hazard. */
export function clocksOfHazard(db: DbOrTrx, hazardId: number) {
  return db
    .selectFrom('hazard_clocks')
    .select(['id', 'kind', 'state', 'started_at', 'due_at', 'at_risk_at', 'stopped_at', 'at_risk_flagged_at', 'breached_at'])
    .where('hazard_id', '=', hazardId)
    .orderBy('due_at')
    .orderBy('id')
    .execute();
}
export type HazardClockRow = Awaited<ReturnType<typeof clocksOfHazard>>[number];

/**
 * Writes the planned clocks of a hazard: a clock already final (met or breached) only gains a
 * stop it did not have; an at_risk clock still past its threshold stays at_risk. A clock flagged
 * breached because its milestone was not yet recorded becomes met when the milestone, recorded
 * late, happened by the deadline (only the time it happened decides).
 */
export async function writeClocks(
  db: DbOrTrx,
  ref: { agency_id: number; job_id: number; hazard_id: number },
  plans: ReadonlyArray<HazardClockPlan & { state: string }>,
  now: Date,
): Promise<void> {
  if (plans.length === 0) return;
  await db
    .insertInto('hazard_clocks')
    .values(plans.map((p) => ({
      ...ref, kind: p.kind, state: p.state, started_at: p.started_at, due_at: p.due_at, at_risk_at: p.at_risk_at, stopped_at: p.stopped_at,
      created_at: now, updated_at: now,
    })))
    .onConflict((oc) =>
      oc.columns(['hazard_id', 'kind']).doUpdateSet({
        state: sql`case
          when hazard_clocks.state = 'breached' and excluded.state = 'met' and excluded.stopped_at <= hazard_clocks.due_at then 'met'
          when hazard_clocks.state in ('met', 'breached') then hazard_clocks.state
          when excluded.state = 'met' then 'met'
          when hazard_clocks.state = 'at_risk' and excluded.at_risk_at <= ${now} then 'at_risk'
          else 'running' end`,
        started_at: sql`case when hazard_clocks.state in ('met', 'breached') then hazard_clocks.started_at else excluded.started_at end`,
        due_at: sql`case when hazard_clocks.state in ('met', 'breached') then hazard_clocks.due_at else excluded.due_at end`,
        at_risk_at: sql`case when hazard_clocks.state in ('met', 'breached') then hazard_clocks.at_risk_at else excluded.at_risk_at end`,
        stopped_at: sql`coalesce(hazard_clocks.stopped_at, excluded.stopped_at)`,
        breached_at: sql`case when hazard_clocks.state = 'breached' and excluded.state = 'met' and excluded.stopped_at <= hazard_clocks.due_at then null else hazard_clocks.breached_at end`,
        at_risk_flagged_at: sql`case when hazard_clocks.state = 'at_risk' and excluded.at_risk_at > ${now} and excluded.state <> 'met' then null else hazard_clocks.at_risk_flagged_at end`,
        updated_at: now,
      }),
    )
    .execute();
}

/** Deletes the non-final clocks of a hazard whose kind no longer applies (a severity changed). */
export async function dropClocks(db: DbOrTrx, hazardId: number, keep: readonly ClockKind[]): Promise<void> {
  let q = db.deleteFrom('hazard_clocks').where('hazard_id', '=', hazardId).where('state', 'not in', ['met', 'breached']);
  if (keep.length) q = q.where('kind', 'not in', keep);
  await q.execute();
}

/** A clock that just moved, with what its event needs. */
export interface FlaggedHazardClock {
  id: number;
  job_id: number;
  agency_id: number;
  hazard_id: number;
  kind: string;
  due_at: Date;
}

const FLAGGED = ['id', 'job_id', 'agency_id', 'hazard_id', 'kind', 'due_at'] as const;

/**
 * Moves clocks whose due_at has come (running or at_risk) to breached, at most `limit`, skipping
 * rows another transaction holds; returns only the rows this call moved.
 * @param hazardIds limit to these hazards (after a change); omitted: every hazard (the scan)
 */
export function flagBreached(db: DbOrTrx, now: Date, limit: number, hazardIds?: readonly number[]): Promise<FlaggedHazardClock[]> {
  const due = db
    .selectFrom('hazard_clocks')
    .select('id')
    .where('state', 'in', ['running', 'at_risk'])
    .where('due_at', '<=', now)
    .$if(hazardIds !== undefined, (q) => q.where('hazard_id', 'in', hazardIds!.length ? hazardIds! : [-1]))
    .orderBy('due_at')
    .limit(limit)
    .forUpdate()
    .skipLocked();
  return db
    .updateTable('hazard_clocks')
    .set({ state: 'breached', breached_at: now, updated_at: now })
    .where('id', 'in', due)
    .where('state', 'in', ['running', 'at_risk'])
    .returning(FLAGGED)
    .execute();
}

/** Moves running, unstopped clocks past their at-risk instant (not yet due) to at_risk; as flagBreached. */
export function flagAtRisk(db: DbOrTrx, now: Date, limit: number, hazardIds?: readonly number[]): Promise<FlaggedHazardClock[]> {
  const due = db
    .selectFrom('hazard_clocks')
    .select('id')
    .where('state', '=', 'running')
    .where('stopped_at', 'is', null)
    .where('at_risk_at', '<=', now)
    .where('due_at', '>', now)
    .$if(hazardIds !== undefined, (q) => q.where('hazard_id', 'in', hazardIds!.length ? hazardIds! : [-1]))
    .orderBy('at_risk_at')
    .limit(limit)
    .forUpdate()
    .skipLocked();
  return db
    .updateTable('hazard_clocks')
    .set({ state: 'at_risk', at_risk_flagged_at: now, updated_at: now })
    .where('id', 'in', due)
    .where('state', '=', 'running')
    .returning(FLAGGED)
    .execute();
}

/** Job references and hazard uuids and categories of flagged clocks. */
export async function refsOf(db: DbOrTrx, clocks: readonly FlaggedHazardClock[]) {
  if (clocks.length === 0) return new Map<number, { job_id: number; job_uuid: string; reference: string; branch_id: number; hazard_uuid: string; category: string; severity: string }>();
  const rows = await db
    .selectFrom('job_hazards as h')
    .innerJoin('jobs as j', 'j.id', 'h.job_id')
    .select(['h.id', 'h.uuid as hazard_uuid', 'h.category', 'h.severity', 'j.id as job_id', 'j.uuid as job_uuid', 'j.reference', 'j.branch_id'])
    .where('h.id', 'in', [...new Set(clocks.map((c) => c.hazard_id))])
    .execute();
  return new Map(rows.map(({ id, ...r }) => [id, r]));
}

/** Filters of the hazard breaches list. */
export interface HazardBreachFilter {
  states: string[];
  severity?: string;
  limit: number;
  offset: number;
}

/** One page of statutory clocks of visible jobs in the given states, by due_at, and the total. */
export async function listHazardClocks(db: DbOrTrx, scope: JobScope, f: HazardBreachFilter) {
  let q = jobsQuery(db, scope)
    .innerJoin('hazard_clocks as hc', 'hc.job_id', 'j.id')
    .innerJoin('job_hazards as h', 'h.id', 'hc.hazard_id')
    .where('hc.state', 'in', f.states);
  if (f.severity !== undefined) q = q.where('h.severity', '=', f.severity as 'emergency' | 'significant');
  const [rows, total] = await Promise.all([
    q
      .select([
        'hc.id', 'hc.kind', 'hc.state', 'hc.started_at', 'hc.due_at', 'hc.at_risk_at', 'hc.stopped_at', 'hc.breached_at',
        'h.uuid as hazard_uuid', 'h.category', 'h.severity', 'j.uuid as job_uuid', 'j.reference', 'j.title',
        'b.uuid as branch_uuid', 'b.name as branch_name', 'ad.line1', 'ad.town', 'ad.postcode',
      ])
      .orderBy('hc.due_at')
      .orderBy('hc.id')
      .limit(f.limit)
      .offset(f.offset)
      .execute(),
    q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}
export type HazardClockListRow = Awaited<ReturnType<typeof listHazardClocks>>['rows'][number];

/** The tenant and what the written summary shows: job, tenant record, address, agency name. */
export function summaryContext(db: DbOrTrx, jobId: number) {
  return db
    .selectFrom('jobs as j')
    .innerJoin('agencies as ag', 'ag.id', 'j.agency_id')
    .leftJoin('tenants as t', 't.id', 'j.tenant_id')
    .leftJoin('addresses as a', 'a.id', 'j.address_id')
    .select(['j.tenant_id', 't.name as tenant_name', 't.erased_at', 'ag.name as agency_name', 'a.line1', 'a.town', 'a.postcode'])
    .where('j.id', '=', jobId)
    .executeTakeFirst();
}

/** Written summaries issued and not yet delivered (the delivery scan), oldest first. */
export function undeliveredSummaries(db: DbOrTrx, limit: number) {
  return db
    .selectFrom('job_hazards as h')
    .select(['h.id', 'h.job_id', 'h.agency_id', 'h.summary_event_id', 'h.summary_fallback', 'h.summary_text'])
    .where('h.summary_sent_at', 'is not', null)
    .where('h.summary_delivered_at', 'is', null)
    .where('h.summary_event_id', 'is not', null)
    .orderBy('h.summary_sent_at')
    .limit(limit)
    .execute();
}

/** Whether the messaging handler has planned the deliveries of an event. */
export async function eventHandled(db: DbOrTrx, eventId: string, handler: string): Promise<boolean> {
  const r = await db.selectFrom('event_handler_runs').select('event_id').where('event_id', '=', eventId).where('handler', '=', handler).executeTakeFirst();
  return r !== undefined;
}

/** The delivery rows of the written summary's event (template hazard.summary), by channel. */
export function summaryDeliveries(db: DbOrTrx, agencyId: number, eventId: string) {
  return db
    .selectFrom('message_deliveries')
    .select(['id', 'channel', 'status', 'reason', 'sent_at', 'recipient_kind'])
    .where('agency_id', '=', agencyId)
    .where('event_id', '=', eventId)
    .where('template_key', '=', 'hazard.summary')
    .orderBy('id')
    .execute();
}

/** The job's tenant's numbers, name and the property's address lines (second channel, letter). */
export function summaryRecipient(db: DbOrTrx, jobId: number) {
  return db
    .selectFrom('jobs as j')
    .innerJoin('agencies as ag', 'ag.id', 'j.agency_id')
    .leftJoin('tenants as t', 't.id', 'j.tenant_id')
    .leftJoin('addresses as a', 'a.id', 'j.address_id')
    .select([
      'j.tenant_id', 'j.reference', 't.name as tenant_name', 't.mobile', 't.phone', 't.erased_at', 'ag.name as agency_name',
      'a.line1', 'a.line2', 'a.line3', 'a.town', 'a.county', 'a.postcode',
    ])
    .where('j.id', '=', jobId)
    .executeTakeFirst();
}
