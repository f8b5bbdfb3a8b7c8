/**
 * Planned maintenance (docs/compliance.md "Planned maintenance"): an agency's schedules, each an
 * RFC 5545 recurrence (recurrence.ts) for one property or for every property with an item of one
 * compliance type, with a lead time and the contractor who usually does it; the scheduler that
 * raises each occurrence's job `lead_days` ahead of its due date through the jobs module's system
 * entry point (raiseSystemJob: created, approved, assigned), once per occurrence whatever the
 * number of workers; and the link back: the first document uploaded on such a job becomes the
 * compliance item's certificate.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import type { DomainEvent, EventHandler, PeriodicTask, TaskLogger } from '../../../events/index.ts';
import { readAgency, writeAgency } from '../../../core/agency-scope.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { AppError, conflict, invalidParam, notFound } from '../../../core/errors.ts';
import { addDays, addMonths, humanDate, londonDate } from '../../../lib/london-time.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { findContractorRef, findVisibleTrade } from '../../people/contractors/index.ts';
import { raiseSystemJob, SYSTEM_ACTOR } from '../jobs/index.ts';
import * as compliance from './compliance.repository.ts';
import * as repo from './maintenance.repository.ts';
import type { CreateScheduleInput, ScheduleQueryInput, UpdateScheduleInput } from './maintenance.schemas.ts';
import { nextOccurrences, occurrencesBetween, parseRule } from './recurrence.ts';
import { copyToTenantDue, latestExpiry } from './regulations.ts';
import { cutGraphemes } from '../../../lib/text-cut.ts';

/** Job types of the raised jobs (table job_types): a compliance check, or planned maintenance. */
const JOB_TYPE_COMPLIANCE_CHECK = 5;
const JOB_TYPE_PLANNED = 3;
/** Raised occurrences shown in a schedule's read. */
const RAISED_SHOWN = 20;

const iso = (d: Date | string): string => new Date(d).toISOString();
const later = (a: string, b: string): string => (a > b ? a : b);

/** The next `n` occurrences of a live schedule from `today` (none for a retired one). */
function upcoming(s: repo.ScheduleRow, today: string, n: number) {
  if (s.retired_at !== null) return [];
  return nextOccurrences(s.rrule, s.starts_on, later(today, s.active_from), n).map((d) => ({ due_on: d, due_on_text: humanDate(d), raise_on: addDays(d, -s.lead_days) }));
}

/** Wire shape of a schedule with its next `n` occurrences. */
function toSchedule(s: repo.ScheduleRow, today: string, n: number) {
  return {
    uuid: s.uuid,
    title: s.title,
    description: s.description,
    address_uuid: s.address_uuid,
    address: s.line1 === null ? null : `${s.line1}, ${s.town} ${s.postcode}`,
    type: s.type_code,
    type_name: s.type_name,
    rrule: s.rrule,
    starts_on: s.starts_on,
    lead_days: s.lead_days,
    contractor_uuid: s.contractor_uuid,
    contractor_name: s.contractor_name,
    trade_id: s.trade_id,
    trade_name: s.trade_name,
    priority: s.priority,
    active_from: s.active_from,
    retired: s.retired_at !== null,
    next: upcoming(s, today, n),
    created_at: iso(s.created_at),
    updated_at: iso(s.updated_at),
  };
}

/**
 * The rule and start of a schedule checked together.
 * @returns the rule's normal form
 * @throws 400 with the reason (not a rule, more often than daily, DTSTART inside, never occurs)
 */
function checkedRule(rrule: string, startsOn: string): string {
  const parsed = parseRule(rrule, startsOn);
  if (!parsed.ok) throw new AppError('bad_request', parsed.reason);
  return parsed.text;
}

/** The contractor (404 outside the agency) and trade (400 when not visible to the agency) of a body. */
async function references(db: DbOrTrx, agencyId: number, input: { contractor_uuid?: string | null | undefined; trade_id?: number | null | undefined }) {
  let contractorId: number | null | undefined;
  if (input.contractor_uuid !== undefined) {
    contractorId = input.contractor_uuid === null ? null : (await findContractorRef(db, input.contractor_uuid, agencyId))?.id;
    if (contractorId === undefined) throw notFound('Contractor');
  }
  if (input.trade_id != null && !(await findVisibleTrade(db, agencyId, input.trade_id))) throw invalidParam('trade_id');
  return { contractorId };
}

/**
 * GET /api/compliance/schedules: one page of the agency's schedules, newest first, each with its
 * next three occurrences.
 * @param q state (active | retired | all, default active), address_uuid, type, contractor_uuid, limit, offset
 * @returns { rows, count }
 * @throws 404 "Property not found" / "Contractor not found" outside the caller's agency; 400 type unknown
 */
export async function listSchedules(deps: AppDeps, auth: AuthContext, q: ScheduleQueryInput) {
  const agencyId = readAgency(auth);
  const filter: repo.ScheduleFilter = { agencyId, state: q.state ?? 'active', limit: q.limit, offset: q.offset };
  if (q.address_uuid !== undefined) {
    const a = await compliance.findAddress(deps.db, agencyId, q.address_uuid);
    if (!a) throw notFound('Property');
    filter.addressId = a.id;
  }
  if (q.contractor_uuid !== undefined) {
    const c = await findContractorRef(deps.db, q.contractor_uuid, agencyId);
    if (!c) throw notFound('Contractor');
    filter.contractorId = c.id;
  }
  if (q.type !== undefined) {
    const t = agencyId === null ? undefined : await compliance.findType(deps.db, agencyId, q.type);
    if (!t) throw invalidParam('type');
    filter.typeId = t.id;
  }
  const { rows, count } = await repo.listSchedules(deps.db, filter);
  const today = londonDate(deps.clock.now());
  return { rows: rows.map((s) => toSchedule(s, today, 3)), count };
}

/**
 * GET /api/compliance/schedules/{uuid}: one schedule with its next five occurrences and the
 * latest twenty raised ones (job and certificate).
 * @throws 404 "Schedule not found" (missing or another agency's)
 */
export async function getSchedule(deps: AppDeps, auth: AuthContext, uuid: string) {
  const s = await repo.findSchedule(deps.db, readAgency(auth), uuid);
  if (!s) throw notFound('Schedule');
  const raised = await repo.occurrencesOf(deps.db, s.id, RAISED_SHOWN);
  return {
    ...toSchedule(s, londonDate(deps.clock.now()), 5),
    raised: raised.map((o) => ({
      due_on: o.due_on,
      raised_at: iso(o.created_at),
      address_uuid: o.address_uuid,
      address: `${o.line1}, ${o.town} ${o.postcode}`,
      job_uuid: o.job_uuid,
      job_reference: o.job_reference,
      job_status: o.job_status,
      item_uuid: o.item_uuid,
      certificate_uuid: o.certificate_uuid,
    })),
  };
}

/**
 * POST /api/compliance/schedules: a schedule for one property (address_uuid), for every property
 * with an item of a type (type alone), or for one property's item of a type (both: the item is
 * added to the property when it lacks it). Occurrences due before today are never raised.
 * @returns ScheduleDetail
 * @throws 400 address_uuid (neither it nor type), type (unknown), rrule (the reason), trade_id;
 *   403 without an agency; 404 property or contractor outside the agency; 409 a retired type
 */
export async function createSchedule(deps: AppDeps, auth: AuthContext, actor: Actor, input: CreateScheduleInput) {
  const agencyId = writeAgency(auth);
  if (input.address_uuid === undefined && input.type === undefined) throw invalidParam('address_uuid');
  await compliance.seedTypes(deps.db, agencyId, deps.clock.now());
  const address = input.address_uuid === undefined ? undefined : await compliance.findAddress(deps.db, agencyId, input.address_uuid);
  if (input.address_uuid !== undefined && !address) throw notFound('Property');
  const type = input.type === undefined ? undefined : await compliance.findType(deps.db, agencyId, input.type);
  if (input.type !== undefined && !type) throw invalidParam('type');
  if (type?.retired_at) throw conflict(`The compliance type ${type.code} is retired`);
  const rrule = checkedRule(input.rrule, input.starts_on);
  const { contractorId } = await references(deps.db, agencyId, input);
  const now = deps.clock.now();
  const uuid = await deps.db.transaction().execute(async (trx) => {
    if (address && type) await compliance.insertItem(trx, { agency_id: agencyId, address_id: address.id, type_id: type.id }, now);
    const s = await repo.insertSchedule(trx, {
      agency_id: agencyId, address_id: address?.id ?? null, type_id: type?.id ?? null, title: input.title.trim() || input.title,
      description: input.description ?? '', rrule, starts_on: input.starts_on, lead_days: input.lead_days, contractor_id: contractorId ?? null,
      trade_id: input.trade_id ?? null, priority: input.priority ?? 4, active_from: londonDate(now), created_by_user_id: auth.userId,
    }, now);
    await recordActivity(trx, actor, now, { action: 'maintenance_schedule.create', resourceType: 'maintenance_schedule', resourceId: s.id, agencyId, details: { rrule, lead_days: input.lead_days } });
    return s.uuid;
  });
  return getSchedule(deps, auth, uuid);
}

/**
 * PUT /api/compliance/schedules/{uuid}: changes the given fields of a live schedule. A new rrule
 * or starts_on applies from today: occurrences of the new rule due before today are not raised.
 * @returns ScheduleDetail
 * @throws 400 empty body, rrule, trade_id; 404 schedule or contractor; 409 a retired schedule
 */
export async function updateSchedule(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, input: UpdateScheduleInput) {
  const agencyId = writeAgency(auth);
  const fields = input;
  const names = Object.keys(fields);
  if (names.length === 0) throw invalidParam('body');
  const s = await repo.findSchedule(deps.db, agencyId, uuid);
  if (!s) throw notFound('Schedule');
  if (s.retired_at !== null) throw conflict('A retired schedule cannot be changed');
  const ruleChanged = fields.rrule !== undefined || fields.starts_on !== undefined;
  const rrule = ruleChanged ? checkedRule(fields.rrule ?? s.rrule, fields.starts_on ?? s.starts_on) : undefined;
  const { contractorId } = await references(deps.db, agencyId, fields);
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await repo.updateSchedule(trx, s.id, {
      ...(fields.title !== undefined ? { title: fields.title.trim() || fields.title } : {}),
      ...(fields.description !== undefined ? { description: fields.description } : {}),
      ...(rrule !== undefined ? { rrule, starts_on: fields.starts_on ?? s.starts_on, active_from: londonDate(now) } : {}),
      ...(fields.lead_days !== undefined ? { lead_days: fields.lead_days } : {}),
      ...(contractorId !== undefined ? { contractor_id: contractorId } : {}),
      ...(fields.trade_id !== undefined ? { trade_id: fields.trade_id } : {}),
      ...(fields.priority !== undefined ? { priority: fields.priority } : {}),
    }, now);
    await recordActivity(trx, actor, now, { action: 'maintenance_schedule.update', resourceType: 'maintenance_schedule', resourceId: s.id, agencyId, details: { fields: names } });
  });
  return getSchedule(deps, auth, uuid);
}

/**
 * DELETE /api/compliance/schedules/{uuid}: retires a schedule (no more jobs; its raised
 * occurrences, jobs and certificates stay). Retiring a retired schedule changes nothing.
 * @returns ScheduleDetail
 * @throws 404 "Schedule not found"
 */
export async function retireSchedule(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string) {
  const agencyId = writeAgency(auth);
  const s = await repo.findSchedule(deps.db, agencyId, uuid);
  if (!s) throw notFound('Schedule');
  if (s.retired_at === null) {
    const now = deps.clock.now();
    await deps.db.transaction().execute(async (trx) => {
      await repo.updateSchedule(trx, s.id, { retired_at: now }, now);
      await recordActivity(trx, actor, now, { action: 'maintenance_schedule.retire', resourceType: 'maintenance_schedule', resourceId: s.id, agencyId });
    });
  }
  return getSchedule(deps, auth, uuid);
}

/**
 * The due dates of a schedule to raise on `today`: those from the later of starts_on and
 * active_from up to today plus the lead time. Of the ones already past (a worker was down on
 * their raise date) only the latest is raised, late; the older ones are left.
 */
export function duesToRaise(s: { rrule: string; starts_on: string; active_from: string; lead_days: number }, today: string): string[] {
  const dues = occurrencesBetween(s.rrule, s.starts_on, later(s.starts_on, s.active_from), addDays(today, s.lead_days));
  const past = dues.filter((d) => d < today);
  return [...past.slice(-1), ...dues.filter((d) => d >= today)];
}

/** The raised job's description: the schedule's own text, the due date and what to bring back. */
function jobDescription(s: repo.ScheduleRow, due: string): string {
  const lines = [
    s.description.trim(),
    `Planned maintenance "${s.title}", due ${humanDate(due)} (schedule ${s.rrule}, raised ${s.lead_days} days ahead).`,
    s.required_document ? `Upload the certificate as a document on this job: ${s.required_document}.` : '',
  ];
  return lines.filter((l) => l !== '').join('\n\n');
}

/**
 * One scan of the scheduler on today's London date: for every live schedule, every property it
 * covers and every due date to raise (duesToRaise), claims the occurrence and raises its job in
 * one transaction, so two scans at once (two workers, two instances) raise one job per
 * occurrence. A failure (the agency has no open branch, say) rolls that occurrence back and is
 * tried again on the next scan; the others go on.
 * @returns the number of jobs raised
 */
export async function raiseDueMaintenance(deps: AppDeps, log?: TaskLogger): Promise<number> {
  const now = deps.clock.now();
  const today = londonDate(now);
  let raised = 0;
  for (const s of await repo.liveSchedules(deps.db)) {
    const dues = duesToRaise(s, today);
    if (dues.length === 0) continue;
    const targets = await repo.targetsOf(deps.db, s);
    const done = await repo.raisedPairs(deps.db, s.id, dues);
    for (const target of targets) {
      for (const due of dues) {
        if (done.has(`${target.address_id}/${due}`)) continue;
        try {
          if (await raiseOccurrence(deps, s, target, due)) raised++;
        } catch (err) {
          log?.error({ schedule: s.uuid, address_id: target.address_id, due_on: due, err: (err as Error).message }, 'maintenance job not raised');
        }
      }
    }
  }
  if (raised > 0) log?.info({ raised }, 'maintenance jobs raised');
  return raised;
}

/** Claims one occurrence and raises its job; false when another scan raised it first. */
async function raiseOccurrence(deps: AppDeps, s: repo.ScheduleRow, target: repo.Target, due: string): Promise<boolean> {
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    const id = await repo.claimOccurrence(trx, { agency_id: s.agency_id, schedule_id: s.id, address_id: target.address_id, item_id: target.item_id, due_on: due }, now);
    if (id === undefined) return false;
    const job = await raiseSystemJob(deps, trx, {
      agencyId: s.agency_id,
      addressId: target.address_id,
      title: cutGraphemes(`${s.title} (due ${humanDate(due)})`, 200),
      description: jobDescription(s, due),
      priority: s.priority,
      jobTypeId: s.type_id !== null ? JOB_TYPE_COMPLIANCE_CHECK : JOB_TYPE_PLANNED,
      tradeId: s.trade_id,
      contractorId: s.contractor_id,
      approvalNote: `Approved by maintenance schedule "${s.title}"`,
    });
    await repo.setOccurrenceJob(trx, id, job.id);
    await recordActivity(trx, SYSTEM_ACTOR, now, {
      action: 'maintenance_schedule.raise', resourceType: 'maintenance_schedule', resourceId: s.id, agencyId: s.agency_id, userName: 'system',
      details: { job_id: job.id, reference: job.reference, due_on: due, address_id: target.address_id, assigned: job.assign_error === null && s.contractor_id !== null, assign_error: job.assign_error },
    });
    return true;
  });
}

/** `compliance.maintenance`: the scheduler, every hour at :35 (a due date is a London date), and once at a worker's start. */
export const maintenanceTask: PeriodicTask = {
  name: 'compliance.maintenance',
  cron: '35 * * * *',
  runAtStart: true,
  run: async (deps, log) => {
    await raiseDueMaintenance(deps, log);
  },
};

/**
 * Takes the first document uploaded on a job raised for a compliance item as the item's
 * certificate: issued on the upload's London date, expiring after the type's interval, issued by
 * the job's contractor, held by that file. Later documents on the job add nothing (record another
 * certificate through POST /api/compliance/items/{uuid}/certificates).
 * @returns the certificate's uuid, or null when the job is not such a job or already gave one
 */
export async function certificateFromJobDocument(trx: DbOrTrx, event: { jobId: number; fileId: number; agencyId: number }, now: Date): Promise<string | null> {
  const o = await repo.occurrenceAwaitingCertificate(trx, event.jobId);
  if (!o) return null;
  const file = await repo.jobDocument(trx, event.jobId, event.fileId);
  if (!file) return null;
  const issued = londonDate(new Date(file.created_at));
  // The gas safety record's 2-month rule and the 5-year EICR apply here too (docs/compliance.md "The rules").
  const previous = await compliance.latestCertificate(trx, o.item_id!);
  const previousExpiry = previous && previous.expires_on !== null && String(previous.issued_on).slice(0, 10) < issued ? String(previous.expires_on).slice(0, 10) : null;
  const expires = latestExpiry(o.type_code, issued, previousExpiry) ?? (o.interval_months ? addMonths(issued, o.interval_months) : null);
  const cert = await compliance.insertCertificate(trx, {
    agency_id: o.agency_id, item_id: o.item_id!, issued_on: issued, expires_on: expires, reference: o.reference,
    contractor_id: o.contractor_id, job_id: o.job_id, job_file_id: file.id, created_by_user_id: null,
    tenant_copy_due_on: copyToTenantDue(o.type_code, issued),
  }, now);
  await repo.setOccurrenceCertificate(trx, o.id, cert.id);
  await recordActivity(trx, SYSTEM_ACTOR, now, {
    action: 'compliance_certificate.create', resourceType: 'compliance_item', resourceId: o.item_id!, agencyId: o.agency_id, userName: 'system',
    details: { certificate_uuid: cert.uuid, issued_on: issued, expires_on: expires, job_id: o.job_id, file: file.original_filename },
  });
  return cert.uuid;
}

/** `compliance.maintenance_certificate`: on `job.file_added` of a document, certificateFromJobDocument. */
export const maintenanceCertificateHandler: EventHandler = {
  name: 'compliance.maintenance_certificate',
  events: ['job.file_added'],
  handle: async (event: DomainEvent, ctx) => {
    const p = event.payload as { job_id: number; file_id: number; kind: string };
    if (p.kind !== 'document' || event.agencyId === null) return;
    await certificateFromJobDocument(ctx.trx, { jobId: p.job_id, fileId: p.file_id, agencyId: event.agencyId }, ctx.deps.clock.now());
  },
};
