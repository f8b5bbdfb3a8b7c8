/**
 * Visits booked by the people involved (docs/tenant-reporting.md "Booking the visit"). The tenant
 * gives availability windows; the assigned contractor books a timed slot inside one through the
 * booking move (POST /api/jobs/{uuid}/assignment/booking with starts_at and ends_at), or the
 * tenant picks one of the contractor's free slots; a booking that overlaps another booking of the
 * contractor is refused (409). Free slots are offered on working days only (no weekend, no bank
 * holiday of the agency's UK region). The day before, both are reminded (`job.visit_reminder`,
 * through the outbox and messaging), never inside the SMS quiet hours. A missed visit is recorded with who missed it (the tenant not in, or
 * the contractor not coming): the job goes back to Assigned with a history row, and the
 * contractor's scorecard counts it. Times are instants in UTC on the wire and London time for
 * people ("Thu 26 Nov 2026, 09:00-12:00").
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { AppError, conflict, forbidden } from '../../../core/errors.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { emitEvent, type PeriodicTask } from '../../../events/index.ts';
import { newUuid } from '../../../lib/crypto.ts';
import { addDays, formatLondonSpan, londonDate, londonToUtc } from '../../../lib/london-time.ts';
import { smsSendAt } from '../../messaging/sms/index.ts';
import { isWorkingDate, loadAgencySettings } from '../sla/index.ts';
import { assertStaffMayWrite, jobDtoById, jobRef, moveJob, partyOf, visibleJob, withLockedJob } from './job-rules.ts';
import type { LockedJob } from './jobs.repository.ts';
import type { JobDto } from './jobs.schemas.ts';
import { STATUS, STATUS_NAMES } from './lifecycle.ts';
import * as repo from './visits.repository.ts';

/** The rules of windows and slots (docs/tenant-reporting.md "Booking the visit"). */
export const VISIT_RULES = {
  /** Most windows a job holds. */
  maxWindows: 6,
  /** Windows and slots end at most this many days ahead. */
  horizonDays: 60,
  /** Shortest window and slot, minutes. */
  minMinutes: 60,
  /** Longest window and slot, hours. */
  maxHours: 12,
  /** Days ahead (from tomorrow) over which the contractor's free slots are offered. */
  freeSlotDays: 14,
} as const;

/** Statuses in which the tenant may give windows (before the work starts). */
const WINDOW_STATUSES = new Set<number>([STATUS.reported, STATUS.awaitingApproval, STATUS.approved, STATUS.assigned, STATUS.scheduled]);
const BOOKABLE = new Set<number>([STATUS.assigned, STATUS.scheduled]);

/** A span of time given by instants. */
export interface Span { starts_at: Date; ends_at: Date }

const bad = (message: string) => new AppError('bad_request', message);
const label = (s: { starts_at: Date | string; ends_at: Date | string }) => formatLondonSpan(new Date(s.starts_at), new Date(s.ends_at));
const iso = (d: Date | string) => new Date(d).toISOString();
const overlaps = (a: Span, b: Span) => a.starts_at < b.ends_at && b.starts_at < a.ends_at;

/**
 * What is wrong with one window or slot, or null: it must end after it starts, last 60 minutes to
 * 12 hours, start in the future and end within 60 days.
 * @returns the rule it breaks, as a sentence naming the span; null when it keeps them all
 */
function spanProblem(what: string, s: Span, now: Date): string | null {
  if (Number.isNaN(s.starts_at.getTime()) || Number.isNaN(s.ends_at.getTime())) return `The ${what} needs starts_at and ends_at as ISO 8601 instants`;
  const t = `The ${what} ${label(s)} `;
  if (s.ends_at <= s.starts_at) return `${t}ends before it starts`;
  const minutes = (s.ends_at.getTime() - s.starts_at.getTime()) / 60_000;
  if (minutes < VISIT_RULES.minMinutes) return `${t}is shorter than ${VISIT_RULES.minMinutes} minutes`;
  if (minutes > VISIT_RULES.maxHours * 60) return `${t}is longer than ${VISIT_RULES.maxHours} hours`;
  if (s.starts_at <= now) return `${t}is not in the future`;
  if (s.ends_at.getTime() > now.getTime() + VISIT_RULES.horizonDays * 86_400_000) return `${t}ends more than ${VISIT_RULES.horizonDays} days ahead`;
  return null;
}

/**
 * Checks one window or slot (spanProblem).
 * @throws 400 naming the span and the rule it breaks
 */
function checkSpan(what: string, s: Span, now: Date): void {
  const problem = spanProblem(what, s, now);
  if (problem !== null) throw bad(problem);
}

/** Whether a slot lies inside one of the tenant's windows (any slot does when there are none). */
const insideWindows = (slot: Span, windows: Span[]) => windows.length === 0 || windows.some((w) => w.starts_at <= slot.starts_at && slot.ends_at <= w.ends_at);

/**
 * The windows as given, checked: at most 6, each as checkSpan, none overlapping another.
 * @returns the windows, earliest first
 * @throws 400 naming the rule broken
 */
export function checkWindows(input: { starts_at: string; ends_at: string }[], now: Date): Span[] {
  if (input.length > VISIT_RULES.maxWindows) throw bad(`At most ${VISIT_RULES.maxWindows} windows`);
  const spans = input.map((w) => ({ starts_at: new Date(w.starts_at), ends_at: new Date(w.ends_at) }));
  for (const s of spans) checkSpan('window', s, now);
  spans.sort((a, b) => a.starts_at.getTime() - b.starts_at.getTime());
  for (let i = 1; i < spans.length; i++) {
    if (overlaps(spans[i - 1]!, spans[i]!)) throw bad(`The windows ${label(spans[i - 1]!)} and ${label(spans[i]!)} overlap`);
  }
  return spans;
}

/** Who gives windows: the job's tenant (own account), staff who may write the job, or the tenant's signed link. */
export type WindowSource = 'tenant' | 'staff' | 'link';

function isJobsTenant(auth: AuthContext, job: { tenant_id: number | null; reported_by_user_id: number | null }): boolean {
  return auth.tenantId !== null && (job.tenant_id === auth.tenantId || job.reported_by_user_id === auth.userId);
}

/**
 * Replaces the job's windows inside the caller's transaction (the job locked).
 * @throws 403 not the job's tenant nor staff who may write it, 409 the job's work has started or ended, 400 a window rule
 */
async function putWindows(trx: DbOrTrx, auth: AuthContext, job: LockedJob, input: { starts_at: string; ends_at: string }[], source: WindowSource, now: Date): Promise<void> {
  if (source === 'staff') assertStaffMayWrite(auth, job);
  else if (!isJobsTenant(auth, job)) throw forbidden('Only the tenant of the job (or its agent) gives the windows');
  if (!WINDOW_STATUSES.has(job.status_id)) throw conflict(`Windows are given before the work starts; this job is ${STATUS_NAMES[job.status_id]}`);
  const spans = checkWindows(input, now);
  await repo.replaceWindows(trx, job, spans.map((s) => ({ uuid: newUuid(), ...s })), { given_by: source, user_id: source === 'link' ? null : auth.userId }, now);
}

/**
 * PUT /api/jobs/{uuid}/visit/windows: the tenant (or staff on its behalf) replaces the job's
 * availability windows; an empty list removes them. A booked visit stays as it is.
 * @returns the visit plan after the change
 * @throws 400 a window rule (naming it), 403 another party, 404 job, 409 the work has started
 */
export async function setWindows(deps: AppDeps, auth: AuthContext, uuid: string, windows: { starts_at: string; ends_at: string }[], source: WindowSource = partyOf(auth) === 'staff' ? 'staff' : 'tenant') {
  await withLockedJob(deps, auth, uuid, (trx, job, now) => putWindows(trx, auth, job, windows, source, now));
  return visitPlan(deps, auth, uuid);
}

/**
 * The contractor's bookings on its other jobs as spans, between two London dates: timed visits,
 * and dates whose slot has hours. A date booked without hours blocks nothing (its time is unknown).
 */
async function busySpans(db: DbOrTrx, contractorId: number, jobId: number, fromDate: string, toDate: string) {
  const rows = await repo.contractorBookings(db, contractorId, jobId, fromDate, toDate);
  const out: (Span & { reference: string })[] = [];
  for (const r of rows) {
    if (r.starts_at !== null && r.ends_at !== null) out.push({ reference: r.reference, starts_at: new Date(r.starts_at), ends_at: new Date(r.ends_at) });
    else if (r.scheduled_for !== null && r.range_starts && r.range_ends) {
      const date = new Date(r.scheduled_for).toISOString().slice(0, 10);
      out.push({ reference: r.reference, starts_at: londonToUtc(date, r.range_starts), ends_at: londonToUtc(date, r.range_ends) });
    }
  }
  return out;
}

/**
 * The contractor's free slots for a job, each one the tenant can book: the agency's slots with
 * hours (GET /api/jobs/time-ranges) on each working day from tomorrow (London) for 14 days, less
 * those overlapping another booking of the contractor and the job's own booked visit, less those
 * that break a slot rule (spanProblem: 1 to 12 hours, within 60 days) and, when the tenant has
 * given windows, those not inside one (bookTimedVisit refuses them all, so none is offered). A working day is Monday to Friday and not a
 * bank holiday of the agency's UK region (agencies.uk_region), read from the SLA calendar
 * (isWorkingDate, the one holiday calendar): Fri 25 Dec 2026 and Mon 28 Dec 2026 are offered
 * nowhere, Mon 4 Jan 2027 (the substitute for 2 January) is offered in England but not in Scotland.
 */
async function freeSlots(db: DbOrTrx, job: { id: number; agency_id: number; contractor_id: number | null }, now: Date, windows: Span[]): Promise<Span[]> {
  if (job.contractor_id === null) return [];
  const first = addDays(londonDate(now), 1);
  const last = addDays(first, VISIT_RULES.freeSlotDays - 1);
  const [ranges, busy, own] = [await repo.slotsWithHours(db, job.agency_id), await busySpans(db, job.contractor_id, job.id, first, last), await repo.bookedVisit(db, job.id)];
  const region = (await loadAgencySettings(db, [job.agency_id])).get(job.agency_id)?.region ?? 'england-and-wales';
  const out: Span[] = [];
  for (let d = first; d <= last; d = addDays(d, 1)) {
    if (!isWorkingDate(d, region)) continue;
    for (const r of ranges) {
      const s = { starts_at: londonToUtc(d, r.starts_at!), ends_at: londonToUtc(d, r.ends_at!) };
      if (spanProblem('slot', s, now) !== null || !insideWindows(s, windows) || busy.some((b) => overlaps(b, s))) continue;
      if (own && new Date(own.starts_at).getTime() === s.starts_at.getTime() && new Date(own.ends_at).getTime() === s.ends_at.getTime()) continue;
      if (!out.some((o) => o.starts_at.getTime() === s.starts_at.getTime() && o.ends_at.getTime() === s.ends_at.getTime())) out.push(s);
    }
  }
  return out.sort((a, b) => a.starts_at.getTime() - b.starts_at.getTime() || a.ends_at.getTime() - b.ends_at.getTime());
}

/** The tenant's windows of a job, earliest first, with their London labels (the works-order link page). */
export async function visitWindows(db: DbOrTrx, jobId: number): Promise<{ uuid: string; starts_at: string; ends_at: string; label: string }[]> {
  return (await repo.listWindows(db, jobId)).map((w) => ({ uuid: w.uuid, starts_at: iso(w.starts_at), ends_at: iso(w.ends_at), label: label(w) }));
}

/** Who books a timed visit: the assigned contractor, or the tenant picking a free slot. */
export type Booker = 'contractor' | 'tenant';

/**
 * Books a timed visit on the locked job (the caller's transaction): checks the slot (as a window,
 * and inside one of the tenant's windows when there are any; for the tenant, one of the
 * contractor's free slots), refuses an overlap with the contractor's other bookings, moves the job
 * to Scheduled through the booking move (history, activity, SLA), replaces the booked visit and
 * emits `job.visit_booked` with the times.
 * @throws 400 a slot rule, 409 not Assigned or Scheduled, no contractor, or the contractor is booked then
 */
export async function bookTimedVisit(trx: DbOrTrx, auth: AuthContext, actor: Actor, now: Date, job: LockedJob, input: { starts_at: string; ends_at: string }, by: Booker): Promise<void> {
  if (!BOOKABLE.has(job.status_id) || job.contractor_id === null) throw conflict(`Only an Assigned or Scheduled job can be booked; this one is ${STATUS_NAMES[job.status_id]}`);
  const slot = { starts_at: new Date(input.starts_at), ends_at: new Date(input.ends_at) };
  checkSpan('slot', slot, now);
  const windows = (await repo.listWindows(trx, job.id)).map((w) => ({ starts_at: new Date(w.starts_at), ends_at: new Date(w.ends_at) }));
  if (!insideWindows(slot, windows)) {
    throw bad(`The slot ${label(slot)} is outside the tenant's windows: ${windows.map(label).join('; ')}`);
  }
  await repo.lockContractor(trx, job.contractor_id);
  if (by === 'tenant') {
    const free = await freeSlots(trx, job, now, windows);
    if (!free.some((f) => f.starts_at.getTime() === slot.starts_at.getTime() && f.ends_at.getTime() === slot.ends_at.getTime())) {
      const taken = (await busySpans(trx, job.contractor_id, job.id, londonDate(slot.starts_at), londonDate(slot.ends_at))).some((b) => overlaps(b, slot));
      if (taken) throw conflict(`The contractor is no longer free ${label(slot)}: pick another slot`);
      throw bad(`${label(slot)} is not one of the contractor's free slots (GET /api/jobs/{uuid}/visit)`);
    }
  } else {
    const clash = (await busySpans(trx, job.contractor_id, job.id, londonDate(slot.starts_at), londonDate(slot.ends_at))).find((b) => overlaps(b, slot));
    if (clash) throw conflict(`You already have a visit ${label(clash)} (job ${clash.reference}); ${label(slot)} overlaps it`);
  }
  const date = londonDate(slot.starts_at);
  await moveJob(trx, auth, actor, now, job, {
    to: STATUS.scheduled,
    via: 'booking',
    action: 'job.visit_book',
    note: `Visit booked by the ${by} for ${label(slot)}`,
    set: { scheduled_for: new Date(`${date}T00:00:00Z`), time_range_id: null },
  });
  await repo.supersedeVisit(trx, job.id, now);
  const uuid = newUuid();
  await repo.insertVisit(trx, {
    uuid, agency_id: job.agency_id, job_id: job.id, contractor_id: job.contractor_id, starts_at: slot.starts_at, ends_at: slot.ends_at,
    booked_by: by, state: 'booked', created_at: now, updated_at: now,
  });
  await emitEvent(trx, now, {
    name: 'job.visit_booked',
    agencyId: job.agency_id,
    payload: {
      ...jobRef(job), contractor_id: job.contractor_id, time_range_id: null, scheduled_for: `${date}T00:00:00.000Z`,
      visit_uuid: uuid, starts_at: slot.starts_at.toISOString(), ends_at: slot.ends_at.toISOString(), booked_by: by,
    },
  });
}

/** Marks the job's booked timed visit as moved (a booking by date, a reassignment or a decline replaced it). */
export function supersedeTimedVisit(trx: DbOrTrx, jobId: number, now: Date): Promise<void> {
  return repo.supersedeVisit(trx, jobId, now);
}

/**
 * POST /api/jobs/{uuid}/visit/choice: the job's tenant picks one of the contractor's free slots;
 * the visit is booked as by the contractor (bookTimedVisit).
 * @returns the job after the booking
 * @throws 400 not a free slot or a slot rule, 403 not the job's tenant, 404, 409 not bookable or the slot was just taken
 */
export async function chooseSlot(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, input: { starts_at: string; ends_at: string }): Promise<JobDto> {
  if (partyOf(auth) !== 'tenant') throw forbidden('Only the tenant of the job picks a slot');
  const { id } = await withLockedJob(deps, auth, uuid, async (trx, job, now) => {
    if (!isJobsTenant(auth, job)) throw forbidden('Only the tenant of the job picks a slot');
    await bookTimedVisit(trx, auth, actor, now, job, input, 'tenant');
  });
  return jobDtoById(deps.db, auth, id);
}

/** Who missed a visit: the tenant (nobody in, no access) or the contractor (did not come). */
export type MissedBy = 'tenant' | 'contractor';

const MISSED_TEXT: Record<MissedBy, string> = { tenant: 'the tenant was not in (no access)', contractor: 'the contractor did not come (no-show)' };

/**
 * POST /api/jobs/{uuid}/visit/missed: records that the booked visit was missed and by whom. The
 * contractor records the tenant's no-access, the tenant the contractor's no-show, staff either.
 * The visit is kept as missed, the job goes back to Assigned (a history row naming who missed it)
 * and `job.visit_missed` is emitted (the tenant gets a new link to give windows).
 * @returns the job after the move
 * @throws 403 a party recording itself or another job's party, 404, 409 no booked visit, not
 *   Scheduled, or the visit has not started yet
 */
export async function recordMissedVisit(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, input: { missed_by: MissedBy; note?: string | undefined }): Promise<JobDto> {
  const party = partyOf(auth);
  const { id } = await withLockedJob(deps, auth, uuid, async (trx, job, now) => {
    if (party === 'contractor' && (job.contractor_id !== auth.contractorId || input.missed_by !== 'tenant')) throw forbidden('A contractor records the tenant\'s no-access');
    if (party === 'tenant' && (!isJobsTenant(auth, job) || input.missed_by !== 'contractor')) throw forbidden('A tenant records the contractor\'s no-show');
    if (party === 'staff') assertStaffMayWrite(auth, job);
    if (party === 'landlord') throw forbidden();
    if (job.status_id !== STATUS.scheduled) throw conflict(`A missed visit is recorded on a Scheduled job; this one is ${STATUS_NAMES[job.status_id]}`);
    const visit = await repo.bookedVisit(trx, job.id);
    if (!visit) throw conflict('The job has no booked visit with a time');
    if (new Date(visit.starts_at) > now) throw conflict(`The visit ${label(visit)} has not started yet`);
    const note = input.note?.trim() || null;
    await repo.markMissed(trx, visit.id, { missed_by: input.missed_by, note }, now);
    await moveJob(trx, auth, actor, now, job, {
      to: STATUS.assigned,
      via: 'missed',
      action: 'job.visit_missed',
      note: `Visit ${label(visit)} missed: ${MISSED_TEXT[input.missed_by]}${note ? `. ${note}` : ''}`,
      set: { scheduled_for: null, time_range_id: null },
    });
    await emitEvent(trx, now, {
      name: 'job.visit_missed',
      agencyId: job.agency_id,
      payload: {
        ...jobRef(job), contractor_id: job.contractor_id!, visit_uuid: visit.uuid, missed_by: input.missed_by,
        starts_at: new Date(visit.starts_at).toISOString(), ends_at: new Date(visit.ends_at).toISOString(),
      },
    });
  });
  return jobDtoById(deps.db, auth, id);
}

/**
 * GET /api/jobs/{uuid}/visit: the job's visit plan as the caller may see it: the tenant's
 * windows, the booked visit, the contractor's free slots (while the job is bookable), the missed
 * visits (the note not for tenants) and the rules.
 * @throws 404 job
 */
export async function visitPlan(deps: AppDeps, auth: AuthContext, uuid: string) {
  const job = await visibleJob(deps.db, auth, uuid);
  const now = deps.clock.now();
  return planOf(deps.db, { id: job.id, agency_id: job.agency_id, contractor_id: job.contractor_id, status_id: job.status_id, uuid: job.uuid, reference: job.reference, title: job.title, contractor_name: job.contractor_name ?? null }, now, partyOf(auth) !== 'tenant');
}

/** The visit plan of a job (visitPlan; also the tenant's link page). */
export async function planOf(
  db: DbOrTrx,
  job: { id: number; agency_id: number; contractor_id: number | null; status_id: number; uuid: string; reference: string; title: string; contractor_name: string | null },
  now: Date,
  internal: boolean,
) {
  const [windows, visits] = [await repo.listWindows(db, job.id), await repo.listVisits(db, job.id)];
  const booked = visits.find((v) => v.state === 'booked');
  const span = (s: { starts_at: Date | string; ends_at: Date | string }) => ({ starts_at: iso(s.starts_at), ends_at: iso(s.ends_at), label: label(s) });
  return {
    job_uuid: job.uuid, reference: job.reference, title: job.title, status_id: job.status_id, status: STATUS_NAMES[job.status_id] ?? String(job.status_id),
    contractor_name: job.contractor_name,
    windows: windows.map((w) => ({ uuid: w.uuid, ...span(w), given_by: w.given_by })),
    visit: booked && job.status_id === STATUS.scheduled ? { uuid: booked.uuid, ...span(booked), booked_by: booked.booked_by, reminder_sent_at: booked.reminder_sent_at ? iso(booked.reminder_sent_at) : null } : null,
    free_slots: BOOKABLE.has(job.status_id) ? (await freeSlots(db, job, now, windows.map((w) => ({ starts_at: new Date(w.starts_at), ends_at: new Date(w.ends_at) })))).map(span) : [],
    missed: visits.filter((v) => v.state === 'missed').map((v) => ({ uuid: v.uuid, ...span(v), missed_by: v.missed_by!, note: internal ? v.missed_note : null, missed_at: iso(v.missed_at!) })),
    rules: { max_windows: VISIT_RULES.maxWindows, horizon_days: VISIT_RULES.horizonDays, min_minutes: VISIT_RULES.minMinutes, max_hours: VISIT_RULES.maxHours },
  };
}

/**
 * The tenant's actions by signed link (docs/tenant-reporting.md "The tenant's link"): give
 * windows or pick a free slot as the job's tenant. `auth` is the link's tenant identity (recorded
 * under an agency user, tenantId the job's tenant).
 * @throws as setWindows and chooseSlot
 */
export async function actAsLinkTenant(deps: AppDeps, auth: AuthContext, actor: Actor, jobUuid: string, input: { action: 'windows'; windows: { starts_at: string; ends_at: string }[] } | { action: 'choose'; starts_at: string; ends_at: string }): Promise<void> {
  if (input.action === 'windows') {
    await withLockedJob(deps, auth, jobUuid, (trx, job, now) => putWindows(trx, auth, job, input.windows, 'link', now));
    return;
  }
  await chooseSlot(deps, auth, actor, jobUuid, input);
}

/**
 * One reminder scan: every booked visit of a Scheduled job starting tomorrow (London date) whose
 * reminder is not sent gets `job.visit_reminder` (messaging tells the tenant and the contractor)
 * and is marked reminded in the same transaction, so each visit is reminded once. Nobody is
 * reminded at night: inside the SMS quiet hours (CARETAKER_SMS_QUIET_HOURS, London, default
 * 21:00-08:00; smsSendAt) the scan sends nothing and the first scan after them (08:35) does.
 * @returns the number of reminders emitted (0 inside the quiet hours)
 */
export async function sendVisitReminders(deps: AppDeps): Promise<number> {
  const now = deps.clock.now();
  if (smsSendAt(deps.config.sms, now, false).getTime() > now.getTime()) return 0;
  const tomorrow = addDays(londonDate(now), 1);
  return deps.db.transaction().execute(async (trx) => {
    let sent = 0;
    for (const v of await repo.dueReminders(trx, londonToUtc(tomorrow), londonToUtc(addDays(tomorrow, 1)))) {
      if (!(await repo.markReminded(trx, v.id, now))) continue;
      await emitEvent(trx, now, {
        name: 'job.visit_reminder',
        agencyId: v.agency_id,
        payload: {
          ...jobRef({ id: v.job_id, uuid: v.job_uuid, reference: v.reference, branch_id: v.branch_id }), contractor_id: v.contractor_id, visit_uuid: v.uuid,
          starts_at: iso(v.starts_at), ends_at: iso(v.ends_at),
        },
      });
      sent++;
    }
    return sent;
  });
}

/** `jobs.visit_reminders`, every hour at :35 (a reminder is due on the London day before the visit, outside the quiet hours). */
export const visitRemindersTask: PeriodicTask = {
  name: 'jobs.visit_reminders',
  cron: '35 * * * *',
  run: async (deps) => {
    await sendVisitReminders(deps);
  },
};
