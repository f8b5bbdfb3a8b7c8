/**
 * Side effects of tenant self-service (docs/tenant-reporting.md), after commit through the outbox:
 * - `report.emergency`: an e-mail to the branch's on-call contact (else the branch's agents) with
 *   the job, the property, the tenant's phone and the instruction the tenant was shown;
 * - `job.status_changed` to Completed: the tenant's satisfaction survey by signed link;
 * - `job.assigned` without a date, `job.visit_missed`: the tenant's visit link (windows or a free slot);
 * - `tenant.erased`: the words of the tenant's reports and surveys are dropped (docs/gdpr.md).
 */
import type { DbOrTrx } from '../../../db/types.ts';
import type { DomainEvent, EventHandler } from '../../../events/index.ts';
import { escapeHtml as esc } from '../../../lib/html.ts';
import { formatLondonDateTime } from '../../../lib/london-time.ts';
import { branchAgents, queueEmail } from '../../messaging/messaging/index.ts';
import { STATUS } from '../jobs/index.ts';
import * as repo from './reporting.repository.ts';
import { sendSurvey } from './surveys.service.ts';
import { sendVisitLink } from './visit-links.service.ts';
import * as visitLinks from './visit-links.repository.ts';
import type { FlowTree } from './flow-tree.ts';

async function alertOnCall(trx: DbOrTrx, event: DomainEvent, now: Date): Promise<void> {
  const p = event.payload as { report_id: number; branch_id: number; reference: string };
  const report = await repo.findReport(trx, { id: p.report_id }, event.agencyId);
  if (!report) return;
  const facts = await repo.emergencyFacts(trx, p.report_id);
  const node = (report.tree as FlowTree).nodes.find((n) => n.id === report.outcome_node);
  const instruction = node?.kind === 'emergency' ? node.instruction : '';
  const title = node && node.kind !== 'question' ? node.title : report.outcome_node;
  const onCall = await repo.findOnCall(trx, p.branch_id);
  const recipients = onCall
    ? [{ key: `on_call:${p.branch_id}`, kind: 'on_call', userId: null, email: onCall.email, name: onCall.name }]
    : (await branchAgents(trx, event.agencyId!, p.branch_id)).map((r) => ({ key: r.key, kind: r.kind, userId: r.userId, email: r.email, name: r.name }));
  const property = report.address_line1 ? `${report.address_line1}, ${report.postcode ?? ''}` : 'no property given';
  const subject = `EMERGENCY ${p.reference}: ${title} at ${property}`;
  const lines = [
    `${report.flow_name}: ${title}.`,
    `Job ${p.reference}, priority 1, reported ${formatLondonDateTime(report.created_at)}.`,
    `Property: ${property}.`,
    `Tenant: ${report.tenant_name ?? 'not known'}${facts?.tenant_phone ? `, phone ${facts.tenant_phone}` : ''}.`,
    ...report.answers ? (report.answers as Array<{ question: string; answer: string }>).map((a) => `${a.question} ${a.answer}`) : [],
    report.description ? `In the tenant's words: ${report.description}` : '',
    '', `The tenant was told: ${instruction}`,
  ].filter((l, i, all) => l !== '' || all[i - 1] !== '');
  const text = lines.join('\n');
  const html = lines.map((l) => (l ? `<p>${esc(l)}</p>` : '')).join('\n');
  for (const r of recipients) {
    if (!r.email) continue;
    await queueEmail(trx, {
      agencyId: event.agencyId!, eventId: event.id, eventName: event.name, templateKey: 'report.emergency', recipientKey: r.key, recipientKind: r.kind,
      recipientUserId: r.userId, address: r.email, subject, text, html,
    }, now);
  }
}

/** E-mails the branch's on-call contact when a guided report reaches an emergency. */
export const emergencyAlertHandler: EventHandler = {
  name: 'reporting.emergency-alert',
  events: ['report.emergency'],
  async handle(event, { deps, trx }) {
    if (event.agencyId === null) return;
    await alertOnCall(trx, event, deps.clock.now());
  },
};

/** Sends the tenant's satisfaction survey when a job is completed. */
export const surveyHandler: EventHandler = {
  name: 'reporting.survey',
  events: ['job.status_changed'],
  async handle(event, { deps, trx }) {
    const p = event.payload as { job_id: number; to_status_id: number };
    if (p.to_status_id !== STATUS.completed) return;
    await sendSurvey(deps, trx, event, p.job_id);
  },
};

/** Sends the tenant a visit link when a contractor is assigned without a date, or a booked visit was missed. */
export const visitLinkHandler: EventHandler = {
  name: 'reporting.visit-link',
  events: ['job.assigned', 'job.visit_missed'],
  async handle(event, { deps, trx }) {
    const p = event.payload as { job_id: number; scheduled_for?: string | null };
    if (event.name === 'job.assigned' && p.scheduled_for) return;
    await sendVisitLink(deps, trx, event, p.job_id);
  },
};

/** Drops an erased tenant's words from guided reports and surveys and ends their survey and visit links. */
export const reportingErasureHandler: EventHandler = {
  name: 'reporting.erasure',
  events: ['tenant.erased'],
  async handle(event, { deps, trx }) {
    const tenantId = (event.payload as { tenant_id: number }).tenant_id;
    await repo.eraseTenantWords(trx, tenantId, deps.clock.now());
    await visitLinks.endTenantLinks(trx, tenantId, deps.clock.now());
  },
};
