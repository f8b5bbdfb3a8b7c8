/** Schemas of the landlord endpoints (docs/landlords.md). Amounts are integer pence; shares basis points. */
import { Type, type Static } from 'typebox';
import { DateTime, Nullable, Pence, Uuid } from '../../../http/schema-primitives.ts';
import { Pagination } from '../../../http/pagination.ts';
import { Address } from '../../people/addresses/index.ts';

const Kind = (o: { default?: string; description?: string } = {}) => Type.Union([Type.Literal('person'), Type.Literal('company')], o);

const CorrespondenceAddress = Type.Object(
  {
    line1: Nullable(Type.String()),
    line2: Nullable(Type.String()),
    town: Nullable(Type.String()),
    postcode: Nullable(Type.String()),
  },
  { description: 'where letters and statements go' },
);

/** A landlord as every list shows it: never the bank details. */
export const Landlord = Type.Object(
  {
    uuid: Uuid(),
    kind: Kind({ description: 'person | company' }),
    name: Type.String(),
    external_ref: Nullable(Type.String({ description: "the agency's own reference, the key of the landlord import (docs/onboarding.md)" })),
    email: Nullable(Type.String()),
    phone: Nullable(Type.String()),
    correspondence_address: CorrespondenceAddress,
    vat_registered: Type.Boolean(),
    vat_number: Nullable(Type.String()),
    approval_limit_pence: Nullable(Pence({ description: "the landlord's spend limit in pence; null: the agency default applies" })),
    notes: Nullable(Type.String()),
    property_count: Type.Integer({ minimum: 0 }),
    has_bank_details: Type.Boolean({ description: 'true when bank details are on file (read them in the detail with api.landlords.bank-details.view)' }),
    erased_at: Nullable(DateTime({ description: 'set once the landlord was erased under GDPR' })),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { description: 'A landlord record (bank details only in the detail, for holders of api.landlords.bank-details.view)' },
);
export type LandlordDto = Static<typeof Landlord>;

export const BankDetails = Type.Object({
  account_name: Nullable(Type.String()),
  sort_code: Nullable(Type.String({ description: '12-34-56' })),
  account_number: Nullable(Type.String({ description: '8 digits' })),
});
export type BankDetailsDto = Static<typeof BankDetails>;

export const LandlordProperty = Type.Object({
  address: Address,
  share_bp: Type.Integer({ minimum: 1, maximum: 10000, description: 'ownership share in basis points (10000 = 100 %)' }),
});

export const LandlordDetail = Type.Intersect([
  Landlord,
  Type.Object({
    properties: Type.Array(LandlordProperty, { description: 'properties the landlord owns, with the share' }),
    bank_details: Type.Optional(BankDetails),
  }),
]);
export type LandlordDetailDto = Static<typeof LandlordDetail>;

export const ListLandlordsQuery = Type.Object(
  {
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "search in name, e-mail and the agency's reference (external_ref), case-insensitive" })),
    address_uuid: Type.Optional(Uuid({ description: 'landlords owning this property' })),
    include_erased: Type.Optional(Type.Boolean({ default: false })),
    ...Pagination,
  },
  { additionalProperties: false },
);
export type ListLandlordsQuery = Static<typeof ListLandlordsQuery>;

const Phone = Type.String({ maxLength: 30, pattern: '^\\+?[0-9 ()-]{6,29}$', description: 'digits, spaces, brackets, dashes, optional leading +' });
const OptText = (maxLength: number) => Type.Optional(Type.Union([Type.String({ maxLength }), Type.Null()]));
const fields = {
  kind: Type.Optional(Kind({ default: 'person' })),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  email: Type.Optional(Type.Union([Type.String({ format: 'email', maxLength: 254 }), Type.Null()])),
  phone: Type.Optional(Type.Union([Phone, Type.Null()])),
  address_line1: OptText(200),
  address_line2: OptText(200),
  address_town: OptText(100),
  address_postcode: OptText(10),
  bank_account_name: OptText(100),
  bank_sort_code: Type.Optional(Type.Union([Type.String({ pattern: '^[0-9]{2}-?[0-9]{2}-?[0-9]{2}$', description: '12-34-56 or 123456' }), Type.Null()])),
  bank_account_number: Type.Optional(Type.Union([Type.String({ pattern: '^[0-9]{8}$', description: '8 digits' }), Type.Null()])),
  vat_registered: Type.Optional(Type.Boolean()),
  vat_number: Type.Optional(Type.Union([Type.String({ pattern: '^(GB)?[0-9]{9}([0-9]{3})?$', description: 'GB and 9 (or 12) digits' }), Type.Null()])),
  approval_limit_pence: Type.Optional(Type.Union([Pence(), Type.Null()])),
  notes: OptText(2000),
};

export const CreateLandlordBody = Type.Object(fields, { additionalProperties: false });
export type CreateLandlordInput = Static<typeof CreateLandlordBody>;

export const UpdateLandlordBody = Type.Object(
  { ...fields, name: Type.Optional(fields.name) },
  { additionalProperties: false, description: 'Only the fields sent change; null clears an optional field.' },
);
export type UpdateLandlordInput = Static<typeof UpdateLandlordBody>;

export const LinkPropertyBody = Type.Object(
  {
    address_uuid: Uuid({ description: 'the property (an address of the agency)' }),
    share_bp: Type.Integer({ minimum: 1, maximum: 10000, description: 'ownership share in basis points; the shares of one property sum to at most 10000' }),
  },
  { additionalProperties: false },
);
export type LinkPropertyInput = Static<typeof LinkPropertyBody>;

export const PropertyParams = Type.Object({ uuid: Uuid(), address_uuid: Uuid() }, { additionalProperties: false });
export const AddressParams = Type.Object({ address_uuid: Uuid() }, { additionalProperties: false });

export const PropertyOwnership = Type.Object({
  address: Address,
  owners: Type.Array(Type.Object({ landlord_uuid: Uuid(), name: Type.String(), share_bp: Type.Integer() })),
  shares_total_bp: Type.Integer({ description: 'sum of the owners\' shares (at most 10000)' }),
  property_limit_pence: Nullable(Pence({ description: "the property's own spend limit; it wins over the landlords' and the agency's" })),
  effective_limit_pence: Nullable(Pence({ description: 'the limit that applies: property, else the lowest of its landlords, else the agency default; null: no approval needed' })),
  limit_source: Type.Union([Type.Literal('property'), Type.Literal('landlord'), Type.Literal('agency'), Type.Literal('none')]),
});
export type PropertyOwnershipDto = Static<typeof PropertyOwnership>;

export const PropertyLimitBody = Type.Object(
  {
    limit_pence: Nullable(Pence({ description: 'spend limit of the property in pence; null removes it' })),
  },
  { additionalProperties: false },
);

export const LandlordSettings = Type.Object({
  default_approval_limit_pence: Nullable(Pence({ description: 'the agency default spend limit; null: no approval unless a landlord or property sets one' })),
  reminder_after_hours: Type.Integer({ minimum: 1, maximum: 720, description: 'a pending approval is reminded once after this many hours' }),
  expires_after_hours: Type.Integer({ minimum: 1, maximum: 2160, description: 'an approval and its links expire after this many hours; then the agents are told' }),
});
export type LandlordSettingsDto = Static<typeof LandlordSettings>;

export const UpdateLandlordSettingsBody = Type.Object(
  {
    default_approval_limit_pence: Type.Optional(Nullable(Pence())),
    reminder_after_hours: Type.Optional(Type.Integer({ minimum: 1, maximum: 720 })),
    expires_after_hours: Type.Optional(Type.Integer({ minimum: 1, maximum: 2160 })),
  },
  { additionalProperties: false },
);
export type UpdateLandlordSettingsInput = Static<typeof UpdateLandlordSettingsBody>;
