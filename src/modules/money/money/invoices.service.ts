/**
 * Invoices (docs/money.md "Invoices"; Property Meld / Buildium bills): a contractor's invoice
 * against a completed job. Drafts are written by the contractor or staff and change freely; issuing
 * (staff) recomputes VAT at the issue date's rates, takes the agency's next number in the issuing
 * transaction (no gaps under concurrency), sets issue and due dates and moves a Completed job to
 * Invoiced. An issued invoice is immutable: corrections are credit notes (settlement.service.ts).
 *
 * States: draft -> issued | void; issued -> part_paid | paid | overdue | void (nothing paid or
 * credited); part_paid -> paid | overdue; overdue -> paid; paid and void are final. Any other
 * move is 409.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { AppError, conflict, forbidden, invalidParam, notFound } from '../../../core/errors.ts';
import { toIso, toIsoOrNull } from '../../../lib/clock.ts';
import { newUuid } from '../../../lib/crypto.ts';
import { emitEvent } from '../../../events/index.ts';
import { recordActivity, type DbOrTrx } from '../../../core/activity/index.ts';
import { assertStaffMayWrite, jobRef, moveJob, partyOf, visibleJob } from '../../jobs/jobs/index.ts';
import { lockJob } from '../../jobs/jobs/index.ts';
import { STATUS, STATUS_NAMES } from '../../jobs/jobs/index.ts';
import { moneyScope, readAgency } from './access.ts';
import { computeLines } from './lines.ts';
import * as lrepo from './lines.repository.ts';
import type { CreateInvoiceInput, InvoiceDto, InvoiceStatus, ListInvoicesFilter, UpdateInvoiceInput } from './invoices.schemas.ts';
import { INVOICE_STATUSES } from './invoices.schemas.ts';
import * as repo from './invoices.repository.ts';
import * as prepo from './pricing.repository.ts';
import { addDays, isoDate, taxPoint } from './vat.ts';
import { sageAccountRef } from './accounting-sheet.ts';
import { selfBillingProblem } from './pricing.service.ts';

/** INV-000001 / CN-000001, or null while draft. */
export function invoiceNumber(kind: string, number: number | null): string | null {
  return number === null ? null : `${kind === 'credit_note' ? 'CN' : 'INV'}-${String(number).padStart(6, '0')}`;
}

/**
 * The number of a self-billed invoice in its supplier's own series (VAT Regulations 1995 reg.
 * 14(1)(a): a sequential number that identifies the invoice uniquely; the self-biller's conditions
 * of HMRC VAT Notice 700/62 paragraph 4.1):
 * `SB-<the contractor's letters>-000001`, or null.
 */
export function selfBillingNumber(contractorName: string, n: number | null): string | null {
  return n === null ? null : `SB-${sageAccountRef(contractorName)}-${String(n).padStart(6, '0')}`;
}

/**
 * The number the VAT invoice itself carries (VAT Regulations 1995 reg. 14(1)(a)): the contractor's
 * own number for an invoice it issued, the supplier series number for a self-billed one, else (a
 * draft, or an invoice of an earlier release) the agency's register number.
 */
export function ownNumber(r: { contractor_reference: string | null; contractor_name: string; self_billing_number: number | null; number: number | null }): string | null {
  return r.contractor_reference ?? selfBillingNumber(r.contractor_name, r.self_billing_number) ?? invoiceNumber('invoice', r.number);
}

/** Fields every invoice event carries. */
export function invoiceRef(inv: { id: number; uuid: string; kind: string; number: number | null; contractor_id: number; gross_pence: number }) {
  return { invoice_id: inv.id, invoice_uuid: inv.uuid, invoice_number: invoiceNumber(inv.kind, inv.number), contractor_id: inv.contractor_id, gross_pence: inv.gross_pence };
}

/** Wire shapes of invoice rows with their lines. */
export async function toInvoiceDtos(db: DbOrTrx, rows: repo.InvoiceRow[]): Promise<InvoiceDto[]> {
  const lines = await lrepo.linesOf(db, 'invoice_id', rows.map((r) => r.id));
  return rows.map((r) => {
    const credit = r.kind === 'credit_note';
    // A document's own date: the contractor's (its invoice or credit note), else the issue date.
    const invoiceDate = r.issue_date === null ? null : (r.supplier_invoice_date ?? r.issue_date);
    const credited = { contractor_reference: r.credited_contractor_reference, contractor_name: r.contractor_name, self_billing_number: r.credited_self_billing_number, number: r.credited_number };
    return {
    uuid: r.uuid, kind: r.kind, invoice_number: invoiceNumber(r.kind, r.number), status: r.status, job_uuid: r.job_uuid, job_reference: r.job_reference,
    vat_invoice_number: credit ? (r.contractor_reference ?? invoiceNumber(r.kind, r.number)) : r.issue_date === null ? null : ownNumber(r),
    contractor_uuid: r.contractor_uuid, contractor_name: r.contractor_name, contractor_reference: r.contractor_reference, vat_registered: r.vat_registered,
    contractor_vat_number: r.contractor_vat_number, credited_invoice_uuid: r.credited_invoice_uuid,
    credited_invoice_number: credit ? ownNumber(credited) : null,
    credited_invoice_date: credit ? (r.credited_supplier_invoice_date ?? r.credited_issue_date) : null,
    self_billed: (credit ? r.credited_contractor_reference : r.contractor_reference) === null,
    vat_treatment: r.vat_treatment as 'recharge' | 'disbursement',
    supplier_invoice_date: r.supplier_invoice_date, invoice_date: invoiceDate,
    issue_date: r.issue_date, supply_date: r.supply_date, tax_point: credit ? invoiceDate : taxPoint(invoiceDate, r.supply_date), due_date: r.due_date,
    payment_terms_days: r.payment_terms_days, net_pence: r.net_pence, vat_pence: r.vat_pence, gross_pence: r.gross_pence, paid_pence: r.paid_pence,
    credited_pence: r.credited_pence, outstanding_pence: r.kind === 'invoice' && r.status !== 'void' ? Math.max(0, r.gross_pence - r.paid_pence - r.credited_pence) : 0,
    refund_due_pence: r.kind === 'invoice' ? Math.max(0, r.paid_pence + r.credited_pence - r.gross_pence) : r.refund_due_pence,
    notes: r.notes, lines: lines.get(r.id) ?? [], issued_at: toIsoOrNull(r.issued_at), paid_at: toIsoOrNull(r.paid_at), voided_at: toIsoOrNull(r.voided_at),
    void_reason: r.void_reason, created_at: toIso(r.created_at), updated_at: toIso(r.updated_at),
    };
  });
}

/** The invoice in the caller's scope. @throws 404 'Invoice not found' */
export async function visibleInvoice(db: DbOrTrx, auth: AuthContext, uuid: string): Promise<repo.InvoiceRow> {
  const row = await repo.findInvoice(db, moneyScope(auth), uuid);
  if (!row) throw notFound('Invoice');
  return row;
}

/** The invoice by id as InvoiceDto (after a write). */
export async function invoiceDtoById(db: DbOrTrx, id: number): Promise<InvoiceDto> {
  return (await toInvoiceDtos(db, [await repo.invoiceById(db, id)]))[0]!;
}

/**
 * GET /api/invoices: a page of invoices and credit notes in scope, sorted by `sort`
 * (INVOICE_SORTS, default created_at) in `order` (default desc: newest first), and, per status,
 * count, gross and outstanding pence over the same filters (status aside).
 * @throws 404 'Contractor not found' / 'Job not found' for an unknown filter uuid
 */
export async function listInvoices(deps: AppDeps, auth: AuthContext, q: ListInvoicesFilter) {
  const filter: repo.InvoiceFilter = { ...(q.status ? { status: q.status } : {}), ...(q.kind ? { kind: q.kind } : {}), ...(q.from_date ? { from: q.from_date } : {}), ...(q.to_date ? { to: q.to_date } : {}) };
  if (q.contractor_uuid) {
    const c = await prepo.findContractor(deps.db, readAgency(auth), q.contractor_uuid);
    if (!c) throw notFound('Contractor');
    filter.contractorId = c.id;
  }
  if (q.job_uuid) filter.jobId = (await visibleJob(deps.db, auth, q.job_uuid)).id;
  const page = { limit: q.limit, offset: q.offset, sort: q.sort ?? 'created_at', order: q.order ?? 'desc' } as const;
  const { rows, total, totals } = await repo.listInvoices(deps.db, moneyScope(auth), filter, page);
  const byStatus: Record<string, { count: number; gross_pence: number; outstanding_pence: number }> = {};
  for (const s of INVOICE_STATUSES) byStatus[s] = { count: 0, gross_pence: 0, outstanding_pence: 0 };
  for (const t of totals) byStatus[t.status] = { count: t.count, gross_pence: t.gross_pence, outstanding_pence: t.status === 'void' ? 0 : t.outstanding_pence };
  return { rows: await toInvoiceDtos(deps.db, rows), total, totals: byStatus };
}

/** GET /api/invoices/{uuid}. @throws 404 'Invoice not found' */
export async function getInvoice(deps: AppDeps, auth: AuthContext, uuid: string): Promise<InvoiceDto> {
  return (await toInvoiceDtos(deps.db, [await visibleInvoice(deps.db, auth, uuid)]))[0]!;
}

/**
 * POST /api/invoices: a draft invoice against a Completed (or already Invoiced) job; totals by the
 * server at today's VAT rates and the contractor's registration.
 * @throws 400 lines, contractor_uuid or supply_date in the future, 403 write rights, 404 job or contractor, 409 job status
 */
export async function createInvoice(deps: AppDeps, auth: AuthContext, actor: Actor, input: CreateInvoiceInput): Promise<InvoiceDto> {
  const job = await visibleJob(deps.db, auth, input.job_uuid);
  const jobRow = await repo.jobOf(deps.db, job.id);
  let contractorId: number;
  if (partyOf(auth) === 'contractor') {
    if (input.contractor_uuid && input.contractor_uuid !== job.contractor_uuid) throw forbidden('Contractors invoice as themselves');
    contractorId = auth.contractorId!;
  } else {
    assertStaffMayWrite(auth, jobRow);
    const c = input.contractor_uuid ? await prepo.findContractor(deps.db, jobRow.agency_id, input.contractor_uuid) : null;
    if (input.contractor_uuid && !c) throw notFound('Contractor');
    const id = c?.id ?? job.contractor_id;
    if (id === null) throw invalidParam('contractor_uuid');
    contractorId = id;
  }
  if (jobRow.status_id !== STATUS.completed && jobRow.status_id !== STATUS.invoiced) {
    throw conflict(`Invoices are raised against completed jobs; this job is ${STATUS_NAMES[jobRow.status_id]}`);
  }
  const now = deps.clock.now();
  if (input.supply_date && input.supply_date > isoDate(now)) throw invalidParam('supply_date');
  if (input.supplier_invoice_date && input.supplier_invoice_date > isoDate(now)) throw invalidParam('supplier_invoice_date');
  const vat = await lrepo.contractorVat(deps.db, contractorId);
  const terms = input.payment_terms_days ?? (await prepo.settings(deps.db, jobRow.agency_id)).payment_terms_days;
  const { lines, totals } = await computeLines(deps.db, jobRow.agency_id, isoDate(now), vat.registered, input.lines);
  const id = await deps.db.transaction().execute(async (trx) => {
    const invoiceId = await repo.insertInvoice(trx, {
      uuid: newUuid(), agency_id: jobRow.agency_id, job_id: jobRow.id, contractor_id: contractorId, kind: 'invoice', credited_invoice_id: null, number: null,
      status: 'draft', contractor_reference: input.contractor_reference ?? null, vat_registered: vat.registered, contractor_vat_number: vat.vat_number,
      payment_terms_days: terms, issue_date: null, due_date: null, supply_date: input.supply_date ?? null, supplier_invoice_date: input.supplier_invoice_date ?? null, ...totals, notes: input.notes ?? null, created_by_user_id: auth.userId,
      issued_at: null, paid_at: null, overdue_at: null, voided_at: null, void_reason: null, created_at: now, updated_at: now,
    });
    await lrepo.replaceLines(trx, { invoiceId }, lines);
    await recordActivity(trx, actor, now, { action: 'invoice.create', resourceType: 'invoice', resourceId: invoiceId, agencyId: jobRow.agency_id, details: { job_id: jobRow.id, gross_pence: totals.gross_pence } });
    return invoiceId;
  });
  return invoiceDtoById(deps.db, id);
}

/** 403 unless the caller may write this invoice (its contractor, or staff with write rights on the job). */
async function assertMayWrite(db: DbOrTrx, auth: AuthContext, inv: { contractor_id: number; job_id: number }) {
  if (partyOf(auth) === 'contractor') {
    if (inv.contractor_id !== auth.contractorId) throw forbidden();
    return;
  }
  assertStaffMayWrite(auth, await repo.jobOf(db, inv.job_id));
}

/** 409 for a change of an invoice that is no longer a draft. */
function assertDraft(inv: { status: string }, what: string) {
  if (inv.status !== 'draft') throw conflict(`Cannot ${what} an invoice that is ${inv.status}: issued invoices are corrected by credit note`);
}

/**
 * PUT /api/invoices/{uuid}: changes a draft (lines, reference, terms, notes).
 * @throws 400 empty body or supply_date in the future, 403, 404, 409 not a draft
 */
export async function updateInvoice(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, input: UpdateInvoiceInput): Promise<InvoiceDto> {
  const found = await visibleInvoice(deps.db, auth, uuid);
  const { lines: lineInput, ...rest } = input;
  if (Object.keys(rest).length === 0 && lineInput === undefined) throw invalidParam('body');
  await assertMayWrite(deps.db, auth, found);
  const now = deps.clock.now();
  if (rest.supply_date && rest.supply_date > isoDate(now)) throw invalidParam('supply_date');
  if (rest.supplier_invoice_date && rest.supplier_invoice_date > isoDate(now)) throw invalidParam('supplier_invoice_date');
  await deps.db.transaction().execute(async (trx) => {
    const inv = await repo.lockInvoice(trx, found.id);
    assertDraft(inv, 'change');
    let totals = {};
    if (lineInput) {
      const computed = await computeLines(trx, inv.agency_id, isoDate(now), inv.vat_registered, lineInput);
      await lrepo.replaceLines(trx, { invoiceId: inv.id }, computed.lines);
      totals = computed.totals;
    }
    await repo.updateInvoice(trx, inv.id, { ...rest, ...totals, updated_at: now });
    await recordActivity(trx, actor, now, { action: 'invoice.update', resourceType: 'invoice', resourceId: inv.id, agencyId: inv.agency_id });
  });
  return invoiceDtoById(deps.db, found.id);
}

/**
 * What a VAT invoice must carry that this one lacks, in words for the 400 (VAT Regulations 1995
 * reg. 14(1); HMRC VAT Notice 700, 16.3; Notice 700/62 for self-billing): the supplier's name and
 * address, its VAT number when registered, the customer's name and address (the agency under the
 * recharge treatment, the property's landlords under the disbursement treatment), the contractor's
 * own number and date for an invoice it issued, and for a self-billed one an agreement in force.
 * @returns the missing particulars, empty when the invoice may be issued
 */
async function missingParticulars(trx: DbOrTrx, inv: repo.LockedInvoice, vat: { registered: boolean; vat_number: string | null }, treatment: prepo.VatTreatment, today: string): Promise<string[]> {
  const missing: string[] = [];
  const supplier = await repo.supplierOf(trx, inv.contractor_id);
  if (!supplier.address_line1 || !supplier.address_town || !supplier.address_postcode) missing.push("the contractor's business address (the supplier's address: PUT /api/contractors/{uuid})");
  if (vat.registered && !vat.vat_number) missing.push("the contractor's VAT registration number");
  if (treatment === 'recharge') {
    const agency = await repo.agencyParticulars(trx, inv.agency_id);
    if (!agency.registered_line1 || !agency.registered_town || !agency.registered_postcode) missing.push("the agency's registered address (the customer's address)");
  } else {
    const owners = await repo.landlordCustomersOfJob(trx, inv.job_id);
    if (owners.length === 0) missing.push("a landlord of the job's property (the customer of a disbursement)");
    for (const o of owners) if (!o.address_line1 || !o.address_town || !o.address_postcode) missing.push(`the address of landlord ${o.name} (a customer of the disbursement)`);
  }
  if (inv.contractor_reference !== null) {
    if (inv.supplier_date_text === null) missing.push("the date of the contractor's own invoice (supplier_invoice_date)");
  } else if (treatment === 'disbursement') {
    missing.push("the contractor's own invoice number (contractor_reference): under the disbursement treatment the contractor invoices the landlord and the agency does not self-bill");
  } else {
    const problem = selfBillingProblem(await prepo.selfBillingAgreement(trx, inv.contractor_id), today);
    if (problem) missing.push(`${problem}, to self-bill (no contractor_reference)`);
  }
  return missing;
}

/**
 * POST /api/invoices/{uuid}/issue (staff): recomputes the lines at today's VAT rates and the
 * contractor's registration, checks the invoice's mandatory particulars, takes the next INV number
 * of the agency (its register) and, for a self-billed invoice, the next number of the supplier's
 * self-billing series, fixes the agency's VAT treatment on it, sets the issue date (London) and the
 * due date and moves a Completed job to Invoiced, all in one transaction.
 * @throws 400 naming the particulars missing (nothing changes), 403, 404, 409 not a draft
 */
export async function issueInvoice(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string): Promise<InvoiceDto> {
  if (partyOf(auth) !== 'staff') throw forbidden();
  const found = await visibleInvoice(deps.db, auth, uuid);
  const now = deps.clock.now();
  const today = isoDate(now);
  await deps.db.transaction().execute(async (trx) => {
    const inv = await repo.lockInvoice(trx, found.id);
    assertDraft(inv, 'issue');
    const job = await lockJob(trx, inv.job_id);
    assertStaffMayWrite(auth, job);
    const vat = await lrepo.contractorVat(trx, inv.contractor_id);
    const treatment = (await prepo.settings(trx, inv.agency_id)).vat_treatment;
    const missing = await missingParticulars(trx, inv, vat, treatment, today);
    if (missing.length > 0) throw new AppError('bad_request', `Cannot issue this invoice: it needs ${missing.join('; ')}`);
    const number = await repo.nextNumber(trx, inv.agency_id, 'invoice_number');
    const selfBilled = inv.contractor_reference === null;
    const sbNumber = selfBilled ? await repo.nextNumber(trx, inv.agency_id, `self_billing:${inv.contractor_id}`) : null;
    const current = await lrepo.linesOf(trx, 'invoice_id', [inv.id]);
    const lineInput = (current.get(inv.id) ?? []).map((l) => ({ description: l.description, quantity: l.quantity, unit_price_pence: l.unit_price_pence, vat_rate: l.vat_rate as 'standard', price_item_uuid: l.price_item_uuid }));
    // The rates of the tax point's day: the contractor's own invoice date, or today for a self-billed one.
    const { lines, totals } = await computeLines(trx, inv.agency_id, inv.supplier_date_text ?? today, vat.registered, lineInput);
    await lrepo.replaceLines(trx, { invoiceId: inv.id }, lines);
    const dueDate = addDays(inv.supplier_date_text ?? today, inv.payment_terms_days);
    const supplyDate = inv.supply_text ?? (await repo.jobCompletedOn(trx, inv.job_id)) ?? today;
    await repo.updateInvoice(trx, inv.id, {
      ...totals, number, self_billing_number: sbNumber, vat_treatment: treatment, status: 'issued', supply_date: supplyDate, vat_registered: vat.registered, contractor_vat_number: vat.vat_number,
      issue_date: today, due_date: dueDate, issued_at: now, updated_at: now,
    });
    if (job.status_id === STATUS.completed) await moveJob(trx, auth, actor, now, job, { to: STATUS.invoiced, via: 'transition', note: `Invoice ${invoiceNumber('invoice', number)} issued` });
    await emitEvent(trx, now, { name: 'invoice.issued', agencyId: inv.agency_id, payload: { ...jobRef(job), ...invoiceRef({ ...inv, number, gross_pence: totals.gross_pence }), due_date: dueDate } });
    await recordActivity(trx, actor, now, { action: 'invoice.issue', resourceType: 'invoice', resourceId: inv.id, agencyId: inv.agency_id, details: { number: invoiceNumber('invoice', number), gross_pence: totals.gross_pence, vat_treatment: treatment } });
  });
  return invoiceDtoById(deps.db, found.id);
}

/**
 * POST /api/invoices/{uuid}/void (staff): voids a draft, or the record of a contractor's own
 * invoice (issued or overdue, nothing paid or credited: entered in error; its register number stays
 * used). An issued self-billed invoice is never voided: a credit note corrects it.
 * @throws 403, 404, 409 self-billed and issued, paid, part paid, credited or already void
 */
export async function voidInvoice(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, reason: string | null): Promise<InvoiceDto> {
  if (partyOf(auth) !== 'staff') throw forbidden();
  const found = await visibleInvoice(deps.db, auth, uuid);
  if (found.kind !== 'invoice') throw conflict('Credit notes cannot be voided');
  await assertMayWrite(deps.db, auth, found);
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    const inv = await repo.lockInvoice(trx, found.id);
    const voidable: readonly InvoiceStatus[] = ['draft', 'issued', 'overdue'];
    // A self-billed invoice is the agency's own VAT document: once issued only a credit note corrects it (VAT Notice 700, 18.2).
    if (inv.status !== 'draft' && inv.contractor_reference === null) throw conflict('An issued self-billed invoice cannot be voided: issue a credit note');
    if (!voidable.includes(inv.status as InvoiceStatus) || inv.paid_pence > 0 || inv.credited_pence > 0) {
      throw conflict(`Cannot void an invoice that is ${inv.status}${inv.paid_pence > 0 || inv.credited_pence > 0 ? ' with payments or credits' : ''}`);
    }
    await repo.updateInvoice(trx, inv.id, { status: 'void', voided_at: now, void_reason: reason, updated_at: now });
    await emitEvent(trx, now, { name: 'invoice.voided', agencyId: inv.agency_id, payload: { ...jobRef(await repo.jobOf(trx, inv.job_id)), ...invoiceRef(inv), reason } });
    await recordActivity(trx, actor, now, { action: 'invoice.void', resourceType: 'invoice', resourceId: inv.id, agencyId: inv.agency_id, details: { from: inv.status } });
  });
  return invoiceDtoById(deps.db, found.id);
}
