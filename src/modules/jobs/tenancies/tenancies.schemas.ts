/** TypeBox schemas of tenancies and their served documents (docs/compliance.md "Tenancies and served documents"). */
import { Type, type Static } from 'typebox';
import { DateTime, IsoDate, Nullable, Page, Uuid } from '../../../http/schema-primitives.ts';

const Document = Type.Union([Type.Literal('gas_safety'), Type.Literal('eicr'), Type.Literal('epc'), Type.Literal('how_to_rent')], { description: 'gas_safety | eicr | epc | how_to_rent' });

export const TenancyParams = Type.Object({ uuid: Uuid({ description: 'the property (address)' }), tenancy_uuid: Uuid() }, { additionalProperties: false });
export const ServedParams = Type.Object({ uuid: Uuid({ description: 'the property (address)' }), tenancy_uuid: Uuid(), served_uuid: Uuid() }, { additionalProperties: false });
export const TenanciesQuery = Type.Object({ ...Page }, { additionalProperties: false });

export const CreateTenancyBody = Type.Object(
  {
    starts_on: IsoDate('the tenancy\'s first day'),
    ends_on: Type.Optional(Nullable(IsoDate('its last day (null: periodic or open)'))),
    kind: Type.Optional(Type.Union([Type.Literal('assured_shorthold'), Type.Literal('other')], { description: 'default assured_shorthold (the How to Rent guide applies in England)' })),
    tenant_uuids: Type.Array(Uuid(), { minItems: 1, maxItems: 10, uniqueItems: true, description: 'the agency\'s tenants on the tenancy' }),
  },
  { additionalProperties: false },
);
export type CreateTenancyInput = Static<typeof CreateTenancyBody>;

export const ServeBody = Type.Object(
  {
    document: Document,
    certificate_uuid: Type.Optional(Uuid({ description: 'gas_safety, eicr, epc: the certificate (version) served, one of the property\'s' })),
    guide_edition: Type.Optional(IsoDate('how_to_rent: the date of the edition served, as printed on it')),
    served_on: IsoDate('the day it was served (not in the future)'),
    method: Type.Union([Type.Literal('hand'), Type.Literal('post'), Type.Literal('email')], { description: 'hand | post | email' }),
    proof_note: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description: 'the proof of service in words (or upload a file to .../proof)' })),
  },
  { additionalProperties: false },
);
export type ServeInput = Static<typeof ServeBody>;

export const ServedDocument = Type.Object({
  uuid: Uuid(),
  document: Document,
  certificate_uuid: Nullable(Uuid()),
  certificate_issued_on: Nullable(IsoDate()),
  guide_edition: Nullable(IsoDate()),
  served_on: IsoDate(),
  method: Type.String({ description: 'hand | post | email' }),
  proof_note: Nullable(Type.String()),
  proof_file: Nullable(Type.Object({ mime: Type.String(), size: Type.Integer({ description: 'bytes' }), sha256: Type.String() })),
  created_at: DateTime(),
});

export const Obligation = Type.Object({
  document: Document,
  name: Type.String(),
  rule: Type.String({ description: 'the regulation and paragraph' }),
  certificate_uuid: Nullable(Uuid()),
  certificate_issued_on: Nullable(IsoDate()),
  due_by: Nullable(IsoDate({ description: 'the last day it may be served on time' })),
  status: Type.String({ description: 'served | served_late | owed | overdue | not_required' }),
  served_on: Nullable(IsoDate()),
  reason: Type.String(),
});

export const Tenancy = Type.Object({
  uuid: Uuid(),
  property_uuid: Uuid(),
  kind: Type.String({ description: 'assured_shorthold | other' }),
  starts_on: IsoDate(),
  ends_on: Nullable(IsoDate()),
  nation: Type.String({ description: 'the property\'s stated nation, else from its postcode (england when unknown)' }),
  tenants: Type.Array(Type.Object({ uuid: Uuid(), name: Type.String() })),
  documents: Type.Array(Obligation, { description: 'what is owed to the tenants, document by document, with its status today' }),
  owed: Type.Integer({ description: 'documents still owed (owed or overdue)' }),
  served: Type.Array(ServedDocument),
  created_at: DateTime(),
});
