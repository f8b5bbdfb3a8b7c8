/** Schemas of the compliance register endpoints (docs/compliance.md). */
import { Type, type Static } from 'typebox';
import { Pagination, Sorting } from '../../../http/pagination.ts';
import { DateTime, IsoDate, Nullable, Uuid } from '../../../http/schema-primitives.ts';

const Status = Type.Unsafe<'valid' | 'due_soon' | 'expired' | 'missing' | 'non_compliant'>({
  type: 'string',
  enum: ['valid', 'due_soon', 'expired', 'missing', 'non_compliant'],
  description:
    'valid, due_soon (expires within the type\'s due_soon_days, or an unsatisfactory EICR\'s remedial works pending), expired (before today, London), ' +
    'missing (no certificate) or non_compliant (an EPC below E without a live exemption, remedial works overdue, alarms short of the storeys or rooms)',
});
const EpcRating = Type.Unsafe<'A' | 'B' | 'C' | 'D' | 'E' | 'F' | 'G'>({ type: 'string', enum: ['A', 'B', 'C', 'D', 'E', 'F', 'G'], description: 'the EPC\'s energy efficiency rating' });
const Outcome = Type.Unsafe<'satisfactory' | 'unsatisfactory'>({ type: 'string', enum: ['satisfactory', 'unsatisfactory'], description: 'the EICR\'s overall outcome' });
const CopyMethod = Type.Unsafe<'hand' | 'post' | 'email' | 'portal'>({ type: 'string', enum: ['hand', 'post', 'email', 'portal'], description: 'how the copy was served on the tenant' });
const Rooms = Type.Array(Type.String({ minLength: 1, maxLength: 80 }), { maxItems: 50, description: 'room names, e.g. "Living room"' });
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
    applies_to: Type.String({ description: 'which properties need it: dwelling, gas, hmo, communal, lift, or manual (added by hand)' }),
    regulation: Type.String({ description: 'the regulation and paragraph it implements (empty for a custom type)' }),
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
    regulation: Type.String({ description: 'the regulation the type implements' }),
    derived: Type.Boolean({ description: 'required by what the property is (true) or added by hand' }),
    epc_rating: Nullable(EpcRating),
    exemption_until: Nullable(IsoDate({ description: 'end of the MEES exemption registered for the EPC' })),
    outcome: Nullable(Outcome),
    remedial_due_on: Nullable(IsoDate({ description: 'an unsatisfactory EICR\'s remedial works deadline' })),
    tenant_copy_due_on: Nullable(IsoDate({ description: 'the copy must reach the tenant by this date (gas record, EICR: 28 days)' })),
    tenant_copy_served_on: Nullable(IsoDate()),
    findings: Type.Array(Type.String(), { description: 'what the latest certificate still owes, for people' }),
  },
  { description: 'One compliance item of a property with its status' },
);

export const Totals = Type.Object(
  { valid: Type.Integer(), due_soon: Type.Integer(), expired: Type.Integer(), missing: Type.Integer(), non_compliant: Type.Integer() },
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
  epc_rating: Nullable(EpcRating),
  exemption_reference: Nullable(Type.String()),
  exemption_until: Nullable(IsoDate()),
  outcome: Nullable(Outcome),
  remedial_due_on: Nullable(IsoDate()),
  remedial_completed_on: Nullable(IsoDate()),
  tenant_copy_due_on: Nullable(IsoDate()),
  tenant_copy_served_on: Nullable(IsoDate()),
  tenant_copy_method: Nullable(Type.String()),
  smoke_alarm_storeys: Nullable(Type.Integer()),
  co_alarm_rooms: Nullable(Type.Array(Type.String())),
  tenancy_start_on: Nullable(IsoDate()),
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
    epc_rating: Type.Optional(EpcRating),
    exemption_reference: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'EPC below E: the PRS Exemptions Register reference' })),
    exemption_until: Type.Optional(IsoDate({ description: 'EPC below E: the exemption\'s end' })),
    outcome: Type.Optional(Outcome),
    remedial_due_on: Type.Optional(IsoDate({ description: 'unsatisfactory EICR: the report\'s deadline for remedial works, at most 28 days (default 28 days)' })),
    tenant_copy_served_on: Type.Optional(IsoDate({ description: 'the date a copy was served on the tenant' })),
    tenant_copy_method: Type.Optional(CopyMethod),
    smoke_alarm_storeys: Type.Optional(Type.Integer({ minimum: 0, maximum: 100, description: 'alarm check: storeys with a working smoke alarm' })),
    co_alarm_rooms: Type.Optional(Rooms),
    tenancy_start_on: Type.Optional(IsoDate({ description: 'alarm check: the tenancy\'s first day (the check must be made on it)' })),
  },
  { additionalProperties: false },
);
export type AddCertificateInput = Static<typeof AddCertificateBody>;

export const UpdateCertificateBody = Type.Object(
  {
    job_file_uuid: Type.Optional(Uuid({ description: 'the document, a job file of the agency' })),
    tenant_copy_served_on: Type.Optional(IsoDate({ description: 'the copy served on the tenant' })),
    tenant_copy_method: Type.Optional(CopyMethod),
    remedial_completed_on: Type.Optional(IsoDate({ description: 'unsatisfactory EICR: remedial works completed' })),
    exemption_reference: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    exemption_until: Type.Optional(IsoDate()),
  },
  { additionalProperties: false },
);
export type UpdateCertificateInput = Static<typeof UpdateCertificateBody>;

export const CertificateParams = Type.Object({ uuid: Uuid(), certificate_uuid: Uuid() });

export const ProfileBody = Type.Object(
  {
    gas_supply: Type.Optional(Nullable(Type.Boolean({ description: 'has a gas supply; null: not recorded (gas safety required)' }))),
    storeys: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 100, description: 'storeys with living accommodation' }))),
    combustion_rooms: Type.Optional(Rooms),
  },
  { additionalProperties: false },
);
export type ProfileInput = Static<typeof ProfileBody>;

export const ProfileResult = Type.Object({
  gas_supply: Nullable(Type.Boolean()),
  storeys: Nullable(Type.Integer()),
  combustion_rooms: Type.Array(Type.String()),
  items: Type.Array(RegisterItem),
});

export const BuildingProfileBody = Type.Object({ has_lift: Type.Boolean({ description: 'the building has a passenger lift' }) }, { additionalProperties: false });
export const BuildingProfileResult = Type.Object({ has_lift: Type.Boolean() });

export const BulkItemsBody = Type.Object(
  {
    type: TypeCode,
    address_uuids: Type.Optional(Type.Array(Uuid(), { minItems: 1, maxItems: 500, description: 'a selection of properties' })),
    building_uuid: Type.Optional(Uuid({ description: 'every unit of a building' })),
    all: Type.Optional(Type.Literal(true, { description: 'every property of the agency' })),
  },
  { additionalProperties: false },
);
export type BulkItemsInput = Static<typeof BulkItemsBody>;

export const BulkItemsResult = Type.Object({
  type: Type.String(),
  properties: Type.Integer({ description: 'properties selected' }),
  created: Type.Integer({ description: 'items added' }),
  existing: Type.Integer({ description: 'properties that already had one' }),
});

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
