/**
 * E-mails of works orders and competing quotes (docs/works-orders.md), after commit through the
 * outbox, from the agency-editable templates (docs/messaging.md): `works_order.sent` e-mails the
 * contractor its works-order link; `quote_request.sent` each contractor asked its quote link;
 * `quote_request.awarded` the winner and the others. The token is signed here, from the link row,
 * so it never enters the outbox; the delivery row drops the body once sent. Also
 * `quote.approved`: a quote approved the ordinary way awards the request it answers.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import type { DomainEvent, EventHandler } from '../../../events/index.ts';
import { formatLondonDateTime } from '../../../lib/london-time.ts';
import { priorityWords, queueTemplatedEmail } from '../../messaging/messaging/index.ts';
import { formatPounds } from '../money/index.ts';
import { tokenOf, worksOrderKey } from './links.ts';
import { awardFromQuote } from './quote-requests.service.ts';
import * as repo from './works-orders.repository.ts';

function jobVars(j: Awaited<ReturnType<typeof repo.jobForLink>>, publicUrl: string): Record<string, string> {
  return {
    'agency.name': j.agency_name, 'job.reference': j.reference, 'job.title': j.title, 'job.description': j.description,
    'job.address': j.line1 ? [j.line1, j.town, j.postcode].filter(Boolean).join(', ') : '', 'job.status': j.status, 'job.priority': priorityWords(j.priority),
    'job.url': `${publicUrl}/jobs/${j.uuid}`,
  };
}

async function mailLink(deps: AppDeps, trx: DbOrTrx, event: DomainEvent, link: repo.LinkRow, templateKey: string, extra: Record<string, string>): Promise<void> {
  if (!link.contractor_email || link.revoked_at !== null || link.used_at !== null) return;
  const now = deps.clock.now();
  const key = await worksOrderKey(trx, now);
  const url = `${deps.config.mail.publicUrl}/works-orders/link/${tokenOf(key, link)}`;
  const j = await repo.jobForLink(trx, link.job_id);
  await queueTemplatedEmail(trx, {
    agencyId: link.agency_id, eventId: event.id, eventName: event.name, templateKey, recipientKey: `contractor:${link.contractor_id}`, recipientKind: 'contractor',
    recipientUserId: null, recipientName: link.contact_name ?? link.company_name, address: link.contractor_email,
    vars: { ...jobVars(j, deps.config.mail.publicUrl), 'link.url': url, 'link.expires_at': formatLondonDateTime(new Date(link.expires_at)), ...extra },
  }, now);
}

/** Sends the works order, the invitations to quote and the award news. */
export const worksOrderMailHandler: EventHandler = {
  name: 'works-orders.mail',
  events: ['works_order.sent', 'quote_request.sent', 'quote_request.awarded'],
  async handle(event, { deps, trx }) {
    const p = event.payload as { link_id?: number; quote_request_id?: number; contractor_id?: number; gross_pence?: number };
    if (event.name === 'works_order.sent') {
      const link = await repo.findLinkById(trx, p.link_id!);
      if (link && link.agency_id === event.agencyId) await mailLink(deps, trx, event, link, 'works_order.sent', {});
      return;
    }
    const r = await repo.quoteRequestById(trx, p.quote_request_id!);
    if (r.agency_id !== event.agencyId) return;
    if (event.name === 'quote_request.sent') {
      for (const link of (await repo.linksOfJob(trx, r.job_id)).filter((l) => l.quote_request_id === r.id)) {
        await mailLink(deps, trx, event, link, 'quote_request.sent', { 'quote.deadline': formatLondonDateTime(new Date(r.deadline_at)), 'quote.notes': r.notes ?? '' });
      }
      return;
    }
    const j = await repo.jobForLink(trx, r.job_id);
    const vars = jobVars(j, deps.config.mail.publicUrl);
    const now = deps.clock.now();
    for (const i of await repo.invitationsOf(trx, [r.id])) {
      if (!i.contractor_email || i.status === 'declined') continue;
      const won = i.contractor_id === p.contractor_id;
      await queueTemplatedEmail(trx, {
        agencyId: r.agency_id, eventId: event.id, eventName: event.name, templateKey: won ? 'quote_request.awarded' : 'quote_request.not_awarded',
        recipientKey: `contractor:${i.contractor_id}`, recipientKind: 'contractor', recipientUserId: null, recipientName: i.contact_name ?? i.company_name, address: i.contractor_email,
        vars: { ...vars, 'quote.total': won ? formatPounds(p.gross_pence ?? 0) : '' },
      }, now);
    }
  },
};

/** A quote approved the ordinary way closes the request it answers (idempotent). */
export const quoteAwardHandler: EventHandler = {
  name: 'works-orders.quote-award',
  events: ['quote.approved'],
  async handle(event, { deps, trx }) {
    await awardFromQuote(trx, deps.clock.now(), (event.payload as { quote_id: number }).quote_id, null);
  },
};
