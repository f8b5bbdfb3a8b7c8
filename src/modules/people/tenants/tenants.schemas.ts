/** Schemas of the tenants endpoints (docs/tenants.md; spec 4.9, 2.7). */
import { Type, type Static } from 'typebox';
import { DateTime, Nullable, Uuid } from '../../../http/schema-primitives.ts';
import { Pagination, Sorting } from '../../../http/pagination.ts';
import { Address } from '../addresses/index.ts';

export const CONTACT_PREFERENCES = ['email', 'phone', 'sms', 'post'] as const;

export const Tenant = Type.Object(
  {
    uuid: Uuid(),
    name: Type.String(),
    email: Nullable(Type.String()),
    phone: Nullable(Type.String()),
    mobile: Nullable(Type.String()),
    preferred_contact: Nullable(Type.String({ description: 'email | phone | sms | post' })),
    notes: Nullable(Type.String()),
    has_login: Type.Boolean({ description: 'true when a user account is linked to the tenant' }),
    address_count: Type.Integer({ minimum: 0 }),
    erased_at: Nullable(DateTime({ description: 'set once the tenant was erased under GDPR' })),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { description: 'A tenant record' },
);
export type TenantDto = Static<typeof Tenant>;

export const TenantDetail = Type.Intersect([
  Tenant,
  Type.Object({
    addresses: Type.Array(Address, { description: 'addresses linked to the tenant' }),
    login: Type.Union([
      Type.Object({ user_uuid: Uuid(), email: Type.String(), status: Type.String() }),
      Type.Null(),
    ]),
  }),
]);
export type TenantDetailDto = Static<typeof TenantDetail>;

/** What GET /api/tenants sorts by (`sort`): name, e-mail, the number of linked addresses (docs/api.md). */
export const TENANT_SORTS = ['name', 'email', 'address_count'] as const;

export const ListTenantsQuery = Type.Object(
  {
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'search in name and e-mail (case-insensitive)' })),
    postcode: Type.Optional(Type.String({ minLength: 1, maxLength: 10, description: 'tenants with an address whose postcode starts so (case- and space-insensitive)' })),
    address_uuid: Type.Optional(Uuid('tenants linked to this property (the job form defaults the tenant from it); 404 for an address of another agency')),
    include_erased: Type.Optional(Type.Boolean({ default: false })),
    ...Sorting(TENANT_SORTS, 'name', 'asc'),
    ...Pagination,
  },
  { additionalProperties: false },
);
export type ListTenantsQuery = Static<typeof ListTenantsQuery>;

const Phone = Type.String({ maxLength: 30, pattern: '^\\+?[0-9 ()-]{6,29}$', description: 'digits, spaces, brackets, dashes, optional leading +' });
const fields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  email: Type.Optional(Type.Union([Type.String({ format: 'email', maxLength: 254 }), Type.Null()])),
  phone: Type.Optional(Type.Union([Phone, Type.Null()])),
  mobile: Type.Optional(Type.Union([Phone, Type.Null()])),
  preferred_contact: Type.Optional(Type.Union([Type.Union(CONTACT_PREFERENCES.map((p) => Type.Literal(p))), Type.Null()])),
  notes: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
};

export const CreateTenantBody = Type.Object(fields, { additionalProperties: false });
export type CreateTenantInput = Static<typeof CreateTenantBody>;

export const UpdateTenantBody = Type.Object(
  { ...fields, name: Type.Optional(fields.name) },
  { additionalProperties: false, description: 'Only the fields sent change; null clears an optional field.' },
);
export type UpdateTenantInput = Static<typeof UpdateTenantBody>;

/** Spec 4.9: tenant_uuid (UUID), address_id (integer), csrf_token. */
export const AssignAddressBody = Type.Object(
  {
    tenant_uuid: Uuid(),
    address_id: Type.Integer({ minimum: 1, description: 'the address ID (integer) as in address responses' }),
  },
  { additionalProperties: false },
);
export type AssignAddressInput = Static<typeof AssignAddressBody>;

export const UnlinkParams = Type.Object(
  { uuid: Uuid(), address_uuid: Uuid() },
  { additionalProperties: false },
);
