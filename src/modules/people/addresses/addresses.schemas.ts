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
    line1: Type.String({ description: 'first line as printed; composed from the parts when only the parts were given (docs/tenants.md "Address parts")' }),
    line2: Type.Union([Type.String(), Type.Null()]),
    line3: Type.Union([Type.String(), Type.Null()]),
    sub_building: Type.Union([Type.String(), Type.Null()], { description: 'PAF sub-building: the flat or unit ("Flat 3")' }),
    building_name: Type.Union([Type.String(), Type.Null()], { description: 'PAF building name ("Aire Court")' }),
    building_number: Type.Union([Type.String(), Type.Null()], { description: 'PAF building number ("21", "12A")' }),
    street: Type.Union([Type.String(), Type.Null()], { description: 'PAF thoroughfare ("The Calls")' }),
    locality: Type.Union([Type.String(), Type.Null()], { description: 'PAF dependent locality ("Headingley")' }),
    town: Type.String({ description: 'the post town' }),
    county: Type.Union([Type.String(), Type.Null()]),
    postcode: Type.String({ description: 'UK postcode, upper case with one space (LS6 3HN)' }),
    latitude: Type.Union([Type.Number(), Type.Null()]),
    longitude: Type.Union([Type.Number(), Type.Null()]),
    building_uuid: Type.Union([Uuid(), Type.Null()], { description: 'the building (block) this unit belongs to (GET /api/buildings/{uuid})' }),
    is_communal: Type.Boolean({ description: "a building's communal areas (stairs, plant room): where its shared certificates are kept" }),
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
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'search in the lines, the building name, street, town and postcode (case-insensitive; the postcode also without its space, so "ls61ab" finds LS6 1AB): the typeahead of the job form' })),
    postcode: Type.Optional(Type.String({ minLength: 1, maxLength: 10, description: 'postcode prefix, case- and space-insensitive ("ls6" or "ls6 3")' })),
    branch_uuid: Type.Optional(Uuid()),
    building_uuid: Type.Optional(Uuid({ description: 'only the units of this building' })),
    ...Sorting(ADDRESS_SORTS, 'postcode', 'asc'),
    ...Pagination,
  },
  { additionalProperties: false },
);
export type ListAddressesQuery = Static<typeof ListAddressesQuery>;

const fields = {
  line1: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'required unless the parts (or a building) are given; then composed from them' })),
  line2: OptText(200),
  line3: OptText(200),
  sub_building: OptText(100, 'flat or unit ("Flat 3")'),
  building_name: OptText(100),
  building_number: OptText(20),
  street: OptText(200),
  locality: OptText(100),
  town: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "the post town; required unless the building's is taken or the postcode lookup fills it" })),
  county: OptText(100),
  postcode: Type.Optional(Type.String({ minLength: 1, maxLength: 10, description: 'UK postcode in any case, with or without its one space before the last three characters; stored as "LS6 3HN", never otherwise changed; required unless the building\'s is taken' })),
  latitude: Type.Optional(Type.Union([Type.Number({ minimum: -90, maximum: 90 }), Type.Null()])),
  longitude: Type.Optional(Type.Union([Type.Number({ minimum: -180, maximum: 180 }), Type.Null()])),
  branch_uuid: Type.Optional(Type.Union([Uuid(), Type.Null()])),
  building_uuid: Type.Optional(Type.Union([Uuid(), Type.Null()], { description: 'the building this unit belongs to; its parts, town, postcode and branch fill what is not given' })),
  is_communal: Type.Optional(Type.Boolean()),
};

export const CreateAddressBody = Type.Object(fields, { additionalProperties: false });
export type CreateAddressInput = Static<typeof CreateAddressBody>;

export const UpdateAddressBody = Type.Object(
  fields,
  { additionalProperties: false, description: 'Only the fields sent are changed; null clears an optional field.' },
);
export type UpdateAddressInput = Static<typeof UpdateAddressBody>;

export { UuidParams } from '../../../http/schema-primitives.ts';

const Nul = (t: ReturnType<typeof Type.String>) => Type.Union([t, Type.Null()]);

export const Building = Type.Object(
  {
    uuid: Uuid(),
    external_ref: Nul(Type.String({ description: "the agency's own reference" })),
    building_name: Nul(Type.String({ description: 'PAF building name ("Aire Court")' })),
    building_number: Nul(Type.String({ description: 'PAF building number ("21")' })),
    street: Nul(Type.String({ description: 'PAF thoroughfare' })),
    locality: Nul(Type.String({ description: 'PAF dependent locality' })),
    town: Type.String({ description: 'the post town' }),
    county: Nul(Type.String()),
    postcode: Type.String({ description: 'UK postcode, upper case with one space' }),
    latitude: Type.Union([Type.Number(), Type.Null()]),
    longitude: Type.Union([Type.Number(), Type.Null()]),
    branch_uuid: Type.Union([Uuid(), Type.Null()]),
    branch_name: Nul(Type.String()),
    units: Type.Integer({ description: 'how many addresses (flats, communal areas) belong to it' }),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { description: 'A building of several units (a block of flats): its address without the flat (docs/tenants.md "Buildings")' },
);
export type BuildingDto = Static<typeof Building>;

export const BuildingWithUnits = Type.Object(
  { ...Building.properties, unit_addresses: Type.Array(Address, { description: 'its units, flats and communal areas, by sub-building' }) },
  { description: 'A building and its units' },
);

export const ListBuildingsQuery = Type.Object(
  {
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'building name, street, number and street, town or postcode (also without its space)' })),
    ...Pagination,
  },
  { additionalProperties: false },
);
export type ListBuildingsQuery = Static<typeof ListBuildingsQuery>;

const buildingFields = {
  external_ref: OptText(100),
  building_name: OptText(100),
  building_number: OptText(20),
  street: OptText(200),
  locality: OptText(100),
  town: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'the post town; required unless the postcode lookup fills it' })),
  county: OptText(100),
  postcode: Type.String({ minLength: 1, maxLength: 10, description: 'UK postcode (as for addresses)' }),
  latitude: Type.Optional(Type.Union([Type.Number({ minimum: -90, maximum: 90 }), Type.Null()])),
  longitude: Type.Optional(Type.Union([Type.Number({ minimum: -180, maximum: 180 }), Type.Null()])),
  branch_uuid: Type.Optional(Type.Union([Uuid(), Type.Null()])),
};
export const CreateBuildingBody = Type.Object(buildingFields, { additionalProperties: false, description: 'A building name or a street is required.' });
export type CreateBuildingInput = Static<typeof CreateBuildingBody>;
export const UpdateBuildingBody = Type.Object(
  { ...buildingFields, postcode: Type.Optional(buildingFields.postcode) },
  { additionalProperties: false, description: 'Only the fields sent change; the building parts, town, county and postcode changed are carried to its units.' },
);
export type UpdateBuildingInput = Static<typeof UpdateBuildingBody>;
