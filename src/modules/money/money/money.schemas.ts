/** Schemas of the pricing and quote endpoints and the money lines they share (docs/money.md). */
import { Type, type Static } from 'typebox';
import { Pagination } from '../../../http/pagination.ts';
import { DateTime, IsoDate, Nullable, Uuid } from '../../../http/schema-primitives.ts';

export const Pence = (description: string, maximum = 100_000_000) => Type.Integer({ minimum: 0, maximum, description: `${description}, integer pence` });
export const VAT_CODES = ['standard', 'reduced', 'zero', 'exempt'] as const;
export type VatCode = (typeof VAT_CODES)[number];
export const VatCodeSchema = Type.Unsafe<VatCode>({ type: 'string', enum: [...VAT_CODES], description: 'VAT rate: standard (20 %), reduced (5 %), zero, exempt' });
export const UNITS = ['each', 'hour', 'day', 'm2'] as const;
const UnitSchema = Type.Unsafe<(typeof UNITS)[number]>({ type: 'string', enum: [...UNITS], description: 'unit of the price' });

/** A line as written in a quote or invoice. */
export const LineBody = Type.Object(
  {
    description: Type.String({ minLength: 1, maxLength: 500 }),
    quantity: Type.Number({ minimum: 0.001, maximum: 10_000, description: 'units (up to 3 decimals)' }),
    unit_price_pence: Pence('unit price ex VAT'),
    vat_rate: VatCodeSchema,
    price_item_uuid: Type.Optional(Nullable(Uuid('price-list item the line comes from'))),
  },
  { additionalProperties: false },
);
export type LineInputDto = Static<typeof LineBody>;
export const LinesBody = Type.Array(LineBody, { minItems: 1, maxItems: 100 });

/** A line with the amounts the server computed. */
export const Line = Type.Object({
  position: Type.Integer(),
  description: Type.String(),
  quantity: Type.Number(),
  unit_price_pence: Type.Integer(),
  vat_rate: Type.String(),
  vat_rate_bp: Type.Integer({ description: 'rate applied, basis points (2000 = 20 %); 0 when not VAT registered' }),
  net_pence: Type.Integer(),
  vat_pence: Type.Integer({ description: 'net x rate, rounded half up to the penny' }),
  price_item_uuid: Nullable(Uuid()),
});
export type LineDto = Static<typeof Line>;

const TotalsFields = {
  net_pence: Type.Integer(),
  vat_pence: Type.Integer(),
  gross_pence: Type.Integer(),
};
export const Totals = Type.Object(TotalsFields);

export const VatRate = Type.Object({
  code: Type.String(),
  name: Type.String(),
  rate_bp: Type.Integer({ description: 'basis points: 2000 = 20 %' }),
  effective_from: IsoDate(),
  effective_to: Nullable(IsoDate('exclusive; null while in force')),
});

export const ContractorRate = Type.Object({ contractor_uuid: Uuid(), contractor_name: Type.String(), unit_price_pence: Type.Integer() });
export const PriceItem = Type.Object({
  uuid: Uuid(),
  code: Type.String(),
  name: Type.String(),
  trade_id: Nullable(Type.Integer()),
  trade: Nullable(Type.String()),
  job_type_id: Nullable(Type.Integer()),
  job_type: Nullable(Type.String()),
  unit: Type.String(),
  unit_price_pence: Type.Integer({ description: 'ex VAT' }),
  vat_rate: Type.String(),
  active: Type.Boolean(),
  contractor_rates: Type.Array(ContractorRate),
  created_at: DateTime(),
  updated_at: DateTime(),
});
export type PriceItemDto = Static<typeof PriceItem>;

const itemFields = {
  code: Type.String({ minLength: 1, maxLength: 40, pattern: '^[A-Za-z0-9_.-]+$', description: 'unique in the agency' }),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  trade_id: Nullable(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
  job_type_id: Nullable(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
  unit: UnitSchema,
  unit_price_pence: Pence('unit price ex VAT'),
  vat_rate: VatCodeSchema,
  active: Type.Boolean(),
};
export const CreatePriceItemBody = Type.Object(
  {
    code: itemFields.code, name: itemFields.name, trade_id: Type.Optional(itemFields.trade_id), job_type_id: Type.Optional(itemFields.job_type_id),
    unit: itemFields.unit, unit_price_pence: itemFields.unit_price_pence, vat_rate: Type.Optional(itemFields.vat_rate),
    active: Type.Optional(itemFields.active),
  },
  { additionalProperties: false },
);
export type CreatePriceItemInput = Static<typeof CreatePriceItemBody>;
export const UpdatePriceItemBody = Type.Object(
  {
    name: Type.Optional(itemFields.name), trade_id: Type.Optional(itemFields.trade_id), job_type_id: Type.Optional(itemFields.job_type_id),
    unit: Type.Optional(itemFields.unit), unit_price_pence: Type.Optional(itemFields.unit_price_pence), vat_rate: Type.Optional(itemFields.vat_rate),
    active: Type.Optional(itemFields.active),
  },
  { additionalProperties: false },
);
export type UpdatePriceItemInput = Static<typeof UpdatePriceItemBody>;
export const ListPriceItemsQuery = Type.Object(
  {
    ...Pagination,
    trade_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
    job_type_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
    active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type ListPriceItemsFilter = Static<typeof ListPriceItemsQuery>;
export const UuidParams = Type.Object({ uuid: Uuid() }, { additionalProperties: false });
export const ContractorRateParams = Type.Object({ uuid: Uuid(), contractor_uuid: Uuid() }, { additionalProperties: false });
export const ContractorRateBody = Type.Object({ unit_price_pence: Pence('contractor-specific unit price ex VAT') }, { additionalProperties: false });

export const EstimateQuery = Type.Object(
  { job_uuid: Uuid('the job to estimate'), contractor_uuid: Type.Optional(Uuid('price with this contractor\'s rates (default: the job\'s contractor)')) },
  { additionalProperties: false },
);
export const Estimate = Type.Object({
  job_uuid: Uuid(),
  contractor_uuid: Nullable(Uuid()),
  vat_registered: Type.Boolean(),
  lines: Type.Array(Line),
  ...TotalsFields,
});

export const VAT_TREATMENTS = ['recharge', 'disbursement'] as const;
const VatTreatmentSchema = Type.Unsafe<(typeof VAT_TREATMENTS)[number]>({
  type: 'string', enum: [...VAT_TREATMENTS],
  description: "how contractors' costs are passed on to landlords (docs/money.md \"VAT treatment of recharged costs\"): recharge (invoices addressed to the agency, which reclaims their VAT and charges output VAT on the onward supply) or disbursement (invoices addressed to the landlord, no VAT reclaimed, passed on outside the scope of VAT: HMRC VAT Notice 700 section 25)",
});

export const MoneySettings = Type.Object({
  vat_number: Nullable(Type.String()),
  payment_terms_days: Type.Integer(),
  vat_treatment: VatTreatmentSchema,
  approval_limits: Type.Array(Type.Object({ job_type_id: Type.Integer(), limit_pence: Type.Integer() })),
});
export type MoneySettingsDto = Static<typeof MoneySettings>;
export const MoneySettingsBody = Type.Object(
  {
    vat_number: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 20, pattern: '^[A-Z]{0,2}[0-9 ]{5,16}$', description: 'e.g. GB123456789' }))),
    payment_terms_days: Type.Optional(Type.Integer({ minimum: 0, maximum: 120 })),
    vat_treatment: Type.Optional(VatTreatmentSchema),
    approval_limits: Type.Optional(Type.Array(Type.Object({
      job_type_id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
      limit_pence: Pence('quotes above this need api.quotes.approve.above-limit', 2_000_000_000),
    }, { additionalProperties: false }), { maxItems: 50, description: 'replaces every limit; job types left out have no limit' })),
  },
  { additionalProperties: false },
);
export type MoneySettingsInput = Static<typeof MoneySettingsBody>;

export const ContractorVat = Type.Object({ contractor_uuid: Uuid(), registered: Type.Boolean(), vat_number: Nullable(Type.String()) });
export const ContractorVatBody = Type.Object(
  {
    registered: Type.Boolean(),
    vat_number: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 20, pattern: '^[A-Z]{0,2}[0-9 ]{5,16}$' }))),
  },
  { additionalProperties: false },
);
export type ContractorVatInput = Static<typeof ContractorVatBody>;

export const SelfBillingAgreement = Type.Object({
  contractor_uuid: Uuid(),
  starts_on: IsoDate('first day the agency may self-bill the contractor'),
  ends_on: IsoDate('last day (HMRC VAT Notice 700/62 paragraph 3.1 "Contents of agreements": a start and an expiry date)'),
  review_on: IsoDate('when the agency reviews the agreement and the supplier\'s VAT registration'),
  vat_number_checked_on: Nullable(IsoDate("when the agency checked the contractor's VAT registration number (with HMRC's VAT number check); null: not checked")),
  in_force_today: Type.Boolean({ description: 'today (London) is within starts_on..ends_on, not past review_on, and the VAT registration was checked' }),
  updated_at: DateTime(),
});
export type SelfBillingAgreementDto = Static<typeof SelfBillingAgreement>;
export const SelfBillingAgreementBody = Type.Object(
  {
    starts_on: IsoDate(),
    ends_on: IsoDate('on or after starts_on'),
    review_on: IsoDate('within starts_on..ends_on'),
    vat_number_checked_on: Type.Optional(Nullable(IsoDate('not in the future'))),
  },
  { additionalProperties: false },
);
export type SelfBillingAgreementInput = Static<typeof SelfBillingAgreementBody>;

// Quotes.
export const Quote = Type.Object({
  uuid: Uuid(),
  job_uuid: Uuid(),
  job_reference: Type.String(),
  contractor_uuid: Uuid(),
  contractor_name: Type.String(),
  status: Type.String({ description: 'submitted, approved or rejected' }),
  vat_registered: Type.Boolean(),
  ...TotalsFields,
  notes: Nullable(Type.String()),
  decided_at: Nullable(DateTime()),
  decision_reason: Nullable(Type.String()),
  lines: Type.Array(Line),
  created_at: DateTime(),
});
export type QuoteDto = Static<typeof Quote>;
export const SubmitQuoteBody = Type.Object(
  {
    contractor_uuid: Type.Optional(Uuid('staff submitting on a contractor\'s behalf; a contractor quotes as itself')),
    lines: LinesBody,
    notes: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  },
  { additionalProperties: false },
);
export type SubmitQuoteInput = Static<typeof SubmitQuoteBody>;
export const QuoteParams = Type.Object({ uuid: Uuid(), quote_uuid: Uuid() }, { additionalProperties: false });
export const DecideQuoteBody = Type.Object({ reason: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))) }, { additionalProperties: false });
export const ListQuotesQuery = Type.Object({ ...Pagination }, { additionalProperties: false });
