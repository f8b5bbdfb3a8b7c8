/**
 * The GDPR subject-access report of a tenant (docs/gdpr.md "Subject-access report"): every record
 * that names or is about them (the sections of TENANT_SECTIONS; which table feeds which section is
 * SAR_COVERAGE in sar-coverage.ts), with exemptions applied to single items and listed with their
 * ground; every row from the tenant's own agency only; as JSON, as a readable PDF, or as a zip
 * (report.json, tables/<section>.json, report.pdf, files/, README.txt). Each export is logged as
 * `tenant.gdpr_export`.
 */
import { isoOrNull as iso } from '../../../lib/fields.ts';
import type { AppDeps } from '../../../app-deps.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { addressesOfTenant } from '../../people/addresses/index.ts';
import { toAddressDto } from '../../people/addresses/index.ts';
import { getTenantRow, toTenantDto, type TenantRow } from '../../people/tenants/index.ts';
import { AppError, conflict, notFound } from '../../../core/errors.ts';
import { newUuid } from '../../../lib/crypto.ts';
import { EXEMPTIBLE_SECTIONS, EXEMPTION_GROUNDS, applyExemptions, groundOf, itemRef, type AppliedExemption } from './exemptions.ts';
import { consentsOfTenant } from './consents.repository.ts';
import { toConsentDto } from './consents.service.ts';
import * as repo from './report.repository.ts';
import type { FileStore } from '../../../storage/index.ts';
import { formatLondonDateTime } from '../../../lib/london-time.ts';
import { normalisePhone } from '../../messaging/sms/index.ts';


const badRequest = (message: string) => new AppError('bad_request', message);

/** A file of the report: its row in the `files` section and where its bytes are. */
export interface ReportFile {
  uuid: string;
  name: string;
  storageKey: string;
}

/**
 * Gathers the report of a tenant (no logging): every record that names or is about them, with
 * the exemptions applied to single items (docs/gdpr.md "Subject-access report").
 * @returns the report and the files whose bytes the zip carries (exempted files left out)
 */
export async function gatherReport(deps: AppDeps, tenant: TenantRow) {
  const users = await repo.usersOfTenant(deps.db, tenant.id);
  const userIds = users.map((u) => u.id);
  const [addresses, jobs, consents] = await Promise.all([
    addressesOfTenant(deps.db, tenant.id),
    repo.jobsOfTenant(deps.db, tenant.id, userIds),
    consentsOfTenant(deps.db, tenant.id, userIds),
  ]);
  const relation = (j: (typeof jobs)[number]) =>
    j.tenant_id === tenant.id ? 'tenant' : j.reported_by_user_id !== null && userIds.includes(j.reported_by_user_id) ? 'reported' : 'address';
  const aboutIds = jobs.filter((j) => relation(j) !== 'address').map((j) => j.id);
  const atAddressIds = jobs.filter((j) => relation(j) === 'address').map((j) => j.id);
  const [notes, files, deliveries, hazards, visits, reports, account, activity, exemptions, retained, history, tenancies] = await Promise.all([
    repo.notesOf(deps.db, aboutIds, atAddressIds),
    repo.filesOf(deps.db, tenant.agency_id, aboutIds, userIds),
    repo.deliveriesTo(deps.db, tenant.agency_id, `tenant:${tenant.id}`, userIds),
    repo.hazardsOf(deps.db, jobs.map((j) => j.id)),
    repo.visitsOf(deps.db, tenant.id, aboutIds),
    repo.reportsAndSurveys(deps.db, tenant.id, userIds),
    repo.accountRecords(deps.db, userIds),
    repo.activityOfTenant(deps.db, tenant.id, userIds, aboutIds),
    repo.exemptionsOf(deps.db, tenant.id),
    repo.retainedOf(deps.db, 'tenant', tenant.id),
    repo.statusHistoryOf(deps.db, aboutIds),
    repo.tenanciesOf(deps.db, tenant.id),
  ]);
  const talk = await conversationsAndSms(deps, tenant.agency_id, { tenantId: tenant.id }, userIds, [tenant.mobile, tenant.phone]);
  const agency = await repo.agencyName(deps.db, tenant.agency_id);
  const applied: AppliedExemption[] = exemptions.map((e) => {
    const g = groundOf(e.ground);
    return {
      uuid: e.uuid, section: e.section, record_ref: e.record_ref, ground: e.ground, ground_title: g?.title ?? e.ground, source: g?.source ?? '',
      reason: e.reason, applied_by: e.applied_by, applied_at: iso(e.created_at)!,
    };
  });
  const report = {
    generated_at: deps.clock.now().toISOString(),
    controller: agency.name,
    subject: toTenantDto(tenant),
    login_accounts: users.map((u) => ({
      uuid: u.uuid, name: u.name, email: u.email, role: u.role, status: u.status,
      created_at: iso(u.created_at), last_login_at: iso(u.last_login_at), disabled_at: iso(u.disabled_at),
    })),
    addresses: addresses.map(toAddressDto),
    jobs: jobs.map((j) => ({
      uuid: j.uuid, reference: j.reference, title: j.title, description: j.description, priority: j.priority, status: j.status,
      job_type: j.job_type, relation: relation(j),
      address: j.line1 ? { line1: j.line1, town: j.town, postcode: j.postcode } : null,
      contractor: j.contractor,
      created_at: iso(j.created_at), scheduled_for: iso(j.scheduled_for), completed_at: iso(j.completed_at),
      closed_at: iso(j.closed_at), cancelled_at: iso(j.cancelled_at),
      history: history.filter((h) => h.job_id === j.id).map((h) => ({
        from: h.from_status, to: h.to_status, by: h.by, by_subject: h.by_user_id !== null && userIds.includes(h.by_user_id), note: h.note, at: iso(h.created_at),
      })),
    })),
    notes: notes.map((n) => ({
      uuid: n.uuid, job_uuid: n.job_uuid, job_reference: n.job_reference, body: n.body, visibility: n.visibility,
      author: n.author, created_at: iso(n.created_at), edited_at: iso(n.edited_at),
    })),
    files: files.map((f) => ({
      uuid: f.uuid, job_uuid: f.job_uuid, job_reference: f.job_reference, kind: f.kind, file_name: f.original_filename, description: f.description,
      mime: f.mime, size_bytes: f.size_bytes, sha256: f.sha256, internal: f.internal,
      sent_by_subject: f.uploaded_by_user_id !== null && userIds.includes(f.uploaded_by_user_id), created_at: iso(f.created_at),
      zip_path: `files/${f.uuid}-${f.original_filename}`,
    })),
    messages: deliveries.map((d) => ({
      uuid: d.uuid, channel: d.channel, kind: d.template_key, event: d.event_name, to: d.recipient_address, subject: d.subject, status: d.status,
      reason: d.reason, attempts: d.attempts, created_at: iso(d.created_at), sent_at: iso(d.sent_at),
    })),
    conversations: talk.conversations,
    sms: { ...talk.sms, consents: consents.filter((c) => c.purpose === 'sms_updates').map(toConsentDto) },
    hazards: hazards.hazards.map((h) => ({
      uuid: h.uuid, job_uuid: h.job_uuid, job_reference: h.job_reference, category: h.category, severity: h.severity, description: h.description,
      reported_at: iso(h.reported_at), awareness_reason: h.awareness_reason, scope: h.scope, made_safe_at: iso(h.made_safe_at),
      investigated_at: iso(h.investigated_at), works_started_at: iso(h.works_started_at), works_completed_at: iso(h.works_completed_at),
      summary_findings: h.summary_findings, summary_actions: h.summary_actions, summary_text: h.summary_text, summary_sent_at: iso(h.summary_sent_at),
      summary_delivered_at: iso(h.summary_delivered_at), summary_delivery_method: h.summary_delivery_method,
      clocks: hazards.clocks.filter((c) => c.hazard_id === h.id).map((c) => ({
        kind: c.kind, state: c.state, started_at: iso(c.started_at), due_at: iso(c.due_at), stopped_at: iso(c.stopped_at), breached_at: iso(c.breached_at),
      })),
      created_at: iso(h.created_at),
    })),
    visits: [
      ...visits.windows.map((w) => ({ uuid: w.uuid, type: 'window', job_reference: w.job_reference, starts_at: iso(w.starts_at), ends_at: iso(w.ends_at), given_by: w.given_by, state: null, missed_by: null, note: null, created_at: iso(w.created_at) })),
      ...visits.visits.map((v) => ({ uuid: v.uuid, type: 'visit', job_reference: v.job_reference, starts_at: iso(v.starts_at), ends_at: iso(v.ends_at), given_by: v.booked_by, state: v.state, missed_by: v.missed_by, note: v.missed_note, created_at: iso(v.created_at) })),
      ...visits.links.map((l) => ({ uuid: l.uuid, type: 'booking_link', job_reference: l.job_reference, starts_at: null, ends_at: iso(l.expires_at), given_by: null, state: l.used_action ?? (l.used_at ? 'used' : 'unused'), missed_by: null, note: null, created_at: iso(l.created_at) })),
    ],
    tenancies: tenancies.tenancies.map((y) => ({
      uuid: y.uuid, kind: y.kind, starts_on: y.starts_on, ends_on: y.ends_on, address: { line1: y.line1, town: y.town, postcode: y.postcode },
      created_at: iso(y.created_at),
      served: tenancies.served.filter((d) => d.tenancy_id === y.id).map((d) => ({
        uuid: d.uuid, document: d.document, guide_edition: d.guide_edition, served_on: d.served_on, method: d.method, proof_note: d.proof_note,
        proof_file: d.proof_file_mime !== null, created_at: iso(d.created_at),
      })),
    })),
    repair_reports: reports.reports.map((r) => ({
      uuid: r.uuid, job_reference: r.job_reference, answers: typeof r.answers === 'string' ? JSON.parse(r.answers) : r.answers, outcome: r.outcome,
      description: r.description, created_at: iso(r.created_at),
    })),
    surveys: reports.surveys.map((v) => ({
      uuid: v.uuid, job_reference: v.job_reference, rating: v.rating, comment: v.comment, answered_at: iso(v.answered_at), expires_at: iso(v.expires_at), created_at: iso(v.created_at),
    })),
    consents: consents.map(toConsentDto),
    preferences: {
      notifications: account.preferences.map((p) => ({ kind: p.template_key, channel: p.channel, enabled: p.enabled, mode: p.mode, updated_at: iso(p.updated_at) })),
      digest_lines: account.digest.map((d) => ({ kind: d.template_key, line: d.line, created_at: iso(d.created_at), sent_at: iso(d.sent_at) })),
      notices_read: account.notices.map((n) => ({ uuid: n.uuid, title: n.title, read_at: iso(n.read_at) })),
      devices: account.devices.map((d) => ({ platform: d.platform, registered_at: iso(d.registered_at) })),
      threads_read: account.threadsRead.map((r) => ({ job_reference: r.job_reference, thread: r.audience, read_at: iso(r.read_at) })),
      appearance: account.appearance.map((a) => ({ dashboard_background: a.dashboard_bg_custom, banner: a.banner_mime, banner_size: a.banner_size, banner_uploaded_at: iso(a.banner_uploaded_at), updated_at: iso(a.updated_at) })),
    },
    access_blocks: account.blocks.map((b) => ({ uuid: b.uuid, reason: b.reason, automatic: b.automatic, created_at: iso(b.created_at), expires_at: iso(b.expires_at), removed_at: iso(b.removed_at) })),
    sessions: account.sessions.map((a) => ({
      kind: a.kind, signed_in_at: iso(a.created_at), last_used_at: iso(a.last_used_at), expires_at: iso(a.expires_at), ended_at: iso(a.revoked_at),
      ended_because: a.revoked_reason, ip_address: a.ip_address, user_agent: a.user_agent,
    })),
    second_factors: {
      authenticator_app: account.totp.map((x) => ({ set_up_at: iso(x.created_at), confirmed_at: iso(x.confirmed_at) })),
      recovery_codes: account.recoveryCodes.map((x) => ({ made_at: iso(x.created_at), used_at: iso(x.used_at) })),
      passkeys: account.passkeys.map((x) => ({ uuid: x.uuid, name: x.name, added_at: iso(x.created_at), last_used_at: iso(x.last_used_at) })),
      sign_in_challenges: account.challenges.map((x) => ({ purpose: x.purpose, created_at: iso(x.created_at), expires_at: iso(x.expires_at) })),
    },
    activity: activity.map((a) => ({
      ID: a.id, action: a.action, resource_type: a.resource_type, resource_id: a.resource_id, user_name: a.user_name,
      ip_address: a.ip_address, details: a.details, created_at: iso(a.created_at),
    })),
    retained: retained.map((r) => ({ record_kind: r.record_kind, table: r.table_name, record_id: r.record_id, retained_until: r.retained_until, released_at: iso(r.released_at) })),
    exemptions: applied,
  };
  applyExemptions(report as unknown as Record<string, unknown>, applied);
  const withheld = new Set(applied.filter((e) => e.section === 'files').map((e) => e.record_ref));
  return {
    report,
    files: files.filter((f) => !withheld.has(f.uuid)).map((f) => ({ uuid: f.uuid, name: f.original_filename, storageKey: f.storage_key })),
  };
}

/**
 * Builds the report and logs the export.
 * @param format 'json', 'zip' or 'pdf' (recorded in the log entry)
 * @returns the report object (see docs/gdpr.md for its sections) and the files the zip carries
 * @throws 404 'Tenant not found'
 */
export async function buildReport(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, format: 'json' | 'zip' | 'pdf') {
  const tenant = await getTenantRow(deps.db, auth, uuid);
  const gathered = await gatherReport(deps, tenant);
  await recordActivity(deps.db, actor, deps.clock.now(), {
    action: 'tenant.gdpr_export', resourceType: 'tenant', resourceId: tenant.id, agencyId: tenant.agency_id, details: { format },
  });
  return gathered;
}

/** Withholds one item of a tenant's report under a ground (docs/gdpr.md "Exemptions"). */
export interface ExemptionInput {
  section: string;
  record_ref: string;
  ground: string;
  reason: string;
}

/**
 * POST /api/tenants/{uuid}/gdpr-report/exemptions: withholds one item of the report (by its section
 * and uuid, an activity entry by its ID) under a ground of DPA 2018 Schedules 2-4; logged as
 * `tenant.gdpr_exemption` (section, ground; not the reason).
 * @returns the exemption as the report lists it
 * @throws 400 unknown section or ground, empty reason; 404 tenant, or no such item in that section; 409 the item already has one
 */
export async function addExemption(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, input: ExemptionInput): Promise<AppliedExemption> {
  const tenant = await getTenantRow(deps.db, auth, uuid);
  if (!(EXEMPTIBLE_SECTIONS as readonly string[]).includes(input.section)) throw badRequest(`section must be one of ${EXEMPTIBLE_SECTIONS.join(', ')}`);
  const ground = groundOf(input.ground);
  if (!ground) throw badRequest(`ground must be one of ${EXEMPTION_GROUNDS.map((g) => g.key).join(', ')}`);
  const reason = input.reason.trim();
  if (reason.length === 0) throw badRequest('reason must say why the exemption applies to this item');
  const { report } = await gatherReport(deps, tenant);
  const items = (report as unknown as Record<string, unknown>)[input.section] as Array<Record<string, unknown>>;
  if (!items.some((it) => itemRef(it) === input.record_ref)) throw notFound(`Item ${input.record_ref} of the report's ${input.section}`);
  const now = deps.clock.now();
  const row = { uuid: newUuid(), agency_id: tenant.agency_id, tenant_id: tenant.id, section: input.section, record_ref: input.record_ref, ground: ground.key, reason, by_user_id: actor.auth?.userId ?? null, created_at: now };
  return deps.db.transaction().execute(async (trx) => {
    if (!(await repo.insertExemption(trx, row))) throw conflict('That item is already withheld');
    await recordActivity(trx, actor, now, {
      action: 'tenant.gdpr_exemption', resourceType: 'tenant', resourceId: tenant.id, agencyId: tenant.agency_id, details: { section: input.section, ground: ground.key },
    });
    return {
      uuid: row.uuid, section: row.section, record_ref: row.record_ref, ground: ground.key, ground_title: ground.title, source: ground.source,
      reason, applied_by: actor.auth?.name ?? null, applied_at: now.toISOString(),
    };
  });
}

/**
 * DELETE /api/tenants/{uuid}/gdpr-report/exemptions/{exemption}: the item is in the report again.
 * @throws 404 tenant or exemption
 */
export async function removeExemption(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, exemptionUuid: string): Promise<void> {
  const tenant = await getTenantRow(deps.db, auth, uuid);
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    if (!(await repo.deleteExemption(trx, tenant.id, exemptionUuid))) throw notFound('Exemption');
    await recordActivity(trx, actor, now, { action: 'tenant.gdpr_exemption_removed', resourceType: 'tenant', resourceId: tenant.id, agencyId: tenant.agency_id });
  });
}



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
  jobs            repair jobs about the tenant (theirs, reported by them, or at their addresses),
                  with the status moves of those naming them
  notes           every note on the jobs naming them (internal ones too), and the notes shared
                  with tenants on jobs at their address
  files           photos and documents of the jobs naming them and every file they sent; the
                  bytes are under files/
  messages        every e-mail, text, push message and letter written to them, with status
  conversations   messages the tenant wrote, and every message on the jobs naming them
  sms             the tenant's numbers (with any STOP reply), SMS consents, and the texts sent
                  to them and received from them, with status and cost
  hazards         hazards (Awaab's Law) of their jobs with the statutory clocks and the written
                  summary as given
  visits          visit windows offered, visits booked or missed, booking links sent
  tenancies       their tenancies (property, dates, kind) and the documents served on them
                  (gas record, EICR, EPC, How to Rent: when, how, the proof)
  repair_reports  guided repair reports they made, with their answers
  surveys         satisfaction surveys sent to them, with their answers
  consents        consents given and withdrawn, with time and source
  preferences     notification choices, digest lines, notices read, push devices, threads
                  read, dashboard appearance
  sessions        every sign-in of their accounts: when, from which address and browser
  second_factors  their authenticator app, recovery codes and passkeys (when made and used,
                  never a secret) and the sign-in challenges of their accounts
  access_blocks   blocks of their accounts (security), with the reason
  activity        audit-log entries about the tenant, about their jobs, or made by their accounts
  retained        records an erasure kept for a stated retention, and until when
  exemptions      items withheld, each with its ground (Data Protection Act 2018 Sch. 2-4)

tables/<section>.json holds each section on its own; report.pdf is the readable copy.`;

const README = (r: ReportHead, sections: string) => `Subject-access report
=====================

Data controller: ${r.controller}
Generated at:    ${r.generated_at} (UTC)

report.json holds everything the controller's Caretaker account keeps about the person:
${sections}

Times are ISO 8601 in UTC. Questions: contact the data controller named above.
`;

/** What a zip carries besides report.json and README.txt. */
export interface ZipExtras {
  /** The files of the report's `files` section, read from `store` into files/<uuid>-<name>. */
  files?: ReportFile[];
  store?: FileStore;
  /** The readable PDF of the report (report.pdf). */
  pdf?: Buffer;
}

/**
 * A report as a zip archive in memory: report.json (the whole report), tables/<section>.json (one
 * file per section), report.pdf (readable), files/<uuid>-<name> (the photos and documents) and
 * README.txt.
 * @param sections the README's list of the report's sections (default: a tenant's)
 */
export async function reportZip(report: ReportHead, sections: string = TENANT_SECTIONS, extras: ZipExtras = {}): Promise<Buffer> {
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
  for (const [key, value] of Object.entries(report)) {
    if (key === 'generated_at' || key === 'controller') continue;
    archive.append(JSON.stringify(value, null, 2), { name: `tables/${key}.json`, date });
  }
  if (extras.pdf) archive.append(extras.pdf, { name: 'report.pdf', date });
  for (const f of extras.files ?? []) {
    if (extras.store) archive.append(await extras.store.get(f.storageKey), { name: `files/${f.uuid}-${f.name}`, date });
  }
  archive.append(README(report, sections), { name: 'README.txt', date });
  await archive.finalize();
  await finished;
  return Buffer.concat(chunks);
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** A value as a reader sees it: instants in London time, objects as compact JSON. */
function readable(v: unknown): string {
  if (v === null || v === undefined) return '-';
  if (typeof v === 'string') return ISO_INSTANT.test(v) ? `${formatLondonDateTime(new Date(v))} (London)` : v;
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/**
 * The report as a readable A4 PDF (pdfkit, as the evidence pack): the controller and the time,
 * then each section with each item's fields, withheld items with their ground, and the list of
 * exemptions applied.
 * @returns the PDF bytes (creation date fixed to generated_at)
 */
export async function renderReportPdf(report: ReportHead & Record<string, unknown>, title = 'Subject-access report'): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: title, Author: report.controller, CreationDate: new Date(report.generated_at) } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.font('Helvetica-Bold').fontSize(18).text(title);
  doc.font('Helvetica').fontSize(10).moveDown(0.3);
  doc.text(`Data controller: ${report.controller}. Generated ${formatLondonDateTime(new Date(report.generated_at))} (London time).`);
  doc.text('Everything the controller holds about the person, section by section. An item withheld under an exemption shows its ground; the last section lists every exemption applied.');
  const item = (o: Record<string, unknown>) => {
    for (const [k, v] of Object.entries(o)) doc.font('Helvetica-Bold').text(`${k}: `, { continued: true }).font('Helvetica').text(readable(v));
    doc.moveDown(0.4);
  };
  for (const [key, value] of Object.entries(report)) {
    if (key === 'generated_at' || key === 'controller') continue;
    doc.moveDown(0.6).font('Helvetica-Bold').fontSize(13).text(key.replace(/_/g, ' '));
    doc.font('Helvetica').fontSize(9).moveDown(0.2);
    if (Array.isArray(value)) {
      if (value.length === 0) doc.text('None held.');
      for (const v of value) item(typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : { value: v });
    } else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        if (Array.isArray(v)) {
          doc.font('Helvetica-Bold').text(k.replace(/_/g, ' ')).font('Helvetica');
          if (v.length === 0) doc.text('None held.');
          for (const x of v) item(typeof x === 'object' && x !== null ? (x as Record<string, unknown>) : { value: x });
        } else doc.font('Helvetica-Bold').text(`${k}: `, { continued: true }).font('Helvetica').text(readable(v));
      }
    } else doc.text(readable(value));
  }
  doc.end();
  return finished;
}
