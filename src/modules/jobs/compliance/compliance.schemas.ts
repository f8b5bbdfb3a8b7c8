/** Schemas of the compliance register endpoints (docs/compliance.md). */
import { Type, type Static } from 'typebox';
import { Pagination, Sorting } from '../../../http/pagination.ts';
import { DateTime, IsoDate, Nullable, Uuid } from '../../../http/schema-primitives.ts';

const Status = Type.Unsafe<'valid' | 'due_soon' | 'expired' | 'missing'>({
  type: 'string',
  enum: ['valid', 'due_soon', 'expired', 'missing'],
  description: 'valid, due_soon (expires within the type\'s due_soon_days), expired (before today, London) or missing (no certificate)',
});
const TypeCode = Type.String({ pattern: '^[a-z0-9_]{1,40}$', description: 'a compliance item type code, e.g. gas_safety' });

export const ComplianceType = Type.Object(
  {
    uuid: Uuid(),
    code: Type.String(),
    name: Type.String(),
    interval_months: Nullable(Type.Integer({ description: 'legal interval between certificates, months; null: none' })),
    at_tenancy_start: Type.Boolean({ description: 'checked at the start of each tenancy' }),
    hmo_only: Type.Boolean({ description: 'needed by houses in multiple occupation only' }),
    required_document: Type.String(),
    due_soon_days: Type.Integer({ description: 'days before expiry an item is due_soon' }),
    custom: Type.Boolean({ description: 'created by the agency; false for the seeded UK types (set by law, not editable)' }),
    retired_at: Nullable(DateTime({ description: 'retired: takes no new items or schedules' })),
  },
  { description: 'A type of compliance item of the agency' },
);

export const TypesQuery = Type.Object(
  { include_retired: Type.Optional(Type.Boolean({ description: 'also the retired custom types (default false)' })) },
  { additionalProperties: false },
);

const TypeFields = {
  name: Type.String({ minLength: 1, maxLength: 120 }),
  interval_months: Nullable(Type.Integer({ minimum: 1, maximum: 600, description: 'legal interval between certificates, months; null: none' })),
  at_tenancy_start: Type.Boolean({ description: 'checked at the start of each tenancy' }),
  hmo_only: Type.Boolean({ description: 'needed by houses in multiple occupation only (added with the HMO flag)' }),
  required_document: Type.String({ minLength: 1, maxLength: 500, description: 'the document that proves it' }),
  due_soon_days: Type.Integer({ minimum: 0, maximum: 365, description: 'days before expiry an item is due_soon (default 30)' }),
};

export const CreateTypeBody = Type.Object(
  {
    code: Type.String({ pattern: '^[a-z0-9_]{1,40}$', description: 'the type\'s code, unique in the agency, e.g. pat_testing' }),
    name: TypeFields.name,
    interval_months: TypeFields.interval_months,
    at_tenancy_start: Type.Optional(TypeFields.at_tenancy_start),
    hmo_only: Type.Optional(TypeFields.hmo_only),
    required_document: TypeFields.required_document,
    due_soon_days: Type.Optional(TypeFields.due_soon_days),
  },
  { additionalProperties: false },
);
export type CreateTypeInput = Static<typeof CreateTypeBody>;

export const UpdateTypeBody = Type.Object(
  {
    name: Type.Optional(TypeFields.name),
    interval_months: Type.Optional(TypeFields.interval_months),
    at_tenancy_start: Type.Optional(TypeFields.at_tenancy_start),
    hmo_only: Type.Optional(TypeFields.hmo_only),
    required_document: Type.Optional(TypeFields.required_document),
    due_soon_days: Type.Optional(TypeFields.due_soon_days),
  },
  { additionalProperties: false },
);
export type UpdateTypeInput = Static<typeof UpdateTypeBody>;

export const RegisterItem = Type.Object(
  {
    uuid: Uuid({ description: 'the compliance item' }),
    status: Status,
    address_uuid: Uuid(),
    address: Type.String({ description: 'line 1, town and postcode' }),
    branch_uuid: Nullable(Uuid()),
    branch_name: Nullable(Type.String()),
    type_code: Type.String(),
    type_name: Type.String(),
    interval_months: Nullable(Type.Integer()),
    required_document: Type.String(),
    certificate_uuid: Nullable(Uuid({ description: 'the latest certificate (by issue date)' })),
    issued_on: Nullable(IsoDate()),
    expires_on: Nullable(IsoDate({ description: 'null: no expiry (checked at each tenancy start)' })),
    expires_on_text: Nullable(Type.String({ description: 'the expiry for people, e.g. "Thu 26 Nov 2026"' })),
    contractor_uuid: Nullable(Uuid()),
    contractor_name: Nullable(Type.String()),
    file_uuid: Nullable(Uuid({ description: 'the job file holding the document' })),
  },
  { description: 'One compliance item of a property with its status' },
);

export const Totals = Type.Object(
  { valid: Type.Integer(), due_soon: Type.Integer(), expired: Type.Integer(), missing: Type.Integer() },
  { description: 'items per status matching every filter but status' },
);

export const RegisterEnvelope = Type.Object({
  success: Type.Literal(true),
  data: Type.Array(RegisterItem),
  count: Type.Integer({ minimum: 0, description: 'items matching every filter' }),
  totals: Totals,
  message: Type.String(),
});

/**
 * What GET /api/compliance sorts by (`sort`): status (by urgency: expired, missing, due soon,
 * valid; then expiry, postcode and item), the address (line 1, town, postcode), the item's name, the
 * expiry, the issuing contractor's name (docs/api.md).
 */
export const COMPLIANCE_SORTS = ['status', 'address', 'type_name', 'expires_on', 'contractor_name'] as const;

export const RegisterQuery = Type.Object(
  {
    status: Type.Optional(Status),
    branch_uuid: Type.Optional(Uuid({ description: 'only properties of this branch' })),
    type: Type.Optional(TypeCode),
    address_uuid: Type.Optional(Uuid({ description: 'only this property' })),
    ...Sorting(COMPLIANCE_SORTS, 'status', 'asc'),
    ...Pagination,
  },
  { additionalProperties: false },
);
export type RegisterInput = Static<typeof RegisterQuery>;

export const CreateItemBody = Type.Object(
  {
    address_uuid: Uuid({ description: 'the property' }),
    type: TypeCode,
  },
  { additionalProperties: false },
);
export type CreateItemInput = Static<typeof CreateItemBody>;

export const Certificate = Type.Object({
  uuid: Uuid(),
  issued_on: IsoDate(),
  expires_on: Nullable(IsoDate()),
  reference: Type.String(),
  contractor_uuid: Nullable(Uuid()),
  contractor_name: Nullable(Type.String()),
  job_uuid: Nullable(Uuid({ description: 'the job whose file holds the document' })),
  file_uuid: Nullable(Uuid()),
  file_name: Nullable(Type.String()),
  created_at: DateTime(),
});

export const ItemDetail = Type.Object({
  ...RegisterItem.properties,
  certificates: Type.Array(Certificate, { description: 'every certificate, newest issue first' }),
});

export const AddCertificateBody = Type.Object(
  {
    issued_on: IsoDate({ description: 'London date of issue; not in the future' }),
    expires_on: Type.Optional(Nullable(IsoDate({ description: 'default: issued_on plus the type\'s interval (none for a type without one); not before issued_on' }))),
    reference: Type.Optional(Type.String({ maxLength: 200, description: 'the certificate\'s own number' })),
    contractor_uuid: Type.Optional(Uuid({ description: 'the contractor who issued it' })),
    job_file_uuid: Type.Optional(Uuid({ description: 'the job file (document) holding it, uploaded through the job files endpoints' })),
  },
  { additionalProperties: false },
);
export type AddCertificateInput = Static<typeof AddCertificateBody>;

export const HmoBody = Type.Object(
  {
    hmo: Type.Boolean({ description: 'true: a house in multiple occupation (adds the HMO items); false: not one' }),
  },
  { additionalProperties: false },
);

export const HmoResult = Type.Object({
  is_hmo: Type.Boolean(),
  items: Type.Array(RegisterItem, { description: 'the property\'s compliance items, most urgent first' }),
});
