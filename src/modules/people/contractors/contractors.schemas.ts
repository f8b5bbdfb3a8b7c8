/** Schemas of the contractors endpoints (docs/contractors.md). */
import { Type, type Static } from 'typebox';
import { DateTime, IsoDate, Nullable, Uuid } from '../../../http/schema-primitives.ts';
import { Pagination, Sorting } from '../../../http/pagination.ts';
import { CERT_TYPE_CODES } from './certification-types.ts';


export const TradeRef = Type.Object({ ID: Type.Integer(), code: Type.String(), name: Type.String() });

export const Trade = Type.Object(
  {
    ID: Type.Integer(),
    code: Type.String(),
    name: Type.String(),
    scope: Type.Union([Type.Literal('platform'), Type.Literal('agency')], { description: "platform-wide, or the caller's agency's own" }),
    retired_at: Nullable(DateTime()),
    required_certificates: Type.Array(Type.String(), { description: 'certificate types of which one valid one is required' }),
  },
  { description: 'A trade (work category)' },
);
export type TradeDto = Static<typeof Trade>;

export const Contact = Type.Object({
  uuid: Uuid(),
  name: Type.String(),
  role: Nullable(Type.String()),
  email: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  is_primary: Type.Boolean(),
});

export const Certification = Type.Object(
  {
    uuid: Uuid(),
    contractor_uuid: Uuid(),
    company_name: Type.String(),
    cert_type: Type.String({ description: CERT_TYPE_CODES.join(' | ') }),
    cert_name: Type.String({ description: 'display name, e.g. Gas Safe' }),
    reference: Type.String(),
    issued_on: Nullable(IsoDate()),
    expires_on: IsoDate(),
    status: Type.Union([Type.Literal('valid'), Type.Literal('expiring'), Type.Literal('expired')], { description: 'today: expired, expiring within 30 days, or valid' }),
    days_left: Type.Integer({ description: 'days from today to the expiry day (negative once expired)' }),
    has_document: Type.Boolean(),
    document_mime: Nullable(Type.String()),
    created_at: DateTime(),
  },
  { description: 'A certificate of a contractor' },
);
export type CertificationDto = Static<typeof Certification>;

export const Contractor = Type.Object(
  {
    uuid: Uuid(),
    company_name: Type.String(),
    contact_name: Nullable(Type.String()),
    email: Nullable(Type.String()),
    phone: Nullable(Type.String()),
    notes: Nullable(Type.String()),
    address: Nullable(
      Type.Object(
        { line1: Type.String(), line2: Nullable(Type.String()), town: Nullable(Type.String()), postcode: Nullable(Type.String()) },
        { description: "the contractor's business address, printed as the supplier's address on its invoices (null: none given)" },
      ),
    ),
    active: Type.Boolean(),
    trades: Type.Array(TradeRef),
    coverage: Type.Array(Type.String(), { description: 'postcode districts, e.g. LS6' }),
    contacts: Type.Array(Contact),
    has_login: Type.Boolean(),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { description: 'A contractor company' },
);
export type ContractorDto = Static<typeof Contractor>;

export const ContractorDetail = Type.Intersect([Contractor, Type.Object({ certifications: Type.Array(Certification) })]);
export type ContractorDetailDto = Static<typeof ContractorDetail>;

/** What GET /api/contractors sorts by (`sort`): company, contact name, active (docs/api.md). */
export const CONTRACTOR_SORTS = ['company_name', 'contact_name', 'active'] as const;

export const ListContractorsQuery = Type.Object(
  {
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'search in company and contact name' })),
    trade: Type.Optional(Type.String({ minLength: 1, maxLength: 60, description: 'trade code, e.g. plumbing' })),
    district: Type.Optional(Type.String({ minLength: 2, maxLength: 4, description: 'postcode district covered, e.g. LS6' })),
    active: Type.Optional(Type.Boolean()),
    ...Sorting(CONTRACTOR_SORTS, 'company_name', 'asc'),
    ...Pagination,
  },
  { additionalProperties: false },
);
export type ListContractorsQuery = Static<typeof ListContractorsQuery>;

const Phone = Type.String({ maxLength: 30, pattern: '^\\+?[0-9 ()-]{6,29}$' });
const ContactInput = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    role: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
    email: Type.Optional(Type.Union([Type.String({ format: 'email', maxLength: 254 }), Type.Null()])),
    phone: Type.Optional(Type.Union([Phone, Type.Null()])),
    is_primary: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type ContactInput = Static<typeof ContactInput>;

const fields = {
  company_name: Type.String({ minLength: 1, maxLength: 200 }),
  contact_name: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
  email: Type.Optional(Type.Union([Type.String({ format: 'email', maxLength: 254 }), Type.Null()])),
  phone: Type.Optional(Type.Union([Phone, Type.Null()])),
  notes: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
  address_line1: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
  address_line2: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
  address_town: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
  address_postcode: Type.Optional(Type.Union([Type.String({ maxLength: 10, description: 'a UK postcode, stored upper case with one space' }), Type.Null()])),
  active: Type.Optional(Type.Boolean()),
  contacts: Type.Optional(Type.Array(ContactInput, { maxItems: 20, description: 'further contacts; replaces the list when sent' })),
};

export const CreateContractorBody = Type.Object(
  {
    ...fields,
    trade_ids: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 50, uniqueItems: true })),
    coverage: Type.Optional(Type.Array(Type.String({ maxLength: 8 }), { maxItems: 500, description: 'postcode districts' })),
  },
  { additionalProperties: false },
);
export type CreateContractorInput = Static<typeof CreateContractorBody>;

export const UpdateContractorBody = Type.Object({ ...fields, company_name: Type.Optional(fields.company_name) }, { additionalProperties: false });
export type UpdateContractorInput = Static<typeof UpdateContractorBody>;

export const SetTradesBody = Type.Object(
  { trade_ids: Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 50, uniqueItems: true }) },
  { additionalProperties: false },
);
export const SetCoverageBody = Type.Object(
  {
    districts: Type.Array(Type.String({ minLength: 1, maxLength: 8 }), { maxItems: 500, description: 'postcode districts (outward codes) such as LS6, YO1' }),
  },
  { additionalProperties: false },
);

export const CreateCertificationBody = Type.Object(
  {
    cert_type: Type.Union(CERT_TYPE_CODES.map((c) => Type.Literal(c))),
    reference: Type.String({ minLength: 1, maxLength: 100, description: 'registration or certificate number' }),
    issued_on: Type.Optional(Type.Union([IsoDate('issue date'), Type.Null()])),
    expires_on: IsoDate('expiry date (valid through this day)'),
  },
  { additionalProperties: false },
);
export type CreateCertificationInput = Static<typeof CreateCertificationBody>;

export const ExpiringQuery = Type.Object(
  { days: Type.Integer({ minimum: 1, maximum: 365, default: 30, description: 'window in days from today' }), ...Pagination },
  { additionalProperties: false },
);

export const MatchQuery = Type.Object(
  { job_uuid: Uuid(), ...Pagination },
  { additionalProperties: false },
);

export const MatchResult = Type.Object({
  contractor_uuid: Uuid(),
  company_name: Type.String(),
  score: Type.Integer({ description: 'trade 50 + coverage 30 + certificates 20; 0 when not assignable' }),
  eligible: Type.Boolean({ description: "false when the firm does not offer the job's own trade, a certificate the trade requires is missing or expired, or its public or employer's liability insurance lapsed; ineligible firms come last" }),
  offers_trade: Nullable(Type.Boolean({ description: "offers the job's trade; null when no trade is matched" })),
  covers_postcode: Nullable(Type.Boolean({ description: "covers the district of the job's postcode; null when the job has no postcode" })),
  open_jobs: Type.Integer({ minimum: 0, description: 'workload: open jobs assigned to the contractor, this job left out' }),
  insured: Type.Boolean({ description: 'valid public and employer\'s liability insurance on the day of the work; the uninsured come after the insured' }),
  insurance: Type.Array(Type.String(), { description: 'each insurance for people: valid until, expired on (not eligible), or none on file' }),
  reasons: Type.Array(Type.String({ description: 'trade, coverage, certificate, then workload, in words' })),
  score_parts: Type.Array(
    Type.Object({
      rule: Type.Union([Type.Literal('trade'), Type.Literal('coverage'), Type.Literal('certificates')]),
      points: Type.Integer({ description: 'points this rule gave' }),
      max: Type.Integer({ description: 'points the rule can give' }),
      reason: Type.String(),
    }),
    { description: 'how the score is made up: one entry per rule, in order (docs/contractors.md "Matching")' },
  ),
});
export const MatchEnvelope = Type.Object({
  success: Type.Literal(true),
  data: Type.Array(MatchResult),
  count: Type.Integer(),
  message: Type.String(),
  job: Type.Object({
    uuid: Uuid(),
    trade: Nullable(Type.String()),
    district: Nullable(Type.String()),
    required_certificates: Type.Array(Type.String()),
  }),
});

export const CreateTradeBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    code: Type.Optional(Type.String({ pattern: '^[a-z][a-z0-9_]{1,59}$', description: 'default: from the name (snake case)' })),
  },
  { additionalProperties: false },
);
export const UpdateTradeBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    retired: Type.Optional(Type.Boolean({ description: 'true retires the trade (no new links); false restores it' })),
  },
  { additionalProperties: false },
);
export const TradeParams = Type.Object({ id: Type.Integer({ minimum: 1 }) }, { additionalProperties: false });
export const TradesQuery = Type.Object({ include_retired: Type.Optional(Type.Boolean({ default: false })) }, { additionalProperties: false });
export const CertParams = Type.Object({ uuid: Uuid(), cert_uuid: Uuid() }, { additionalProperties: false });
