/**
 * Recharges follow the contractor invoice's domain events, after commit through the outbox
 * (docs/money.md "Recharges"): `invoice.issued` and `credit_note.issued` make the recharges of the
 * invoice or credit note; `invoice.voided` cancels them. Each runs in the handler's transaction and
 * does nothing the second time (recharges exist / none left active).
 */
import type { EventHandler } from '../../../events/index.ts';
import { cancelRechargesOf, makeRecharges } from './recharges.service.ts';

/** Makes and cancels recharges. */
export const rechargeHandler: EventHandler = {
  name: 'recharges.invoice',
  events: ['invoice.issued', 'credit_note.issued', 'invoice.voided'],
  async handle(event, { deps, trx }) {
    const now = deps.clock.now();
    const p = event.payload as { invoice_id: number; credit_note_id?: number };
    if (event.name === 'invoice.issued') await makeRecharges(trx, p.invoice_id, now);
    else if (event.name === 'credit_note.issued' && p.credit_note_id !== undefined) await makeRecharges(trx, p.credit_note_id, now);
    else if (event.name === 'invoice.voided' && event.agencyId !== null) await cancelRechargesOf(trx, p.invoice_id, event.agencyId, now);
  },
};
