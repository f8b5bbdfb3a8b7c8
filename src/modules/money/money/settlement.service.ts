/**
 * Settling invoices (docs/money.md "Payments"): payments (part payments allowed; more than the
 * outstanding amount is 409), credit notes (the only correction of an issued invoice) and the
 * periodic task that marks invoices overdue once per cluster.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { AppError, conflict, forbidden, invalidParam } from '../../../core/errors.ts';
import { toIso } from '../../../lib/clock.ts';
import { newUuid } from '../../../lib/crypto.ts';
import { emitEvent, type PeriodicTask } from '../../../events/index.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { assertStaffMayWrite, jobRef, partyOf } from '../../jobs/jobs/index.ts';
import { computeLines } from './lines.ts';
import * as lrepo from './lines.repository.ts';
import type { CreditNoteInput, InvoiceDto, PaymentInput } from './invoices.schemas.ts';
import * as repo from './invoices.repository.ts';
import { invoiceDtoById, invoiceNumber, invoiceRef, visibleInvoice } from './invoices.service.ts';
import { formatPounds, isoDate } from './vat.ts';

const PAYABLE = ['issued', 'part_paid', 'overdue'];
const CREDITABLE = [...PAYABLE, 'paid'];

/** Status after money came in: paid when nothing is outstanding, overdue stays overdue, else part paid. */
function settledStatus(current: string, outstanding: number): string {
  if (outstanding === 0) return 'paid';
  return current === 'overdue' ? 'overdue' : 'part_paid';
}

/**
 * POST /api/invoices/{uuid}/payments (staff): records a payment and moves the invoice to
 * part_paid or paid.
 * @returns the payment and the invoice after it
 * @throws 400 paid_on in the future, 403, 404, 409 invoice not payable (draft, paid, void, credit
 *   note) or amount above the outstanding amount
 */
export async function recordPayment(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, input: PaymentInput) {
  if (partyOf(auth) !== 'staff') throw forbidden();
  const found = await visibleInvoice(deps.db, auth, uuid);
  const now = deps.clock.now();
  if (input.paid_on > isoDate(now)) throw invalidParam('paid_on');
  const paymentUuid = newUuid();
  await deps.db.transaction().execute(async (trx) => {
    const inv = await repo.lockInvoice(trx, found.id);
    const job = await repo.jobOf(trx, inv.job_id);
    assertStaffMayWrite(auth, job);
    if (inv.kind !== 'invoice' || !PAYABLE.includes(inv.status)) throw conflict(`Payments are recorded against issued invoices; this one is ${inv.status}`);
    const outstanding = inv.gross_pence - inv.paid_pence - inv.credited_pence;
    if (input.amount_pence > outstanding) throw conflict(`A payment of ${formatPounds(input.amount_pence)} exceeds the ${formatPounds(outstanding)} outstanding`);
    const left = outstanding - input.amount_pence;
    const status = settledStatus(inv.status, left);
    const paymentId = await repo.insertPayment(trx, {
      uuid: paymentUuid, agency_id: inv.agency_id, invoice_id: inv.id, amount_pence: input.amount_pence, paid_on: input.paid_on, method: input.method,
      reference: input.reference ?? null, recorded_by_user_id: auth.userId, created_at: now,
    });
    await repo.updateInvoice(trx, inv.id, { paid_pence: inv.paid_pence + input.amount_pence, status, ...(status === 'paid' ? { paid_at: now } : {}), updated_at: now });
    const ref = { ...jobRef(job), ...invoiceRef(inv) };
    await emitEvent(trx, now, { name: 'payment.recorded', agencyId: inv.agency_id, payload: { ...ref, payment_id: paymentId, amount_pence: input.amount_pence, outstanding_pence: left } });
    if (status === 'paid') await emitEvent(trx, now, { name: 'invoice.paid', agencyId: inv.agency_id, payload: ref });
    await recordActivity(trx, actor, now, { action: 'payment.record', resourceType: 'invoice', resourceId: inv.id, agencyId: inv.agency_id, details: { payment_id: paymentId, amount_pence: input.amount_pence, status } });
  });
  const invoice = await invoiceDtoById(deps.db, found.id);
  const { rows } = await repo.listPayments(deps.db, found.id, { limit: 200, offset: 0 });
  const p = rows.find((r) => r.uuid === paymentUuid)!;
  return { payment: toPaymentDto(p), invoice };
}

/** Wire shape of a payment row. */
export function toPaymentDto(p: Awaited<ReturnType<typeof repo.listPayments>>['rows'][number]) {
  return { uuid: p.uuid, amount_pence: p.amount_pence, paid_on: p.paid_on, method: p.method, reference: p.reference, recorded_by: p.recorded_by, created_at: toIso(p.created_at) };
}

/** GET /api/invoices/{uuid}/payments: a page of the invoice's payments, oldest first. @throws 404 */
export async function listPayments(deps: AppDeps, auth: AuthContext, uuid: string, page: { limit: number; offset: number }) {
  const inv = await visibleInvoice(deps.db, auth, uuid);
  const { rows, total } = await repo.listPayments(deps.db, inv.id, page);
  return { rows: rows.map(toPaymentDto), total };
}

/**
 * Where a credit note's lines go beyond what the invoice charged: for each VAT rate code, the net
 * and the VAT credited (earlier credit notes plus these lines) may not exceed the invoice's net and
 * VAT at that code, and a code the invoice never charged may not be credited (HMRC VAT Notice 700,
 * 18.2: a credit note corrects the VAT of the original supply, at its rate).
 * @returns the 409 message, or null when the credit is within the invoice
 */
export function creditBeyondCharged(
  byRate: { charged: Map<string, { net: number; vat: number }>; credited: Map<string, { net: number; vat: number }> },
  lines: readonly { vat_rate_code: string; net_pence: number; vat_pence: number }[],
): string | null {
  const adding = new Map<string, { net: number; vat: number }>();
  for (const l of lines) {
    const a = adding.get(l.vat_rate_code) ?? { net: 0, vat: 0 };
    adding.set(l.vat_rate_code, { net: a.net + l.net_pence, vat: a.vat + l.vat_pence });
  }
  for (const [code, a] of adding) {
    const charged = byRate.charged.get(code);
    if (!charged) return `The invoice charged nothing at the ${code} rate: a credit note credits only the rates the invoice charged`;
    const before = byRate.credited.get(code) ?? { net: 0, vat: 0 };
    if (before.net + a.net > charged.net) return `A credit of ${formatPounds(a.net)} net at the ${code} rate exceeds the ${formatPounds(charged.net - before.net)} left to credit at that rate`;
    if (before.vat + a.vat > charged.vat) return `A credit of ${formatPounds(a.vat)} VAT at the ${code} rate exceeds the ${formatPounds(charged.vat - before.vat)} VAT left to credit at that rate`;
  }
  return null;
}

/**
 * POST /api/invoices/{uuid}/credit-notes (staff): issues a credit note (next CN number, today)
 * against an issued, part-paid, overdue or paid invoice; against a contractor's own invoice it may
 * record the contractor's own credit note (`contractor_reference`, `supplier_invoice_date`: its
 * number and date are then the credit note's own, VAT Regulations 1995 reg. 14(1)(a), (b)), at the invoice's VAT registration and the
 * rates of its own date, within what it charged per rate (creditBeyondCharged); credited in full the
 * invoice is `credited` (not paid). With
 * the reason it cites (HMRC VAT Notice 700, 18.2.6). The invoice's outstanding amount falls by the
 * credit's gross and it is paid when nothing is left; the part of the credit beyond what is
 * outstanding (an invoice already paid) is a refund the contractor owes (`refund_due_pence`).
 * @returns the credit note
 * @throws 400 lines; contractor_reference without supplier_invoice_date or the other way round, a
 *   date in the future or before the invoice's own date, either against a self-billed invoice;
 *   403, 404, 409 invoice not creditable (draft, void, credited, credit note), credit
 *   above what is left to credit (gross - credited so far), at a rate it did not charge or above
 *   what it charged at a rate
 */
export async function issueCreditNote(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, input: CreditNoteInput): Promise<InvoiceDto> {
  if (partyOf(auth) !== 'staff') throw forbidden();
  const found = await visibleInvoice(deps.db, auth, uuid);
  const reason = input.reason.trim();
  if (!reason) throw invalidParam('reason');
  const now = deps.clock.now();
  const today = isoDate(now);
  const ownRef = input.contractor_reference?.trim() || null;
  const ownDate = input.supplier_invoice_date ?? null;
  if (ownRef !== null && ownDate === null) throw invalidParam("supplier_invoice_date (the date of the contractor's own credit note, with contractor_reference)");
  if (ownDate !== null && ownRef === null) throw invalidParam("contractor_reference (the number of the contractor's own credit note, with supplier_invoice_date)");
  if (ownDate !== null && ownDate > today) throw invalidParam('supplier_invoice_date (not in the future)');
  const id = await deps.db.transaction().execute(async (trx) => {
    const inv = await repo.lockInvoice(trx, found.id);
    const job = await repo.jobOf(trx, inv.job_id);
    assertStaffMayWrite(auth, job);
    if (inv.kind !== 'invoice' || !CREDITABLE.includes(inv.status)) throw conflict(`Credit notes are issued against issued invoices; this one is ${inv.status}`);
    // The contractor's own credit note corrects its own invoice; a self-billed invoice is corrected by the agency's (VAT Notice 700/62, 4.1; VAT Notice 700, 18.2).
    if (ownRef !== null && inv.contractor_reference === null) {
      throw new AppError('bad_request', "A self-billed invoice is credited by the agency's own credit note: leave out contractor_reference and supplier_invoice_date");
    }
    const invoiceOwnDate = inv.supplier_date_text ?? inv.issue_text;
    if (ownDate !== null && invoiceOwnDate !== null && ownDate < invoiceOwnDate) throw invalidParam(`supplier_invoice_date (on or after the invoice's own date ${invoiceOwnDate})`);
    // At the rates of the invoice's own date (the rates it charged), within what it charged per rate.
    const { lines, totals } = await computeLines(trx, inv.agency_id, inv.supplier_date_text ?? inv.issue_text ?? today, inv.vat_registered, input.lines);
    const creditable = inv.gross_pence - inv.credited_pence;
    if (totals.gross_pence > creditable) throw conflict(`A credit of ${formatPounds(totals.gross_pence)} exceeds the ${formatPounds(creditable)} left to credit on this invoice`);
    const beyond = creditBeyondCharged(await repo.chargedAndCreditedByRate(trx, inv.id), lines);
    if (beyond) throw conflict(beyond);
    const outstanding = Math.max(0, inv.gross_pence - inv.paid_pence - inv.credited_pence);
    const refund = Math.max(0, totals.gross_pence - outstanding);
    const number = await repo.nextNumber(trx, inv.agency_id, 'credit_note_number');
    const cnId = await repo.insertInvoice(trx, {
      uuid: newUuid(), agency_id: inv.agency_id, job_id: inv.job_id, contractor_id: inv.contractor_id, kind: 'credit_note', credited_invoice_id: inv.id, number,
      status: 'issued', contractor_reference: ownRef, supplier_invoice_date: ownDate, vat_treatment: inv.vat_treatment, vat_registered: inv.vat_registered, contractor_vat_number: inv.contractor_vat_number, payment_terms_days: 0,
      issue_date: today, due_date: today, supply_date: today, ...totals, refund_due_pence: refund, notes: reason, created_by_user_id: auth.userId, issued_at: now, paid_at: null,
      overdue_at: null, voided_at: null, void_reason: null, created_at: now, updated_at: now,
    });
    await lrepo.replaceLines(trx, { invoiceId: cnId }, lines);
    const left = outstanding - (totals.gross_pence - refund);
    // Credited in full: the invoice is cancelled by its credit notes, not paid (VAT Notice 700, 18.2).
    const fullyCredited = inv.credited_pence + totals.gross_pence === inv.gross_pence;
    const status = fullyCredited ? 'credited' : inv.status === 'paid' ? 'paid' : settledStatus(inv.status, left);
    await repo.updateInvoice(trx, inv.id, { credited_pence: inv.credited_pence + totals.gross_pence, status, ...(status === 'paid' && inv.status !== 'paid' ? { paid_at: now } : {}), updated_at: now });
    const ref = { ...jobRef(job), ...invoiceRef(inv) };
    await emitEvent(trx, now, { name: 'credit_note.issued', agencyId: inv.agency_id, payload: { ...ref, credit_note_id: cnId, credit_note_number: invoiceNumber('credit_note', number)!, refund_due_pence: refund } });
    if (status === 'paid' && inv.status !== 'paid') await emitEvent(trx, now, { name: 'invoice.paid', agencyId: inv.agency_id, payload: ref });
    await recordActivity(trx, actor, now, { action: 'credit_note.issue', resourceType: 'invoice', resourceId: cnId, agencyId: inv.agency_id, details: { credited_invoice_id: inv.id, gross_pence: totals.gross_pence, refund_due_pence: refund } });
    return cnId;
  });
  return invoiceDtoById(deps.db, id);
}

/**
 * Marks issued and part-paid invoices past their due date overdue and emits `invoice.overdue` for
 * each, in one transaction. The conditional update matches a row only while it is not yet overdue,
 * so when several nodes run the tick only one marks (and announces) each invoice.
 * @returns how many invoices it marked
 */
export async function markOverdueInvoices(deps: AppDeps): Promise<number> {
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    const rows = await repo.markOverdue(trx, isoDate(now), now);
    for (const r of rows) {
      const job = await repo.jobOf(trx, r.job_id);
      await emitEvent(trx, now, {
        name: 'invoice.overdue', agencyId: r.agency_id,
        payload: { ...jobRef(job), ...invoiceRef({ ...r, kind: 'invoice' }), due_date: r.due_date, outstanding_pence: r.gross_pence - r.paid_pence - r.credited_pence },
      });
      await recordActivity(trx, { auth: null, ip: 'system' }, now, { action: 'invoice.overdue', resourceType: 'invoice', resourceId: r.id, agencyId: r.agency_id, userName: 'system' });
    }
    return rows.length;
  });
}

/** `invoices.overdue`: every day at 06:00 UTC (and safe to run more often). */
export const overdueTask: PeriodicTask = {
  name: 'invoices.overdue',
  cron: '0 6 * * *',
  run: async (deps) => {
    await markOverdueInvoices(deps);
  },
};
