/**
 * Rules of the SLA endpoints (docs/sla.md): the breaches list and compliance report over the jobs
 * the caller sees (the jobs module's scope), the clocks of one visible job with time left, and the
 * agency SLA settings (UK region, at-risk share) with the recomputation they trigger.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { isSysOps, type Actor, type AuthContext } from '../../../core/auth-context.ts';
import { invalidParam, notFound } from '../../../core/errors.ts';
import { DAY_MS, toIso, toIsoOrNull } from '../../../lib/clock.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { findBranch, findContractor, jobScope, visibleJob } from '../jobs/index.ts';
import { DEFAULT_OFFICE_HOURS, loadOfficeHours, officeHoursOf, recomputeOpenJobs, secondsLeft, WEEKDAYS, type UkRegion } from '../sla/index.ts';
import * as repo from './sla.repository.ts';
import type { ComplianceInput, ListBreachesInput, OfficeHoursWeekDto, UpdateSettingsInput } from './sla.schemas.ts';


/** [from, to) from two inclusive UTC dates. @throws 400 to_date when to_date is before from_date */
function dayRange(fromDate: string | undefined, toDate: string | undefined) {
  const from = fromDate ? new Date(`${fromDate}T00:00:00Z`) : undefined;
  const to = toDate ? new Date(new Date(`${toDate}T00:00:00Z`).getTime() + DAY_MS) : undefined;
  if (from && to && from >= to) throw invalidParam('to_date');
  return { from, to };
}

/** The caller's agency for lookups (null for SysOps: any agency). */
const agencyOf = (auth: AuthContext) => (isSysOps(auth) ? null : (auth.agencyId ?? -1));

/**
 * GET /api/sla/breaches: one page of the SLA clocks of the jobs the caller sees, by due_at.
 * @param q state (default at_risk and breached), branch_uuid, contractor_uuid, priority,
 *   job_type_id, from_date/to_date (due date, inclusive), order, limit, offset
 * @returns { rows: Breach[], total }
 * @throws 400 to_date before from_date; 404 "Branch not found" / "Contractor not found" for a
 *   uuid outside the caller's agency
 */
export async function listBreaches(deps: AppDeps, auth: AuthContext, q: ListBreachesInput) {
  const { from, to } = dayRange(q.from_date, q.to_date);
  let branchId: number | undefined;
  let contractorId: number | undefined;
  if (q.branch_uuid !== undefined) {
    const b = await findBranch(deps.db, q.branch_uuid, agencyOf(auth));
    if (!b) throw notFound('Branch');
    branchId = b.id;
  }
  if (q.contractor_uuid !== undefined) {
    const c = await findContractor(deps.db, q.contractor_uuid, agencyOf(auth));
    if (!c) throw notFound('Contractor');
    contractorId = c.id;
  }
  const now = deps.clock.now().getTime();
  const { rows, total } = await repo.listBreaches(deps.db, jobScope(auth), {
    states: q.state ? [q.state] : ['at_risk', 'breached'],
    branchId,
    contractorId,
    priority: q.priority,
    jobTypeId: q.job_type_id,
    from,
    to,
    order: q.order ?? 'asc',
    limit: q.limit,
    offset: q.offset,
  });
  return {
    rows: rows.map((r) => ({
      ID: r.id,
      state: r.state,
      job_uuid: r.job_uuid,
      reference: r.reference,
      title: r.title,
      status: r.status,
      priority: r.priority,
      job_type_id: r.job_type_id,
      job_type: r.job_type,
      branch_uuid: r.branch_uuid,
      branch_name: r.branch_name,
      contractor_uuid: r.contractor_uuid,
      contractor_name: r.contractor_name,
      rule_uuid: r.rule_uuid,
      rule_description: r.rule_description,
      calendar: r.calendar,
      minimum_response_days: r.minimum_response_days,
      response_hours: r.response_hours,
      started_at: toIso(r.started_at),
      due_at: toIso(r.due_at),
      stopped_at: toIsoOrNull(r.stopped_at),
      breached_at: toIsoOrNull(r.breached_at),
      seconds_to_due: Math.round((new Date(r.due_at).getTime() - now) / 1000),
    })),
    total,
  };
}

/**
 * GET /api/jobs/{uuid}/sla: every SLA clock of a visible job with its rule and time left.
 * @returns JobClock[] by due_at
 * @throws 404 "Job not found" (missing, deleted or outside the caller's scope)
 */
export async function jobClocks(deps: AppDeps, auth: AuthContext, uuid: string) {
  const job = await visibleJob(deps.db, auth, uuid);
  const rows = await repo.listJobClocks(deps.db, job.id);
  if (rows.length === 0) return [];
  const timing = await repo.jobTiming(deps.db, job.id);
  const now = deps.clock.now();
  const input = { ...timing.job, dates: timing.job as unknown as Record<string, Date | null> };
  const history = timing.history.map((h) => ({ to_status_id: h.to_status_id, created_at: new Date(h.created_at) }));
  const hours = (await loadOfficeHours(deps.db, [timing.job.agency_id])).get(timing.job.agency_id);
  const settings = { region: timing.job.uk_region as UkRegion, atRiskPercent: timing.job.sla_at_risk_percent, officeHours: officeHoursOf(hours) };
  return rows.map((r) => ({
    ID: r.id,
    state: r.state,
    rule_uuid: r.rule_uuid,
    rule_description: r.description,
    rule_deleted: r.rule_deleted_at !== null,
    job_status_from_id: r.job_status_from_id,
    job_status_to_id: r.job_status_to_id,
    date_field_to_compare: r.date_field_to_compare,
    date_field_to_track: r.date_field_to_track,
    minimum_response_days: r.minimum_response_days,
    response_hours: r.response_hours,
    calendar: r.calendar,
    started_at: toIso(r.started_at),
    due_at: toIso(r.due_at),
    at_risk_at: toIso(r.at_risk_at),
    stopped_at: toIsoOrNull(r.stopped_at),
    breached_at: toIsoOrNull(r.breached_at),
    paused_seconds: r.paused_seconds,
    time_left_seconds: r.state === 'not_applicable' ? null : secondsLeft({ ...r, id: r.rule_id }, input, history, settings, now),
  }));
}

/**
 * GET /api/sla/compliance: met, breached and running clocks per group over the jobs the caller
 * sees, for clocks started between two dates (inclusive).
 * @returns { rows: ComplianceRow[], total } groups by name
 * @throws 400 to_date before from_date
 */
export async function complianceReport(deps: AppDeps, auth: AuthContext, q: ComplianceInput) {
  const { from, to } = dayRange(q.from_date, q.to_date);
  const group = q.group_by ?? 'branch';
  const { rows, total } = await repo.compliance(deps.db, jobScope(auth), { group, from: from!, to: to!, limit: q.limit, offset: q.offset });
  const round1 = (n: number) => Math.round(n * 10) / 10;
  return {
    rows: rows.map((r) => ({
      group_by: group,
      key: r.group_key,
      name: r.group_name ?? (group === 'contractor' ? 'No contractor' : ''),
      met: r.met,
      breached: r.breached,
      running: r.running,
      compliance_percent: r.met + r.breached > 0 ? round1((100 * r.met) / (r.met + r.breached)) : null,
      median_minutes_to_respond: r.median_minutes === null ? null : round1(Number(r.median_minutes)),
      calendars: r.calendars ?? '',
    })),
    total,
  };
}

/**
 * The agency whose settings the caller reads or changes: SysOps name one (agency_uuid required),
 * everyone else their own (an agency_uuid of another agency is 404).
 * @throws 400 agency_uuid (SysOps without one), 404 "Agency not found"
 */
async function settingsAgency(deps: AppDeps, auth: AuthContext, agencyUuid: string | undefined): Promise<number> {
  if (isSysOps(auth)) {
    if (agencyUuid === undefined) throw invalidParam('agency_uuid');
    const a = await repo.agencyByUuid(deps.db, agencyUuid);
    if (!a) throw notFound('Agency');
    return a.id;
  }
  if (auth.agencyId === null) throw notFound('Agency');
  if (agencyUuid !== undefined) {
    const a = await repo.agencyByUuid(deps.db, agencyUuid);
    if (!a || a.id !== auth.agencyId) throw notFound('Agency');
  }
  return auth.agencyId;
}

const hhmm = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
const minuteOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** Wire shape of an agency's settings. */
async function settingsDto(deps: AppDeps, agencyId: number) {
  const a = await repo.agencySettings(deps.db, agencyId);
  if (!a) throw notFound('Agency');
  const stored = officeHoursOf((await loadOfficeHours(deps.db, [agencyId])).get(agencyId));
  const week = stored ?? DEFAULT_OFFICE_HOURS;
  const office_hours = Object.fromEntries(
    WEEKDAYS.map((d, i) => [d, week[i] ? { opens: hhmm(week[i]![0]), closes: hhmm(week[i]![1]) } : null]),
  ) as OfficeHoursWeekDto;
  return { agency_uuid: a.uuid, agency_name: a.name, uk_region: a.uk_region, at_risk_percent: a.sla_at_risk_percent, office_hours, office_hours_default: !stored };
}

/**
 * Office hours rows from the wire week (0 = Monday).
 * @throws 400 office_hours when a day closes before it opens or every day is closed
 */
function officeHoursRows(week: OfficeHoursWeekDto) {
  const rows: Array<{ weekday: number; opens_minute: number; closes_minute: number }> = [];
  WEEKDAYS.forEach((d, weekday) => {
    const day = week[d];
    if (!day) return;
    const opens_minute = minuteOf(day.opens);
    const closes_minute = minuteOf(day.closes);
    if (closes_minute <= opens_minute) throw invalidParam('office_hours');
    rows.push({ weekday, opens_minute, closes_minute });
  });
  if (rows.length === 0) throw invalidParam('office_hours');
  return rows;
}

/**
 * GET /api/sla/settings: the agency's UK region and at-risk share.
 * @throws 400 agency_uuid (SysOps without one), 404 "Agency not found"
 */
export async function getSettings(deps: AppDeps, auth: AuthContext, agencyUuid: string | undefined) {
  return settingsDto(deps, await settingsAgency(deps, auth, agencyUuid));
}

/**
 * POST /api/sla/settings: changes the agency's UK region, at-risk share and/or office hours (the
 * whole week replaced; activity entry
 * `sla_settings.update` in the same transaction), then recomputes the clocks of its open jobs.
 * @throws 400 body (nothing to change), agency_uuid; 404 "Agency not found"
 */
export async function updateSettings(deps: AppDeps, auth: AuthContext, actor: Actor, input: UpdateSettingsInput) {
  const agencyId = await settingsAgency(deps, auth, input.agency_uuid);
  if (input.uk_region === undefined && input.at_risk_percent === undefined && input.office_hours === undefined) throw invalidParam('body');
  const hours = input.office_hours === undefined ? undefined : officeHoursRows(input.office_hours);
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    if (hours) await repo.replaceOfficeHours(trx, agencyId, hours, now);
    await repo.updateAgencySettings(trx, agencyId, {
      ...(input.uk_region !== undefined ? { uk_region: input.uk_region } : {}),
      ...(input.at_risk_percent !== undefined ? { sla_at_risk_percent: input.at_risk_percent } : {}),
    }, now);
    await recordActivity(trx, actor, now, {
      action: 'sla_settings.update',
      resourceType: 'agency',
      resourceId: agencyId,
      agencyId,
      details: { uk_region: input.uk_region, at_risk_percent: input.at_risk_percent, office_hours: input.office_hours },
    });
  });
  await recomputeOpenJobs(deps, { agencyId });
  return settingsDto(deps, agencyId);
}
