/** Schemas of the recharge, recharge-fee and landlord statement endpoints (docs/money.md "Recharges", "Statements"). */
import { Type, type Static } from 'typebox';
import { Pagination } from '../../../http/pagination.ts';
import { DateTime, IsoDate, Nullable, Uuid } from '../../../http/schema-primitives.ts';

const Signed = (description: string) => Type.Integer({ description: `${description}, integer pence (negative on a credit)` });

export const FEE_MODES = ['none', 'percent', 'fixed'] as const;
export const RechargeSettings = Type.Object({
  fee_mode: Type.Unsafe<(typeof FEE_MODES)[number]>({ type: 'string', enum: [...FEE_MODES], description: "none, percent (of the cost's net) or fixed (per job, split by ownership share)" }),
  fee_percent_bp: Type.Integer({ minimum: 0, maximum: 10_000, description: 'percent mode: basis points of the net cost (1200 = 12 %)' }),
  fee_fixed_pence: Type.Integer({ minimum: 0, maximum: 100_000_000, description: 'fixed mode: pence ex VAT per contractor invoice' }),
});
export type RechargeSettingsDto = Static<typeof RechargeSettings>;
export const RechargeSettingsBody = Type.Object(
  { ...RechargeSettings.properties },
  { additionalProperties: false },
);
export type RechargeSettingsInput = Static<typeof RechargeSettingsBody>;

export const Recharge = Type.Object({
  uuid: Uuid(),
  number: Type.String({ description: 'RCH-000001 (a recharge) or RCC-000002 (a recharge credit): one series per agency without gaps' }),
  kind: Type.String({ description: 'recharge (from a contractor invoice) or credit (from a credit note)' }),
  status: Type.String({ description: 'active, or cancelled when the contractor invoice was voided' }),
  recharge_date: IsoDate('the contractor invoice or credit note date'),
  landlord_uuid: Uuid(),
  landlord_name: Type.String(),
  address_uuid: Uuid(),
  property: Type.String({ description: 'line 1, town, postcode' }),
  job_uuid: Uuid(),
  job_reference: Type.String(),
  job_title: Type.String(),
  invoice_uuid: Uuid({ description: 'the contractor invoice or credit note' }),
  invoice_number: Nullable(Type.String()),
  credited_invoice_number: Nullable(Type.String({ description: 'credits: the contractor invoice the credit note corrects' })),
  contractor_name: Type.String(),
  share_bp: Type.Integer({ description: "the landlord's ownership share, basis points (10000 = 100 %)" }),
  cost_net_pence: Signed("the landlord's share of the contractor's net"),
  cost_vat_pence: Signed("the landlord's share of the contractor's VAT"),
  fee_net_pence: Signed("the agency's fee ex VAT"),
  fee_vat_pence: Signed('VAT on the fee'),
  fee_vat_rate_bp: Type.Integer({ description: 'VAT rate on the fee, basis points (0 when the agency has no VAT number)' }),
  total_pence: Signed('cost net + cost VAT + fee net + fee VAT'),
  vat_treatment: Type.Unsafe<'recharge' | 'disbursement'>({
    type: 'string', enum: ['recharge', 'disbursement'],
    description: "recharge: the agency's own supply, cost_vat_pence is the agency's output VAT (per rate in cost_lines); disbursement: the contractor's net and VAT passed on outside the scope of VAT",
  }),
  cost_lines: Type.Array(Type.Object({
    vat_rate: Type.String({ description: 'standard, reduced, zero, exempt, or none (the agency has no VAT number)' }),
    vat_rate_bp: Type.Integer(),
    net_pence: Type.Integer(),
    vat_pence: Type.Integer(),
  }), { description: 'recharge treatment: the onward supply per VAT rate (sums: cost_net_pence, cost_vat_pence); disbursement: empty' }),
  created_at: DateTime(),
  cancelled_at: Nullable(DateTime()),
});
export type RechargeDto = Static<typeof Recharge>;

export const ListRechargesQuery = Type.Object(
  {
    ...Pagination,
    landlord_uuid: Type.Optional(Uuid()),
    job_uuid: Type.Optional(Uuid()),
    from_date: Type.Optional(IsoDate('recharge date on or after')),
    to_date: Type.Optional(IsoDate('recharge date on or before')),
  },
  { additionalProperties: false },
);
export type ListRechargesFilter = Static<typeof ListRechargesQuery>;

export const StatementQuery = Type.Object(
  { from_date: IsoDate('first day of the period'), to_date: IsoDate('last day of the period (at most 366 days after from_date)') },
  { additionalProperties: false },
);
export type StatementFilter = Static<typeof StatementQuery>;

const Totals = Type.Object({
  jobs: Type.Integer({ description: 'distinct jobs' }),
  cost_net_pence: Type.Integer(),
  cost_vat_pence: Type.Integer(),
  fee_net_pence: Type.Integer(),
  fee_vat_pence: Type.Integer(),
  total_pence: Type.Integer(),
});
export type StatementTotals = Static<typeof Totals>;
export const StatementLine = Type.Object({
  recharge_uuid: Uuid(),
  number: Type.String(),
  kind: Type.String(),
  date: IsoDate(),
  job_reference: Type.String(),
  job_title: Type.String(),
  description: Type.String({ description: 'the contractor and its invoice or credit note' }),
  share_bp: Type.Integer(),
  cost_net_pence: Type.Integer(),
  cost_vat_pence: Type.Integer(),
  fee_net_pence: Type.Integer(),
  fee_vat_pence: Type.Integer(),
  total_pence: Type.Integer(),
});
export type StatementLineDto = Static<typeof StatementLine>;
export const LEDGER_KINDS = ['payment_from_landlord', 'payment_to_landlord'] as const;
export const LedgerEntry = Type.Object({
  uuid: Uuid(),
  kind: Type.Unsafe<(typeof LEDGER_KINDS)[number]>({ type: 'string', enum: [...LEDGER_KINDS], description: 'payment_from_landlord (lowers what the landlord owes) or payment_to_landlord (raises it)' }),
  entry_date: IsoDate('the date the money moved'),
  amount_pence: Type.Integer({ minimum: 1 }),
  reference: Nullable(Type.String()),
  description: Nullable(Type.String()),
  created_at: DateTime(),
});
export type LedgerEntryDto = Static<typeof LedgerEntry>;
export const LedgerEntryBody = Type.Object(
  {
    kind: LedgerEntry.properties.kind,
    entry_date: IsoDate('not in the future'),
    amount_pence: Type.Integer({ minimum: 1, maximum: 2_000_000_000, description: 'pence, positive' }),
    reference: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
    description: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  },
  { additionalProperties: false },
);
export type LedgerEntryInput = Static<typeof LedgerEntryBody>;

export const Statement = Type.Object({
  landlord_uuid: Uuid(),
  landlord_name: Type.String(),
  landlord_address: Nullable(Type.String()),
  agency_name: Type.String(),
  agency_address: Nullable(Type.String({ description: "the agency's registered address" })),
  agency_vat_number: Nullable(Type.String()),
  from_date: IsoDate(),
  to_date: IsoDate(),
  opening_balance_pence: Type.Integer({ description: 'what the landlord owed the agency before from_date (negative: owed to the landlord)' }),
  charges_pence: Type.Integer({ description: 'recharges of the period (sum of their totals)' }),
  credits_pence: Type.Integer({ description: 'recharge credits of the period (negative)' }),
  payments_from_landlord_pence: Type.Integer(),
  payments_to_landlord_pence: Type.Integer(),
  closing_balance_pence: Type.Integer({ description: 'opening + charges + credits - payments from + payments to' }),
  payments: Type.Array(LedgerEntry, { description: 'the payments to and from the landlord recorded by the agency in the period' }),
  vat_invoices: Type.Array(Type.Object({
    recharge_uuid: Uuid({ description: 'the recharge this VAT invoice is (GET /api/recharges)' }),
    number: Type.String({ description: "the recharge's number: the agency's VAT invoice (or credit note) to the landlord for its fee and, under the recharge treatment, the recharged work" }),
    kind: Type.Unsafe<'invoice' | 'credit_note'>({ type: 'string', enum: ['invoice', 'credit_note'], description: 'a VAT invoice, or a VAT credit note (a recharge credit)' }),
    date: IsoDate('the date of issue'),
    tax_point: IsoDate('the time of supply: the date of issue'),
    vat_treatment: Type.Unsafe<'recharge' | 'disbursement'>({ type: 'string', enum: ['recharge', 'disbursement'] }),
    job_reference: Type.String(),
    property: Type.String(),
    supply: Type.String({ description: 'the description of what is supplied' }),
    credits: Nullable(Type.String({ description: 'a credit note: the number of the VAT invoice it corrects' })),
    rates: Type.Array(Type.Object({
      vat_rate: Type.String({ description: 'standard, reduced, zero or exempt' }),
      vat_rate_bp: Type.Integer({ description: 'the rate, basis points (2000 = 20 %)' }),
      label: Type.String({ description: '20%, 5%, 0% zero-rated, Exempt' }),
      net_pence: Type.Integer({ description: 'the total excluding VAT at this rate, pence (negative on a credit note)' }),
      vat_pence: Type.Integer({ description: 'the VAT at this rate, pence' }),
    }), { description: 'per rate the total excluding VAT and the VAT (VAT Regulations 1995 reg. 14(1))' }),
    net_pence: Type.Integer({ description: 'the fee, plus the recharged cost under the recharge treatment (sum of rates)' }),
    vat_pence: Type.Integer({ description: 'the total VAT (sum of rates)' }),
    gross_pence: Type.Integer({ description: 'net + VAT' }),
  }), { description: "the agency's VAT invoices of the period (none when it has no VAT number); attached to the PDF, one page each, and listed in the CSV" }),
  properties: Type.Array(Type.Object({ address_uuid: Uuid(), property: Type.String(), lines: Type.Array(StatementLine), totals: Totals })),
  totals: Totals,
});
export type StatementDto = Static<typeof Statement>;

export const RechargeExportParams = Type.Object(
  { package: Type.Unsafe<'xero' | 'quickbooks' | 'sage'>({ type: 'string', enum: ['xero', 'quickbooks', 'sage'], description: 'Xero, QuickBooks Online or Sage 50 Accounts' }) },
  { additionalProperties: false },
);
export const RechargeExportQuery = Type.Object(
  {
    from_date: Type.Optional(IsoDate('recharge date on or after')),
    to_date: Type.Optional(IsoDate('recharge date on or before')),
    format: Type.Optional(Type.Unsafe<'csv' | 'xlsx'>({ type: 'string', enum: ['csv', 'xlsx'], default: 'csv', description: 'csv (default) or xlsx' })),
    documents: Type.Optional(Type.Unsafe<'all' | 'invoices' | 'credit_notes'>({
      type: 'string', enum: ['all', 'invoices', 'credit_notes'],
      description: 'which documents: all (the default for xero and sage: credits are negative in Xero, SC in Sage), invoices (the default for quickbooks) or credit_notes (QuickBooks imports credit notes apart, amounts positive; all is 400 there)',
    })),
  },
  { additionalProperties: false },
);
