/**
 * Rules of hazards and their statutory clocks (docs/compliance.md "Hazards and statutory clocks"):
 * marking a job as carrying a hazard, recording its milestones (made safe, investigated, works
 * begun, works completed), sending the written summary to the tenant (template `hazard.summary`,
 * a copy kept on the job), keeping the statutory clocks current and flagging them at risk and
 * breached once each, with `hazard.at_risk` / `hazard.breached` events. Visibility and write
 * rights are the jobs module's: staff who may write the job may change its hazard.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { emitEvent } from '../../../events/index.ts';
import { type Actor, type AuthContext } from '../../../core/auth-context.ts';
import { conflict, invalidParam, notFound } from '../../../core/errors.ts';
import { writeAgency } from '../../../core/agency-scope.ts';
import { toIso, toIsoOrNull } from '../../../lib/clock.ts';
import { newUuid } from '../../../lib/crypto.ts';
import { HAZARD_CLOCK_LABELS, hazardName, HHSRS_HAZARDS } from '../../../lib/hhsrs.ts';
import { formatLondonDateTime } from '../../../lib/london-time.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { assertStaffMayWrite, jobRef, jobScope, visibleJob, withLockedJob } from '../jobs/index.ts';
import { renderHazardSummary } from '../../messaging/messaging/index.ts';
import * as repo from './hazards.repository.ts';
import type { HazardBreachesInput, HazardSettingsDto, MilestoneInput, PropertyScopeInput, SetHazardInput, SummaryInput, UpdateHazardSettingsInput } from './hazards.schemas.ts';
import { hazardScope, nationOfPostcode, SCOPE_TEXT, type HazardScope, type Nation, type Tenure } from './scope.ts';
import { recordSummaryPosted, renderSummaryLetter, scanSummaryDeliveries, summaryLetter } from './summary-delivery.ts';
import { CLOCK_KINDS, planHazardClocks, plannedState, type HazardInput } from './statutory-clocks.ts';

/** The actor of entries written by the scan. */
const SYSTEM_ACTOR: Actor = { auth: null, ip: '127.0.0.1' };

const d = (v: Date | string | null): Date | null => (v === null ? null : new Date(v));

/** The planner's view of a stored hazard. */
function inputOf(h: repo.HazardRow): HazardInput {
  return {
    severity: h.severity, reported_at: new Date(h.reported_at), made_safe_at: d(h.made_safe_at), investigated_at: d(h.investigated_at),
    summary_sent_at: d(h.summary_sent_at), works_started_at: d(h.works_started_at), works_completed_at: d(h.works_completed_at),
    further_works_required: h.further_works_required, further_works_reason: h.further_works_reason, further_works_started_at: d(h.further_works_started_at),
    summary_delivered_at: d(h.summary_delivered_at),
  };
}

/** The label of a clock; the further works clock says which limit applies. */
function clockLabel(kind: string, furtherWorksReason: string | null): string {
  if (kind === 'further_works_start' && furtherWorksReason) return HAZARD_CLOCK_LABELS.further_works_start_12_weeks!;
  return HAZARD_CLOCK_LABELS[kind] ?? kind;
}

/** Wire shape of one statutory clock; time_left_seconds is real seconds to the deadline (negative when over). */
function clockDto(c: repo.HazardClockRow, now: Date, furtherWorksReason: string | null = null) {
  const due = new Date(c.due_at);
  const end = c.stopped_at ? new Date(c.stopped_at) : now;
  return {
    kind: c.kind,
    label: clockLabel(c.kind, furtherWorksReason),
    state: c.state,
    started_at: toIso(c.started_at),
    due_at: toIso(due),
    due_at_text: formatLondonDateTime(due),
    at_risk_at: toIso(c.at_risk_at),
    stopped_at: toIsoOrNull(c.stopped_at),
    breached_at: toIsoOrNull(c.breached_at),
    time_left_seconds: Math.round((due.getTime() - end.getTime()) / 1000),
  };
}

/** Wire shape of a hazard with its clocks. */
async function hazardDto(db: DbOrTrx, h: repo.HazardRow, jobUuid: string, now: Date) {
  const clocks = await repo.clocksOfHazard(db, h.id);
  clocks.sort((a, b) => CLOCK_KINDS.indexOf(a.kind as never) - CLOCK_KINDS.indexOf(b.kind as never));
  return {
    uuid: h.uuid,
    job_uuid: jobUuid,
    category: h.category,
    category_name: hazardName(h.category),
    severity: h.severity,
    description: h.description,
    reported_at: toIso(h.reported_at),
    awareness_reason: h.awareness_reason,
    flagged_at: toIso(h.created_at),
    scope: h.scope,
    scope_text: SCOPE_TEXT[h.scope],
    made_safe_at: toIsoOrNull(h.made_safe_at),
    investigated_at: toIsoOrNull(h.investigated_at),
    summary_sent_at: toIsoOrNull(h.summary_sent_at),
    works_started_at: toIsoOrNull(h.works_started_at),
    further_works_started_at: toIsoOrNull(h.further_works_started_at),
    works_completed_at: toIsoOrNull(h.works_completed_at),
    recorded: {
      made_safe_at: toIsoOrNull(h.made_safe_recorded_at),
      investigated_at: toIsoOrNull(h.investigated_recorded_at),
      works_started_at: toIsoOrNull(h.works_started_recorded_at),
      further_works_started_at: toIsoOrNull(h.further_works_started_recorded_at),
      works_completed_at: toIsoOrNull(h.works_completed_recorded_at),
      summary_delivered_at: toIsoOrNull(h.summary_delivered_recorded_at),
    },
    further_works_required: h.further_works_required,
    further_works_reason: h.further_works_reason,
    works_working_days: h.works_working_days,
    summary: h.summary_sent_at
      ? {
        findings: h.summary_findings ?? '', actions: h.summary_actions ?? '', text: h.summary_text ?? '',
        delivered_at: toIsoOrNull(h.summary_delivered_at), delivery_method: h.summary_delivery_method,
        fallback: h.summary_fallback, fallback_at: toIsoOrNull(h.summary_fallback_at),
      }
      : null,
    clocks: clocks.map((c) => clockDto(c, now, h.further_works_reason)),
  };
}
export type HazardDto = Awaited<ReturnType<typeof hazardDto>>;

/** GET /api/hazards/categories: the 29 HHSRS hazards. */
export function listCategories() {
  return HHSRS_HAZARDS.map((h) => ({ ...h }));
}

/**
 * Writes the `hazard.<state>` event and activity entry of each clock that just moved.
 * @param state 'at_risk' or 'breached'
 */
async function announce(trx: DbOrTrx, now: Date, state: 'at_risk' | 'breached', flagged: readonly repo.FlaggedHazardClock[]): Promise<void> {
  if (flagged.length === 0) return;
  const refs = await repo.refsOf(trx, flagged);
  for (const c of flagged) {
    const r = refs.get(c.hazard_id);
    if (!r) continue;
    const due = new Date(c.due_at).toISOString();
    await emitEvent(trx, now, {
      name: state === 'at_risk' ? 'hazard.at_risk' : 'hazard.breached',
      agencyId: c.agency_id,
      payload: { job_id: r.job_id, job_uuid: r.job_uuid, reference: r.reference, branch_id: r.branch_id, hazard_uuid: r.hazard_uuid, clock_id: c.id, kind: c.kind, due_at: due },
    });
    await recordActivity(trx, SYSTEM_ACTOR, now, {
      action: `hazard.${state}`, resourceType: 'job', resourceId: r.job_id, agencyId: c.agency_id, userId: null, userName: 'system',
      details: { clock_id: c.id, kind: c.kind, due_at: due, hazard_uuid: r.hazard_uuid },
    });
  }
}

/** The scope of the hazard of a job (docs/compliance.md "Scope"). */
async function scopeOfJob(db: DbOrTrx, jobId: number): Promise<HazardScope> {
  const c = await repo.scopeContext(db, jobId);
  if (!c) return 'not_covered';
  const nation = (c.nation as Nation | null) ?? (c.postcode ? nationOfPostcode(c.postcode) : null);
  return hazardScope({ nation, tenure: c.tenure as Tenure | null, privateRentedPolicy: c.hazard_private_rented_policy });
}

/**
 * Recomputes the statutory clocks of one hazard in the caller's transaction, then flags (and
 * announces) those already at risk or breached.
 * @param opts.announce false to flag without events and activity entries (demo history); default true
 */
export async function recomputeHazardClocks(trx: DbOrTrx, hazardId: number, jobId: number, now: Date, opts: { announce?: boolean } = {}): Promise<void> {
  const h = await repo.findHazardOfJob(trx, jobId);
  if (!h || h.id !== hazardId) return;
  const settings = await repo.agencyHazardSettings(trx, h.agency_id);
  const scope = await scopeOfJob(trx, h.job_id);
  if (scope !== h.scope) await repo.updateHazard(trx, h.id, { scope }, now);
  const plans = scope === 'not_covered' ? [] : planHazardClocks(inputOf(h), settings?.sla_at_risk_percent ?? 75);
  await repo.dropClocks(trx, h.id, plans.map((p) => p.kind));
  await repo.writeClocks(trx, { agency_id: h.agency_id, job_id: h.job_id, hazard_id: h.id }, plans.map((p) => ({ ...p, state: plannedState(p) })), now);
  const breached = await repo.flagBreached(trx, now, 100, [h.id]);
  const atRisk = await repo.flagAtRisk(trx, now, 100, [h.id]);
  if (opts.announce === false) return;
  await announce(trx, now, 'breached', breached);
  await announce(trx, now, 'at_risk', atRisk);
}

/**
 * GET /api/jobs/{uuid}/hazard: the hazard of a visible job with its statutory clocks.
 * @throws 404 "Job not found" (not visible), "Hazard not found" (the job carries none)
 */
export async function getHazard(deps: AppDeps, auth: AuthContext, jobUuid: string): Promise<HazardDto> {
  const job = await visibleJob(deps.db, auth, jobUuid);
  const h = await repo.findHazardOfJob(deps.db, job.id);
  if (!h) throw notFound('Hazard');
  return hazardDto(deps.db, h, job.uuid, deps.clock.now());
}

/** @throws 400 `<name>` for an instant in the future or before `notBefore` */
function checkInstant(name: string, at: Date, now: Date, notBefore?: Date | null): void {
  if (at.getTime() > now.getTime()) throw invalidParam(`${name} (in the future)`);
  if (notBefore && at.getTime() < notBefore.getTime()) throw invalidParam(`${name} (before ${notBefore.toISOString()})`);
}

/**
 * PUT /api/jobs/{uuid}/hazard: marks the job as carrying a hazard, or changes its category,
 * severity, description, moment of awareness or further works. The clocks follow at once; clocks
 * already met or breached keep their outcome.
 * The moment of awareness defaults to the tenant's report (the job's creation): a hazard flagged
 * later still runs from the report (SI 2025/1042: the periods run from when the landlord became
 * aware). A person who sets another moment states why (awareness_reason, kept and shown).
 * @param input category (HHSRS code), severity, description?, reported_at? (ISO instant, the
 *   moment of awareness; not in the future), awareness_reason? (1..1000 characters; required
 *   when reported_at is not the report's time), further_works_required? (boolean, default true),
 *   further_works_reason? (why beginning further works within 5 working days is not reasonably
 *   practicable: the 12-week limit applies; null clears it), works_working_days? (kept, unused)
 * @returns { hazard, created }
 * @throws 400 a bad field or a missing awareness_reason; 403 not a staff member who may write the
 *   job; 404 job not visible
 */
export async function setHazard(deps: AppDeps, auth: AuthContext, actor: Actor, jobUuid: string, input: SetHazardInput) {
  const { id: jobId, result } = await withLockedJob(deps, auth, jobUuid, async (trx, job, now) => {
    assertStaffMayWrite(auth, job);
    const ctx = await repo.scopeContext(trx, job.id);
    const reportAt = new Date(ctx!.reported_at);
    const reportedAt = input.reported_at !== undefined ? new Date(input.reported_at) : undefined;
    if (reportedAt) checkInstant('reported_at', reportedAt, now);
    const reason = input.awareness_reason?.trim() || null;
    const differs = reportedAt !== undefined && reportedAt.getTime() !== reportAt.getTime();
    const existing = await repo.findHazardOfJob(trx, job.id);
    const changesAwareness = differs && (!existing || new Date(existing.reported_at).getTime() !== reportedAt.getTime());
    if (changesAwareness && !reason) throw invalidParam('awareness_reason (required when reported_at is not the time of the tenant\'s report)');
    const furtherReason = input.further_works_reason === undefined ? undefined : input.further_works_reason?.trim() || null;
    let hazardId: number;
    let hazardUuid: string;
    if (!existing) {
      const settings = await repo.agencyHazardSettings(trx, job.agency_id);
      hazardUuid = newUuid();
      hazardId = await repo.insertHazard(trx, {
        uuid: hazardUuid, agency_id: job.agency_id, job_id: job.id, category: input.category, severity: input.severity, description: input.description ?? '',
        reported_at: reportedAt ?? reportAt, awareness_reason: differs ? reason : null,
        further_works_required: input.further_works_required ?? true, further_works_reason: furtherReason ?? null,
        works_working_days: input.works_working_days ?? settings?.hazard_works_working_days ?? 60,
        created_by_user_id: auth.userId, created_at: now, updated_at: now,
      });
    } else {
      const firstMilestone = [existing.made_safe_at, existing.investigated_at].find((x) => x !== null);
      if (reportedAt && firstMilestone && reportedAt.getTime() > new Date(firstMilestone).getTime()) throw invalidParam('reported_at (after a recorded milestone)');
      hazardId = existing.id;
      hazardUuid = existing.uuid;
      await repo.updateHazard(trx, existing.id, {
        category: input.category, severity: input.severity,
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(reportedAt ? { reported_at: reportedAt, awareness_reason: differs ? (reason ?? existing.awareness_reason) : null } : {}),
        ...(input.further_works_required !== undefined ? { further_works_required: input.further_works_required } : {}),
        ...(furtherReason !== undefined ? { further_works_reason: furtherReason } : {}),
        ...(input.works_working_days !== undefined ? { works_working_days: input.works_working_days } : {}),
      }, now);
    }
    await recomputeHazardClocks(trx, hazardId, job.id, now);
    if (!existing || existing.category !== input.category || existing.severity !== input.severity) {
      await emitEvent(trx, now, { name: 'hazard.reported', agencyId: job.agency_id, payload: { ...jobRef(job), hazard_uuid: hazardUuid, category: input.category, severity: input.severity } });
    }
    await recordActivity(trx, actor, now, {
      action: existing ? 'hazard.update' : 'hazard.create', resourceType: 'job', resourceId: job.id, agencyId: job.agency_id,
      details: {
        hazard_uuid: hazardUuid, category: input.category, severity: input.severity,
        ...(changesAwareness ? { aware_at: reportedAt.toISOString(), awareness_reason: reason } : {}),
      },
    });
    return { created: !existing };
  });
  const h = await repo.findHazardOfJob(deps.db, jobId);
  return { hazard: await hazardDto(deps.db, h!, jobUuid, deps.clock.now()), created: result.created };
}

/** Which severity records which milestone, and what must come first. */
const MILESTONES = {
  made_safe: { column: 'made_safe_at', recorded: 'made_safe_recorded_at', severity: 'emergency', after: null },
  investigated: { column: 'investigated_at', recorded: 'investigated_recorded_at', severity: 'significant', after: null },
  works_started: { column: 'works_started_at', recorded: 'works_started_recorded_at', severity: 'significant', after: 'investigated_at' },
  further_works_started: { column: 'further_works_started_at', recorded: 'further_works_started_recorded_at', severity: 'significant', after: 'investigated_at' },
  works_completed: { column: 'works_completed_at', recorded: 'works_completed_recorded_at', severity: 'significant', after: 'works_started_at' },
} as const;

/**
 * POST /api/jobs/{uuid}/hazard/milestones: records that the hazard was made safe (emergency),
 * investigated, that its relevant safety work was done, its further works begun, or its works
 * completed (significant); stops the clock. The milestone keeps both times: `at`, when it
 * happened, decides the clock; the time of the request is when it was recorded.
 * @param input milestone, at? (ISO instant, default now; not in the future, not before the
 *   moment of awareness or the milestone it follows)
 * @throws 400 a bad field; 403; 404 job or hazard; 409 milestone already recorded, not one of the
 *   hazard's severity, or its predecessor not recorded yet
 */
export async function recordMilestone(deps: AppDeps, auth: AuthContext, actor: Actor, jobUuid: string, input: MilestoneInput): Promise<HazardDto> {
  const { id: jobId } = await withLockedJob(deps, auth, jobUuid, async (trx, job, now) => {
    assertStaffMayWrite(auth, job);
    const h = await repo.findHazardOfJob(trx, job.id);
    if (!h) throw notFound('Hazard');
    const m = MILESTONES[input.milestone];
    if (m.severity !== h.severity) throw conflict(`A ${h.severity} hazard has no milestone ${input.milestone}`);
    if (h[m.column] !== null) throw conflict(`Milestone ${input.milestone} is already recorded`);
    const prior = m.after ? d(h[m.after]) : new Date(h.reported_at);
    if (m.after && !prior) throw conflict(`Record ${m.after.replace('_at', '')} first`);
    const at = input.at !== undefined ? new Date(input.at) : now;
    checkInstant('at', at, now, prior);
    if (input.milestone === 'further_works_started' && !h.further_works_required) throw conflict('The hazard needs no further works');
    await repo.updateHazard(trx, h.id, { [m.column]: at, [m.recorded]: now }, now);
    await recomputeHazardClocks(trx, h.id, job.id, now);
    await recordActivity(trx, actor, now, {
      action: `hazard.${input.milestone}`, resourceType: 'job', resourceId: job.id, agencyId: job.agency_id, details: { hazard_uuid: h.uuid, at: at.toISOString(), recorded_at: now.toISOString() },
    });
  });
  const h = await repo.findHazardOfJob(deps.db, jobId);
  return hazardDto(deps.db, h!, jobUuid, deps.clock.now());
}

/**
 * POST /api/jobs/{uuid}/hazard/summary: issues the written summary of the investigation to the
 * tenant (template `hazard.summary`, through messaging after commit, whatever the tenant's
 * consents and preferences: a statutory notice) and keeps the rendered copy on the job. The
 * summary clock stops only when it reaches the tenant (summary-delivery.ts: an e-mail or SMS sent,
 * or a letter posted).
 * @param input findings, actions (plain text, 1..4000 characters each)
 * @throws 400; 403; 404 job or hazard; 409 not a significant hazard, not investigated yet, summary
 *   already sent, or the job has no tenant to send it to
 */
export async function sendSummary(deps: AppDeps, auth: AuthContext, actor: Actor, jobUuid: string, input: SummaryInput): Promise<HazardDto> {
  const { id: jobId } = await withLockedJob(deps, auth, jobUuid, async (trx, job, now) => {
    assertStaffMayWrite(auth, job);
    const h = await repo.findHazardOfJob(trx, job.id);
    if (!h) throw notFound('Hazard');
    if (h.severity !== 'significant') throw conflict('Only a significant hazard has a written summary');
    if (h.investigated_at === null) throw conflict('Record investigated first');
    if (h.summary_sent_at !== null) throw conflict('The written summary was already sent');
    const ctx = await repo.summaryContext(trx, job.id);
    if (!ctx || ctx.tenant_id === null || ctx.erased_at !== null) throw conflict('The job has no tenant to send the summary to');
    await repo.updateHazard(trx, h.id, { summary_findings: input.findings, summary_actions: input.actions, summary_sent_at: now }, now);
    await recomputeHazardClocks(trx, h.id, job.id, now);
    const copy = await renderHazardSummary(trx, job.agency_id, job.id, deps.config.mail.publicUrl);
    await repo.updateHazard(trx, h.id, { summary_text: copy ? `${copy.subject}\n\n${copy.text}` : '' }, now);
    const eventId = await emitEvent(trx, now, { name: 'hazard.summary_sent', agencyId: job.agency_id, payload: { ...jobRef(job), hazard_uuid: h.uuid } });
    await repo.updateHazard(trx, h.id, { summary_event_id: eventId }, now);
    await recordActivity(trx, actor, now, {
      action: 'hazard.summary_sent', resourceType: 'job', resourceId: job.id, agencyId: job.agency_id, details: { hazard_uuid: h.uuid },
    });
  });
  const h = await repo.findHazardOfJob(deps.db, jobId);
  return hazardDto(deps.db, h!, jobUuid, deps.clock.now());
}

/**
 * GET /api/hazards/breaches: statutory clocks of the jobs the caller sees, at risk and breached
 * by default, by deadline.
 * @returns { rows, total }
 */
export async function listHazardBreaches(deps: AppDeps, auth: AuthContext, q: HazardBreachesInput) {
  const now = deps.clock.now();
  const { rows, total } = await repo.listHazardClocks(deps.db, jobScope(auth), {
    states: q.state ? [q.state] : ['at_risk', 'breached'], severity: q.severity, limit: q.limit, offset: q.offset,
  });
  return {
    total,
    rows: rows.map((r) => ({
      ...clockDto(r as unknown as repo.HazardClockRow, now),
      hazard_uuid: r.hazard_uuid, category: r.category, category_name: hazardName(r.category), severity: r.severity,
      job_uuid: r.job_uuid, reference: r.reference, title: r.title, branch_uuid: r.branch_uuid, branch_name: r.branch_name,
      address: r.line1 ? `${r.line1}, ${r.town} ${r.postcode}` : null,
    })),
  };
}

/**
 * POST /api/jobs/{uuid}/hazard/summary/posted: the written summary was posted to the property.
 * @param input posted_at? (ISO instant, default now)
 * @returns the hazard
 * @throws as recordSummaryPosted (400, 403, 404, 409)
 */
export async function postSummary(deps: AppDeps, auth: AuthContext, actor: Actor, jobUuid: string, input: { posted_at?: string | undefined }): Promise<HazardDto> {
  const jobId = await recordSummaryPosted(deps, auth, actor, jobUuid, input, (trx, hazardId, id, now) => recomputeHazardClocks(trx, hazardId, id, now));
  const h = await repo.findHazardOfJob(deps.db, jobId);
  return hazardDto(deps.db, h!, jobUuid, deps.clock.now());
}

/**
 * GET /api/jobs/{uuid}/hazard/summary/letter: the written summary as a printable PDF letter
 * addressed to the property (staff who may write the job).
 * @returns { fileName, body } the PDF
 * @throws 403; 404 job or hazard; 409 no summary issued yet
 */
export async function summaryLetterPdf(deps: AppDeps, auth: AuthContext, jobUuid: string): Promise<{ fileName: string; body: Buffer }> {
  const job = await visibleJob(deps.db, auth, jobUuid);
  assertStaffMayWrite(auth, job);
  const letter = await summaryLetter(deps, auth, jobUuid);
  return { fileName: letter.fileName, body: await renderSummaryLetter(letter) };
}

/** Clocks moved per transaction by the scan. */
export const HAZARD_SCAN_BATCH = 500;

/**
 * One scan (the periodic task `hazards.scan`): breaches first, then at-risk clocks, in batches,
 * each its own transaction; the conditional updates make two scans at once flag each clock once.
 * @returns how many clocks moved to each state
 */
export async function scanHazardClocks(deps: AppDeps, batch = HAZARD_SCAN_BATCH): Promise<{ breached: number; at_risk: number }> {
  await scanSummaryDeliveries(deps, (trx, hazardId, jobId, at) => recomputeHazardClocks(trx, hazardId, jobId, at), batch);
  const now = deps.clock.now();
  const moved = { breached: 0, at_risk: 0 };
  for (const state of ['breached', 'at_risk'] as const) {
    for (;;) {
      const n = await deps.db.transaction().execute(async (trx) => {
        const flagged = state === 'breached' ? await repo.flagBreached(trx, now, batch) : await repo.flagAtRisk(trx, now, batch);
        await announce(trx, now, state, flagged);
        return flagged.length;
      });
      moved[state] += n;
      if (n < batch) break;
    }
  }
  return moved;
}

/**
 * GET /api/hazards/settings: the agency's hazard settings.
 * @returns { works_working_days, private_rented_policy }
 * @throws 403 without an agency (SysOps)
 */
export async function getHazardSettings(deps: AppDeps, auth: AuthContext): Promise<HazardSettingsDto> {
  const settings = await repo.agencyHazardSettings(deps.db, writeAgency(auth));
  return { works_working_days: settings?.hazard_works_working_days ?? 60, private_rented_policy: settings?.hazard_private_rented_policy ?? false };
}

/**
 * PUT /api/hazards/settings: whether the agency applies the timescales to its private rented
 * properties in England as policy (docs/compliance.md "Scope"); the clocks of its hazards follow at
 * once (on: they start, from each moment of awareness; off: running clocks stop being kept,
 * outcomes already met or breached stay). works_working_days is kept and no longer used.
 * @param input private_rented_policy? (boolean), works_working_days? (1..260)
 * @returns { works_working_days, private_rented_policy }
 * @throws 400 an empty body; 403 without an agency
 */
export async function updateHazardSettings(deps: AppDeps, auth: AuthContext, actor: Actor, input: UpdateHazardSettingsInput): Promise<HazardSettingsDto> {
  const agencyId = writeAgency(auth);
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    if (input.works_working_days !== undefined) await repo.setWorksWorkingDays(trx, agencyId, input.works_working_days, now);
    if (input.private_rented_policy !== undefined) {
      await repo.setPrivateRentedPolicy(trx, agencyId, input.private_rented_policy, now);
      for (const h of await repo.hazardsOfAgency(trx, agencyId)) await recomputeHazardClocks(trx, h.id, h.job_id, now);
    }
    await recordActivity(trx, actor, now, { action: 'hazard.settings', resourceType: 'agency', resourceId: agencyId, agencyId, details: { ...input } });
  });
  return getHazardSettings(deps, auth);
}

/** Wire shape of a property's scope. */
async function propertyScopeDto(db: DbOrTrx, agencyId: number, address: { id: number; uuid: string; postcode: string }) {
  const stored = await repo.propertyScope(db, address.id);
  const settings = await repo.agencyHazardSettings(db, agencyId);
  const fromPostcode = nationOfPostcode(address.postcode);
  const nation: Nation = (stored?.nation as Nation | null | undefined) ?? fromPostcode ?? 'england';
  const tenure: Tenure = (stored?.tenure as Tenure | undefined) ?? 'private_rented';
  const scope = hazardScope({ nation, tenure, privateRentedPolicy: settings?.hazard_private_rented_policy ?? false });
  return {
    address_uuid: address.uuid, tenure, nation, nation_from: stored?.nation ? 'stated' as const : fromPostcode ? 'postcode' as const : 'assumed' as const,
    stated: stored !== undefined, scope, scope_text: SCOPE_TEXT[scope],
  };
}

/**
 * GET /api/hazards/properties/{uuid}/scope: the Awaab's Law scope of a property of the agency.
 * @returns { address_uuid, tenure, nation, nation_from, stated, scope, scope_text }
 * @throws 403 without an agency; 404 "Property not found" (another agency's too)
 */
export async function getPropertyScope(deps: AppDeps, auth: AuthContext, addressUuid: string) {
  const agencyId = writeAgency(auth);
  const address = await repo.agencyAddress(deps.db, agencyId, addressUuid);
  if (!address) throw notFound('Property');
  return propertyScopeDto(deps.db, agencyId, address);
}

/**
 * PUT /api/hazards/properties/{uuid}/scope: states a property's tenure (social housing or private
 * rented) and, optionally, its nation (for a postcode that straddles a border); the clocks of its
 * hazards follow at once.
 * @param input tenure, nation? (null: from the postcode)
 * @returns the property's scope, as GET
 * @throws 400 a bad field; 403 without an agency; 404 "Property not found"
 */
export async function setPropertyScope(deps: AppDeps, auth: AuthContext, actor: Actor, addressUuid: string, input: PropertyScopeInput) {
  const agencyId = writeAgency(auth);
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    const address = await repo.agencyAddress(trx, agencyId, addressUuid);
    if (!address) throw notFound('Property');
    await repo.upsertPropertyScope(trx, { address_id: address.id, agency_id: agencyId, tenure: input.tenure, nation: input.nation ?? null, updated_by_user_id: auth.userId, updated_at: now });
    for (const h of await repo.hazardsAtAddress(trx, address.id)) await recomputeHazardClocks(trx, h.id, h.job_id, now);
    await recordActivity(trx, actor, now, {
      action: 'hazard.property_scope', resourceType: 'address', resourceId: address.id, agencyId, details: { tenure: input.tenure, nation: input.nation ?? null },
    });
    return propertyScopeDto(trx, agencyId, address);
  });
}
