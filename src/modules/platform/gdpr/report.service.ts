/**
 * The GDPR subject-access report of a tenant (docs/gdpr.md): the tenant record, login
 * accounts, addresses, jobs about them (without internal costs), notes shared with them,
 * conversation messages they wrote or that were written in their thread, their SMS log (the
 * numbers held with any STOP, the `sms_updates` consents, and the texts sent and received with
 * status and cost), consents and activity entries about them or by them; every row from the
 * tenant's own agency only; as JSON or as a zip holding report.json
 * and README.txt. Each export is logged as `tenant.gdpr_export`.
 */
import { isoOrNull as iso } from '../../../lib/fields.ts';
import type { AppDeps } from '../../../app-deps.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { addressesOfTenant } from '../../people/addresses/index.ts';
import { toAddressDto } from '../../people/addresses/index.ts';
import { getTenantRow, toTenantDto } from '../../people/tenants/index.ts';
import { consentsOfTenant } from './consents.repository.ts';
import { toConsentDto } from './consents.service.ts';
import * as repo from './report.repository.ts';
import { normalisePhone } from '../../messaging/sms/index.ts';


/**
 * Builds the report and logs the export.
 * @param format 'json' or 'zip' (recorded in the log entry)
 * @returns the report object (see docs/gdpr.md for its sections)
 * @throws 404 'Tenant not found'
 */
export async function buildReport(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, format: 'json' | 'zip') {
  const tenant = await getTenantRow(deps.db, auth, uuid);
  const users = await repo.usersOfTenant(deps.db, tenant.id);
  const userIds = users.map((u) => u.id);
  const [addresses, jobs, consents, activity] = await Promise.all([
    addressesOfTenant(deps.db, tenant.id),
    repo.jobsOfTenant(deps.db, tenant.id, userIds),
    consentsOfTenant(deps.db, tenant.id, userIds),
    repo.activityOfTenant(deps.db, tenant.id, userIds),
  ]);
  const notes = await repo.sharedNotes(deps.db, jobs.map((j) => j.id));
  const talk = await conversationsAndSms(deps, tenant.agency_id, { tenantId: tenant.id }, userIds, [tenant.mobile, tenant.phone]);
  const agency = await repo.agencyName(deps.db, tenant.agency_id);
  const now = deps.clock.now();
  const report = {
    generated_at: now.toISOString(),
    controller: agency.name,
    subject: toTenantDto(tenant),
    login_accounts: users.map((u) => ({
      uuid: u.uuid, name: u.name, email: u.email, role: u.role, status: u.status,
      created_at: iso(u.created_at), last_login_at: iso(u.last_login_at), disabled_at: iso(u.disabled_at),
    })),
    addresses: addresses.map(toAddressDto),
    jobs: jobs.map((j) => ({
      uuid: j.uuid, reference: j.reference, title: j.title, description: j.description, priority: j.priority, status: j.status,
      job_type: j.job_type,
      relation: j.tenant_id === tenant.id ? 'tenant' : j.reported_by_user_id !== null && userIds.includes(j.reported_by_user_id) ? 'reported' : 'address',
      address: j.line1 ? { line1: j.line1, town: j.town, postcode: j.postcode } : null,
      contractor: j.contractor,
      created_at: iso(j.created_at), scheduled_for: iso(j.scheduled_for), completed_at: iso(j.completed_at),
      closed_at: iso(j.closed_at), cancelled_at: iso(j.cancelled_at),
    })),
    notes: notes.map((n) => ({
      uuid: n.uuid, job_uuid: n.job_uuid, job_reference: n.job_reference, body: n.body, visibility: n.visibility,
      author: n.author, created_at: iso(n.created_at), edited_at: iso(n.edited_at),
    })),
    conversations: talk.conversations,
    sms: { ...talk.sms, consents: consents.filter((c) => c.purpose === 'sms_updates').map(toConsentDto) },
    consents: consents.map(toConsentDto),
    activity: activity.map((a) => ({
      ID: a.id, action: a.action, resource_type: a.resource_type, resource_id: a.resource_id, user_name: a.user_name,
      ip_address: a.ip_address, created_at: iso(a.created_at),
    })),
  };
  await recordActivity(deps.db, actor, now, {
    action: 'tenant.gdpr_export', resourceType: 'tenant', resourceId: tenant.id, agencyId: tenant.agency_id, details: { format },
  });
  return report;
}

export type GdprReport = Awaited<ReturnType<typeof buildReport>>;

/**
 * The `conversations` and `sms` sections of a person's report (docs/gdpr.md "Subject-access
 * report"), inside one agency: the messages they wrote or that were written in their thread
 * (with attached file names), and their SMS: each number held (E.164) with the date of any STOP
 * reply, the texts sent to them (kind, number, status, reason when suppressed, provider's error
 * code, segments, price in millionths of the currency unit) and the texts received from their
 * numbers. The text of a sent SMS is kept only while it waits to be sent (null afterwards).
 * @param phones the numbers of the person's record, as typed (normalised here; nulls skipped)
 */
export async function conversationsAndSms(deps: AppDeps, agencyId: number, who: repo.Subject, userIds: number[], phones: Array<string | null>) {
  const numbers = [...new Set(phones.map((p) => normalisePhone(p)).filter((p): p is string => p !== null))];
  const key = 'tenantId' in who ? `tenant:${who.tenantId}` : `landlord:${who.landlordId}`;
  const [messages, sent, received, optOuts] = await Promise.all([
    repo.conversationMessagesOf(deps.db, agencyId, who, userIds),
    repo.smsSentTo(deps.db, agencyId, key),
    repo.smsReceivedFrom(deps.db, agencyId, numbers),
    repo.optOutsOf(deps.db, numbers),
  ]);
  const files = await repo.messageFileNames(deps.db, messages.map((m) => m.id));
  const stop = new Map(optOuts.map((o) => [o.phone, o]));
  const textOf = (content: unknown): string | null => {
    const c = (typeof content === 'string' ? JSON.parse(content) : content) as { text?: unknown } | null;
    return c && typeof c.text === 'string' ? c.text : null;
  };
  const smsRows = [
    ...sent.map((d) => ({
      uuid: d.uuid, direction: 'outbound' as const, kind: d.template_key, to_number: d.recipient_address, from_number: d.from_number,
      status: d.provider_status ?? d.delivery_status, reason: d.reason, error_code: d.error_code, segments: d.segments,
      price_micros: d.price_micros === null ? null : Number(d.price_micros), price_currency: d.price_currency, body: textOf(d.content),
      created_at: iso(d.created_at)!, sent_at: iso(d.sent_at),
    })),
    ...received.map((r) => ({
      uuid: r.uuid, direction: 'inbound' as const, kind: null, to_number: r.to_number, from_number: r.from_number, status: r.status, reason: null,
      error_code: null, segments: null, price_micros: null, price_currency: null, body: r.body, created_at: iso(r.created_at)!, sent_at: null,
    })),
  ].sort((a, b) => a.created_at.localeCompare(b.created_at));
  return {
    conversations: messages.map((m) => ({
      uuid: m.uuid, job_uuid: m.job_uuid, job_reference: m.job_reference, thread: m.audience,
      written_by_subject: (m.author_user_id !== null && userIds.includes(m.author_user_id)) || m.author_key === key,
      author_kind: m.author_kind, author_name: m.author_name, channel: m.channel, body: m.body, urgent: m.urgent,
      files: files.filter((f) => f.message_id === m.id).map((f) => f.original_filename), created_at: iso(m.created_at),
    })),
    sms: {
      numbers: numbers.map((n) => ({ number: n, opted_out_at: iso(stop.get(n)?.opted_out_at ?? null), opt_out_keyword: stop.get(n)?.keyword ?? null })),
      messages: smsRows,
    },
  };
}

/** What every report starts with. */
export interface ReportHead {
  generated_at: string;
  controller: string;
}

/** The sections of a tenant's report, as README.txt lists them. */
export const TENANT_SECTIONS = `  subject         the tenant record
  login_accounts  user accounts linked to the tenant
  addresses       property addresses linked to the tenant
  jobs            repair jobs about the tenant (theirs, reported by them, or at their addresses)
  notes           notes on those jobs that were shared with the tenant
  conversations   messages the tenant wrote, and messages in the tenant thread of their jobs
  sms             the tenant's numbers (with any STOP reply), SMS consents, and the texts
                  sent to them and received from them, with status and cost
  consents        consents given and withdrawn, with time and source
  activity        audit-log entries about the tenant or made by their accounts`;

const README = (r: ReportHead, sections: string) => `Subject-access report
=====================

Data controller: ${r.controller}
Generated at:    ${r.generated_at} (UTC)

report.json holds everything the controller's Caretaker account keeps about the person:
${sections}

Times are ISO 8601 in UTC. Questions: contact the data controller named above.
`;

/**
 * A report as a zip archive (report.json, README.txt) in memory.
 * @param sections the README's list of the report's sections (default: a tenant's)
 */
export async function reportZip(report: ReportHead, sections: string = TENANT_SECTIONS): Promise<Buffer> {
  const { ZipArchive } = await import('archiver');
  const archive = new ZipArchive({ zlib: { level: 9 } });
  const chunks: Buffer[] = [];
  archive.on('data', (c: Buffer) => chunks.push(c));
  const finished = new Promise<void>((resolve, reject) => {
    archive.on('end', () => resolve());
    archive.on('error', reject);
  });
  const date = new Date(report.generated_at);
  archive.append(JSON.stringify(report, null, 2), { name: 'report.json', date });
  archive.append(README(report, sections), { name: 'README.txt', date });
  await archive.finalize();
  await finished;
  return Buffer.concat(chunks);
}
