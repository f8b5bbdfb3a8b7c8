/** Schemas of the addresses endpoints (docs/tenants.md; spec 2.7: addresses expose their integer ID). */
import { Type, type Static } from 'typebox';
import { Pagination, Sorting } from '../../../http/pagination.ts';
import { DateTime, Uuid } from '../../../http/schema-primitives.ts';

const OptText = (max: number, description?: string) =>
  Type.Optional(Type.Union([Type.String({ maxLength: max, ...(description ? { description } : {}) }), Type.Null()]));

export const Address = Type.Object(
  {
    ID: Type.Integer({ description: 'internal id; the address_id of POST /api/tenants/assign-address (spec 4.9)' }),
    uuid: Uuid(),
    line1: Type.String(),
    line2: Type.Union([Type.String(), Type.Null()]),
    line3: Type.Union([Type.String(), Type.Null()]),
    town: Type.String(),
    county: Type.Union([Type.String(), Type.Null()]),
    postcode: Type.String({ description: 'UK postcode, upper case with one space (LS6 3HN)' }),
    latitude: Type.Union([Type.Number(), Type.Null()]),
    longitude: Type.Union([Type.Number(), Type.Null()]),
    is_hmo: Type.Boolean({ description: 'a house in multiple occupation; set with PUT /api/compliance/properties/{uuid}/hmo (docs/compliance.md "HMO")' }),
    branch_uuid: Type.Union([Uuid(), Type.Null()]),
    branch_name: Type.Union([Type.String(), Type.Null()]),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { description: 'A property address' },
);
export type AddressDto = Static<typeof Address>;

/** What GET /api/addresses sorts by (`sort`): line 1, town, postcode (then line 1), branch name, HMO (docs/api.md). */
export const ADDRESS_SORTS = ['line1', 'town', 'postcode', 'branch_name', 'is_hmo'] as const;

export const ListAddressesQuery = Type.Object(
  {
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'search in lines 1 and 2, town and postcode (case-insensitive; the postcode also without its space, so "ls61ab" finds LS6 1AB): the typeahead of the job form' })),
    postcode: Type.Optional(Type.String({ minLength: 1, maxLength: 10, description: 'postcode prefix, case- and space-insensitive ("ls6" or "ls6 3")' })),
    branch_uuid: Type.Optional(Uuid()),
    ...Sorting(ADDRESS_SORTS, 'postcode', 'asc'),
    ...Pagination,
  },
  { additionalProperties: false },
);
export type ListAddressesQuery = Static<typeof ListAddressesQuery>;

const fields = {
  line1: Type.String({ minLength: 1, maxLength: 200 }),
  line2: OptText(200),
  line3: OptText(200),
  town: Type.String({ minLength: 1, maxLength: 100 }),
  county: OptText(100),
  postcode: Type.String({ minLength: 1, maxLength: 10, description: 'UK postcode in any case and spacing; stored as "LS6 3HN"' }),
  latitude: Type.Optional(Type.Union([Type.Number({ minimum: -90, maximum: 90 }), Type.Null()])),
  longitude: Type.Optional(Type.Union([Type.Number({ minimum: -180, maximum: 180 }), Type.Null()])),
  branch_uuid: Type.Optional(Type.Union([Uuid(), Type.Null()])),
};

export const CreateAddressBody = Type.Object(fields, { additionalProperties: false });
export type CreateAddressInput = Static<typeof CreateAddressBody>;

export const UpdateAddressBody = Type.Object(
  { ...fields, line1: Type.Optional(fields.line1), town: Type.Optional(fields.town), postcode: Type.Optional(fields.postcode) },
  { additionalProperties: false, description: 'Only the fields sent are changed; null clears an optional field.' },
);
export type UpdateAddressInput = Static<typeof UpdateAddressBody>;

export { UuidParams } from '../../../http/schema-primitives.ts';
