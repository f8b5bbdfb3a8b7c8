/** Schemas of the invoice, credit-note, payment and export endpoints (docs/money.md "Invoices"). */
import { Type, type Static } from 'typebox';
import { Pagination, Sorting } from '../../../http/pagination.ts';
import { DateTime, IsoDate, Nullable, Uuid } from '../../../http/schema-primitives.ts';
import { Line, LinesBody, Pence } from './money.schemas.ts';

export const INVOICE_STATUSES = ['draft', 'issued', 'part_paid', 'paid', 'overdue', 'void', 'credited'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
const StatusSchema = Type.Unsafe<InvoiceStatus>({ type: 'string', enum: [...INVOICE_STATUSES], description: 'draft, issued, part_paid, paid, overdue, void or credited (credit notes for its whole gross)' });
export const PAYMENT_METHODS = ['bank_transfer', 'card', 'cheque', 'cash', 'direct_debit', 'other'] as const;

export const Invoice = Type.Object({
  uuid: Uuid(),
  kind: Type.String({ description: 'invoice or credit_note' }),
  invoice_number: Nullable(Type.String({ description: 'INV-000001 (credit notes CN-000001), sequential per agency without gaps; null while draft' })),
  status: Type.String(),
  job_uuid: Uuid(),
  job_reference: Type.String(),
  vat_invoice_number: Nullable(Type.String({ description: "the number the VAT invoice carries (VAT Regulations 1995 reg. 14(1)(a)): the contractor's own (contractor_reference), SB-<supplier>-000001 for a self-billed invoice (one series per supplier), for a credit note the contractor's own credit note number when it issued one (contractor_reference), else CN-000001; null while draft" })),
  contractor_uuid: Uuid(),
  contractor_name: Type.String(),
  contractor_reference: Nullable(Type.String({ description: "the contractor's own invoice number" })),
  vat_registered: Type.Boolean({ description: 'false: no VAT charged on any line' }),
  contractor_vat_number: Nullable(Type.String()),
  credited_invoice_uuid: Nullable(Uuid('credit notes: the invoice credited')),
  credited_invoice_number: Nullable(Type.String({ description: 'credit notes: the number of the invoice credited' })),
  credited_invoice_date: Nullable(IsoDate('credit notes: the issue date of the invoice credited')),
  self_billed: Type.Boolean({ description: "true when the agency numbers the contractor's invoice (no contractor_reference): a self-billed invoice (HMRC VAT Notice 700/62)" }),
  vat_treatment: Type.Unsafe<'recharge' | 'disbursement'>({ type: 'string', enum: ['recharge', 'disbursement'], description: "the agency's VAT treatment fixed at issue (docs/money.md \"VAT treatment of recharged costs\")" }),
  supplier_invoice_date: Nullable(IsoDate("the date on the contractor's own invoice (with contractor_reference)")),
  invoice_date: Nullable(IsoDate("the VAT invoice's date: the contractor's own date for its invoice, else the issue date; null while draft")),
  issue_date: Nullable(IsoDate('the date the agency issued (self-billed) or posted the invoice, London')),
  supply_date: Nullable(IsoDate('date the work was done (default at issue: the job completion date)')),
  tax_point: Nullable(IsoDate('time of supply: the invoice date (the contractor\'s own date for its invoice), or the supply date when the invoice was issued more than 14 days after it (VATA 1994 s. 6(3) to 6(5))')),
  due_date: Nullable(IsoDate()),
  payment_terms_days: Type.Integer(),
  net_pence: Type.Integer(),
  vat_pence: Type.Integer(),
  gross_pence: Type.Integer(),
  paid_pence: Type.Integer(),
  credited_pence: Type.Integer(),
  outstanding_pence: Type.Integer({ description: 'gross - paid - credited, never below 0' }),
  refund_due_pence: Type.Integer({ description: 'invoices: paid + credited beyond the gross (the contractor owes it back); credit notes: the part of this credit to be refunded' }),
  notes: Nullable(Type.String()),
  lines: Type.Array(Line),
  issued_at: Nullable(DateTime()),
  paid_at: Nullable(DateTime()),
  voided_at: Nullable(DateTime()),
  void_reason: Nullable(Type.String()),
  created_at: DateTime(),
  updated_at: DateTime(),
});
export type InvoiceDto = Static<typeof Invoice>;

const StatusTotal = Type.Object({ count: Type.Integer(), gross_pence: Type.Integer(), outstanding_pence: Type.Integer() });
export const InvoiceListEnvelope = Type.Object({
  success: Type.Literal(true),
  data: Type.Array(Invoice),
  count: Type.Integer({ minimum: 0, description: 'total number of matching records' }),
  totals: Type.Record(Type.String(), StatusTotal, { description: 'per status over the other filters: count, gross and outstanding pence' }),
  message: Type.String(),
});

const fields = {
  contractor_reference: Type.Optional(Nullable(Type.String({ maxLength: 60 }))),
  payment_terms_days: Type.Optional(Type.Integer({ minimum: 0, maximum: 120, description: "days from issue to due date (default: the agency's)" })),
  notes: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  supply_date: Type.Optional(Nullable(IsoDate('date the work was done, not in the future (default at issue: the job completion date)'))),
  supplier_invoice_date: Type.Optional(Nullable(IsoDate("the date on the contractor's own invoice, not in the future; required at issue with contractor_reference"))),
};
export const CreateInvoiceBody = Type.Object(
  { job_uuid: Uuid('a Completed (or Invoiced) job'), contractor_uuid: Type.Optional(Uuid("staff only; default the job's contractor")), lines: LinesBody, ...fields },
  { additionalProperties: false },
);
export type CreateInvoiceInput = Static<typeof CreateInvoiceBody>;
export const UpdateInvoiceBody = Type.Object({ lines: Type.Optional(LinesBody), ...fields }, { additionalProperties: false });
export type UpdateInvoiceInput = Static<typeof UpdateInvoiceBody>;
export const VoidBody = Type.Object({ reason: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))) }, { additionalProperties: false });
export const CreditNoteBody = Type.Object(
  {
    lines: LinesBody,
    reason: Type.String({ minLength: 1, maxLength: 2000, description: 'why the invoice is credited; printed on the credit note' }),
    contractor_reference: Type.Optional(Nullable(Type.String({
      minLength: 1, maxLength: 60,
      description: "the contractor's own credit note number, for a credit note the contractor issued against its own invoice (with supplier_invoice_date); never for a self-billed invoice, whose credit note is the agency's",
    }))),
    supplier_invoice_date: Type.Optional(Nullable(IsoDate("the date on the contractor's own credit note: with contractor_reference, not in the future, not before the invoice's own date"))),
  },
  { additionalProperties: false },
);
export type CreditNoteInput = Static<typeof CreditNoteBody>;

/**
 * What GET /api/invoices sorts by (`sort`, docs/api.md): created_at is the order of creation (the
 * default, newest first), the others the response fields of the same name; invoice_number puts
 * credit notes (CN-) before invoices (INV-).
 */
export const INVOICE_SORTS = ['created_at', 'invoice_number', 'contractor_name', 'job_reference', 'status', 'issue_date', 'due_date', 'gross_pence', 'outstanding_pence'] as const;
export type InvoiceSort = (typeof INVOICE_SORTS)[number];

export const ListInvoicesQuery = Type.Object(
  {
    ...Pagination,
    status: Type.Optional(StatusSchema),
    kind: Type.Optional(Type.Unsafe<'invoice' | 'credit_note'>({ type: 'string', enum: ['invoice', 'credit_note'] })),
    contractor_uuid: Type.Optional(Uuid()),
    job_uuid: Type.Optional(Uuid()),
    from_date: Type.Optional(IsoDate('issue date on or after (drafts have none)')),
    to_date: Type.Optional(IsoDate('issue date on or before')),
    ...Sorting(INVOICE_SORTS, 'created_at', 'desc'),
  },
  { additionalProperties: false },
);
export type ListInvoicesFilter = Static<typeof ListInvoicesQuery>;
export const ExportQuery = Type.Object(
  { from_date: Type.Optional(IsoDate('issue (payments: paid) date on or after')), to_date: Type.Optional(IsoDate('on or before')), contractor_uuid: Type.Optional(Uuid()) },
  { additionalProperties: false },
);
export type ExportFilter = Static<typeof ExportQuery>;

export const Payment = Type.Object({
  uuid: Uuid(),
  amount_pence: Type.Integer(),
  paid_on: IsoDate(),
  method: Type.String(),
  reference: Nullable(Type.String()),
  recorded_by: Nullable(Type.String()),
  created_at: DateTime(),
});
export const PaymentBody = Type.Object(
  {
    amount_pence: Type.Integer({ minimum: 1, maximum: 2_000_000_000, description: 'pence; more than the outstanding amount: 409' }),
    paid_on: IsoDate('date the money moved (not in the future)'),
    method: Type.Unsafe<(typeof PAYMENT_METHODS)[number]>({ type: 'string', enum: [...PAYMENT_METHODS] }),
    reference: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
  },
  { additionalProperties: false },
);
export type PaymentInput = Static<typeof PaymentBody>;
export const PaymentResult = Type.Object({ payment: Payment, invoice: Invoice });
export { Pagination, Pence };

export const FORMATS = ['csv', 'xlsx'] as const;
export const AccountingExportParams = Type.Object(
  {
    package: Type.Unsafe<'xero' | 'quickbooks' | 'sage'>({ type: 'string', enum: ['xero', 'quickbooks', 'sage'], description: 'Xero, QuickBooks Online or Sage 50 Accounts' }),
    kind: Type.Unsafe<'bills' | 'payments'>({ type: 'string', enum: ['bills', 'payments'], description: 'bills: contractor invoices and credit notes; payments: payments made' }),
  },
  { additionalProperties: false },
);
export const AccountingExportQuery = Type.Object(
  { ...ExportQuery.properties, format: Type.Optional(Type.Unsafe<'csv' | 'xlsx'>({ type: 'string', enum: [...FORMATS], default: 'csv', description: 'csv (default) or xlsx' })) },
  { additionalProperties: false },
);
