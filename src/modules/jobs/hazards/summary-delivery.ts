/**
 * The written summary reaching the tenant (docs/compliance.md "The written summary reaches the
 * tenant"; SI 2025/1042 reg. 9: a written summary given to the tenant within 3 working days of the
 * investigation). It is a statutory notice: messaging sends it whatever the person's consents and
 * preferences (docs/gdpr.md "Statutory notices"). The duty is met only when it reaches them:
 *
 * 1. the e-mail is sent (the delivery row `sent`): delivered by e-mail at its sent time;
 * 2. when the e-mail cannot go (no address, failed, suppressed), an SMS with the same text to the
 *    tenant's mobile (or phone): delivered by SMS when sent;
 * 3. when neither can go, a letter: a printable PDF addressed to the property (GET
 *    .../hazard/summary/letter), and staff record the day it was posted (POST .../hazard/summary/posted).
 *
 * Staff may record a posting at any time after the summary is issued. The scan runs with the
 * hazard scan (every minute), in batches, each hazard in its own transaction.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { conflict, invalidParam, notFound } from '../../../core/errors.ts';
import { formatLondonDate } from '../../../lib/london-time.ts';
import { queueSms } from '../../messaging/messaging/index.ts';
import { normalisePhone } from '../../messaging/sms/index.ts';
import { assertStaffMayWrite, visibleJob, withLockedJob } from '../jobs/index.ts';
import * as repo from './hazards.repository.ts';

/** The messaging handler whose run means the summary's deliveries are planned. */
const MESSAGING_HANDLER = 'messaging.deliveries';
const SYSTEM_ACTOR: Actor = { auth: null, ip: '127.0.0.1' };
const FINAL_UNSENT = new Set(['failed', 'suppressed']);

/** What the scan did. */
export interface SummaryScanResult {
  delivered: number;
  sms: number;
  letter: number;
}

/**
 * One pass over the written summaries issued and not yet delivered: records a delivery, or takes
 * the next channel (SMS, then letter) when the current one cannot reach the tenant.
 * @param recompute recomputes a hazard's clocks in the caller's transaction (the service's)
 * @returns how many were delivered, moved to SMS, moved to a letter
 */
export async function scanSummaryDeliveries(
  deps: AppDeps,
  recompute: (trx: DbOrTrx, hazardId: number, jobId: number, now: Date) => Promise<void>,
  limit = 500,
): Promise<SummaryScanResult> {
  const now = deps.clock.now();
  const out: SummaryScanResult = { delivered: 0, sms: 0, letter: 0 };
  for (const h of await repo.undeliveredSummaries(deps.db, limit)) {
    if (!(await repo.eventHandled(deps.db, h.summary_event_id!, MESSAGING_HANDLER))) continue;
    await deps.db.transaction().execute(async (trx) => {
      const rows = await repo.summaryDeliveries(trx, h.agency_id, h.summary_event_id!);
      const sent = rows.filter((r) => (r.channel === 'email' || r.channel === 'sms') && r.status === 'sent' && r.sent_at !== null)
        .sort((a, b) => new Date(a.sent_at!).getTime() - new Date(b.sent_at!).getTime())[0];
      if (sent) {
        await repo.updateHazard(trx, h.id, {
          summary_delivered_at: new Date(sent.sent_at!), summary_delivered_recorded_at: now, summary_delivery_method: sent.channel as 'email' | 'sms',
        }, now);
        await recompute(trx, h.id, h.job_id, now);
        await recordActivity(trx, SYSTEM_ACTOR, now, {
          action: 'hazard.summary_delivered', resourceType: 'job', resourceId: h.job_id, agencyId: h.agency_id, userId: null, userName: 'system',
          details: { method: sent.channel, delivered_at: new Date(sent.sent_at!).toISOString() },
        });
        out.delivered += 1;
        return;
      }
      const unsent = (channel: string) => rows.filter((r) => r.channel === channel).every((r) => FINAL_UNSENT.has(r.status));
      if (h.summary_fallback === null && unsent('email')) {
        const who = await repo.summaryRecipient(trx, h.job_id);
        const phone = who && who.erased_at === null ? normalisePhone(who.mobile) ?? normalisePhone(who.phone) : null;
        if (phone) {
          await queueSms(trx, {
            agencyId: h.agency_id, eventId: h.summary_event_id!, eventName: 'hazard.summary_sent', templateKey: 'hazard.summary',
            recipientKey: `tenant:${who!.tenant_id}`, recipientKind: 'tenant', recipientUserId: null, phone, text: h.summary_text ?? '', threadId: null, sendAt: now,
          }, now);
          await repo.updateHazard(trx, h.id, { summary_fallback: 'sms', summary_fallback_at: now }, now);
          out.sms += 1;
        } else {
          await repo.updateHazard(trx, h.id, { summary_fallback: 'letter', summary_fallback_at: now }, now);
          out.letter += 1;
        }
        await recordActivity(trx, SYSTEM_ACTOR, now, {
          action: 'hazard.summary_second_channel', resourceType: 'job', resourceId: h.job_id, agencyId: h.agency_id, userId: null, userName: 'system',
          details: { channel: phone ? 'sms' : 'letter', email: rows.filter((r) => r.channel === 'email').map((r) => `${r.status}${r.reason ? ` (${r.reason})` : ''}`) },
        });
      } else if (h.summary_fallback === 'sms' && rows.some((r) => r.channel === 'sms') && unsent('sms')) {
        await repo.updateHazard(trx, h.id, { summary_fallback: 'letter', summary_fallback_at: now }, now);
        await recordActivity(trx, SYSTEM_ACTOR, now, {
          action: 'hazard.summary_second_channel', resourceType: 'job', resourceId: h.job_id, agencyId: h.agency_id, userId: null, userName: 'system', details: { channel: 'letter' },
        });
        out.letter += 1;
      }
    });
  }
  return out;
}

/**
 * POST /api/jobs/{uuid}/hazard/summary/posted: records that the written summary was posted to the
 * property as a letter; the summary clock stops at the posting (when it happened).
 * @param input posted_at? (ISO instant, default now; not in the future, not before the summary was issued)
 * @throws 400 a bad posted_at; 403; 404 job or hazard; 409 no summary issued yet, or it already reached the tenant
 */
export async function recordSummaryPosted(
  deps: AppDeps, auth: AuthContext, actor: Actor, jobUuid: string, input: { posted_at?: string | undefined },
  recompute: (trx: DbOrTrx, hazardId: number, jobId: number, now: Date) => Promise<void>,
): Promise<number> {
  const { id } = await withLockedJob(deps, auth, jobUuid, async (trx, job, now) => {
    assertStaffMayWrite(auth, job);
    const h = await repo.findHazardOfJob(trx, job.id);
    if (!h) throw notFound('Hazard');
    if (h.summary_sent_at === null) throw conflict('The written summary has not been issued yet');
    if (h.summary_delivered_at !== null) throw conflict(`The written summary already reached the tenant (${h.summary_delivery_method})`);
    const at = input.posted_at !== undefined ? new Date(input.posted_at) : now;
    if (at.getTime() > now.getTime()) throw invalidParam('posted_at (in the future)');
    if (at.getTime() < new Date(h.summary_sent_at).getTime()) throw invalidParam('posted_at (before the summary was issued)');
    await repo.updateHazard(trx, h.id, {
      summary_delivered_at: at, summary_delivered_recorded_at: now, summary_delivery_method: 'post', summary_posted_by_user_id: auth.userId,
    }, now);
    await recompute(trx, h.id, job.id, now);
    await recordActivity(trx, actor, now, {
      action: 'hazard.summary_posted', resourceType: 'job', resourceId: job.id, agencyId: job.agency_id, details: { hazard_uuid: h.uuid, posted_at: at.toISOString() },
    });
  });
  return id;
}

/** The letter's content: the recipient block and the summary's text. */
export interface SummaryLetter {
  fileName: string;
  addressLines: string[];
  date: string;
  subject: string;
  body: string;
  agencyName: string;
}

/**
 * The written summary as a letter addressed to the property (tenant's name, address lines,
 * postcode), for staff to print and post.
 * @throws 404 job (not visible) or hazard; 409 no summary issued yet
 */
export async function summaryLetter(deps: AppDeps, auth: AuthContext, jobUuid: string): Promise<SummaryLetter> {
  const job = await visibleJob(deps.db, auth, jobUuid);
  const h = await repo.findHazardOfJob(deps.db, job.id);
  if (!h) throw notFound('Hazard');
  if (h.summary_sent_at === null || !h.summary_text) throw conflict('The written summary has not been issued yet');
  const who = await repo.summaryRecipient(deps.db, job.id);
  const [subject, ...rest] = h.summary_text.split('\n\n');
  const lines = [who?.erased_at === null && who?.tenant_name ? who.tenant_name : 'The occupier', who?.line1, who?.line2, who?.line3, who?.town, who?.county, who?.postcode]
    .filter((x): x is string => typeof x === 'string' && x.trim() !== '');
  return {
    fileName: `summary-${who?.reference ?? job.uuid}.pdf`, addressLines: lines, date: formatLondonDate(deps.clock.now()),
    subject: subject ?? '', body: rest.join('\n\n'), agencyName: who?.agency_name ?? '',
  };
}

/**
 * The letter as an A4 PDF (pdfkit, as the evidence pack): the agency, the recipient block for a
 * window envelope, the date, the subject and the summary's text.
 * @returns the PDF bytes
 */
export async function renderSummaryLetter(l: SummaryLetter): Promise<Buffer> {
  // Loaded when first used: not on the start-up path.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({ size: 'A4', margin: 60, info: { Title: l.subject, Author: l.agencyName } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.font('Helvetica-Bold').fontSize(14).text(l.agencyName);
  doc.moveDown(2).font('Helvetica').fontSize(11);
  for (const line of l.addressLines) doc.text(line);
  doc.moveDown(1.5).text(l.date);
  doc.moveDown(1).font('Helvetica-Bold').text(l.subject);
  doc.moveDown(0.8).font('Helvetica').text(l.body, { width: 475 });
  doc.end();
  return finished;
}
