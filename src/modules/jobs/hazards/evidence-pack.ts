/**
 * The evidence pack of a job (docs/compliance.md "Evidence pack"), for a council or the Housing
 * Ombudsman: the timeline of every report, status move, visit, note, photo and document, message,
 * SLA and statutory clock event of the job, in time order with London times, as JSON, as a PDF
 * drawn with pdfkit, or as a ZIP (archiver) holding that PDF and every file of the job.
 */
import { PassThrough } from 'node:stream';
import type { AppDeps } from '../../../app-deps.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { HAZARD_CLOCK_LABELS, hazardName } from '../../../lib/hhsrs.ts';
import { formatLondonDateTime } from '../../../lib/london-time.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { assertStaffMayWrite, visibleJob } from '../jobs/index.ts';
import * as repo from './evidence.repository.ts';
import { findHazardOfJob } from './hazards.repository.ts';
import { SCOPE_TEXT } from './scope.ts';

/** One line of the timeline. */
export interface TimelineEntry {
  /** ISO instant. */
  at: string;
  /** London time for people: "Thu 26 Nov 2026, 18:07". */
  at_text: string;
  /** report, status, visit, note, photo, document, message, hazard, sla, statutory_clock. */
  kind: string;
  text: string;
}

/** The pack's header and timeline. */
export interface EvidencePack {
  job_uuid: string;
  reference: string;
  title: string;
  agency_name: string;
  address: string | null;
  tenant_name: string | null;
  hazard: string | null;
  /** The instrument and its commencement, when the job carries a hazard. */
  law: string | null;
  /** The hazard's scope with its source (SCOPE_TEXT). */
  scope: string | null;
  /** Whether and how the written summary reached the tenant: a delivery or a recorded posting. */
  summary_delivery: string | null;
  generated_at: string;
  timeline: TimelineEntry[];
}

/** The instrument the statutory clocks implement, cited on every pack of a hazard job. */
export const HAZARD_LAW =
  'The Hazards in Social Housing (Prescribed Requirements) (England) Regulations 2025 (SI 2025/1042, "Awaab\'s Law"), in force 27 October 2025, ' +
  'prescribed under section 10A of the Landlord and Tenant Act 1985 (inserted by section 42 of the Social Housing (Regulation) Act 2023). ' +
  'Working days: Monday to Friday except bank holidays in England.';

/** The written summary's delivery, for the pack's header. */
function summaryDeliveryText(h: NonNullable<Awaited<ReturnType<typeof findHazardOfJob>>>): string | null {
  if (h.summary_sent_at === null) return null;
  if (h.summary_delivered_at !== null) {
    const when = formatLondonDateTime(t(h.summary_delivered_at));
    const recorded = h.summary_delivered_recorded_at ? formatLondonDateTime(t(h.summary_delivered_recorded_at)) : null;
    if (h.summary_delivery_method === 'post') return `Met by a recorded posting: letter posted to the property ${when}${recorded ? ` (recorded ${recorded})` : ''}`;
    return `Met by a delivery: sent by ${h.summary_delivery_method === 'sms' ? 'SMS' : 'e-mail'} ${when}`;
  }
  if (h.summary_fallback === 'letter') return 'Not yet met: neither e-mail nor SMS reached the tenant; a letter must be posted and its posting recorded';
  if (h.summary_fallback === 'sms') return 'Not yet met: the e-mail did not reach the tenant; an SMS is being sent';
  return 'Not yet met: issued, awaiting delivery';
}

const t = (v: Date | string) => new Date(v);

/** The timeline's order: time, then the order entries were collected in (a report before its first status). */
function sortTimeline(entries: Array<TimelineEntry & { seq: number }>): TimelineEntry[] {
  return entries
    .sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || a.seq - b.seq)
    .map(({ seq: _seq, ...e }) => e);
}

/**
 * Builds the pack of a visible job.
 * @throws 403 not staff who may write the job (the pack holds internal notes); 404 job not visible
 */
export async function buildEvidencePack(deps: AppDeps, auth: AuthContext, jobUuid: string): Promise<{ pack: EvidencePack; jobId: number; agencyId: number }> {
  const visible = await visibleJob(deps.db, auth, jobUuid);
  assertStaffMayWrite(auth, visible);
  const db = deps.db;
  const [job, history, notes, files, messages, sla, hazardClocks, hazard] = await Promise.all([
    repo.evidenceJob(db, visible.id), repo.evidenceHistory(db, visible.id), repo.evidenceNotes(db, visible.id), repo.evidenceFiles(db, visible.id),
    repo.evidenceMessages(db, visible.agency_id, visible.id), repo.evidenceSlaClocks(db, visible.id), repo.evidenceHazardClocks(db, visible.id),
    findHazardOfJob(db, visible.id),
  ]);
  const out: Array<TimelineEntry & { seq: number }> = [];
  const add = (at: Date | string | null, kind: string, text: string) => {
    if (at === null) return;
    const d = t(at);
    out.push({ at: d.toISOString(), at_text: formatLondonDateTime(d), kind, text, seq: out.length });
  };
  add(job.created_at, 'report', `Reported${job.reported_by ? ` by ${job.reported_by}` : ''}: ${job.title}${job.description ? `. ${job.description}` : ''}`);
  for (const h of history) {
    add(h.created_at, 'status', `${h.from_status ? `${h.from_status} to ` : ''}${h.to_status}${h.by_name ? ` by ${h.by_name}` : ''}${h.note ? `: ${h.note}` : ''}`);
  }
  if (job.scheduled_for) add(job.scheduled_for, 'visit', `Visit booked${job.contractor_name ? ` with ${job.contractor_name}` : ''}`);
  if (job.attended_at) add(job.attended_at, 'visit', `Attended${job.contractor_name ? ` by ${job.contractor_name}` : ''}`);
  for (const n of notes) add(n.created_at, 'note', `Note (${n.visibility})${n.author ? ` by ${n.author}` : ''}: ${n.body}`);
  for (const f of files) {
    add(f.created_at, f.kind, `${f.kind === 'photo' ? 'Photo' : 'Document'} ${f.original_filename}${f.description ? ` (${f.description})` : ''}${f.uploaded_by ? ` uploaded by ${f.uploaded_by}` : ''}, SHA-256 ${f.sha256.slice(0, 16)}`);
  }
  for (const m of messages) {
    add(m.created_at, 'message', `Message ${m.template_key} by ${m.channel} to the ${m.recipient_kind}: ${m.status}${m.subject ? `, "${m.subject}"` : ''}`);
  }
  if (hazard) {
    const name = hazardName(hazard.category);
    const awareness = hazard.awareness_reason ? ` Moment of awareness set by staff: ${hazard.awareness_reason}` : ' Moment of awareness: the report.';
    add(hazard.reported_at, 'hazard', `Landlord aware of the hazard: ${name} (${hazard.severity})${hazard.description ? `. ${hazard.description}` : ''}.${awareness}`);
    add(hazard.created_at, 'hazard', `Hazard flagged on the job. ${SCOPE_TEXT[hazard.scope]}`);
    // Each milestone at the time it happened, with the time it was recorded when that is later.
    const milestone = (at: Date | string | null, recorded: Date | string | null, text: string) => {
      if (at === null) return;
      const late = recorded !== null && t(recorded).getTime() - t(at).getTime() >= 60_000;
      add(at, 'hazard', late ? `${text} (recorded ${formatLondonDateTime(t(recorded))})` : text);
    };
    milestone(hazard.made_safe_at, hazard.made_safe_recorded_at, 'Hazard made safe');
    milestone(hazard.investigated_at, hazard.investigated_recorded_at, 'Hazard investigated');
    add(hazard.summary_sent_at, 'hazard', `Written summary issued to the tenant. Findings: ${hazard.summary_findings ?? ''} Actions: ${hazard.summary_actions ?? ''}`);
    add(hazard.summary_fallback_at, 'hazard', hazard.summary_fallback === 'sms' ? 'Written summary: e-mail did not reach the tenant, sent by SMS' : 'Written summary: neither e-mail nor SMS reached the tenant, letter to be posted');
    milestone(hazard.summary_delivered_at, hazard.summary_delivery_method === 'post' ? hazard.summary_delivered_recorded_at : null, summaryDeliveryText(hazard) ?? '');
    milestone(hazard.works_started_at, hazard.works_started_recorded_at, 'Relevant safety work done');
    milestone(hazard.further_works_started_at, hazard.further_works_started_recorded_at, 'Further (preventative) works begun');
    milestone(hazard.works_completed_at, hazard.works_completed_recorded_at, 'Works completed');
  }
  for (const c of hazardClocks) {
    const label = c.kind === 'further_works_start' && hazard?.further_works_reason ? HAZARD_CLOCK_LABELS.further_works_start_12_weeks! : HAZARD_CLOCK_LABELS[c.kind] ?? c.kind;
    add(c.started_at, 'statutory_clock', `Statutory clock started: ${label}; deadline ${formatLondonDateTime(t(c.due_at))}`);
    add(c.at_risk_flagged_at, 'statutory_clock', `Statutory clock at risk: ${label}`);
    add(c.breached_at, 'statutory_clock', `Statutory deadline missed: ${label}`);
    if (c.state === 'met') add(c.stopped_at, 'statutory_clock', `Statutory clock met: ${label}`);
  }
  for (const c of sla) {
    const label = `${c.description || 'SLA rule'} (${c.calendar.replace('_', ' ')})`;
    add(c.at_risk_flagged_at, 'sla', `SLA at risk: ${label}`);
    add(c.breached_at, 'sla', `SLA breached: ${label}; due ${formatLondonDateTime(t(c.due_at))}`);
    if (c.state === 'met') add(c.stopped_at, 'sla', `SLA met: ${label}`);
  }
  const now = deps.clock.now();
  const pack: EvidencePack = {
    job_uuid: job.uuid,
    reference: job.reference,
    title: job.title,
    agency_name: job.agency_name,
    address: job.line1 ? `${job.line1}, ${job.town} ${job.postcode}` : null,
    tenant_name: job.tenant_erased_at ? null : job.tenant_name,
    hazard: hazard ? `${hazardName(hazard.category)} (${hazard.severity})` : null,
    law: hazard ? HAZARD_LAW : null,
    scope: hazard ? SCOPE_TEXT[hazard.scope] : null,
    summary_delivery: hazard ? summaryDeliveryText(hazard) : null,
    generated_at: now.toISOString(),
    timeline: sortTimeline(out),
  };
  return { pack, jobId: visible.id, agencyId: visible.agency_id };
}

/**
 * The pack as an A4 PDF: a header (agency, job, property, tenant, hazard) and one row per timeline
 * entry (London time, kind, text), over as many pages as needed.
 * @returns the PDF bytes (creation date fixed to the pack's generated_at)
 */
export async function renderEvidencePdf(pack: EvidencePack): Promise<Buffer> {
  // Loaded when first used (docs/operations.md "Starting"): not on the start-up path.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: `Evidence pack ${pack.reference}`, Author: pack.agency_name, CreationDate: new Date(pack.generated_at) } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.font('Helvetica-Bold').fontSize(18).text(`Evidence pack: ${pack.reference}`);
  doc.font('Helvetica').fontSize(10).moveDown(0.3);
  doc.text(`${pack.agency_name}. Generated ${formatLondonDateTime(new Date(pack.generated_at))} (London time).`);
  doc.text(`Job: ${pack.title}`);
  if (pack.address) doc.text(`Property: ${pack.address}`);
  if (pack.tenant_name) doc.text(`Tenant: ${pack.tenant_name}`);
  if (pack.hazard) doc.text(`Hazard: ${pack.hazard}`);
  if (pack.law) doc.text(`Law: ${pack.law}`);
  if (pack.scope) doc.text(`Scope: ${pack.scope}`);
  if (pack.summary_delivery) doc.text(`Written summary: ${pack.summary_delivery}`);
  doc.text(`Events: ${pack.timeline.length}, oldest first. Times are London time.`);
  doc.moveDown(0.8);
  const cols = { when: 50, kind: 170, text: 255 };
  const header = () => {
    const y = doc.y;
    doc.font('Helvetica-Bold').fontSize(9);
    doc.text('When', cols.when, y).text('What', cols.kind, y).text('Details', cols.text, y);
    doc.moveTo(50, doc.y + 2).lineTo(545, doc.y + 2).stroke();
    doc.y += 6;
    doc.font('Helvetica').fontSize(9);
  };
  header();
  for (const e of pack.timeline) {
    const h = Math.max(doc.heightOfString(e.text, { width: 290 }), 11);
    if (doc.y + h > 790) {
      doc.addPage();
      header();
    }
    const y = doc.y;
    doc.text(e.at_text, cols.when, y, { width: 115 });
    doc.text(e.kind.replace('_', ' '), cols.kind, y, { width: 80 });
    doc.text(e.text, cols.text, y, { width: 290 });
    doc.y = y + h + 5;
  }
  doc.end();
  return finished;
}

/**
 * GET /api/jobs/{uuid}/evidence-pack: the pack as JSON, PDF or ZIP (the PDF and the job's files
 * under files/), logged as `job.evidence_pack`.
 * @param format json, pdf or zip
 * @returns { pack } for json; { fileName, body } (Buffer for pdf, a stream for zip) otherwise
 * @throws 403; 404 (see buildEvidencePack)
 */
export async function evidencePack(deps: AppDeps, auth: AuthContext, actor: Actor, jobUuid: string, format: 'json' | 'pdf' | 'zip') {
  const { pack, jobId, agencyId } = await buildEvidencePack(deps, auth, jobUuid);
  await recordActivity(deps.db, actor, deps.clock.now(), { action: 'job.evidence_pack', resourceType: 'job', resourceId: jobId, agencyId, details: { format } });
  if (format === 'json') return { pack };
  const pdf = await renderEvidencePdf(pack);
  if (format === 'pdf') return { fileName: `evidence-${pack.reference}.pdf`, body: pdf as Buffer | PassThrough };
  const files = await repo.evidenceFiles(deps.db, jobId);
  const out = new PassThrough();
  const { ZipArchive } = await import('archiver');
  const archive = new ZipArchive({ zlib: { level: 6 } });
  archive.on('error', (err: Error) => out.destroy(err));
  archive.pipe(out);
  const date = new Date(pack.generated_at);
  const work = async () => {
    archive.append(pdf, { name: `evidence-${pack.reference}.pdf`, date });
    archive.append(JSON.stringify(pack, null, 2), { name: 'timeline.json', date });
    for (const f of files) archive.append(await deps.files.open(f.storage_key), { name: `files/${f.uuid}-${f.original_filename}`, date });
    await archive.finalize();
  };
  work().catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))));
  return { fileName: `evidence-${pack.reference}.zip`, body: out };
}
