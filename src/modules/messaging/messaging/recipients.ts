/**
 * Who hears about an event, and with which values (docs/messaging.md "Who receives what"). Every
 * lookup is bound to the event's agency: a record of another agency is as absent as a missing
 * one, so no message crosses agencies. Only active accounts receive messages; a tenant or
 * contractor without an account is written to at the e-mail address of their record.
 */
import type { DomainEvent } from '../../../events/index.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { formatLondonDateTime, londonDate, londonTime } from '../../../lib/london-time.ts';
import * as repo from './recipients.repository.ts';
import { formatLondonDate } from '../../../lib/london-time.ts';
import { hazardName, HAZARD_CLOCK_LABELS } from '../../../lib/hhsrs.ts';

/** One person a message goes to. */
export interface Recipient {
  /** `user:<id>`, or `tenant:<id>` / `contractor:<id>` for a record without an account. */
  key: string;
  kind: 'tenant' | 'contractor' | 'agent' | 'admin' | 'landlord';
  userId: number | null;
  email: string | null;
  name: string;
  /** The tenant record behind a tenant recipient (for the GDPR consent check). */
  tenantId: number | null;
}

/** One message kind to a set of recipients, with the values of its variables. */
export interface PlannedMessage {
  templateKey: string;
  recipients: Recipient[];
  /** Flat variable map without `recipient.name` (filled per recipient). */
  vars: Record<string, string | null>;
  /** Push data (string map). */
  data: Record<string, string>;
}

const STATUS_COMPLETED = 7;
const STATUS_CANCELLED = 10;

/** The tenant's active accounts, or the tenant record's address; nobody for an erased tenant. */
export async function tenantRecipients(db: DbOrTrx, agencyId: number, tenantId: number): Promise<Recipient[]> {
  const t = await repo.findTenantRecord(db, agencyId, tenantId);
  if (!t || t.erased_at !== null) return [];
  const users = await repo.activeUsersOf(db, agencyId, { tenantId });
  if (users.length > 0) return users.map((u) => ({ key: `user:${u.id}`, kind: 'tenant', userId: u.id, email: u.email, name: u.name, tenantId }));
  return t.email ? [{ key: `tenant:${t.id}`, kind: 'tenant', userId: null, email: t.email, name: t.name, tenantId }] : [];
}

/** The contractor's active accounts, or the contractor record's address. */
export async function contractorRecipients(db: DbOrTrx, agencyId: number, contractorId: number): Promise<Recipient[]> {
  const c = await repo.findContractorRecord(db, agencyId, contractorId);
  if (!c) return [];
  const users = await repo.activeUsersOf(db, agencyId, { contractorId });
  if (users.length > 0) return users.map((u) => ({ key: `user:${u.id}`, kind: 'contractor', userId: u.id, email: u.email, name: u.name, tenantId: null }));
  return c.email ? [{ key: `contractor:${c.id}`, kind: 'contractor', userId: null, email: c.email, name: c.contact_name ?? c.company_name, tenantId: null }] : [];
}

/** Active agents of one branch (built-in role `agent`). */
export async function branchAgents(db: DbOrTrx, agencyId: number, branchId: number): Promise<Recipient[]> {
  const users = await repo.activeUsersOf(db, agencyId, { role: 'agent', branchId });
  return users.map((u) => ({ key: `user:${u.id}`, kind: 'agent', userId: u.id, email: u.email, name: u.name, tenantId: null }));
}

/**
 * Who hears of a job's SLA clock at risk or breached (docs/messaging.md "SLA notices and
 * digests"): the people responsible, that is the job's owning agent when it has one (an active
 * user of the agency), else the active agents of the job's branch; and anyone who asked for the
 * kind (a stored e-mail mode `immediate` or `digest`) among the branch's agents and the agency's
 * administrators. Nobody twice.
 */
export async function slaRecipients(db: DbOrTrx, agencyId: number, job: { branch_id: number; agent_user_id: number | null }, key: string): Promise<Recipient[]> {
  const owner = job.agent_user_id !== null ? await repo.activeUsersOf(db, agencyId, { userId: job.agent_user_id }) : [];
  const responsible: Recipient[] = owner.length > 0
    ? owner.map((u) => ({ key: `user:${u.id}`, kind: 'agent', userId: u.id, email: u.email, name: u.name, tenantId: null }))
    : await branchAgents(db, agencyId, job.branch_id);
  const out = [...responsible];
  const seen = new Set(out.map((r) => r.userId));
  for (const u of await repo.optedInStaff(db, agencyId, job.branch_id, key)) {
    if (seen.has(u.id)) continue;
    seen.add(u.id);
    out.push({ key: `user:${u.id}`, kind: u.role_code === 'admin' ? 'admin' : 'agent', userId: u.id, email: u.email, name: u.name, tenantId: null });
  }
  return out;
}

/** Active administrators of the agency (built-in role `admin`). */
export async function agencyAdmins(db: DbOrTrx, agencyId: number): Promise<Recipient[]> {
  const users = await repo.activeUsersOf(db, agencyId, { role: 'admin' });
  return users.map((u) => ({ key: `user:${u.id}`, kind: 'admin', userId: u.id, email: u.email, name: u.name, tenantId: null }));
}

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
/** `Wednesday 25 November 2026` for a visit date (UTC day; the same on every ICU version). */
const visitDate = {
  format: (d: Date) => `${DAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`,
};

/** `visit.date` and `visit.slot` of a timed visit: its London date and hours ("09:00-12:00"). */
function timedVisitVars(startsAt: string, endsAt: string): Record<string, string> {
  const start = new Date(startsAt);
  return { 'visit.date': visitDate.format(new Date(`${londonDate(start)}T12:00:00Z`)), 'visit.slot': `${londonTime(start)}-${londonTime(new Date(endsAt))}` };
}

type JobContext = NonNullable<Awaited<ReturnType<typeof repo.loadJob>>>;

/** A job's priority as people read it (docs/messaging.md): "Emergency", "Urgent", "Routine", "Low", "Planned"; never its number. */
export function priorityWords(priority: number): string {
  return ['Emergency', 'Urgent', 'Routine', 'Low', 'Planned'][priority - 1] ?? 'Routine';
}

export function jobVars(job: JobContext, publicUrl: string): Record<string, string | null> {
  return {
    'agency.name': job.agency_name,
    'job.reference': job.reference,
    'job.title': job.title,
    'job.address': job.line1 ? [job.line1, job.town, job.postcode].join(', ') : '',
    'job.status': job.status,
    'job.priority': priorityWords(job.priority),
    'job.url': `${publicUrl}/jobs/${job.uuid}`,
    'contractor.name': job.company_name ?? '',
    'visit.date': job.scheduled_for ? visitDate.format(new Date(job.scheduled_for)) : '',
    'visit.slot': job.range_label ?? '',
  };
}

/**
 * The variables of the written summary of a hazard (template `hazard.summary`): category name,
 * severity, investigation date and the last London dates of the statutory periods to begin and
 * complete the works (a period ends at London midnight, so its last day is the day before).
 */
export function hazardSummaryVars(h: NonNullable<Awaited<ReturnType<typeof repo.loadHazard>>>): Record<string, string | null> {
  return {
    'hazard.name': hazardName(h.category),
    'hazard.severity': h.severity,
    'hazard.investigated_on': h.investigated_at ? formatLondonDate(new Date(h.investigated_at)) : '',
    'hazard.findings': h.summary_findings ?? '',
    'hazard.actions': h.summary_actions ?? '',
    'hazard.works_start_by': h.works_start_due ? formatLondonDate(new Date(new Date(h.works_start_due).getTime() - 1)) : '',
    // SI 2025/1042 reg. 13: further works begin by their deadline and are completed within a reasonable period (no date).
    'hazard.further_works_by': h.further_works_due ? formatLondonDate(new Date(new Date(h.further_works_due).getTime() - 1)) : '',
    'hazard.further_works_text': h.further_works_due
      ? `Further work to stop it coming back will begin by ${formatLondonDate(new Date(new Date(h.further_works_due).getTime() - 1))} and be completed within a reasonable time.`
      : '',
    // Kept for agencies' saved templates: completion has no statutory date, so none is promised.
    'hazard.works_complete_by': '',
  };
}

/**
 * The messages an event causes (none for events no template answers, or for a job that is gone
 * or of another agency).
 * @param db the handler's transaction
 * @param publicUrl base of the links (CARETAKER_PUBLIC_URL)
 */
export async function planMessages(db: DbOrTrx, event: DomainEvent, publicUrl: string): Promise<PlannedMessage[]> {
  const agencyId = event.agencyId;
  if (agencyId === null) return [];
  const p = event.payload as Record<string, unknown>;
  if (event.name === 'contractor.certificate_expiring') {
    const cert = await repo.loadCertification(db, agencyId, Number(p.certification_id));
    if (!cert) return [];
    const vars = {
      'agency.name': cert.agency_name, 'contractor.name': cert.company_name, 'certificate.type': cert.cert_type, 'certificate.reference': cert.reference,
      'certificate.expires_on': formatLondonDate(new Date(`${String(p.expires_on).slice(0, 10)}T12:00:00Z`)), 'contractor.url': `${publicUrl}/contractors/${cert.uuid}`,
    };
    return [{ templateKey: 'contractor.certificate_expiring', recipients: await agencyAdmins(db, agencyId), vars, data: { contractor_uuid: cert.uuid } }];
  }
  if (event.name === 'compliance.certificate_expiring') {
    const item = await repo.loadComplianceItem(db, agencyId, Number(p.item_id));
    if (!item) return [];
    const vars = {
      'agency.name': item.agency_name, 'property.address': `${item.line1}, ${item.town} ${item.postcode}`, 'compliance.item': item.type_name,
      'compliance.expires_on': formatLondonDate(new Date(`${String(p.expires_on)}T12:00:00Z`)), 'compliance.days_left': String(p.days_left),
      'compliance.url': `${publicUrl}/compliance/${item.uuid}`,
    };
    const data = { item_uuid: item.uuid };
    const agents = item.branch_id !== null ? await branchAgents(db, agencyId, item.branch_id) : [];
    const landlords: Recipient[] = (await repo.landlordsOfAddress(db, agencyId, item.address_id)).flatMap((l) =>
      l.email ? [{ key: `landlord:${l.id}`, kind: 'landlord' as const, userId: null, email: l.email, name: l.name, tenantId: null }] : []);
    return [
      { templateKey: 'compliance.expiring', recipients: agents, vars, data: { ...data, kind: 'compliance.expiring' } },
      { templateKey: 'compliance.expiring_landlord', recipients: landlords, vars, data: { ...data, kind: 'compliance.expiring_landlord' } },
    ].filter((m) => m.recipients.length > 0);
  }
  if (typeof p.job_id !== 'number') return [];
  const job = await repo.loadJob(db, agencyId, p.job_id);
  if (!job) return [];
  const vars = jobVars(job, publicUrl);
  const data = { job_uuid: job.uuid };
  const out: PlannedMessage[] = [];
  const add = (templateKey: string, recipients: Recipient[], extra: Record<string, string | null> = {}) =>
    out.push({ templateKey, recipients, vars: { ...vars, ...extra }, data: { ...data, kind: templateKey } });
  const tenants = () => (job.tenant_id !== null ? tenantRecipients(db, agencyId, job.tenant_id) : Promise.resolve([]));
  switch (event.name) {
    case 'job.created':
      add('job.received', await tenants());
      break;
    case 'job.assigned': {
      const contractorId = Number(p.contractor_id);
      const contractorVars = { 'visit.date': p.scheduled_for ? visitDate.format(new Date(String(p.scheduled_for))) : 'to be arranged', 'visit.slot': vars['visit.slot'] ?? '' };
      add('job.assigned', await contractorRecipients(db, agencyId, contractorId), contractorVars);
      if (p.scheduled_for) add('job.visit_booked', await tenants(), contractorVars);
      break;
    }
    case 'job.visit_booked': {
      // A timed visit (docs/tenant-reporting.md "Booking the visit") names its London hours as the slot.
      const timed = typeof p.starts_at === 'string' && typeof p.ends_at === 'string' ? timedVisitVars(p.starts_at, p.ends_at) : null;
      add('job.visit_booked', await tenants(), timed ?? { 'visit.date': visitDate.format(new Date(String(p.scheduled_for))) });
      if (timed && p.booked_by === 'tenant') add('job.visit_booked_contractor', await contractorRecipients(db, agencyId, Number(p.contractor_id)), timed);
      break;
    }
    case 'job.visit_reminder': {
      const timed = timedVisitVars(String(p.starts_at), String(p.ends_at));
      add('job.visit_reminder', await tenants(), timed);
      add('job.visit_reminder_contractor', await contractorRecipients(db, agencyId, Number(p.contractor_id)), timed);
      break;
    }
    case 'job.status_changed':
      if (p.to_status_id === STATUS_COMPLETED) add('job.completed', await tenants());
      if (p.to_status_id === STATUS_CANCELLED && job.contractor_id !== null) add('job.cancelled', await contractorRecipients(db, agencyId, job.contractor_id));
      break;
    case 'job.assignment_declined': {
      const c = await repo.findContractorRecord(db, agencyId, Number(p.contractor_id));
      add('job.assignment_declined', await branchAgents(db, agencyId, job.branch_id), { 'contractor.name': c?.company_name ?? '', 'decline.reason': (p.reason as string | null) ?? null });
      break;
    }
    case 'sla.at_risk':
    case 'sla.breached': {
      const rule = await repo.slaRuleDescription(db, agencyId, String(p.rule_uuid));
      add(event.name, await slaRecipients(db, agencyId, job, event.name), { 'sla.due_at': formatLondonDateTime(new Date(String(p.due_at))), 'sla.rule': rule?.description || `rule ${String(p.rule_uuid)}` });
      break;
    }
    case 'hazard.summary_sent': {
      const h = await repo.loadHazard(db, agencyId, job.id);
      if (h) add('hazard.summary', await tenants(), hazardSummaryVars(h));
      break;
    }
    case 'hazard.at_risk':
    case 'hazard.breached': {
      const h = await repo.loadHazard(db, agencyId, job.id);
      add(event.name, await branchAgents(db, agencyId, job.branch_id), {
        'hazard.name': h ? hazardName(h.category) : '', 'hazard.clock': HAZARD_CLOCK_LABELS[String(p.kind)] ?? String(p.kind),
        'hazard.due_at': formatLondonDateTime(new Date(String(p.due_at))),
      });
      break;
    }
    default:
      break;
  }
  return out.filter((m) => m.recipients.length > 0);
}
