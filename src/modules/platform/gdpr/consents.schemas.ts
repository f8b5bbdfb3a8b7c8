/** Schemas of the GDPR consent endpoints (docs/gdpr.md). */
import { Type, type Static } from 'typebox';
import { DateTime, Nullable, Uuid } from '../../../http/schema-primitives.ts';
import { Pagination } from '../../../http/pagination.ts';

/** Purposes a consent can be given for. */
export const CONSENT_PURPOSES = ['marketing_email', 'sms_updates', 'data_sharing_contractors', 'satisfaction_surveys', 'phone_calls', 'photos_of_property'] as const;
/** Purposes of service messages: withdrawing one stops that channel's messages to the tenant (docs/messaging.md). */
export const SERVICE_MESSAGE_PURPOSES = ['email_updates', 'push_updates'] as const;
/** Where a consent (or its withdrawal) came from. */
export const CONSENT_SOURCES = ['web_form', 'phone', 'email', 'in_person', 'tenancy_agreement', 'api'] as const;

const Purpose = Type.Union([...CONSENT_PURPOSES, ...SERVICE_MESSAGE_PURPOSES].map((p) => Type.Literal(p)));
const Source = Type.Union(CONSENT_SOURCES.map((s) => Type.Literal(s)));

export const Consent = Type.Object(
  {
    uuid: Uuid(),
    tenant_uuid: Nullable(Uuid()),
    user_uuid: Nullable(Uuid()),
    purpose: Type.String({ description: [...CONSENT_PURPOSES, ...SERVICE_MESSAGE_PURPOSES].join(' | ') }),
    source: Type.String({ description: CONSENT_SOURCES.join(' | ') }),
    given_at: DateTime(),
    withdrawn_at: Nullable(DateTime()),
    withdrawn_source: Nullable(Type.String()),
    active: Type.Boolean({ description: 'given and not withdrawn' }),
    recorded_by: Nullable(Type.String({ description: 'name of the user who recorded it' })),
    created_at: DateTime(),
  },
  { description: 'A consent of a person for one purpose' },
);
export type ConsentDto = Static<typeof Consent>;

export const ListConsentsQuery = Type.Object(
  {
    tenant_uuid: Type.Optional(Uuid()),
    user_uuid: Type.Optional(Uuid()),
    purpose: Type.Optional(Purpose),
    active: Type.Optional(Type.Boolean({ description: 'true: only consents in force; false: only withdrawn' })),
    ...Pagination,
  },
  { additionalProperties: false },
);
export type ListConsentsQuery = Static<typeof ListConsentsQuery>;

export const CreateConsentBody = Type.Object(
  {
    tenant_uuid: Type.Optional(Uuid({ description: 'the person: a tenant (or send user_uuid)' })),
    user_uuid: Type.Optional(Uuid({ description: 'the person: a user account of the agency' })),
    purpose: Purpose,
    source: Source,
    given_at: Type.Optional(DateTime({ description: 'default now; never in the future' })),
  },
  { additionalProperties: false },
);
export type CreateConsentInput = Static<typeof CreateConsentBody>;

export const WithdrawConsentBody = Type.Object(
  { source: Type.Optional(Source) },
  { additionalProperties: false },
);
