/** Schemas of the agency endpoints (docs/onboarding.md, docs/api.md "Agencies"). */
import { Type, type Static } from 'typebox';
import { DateTime, Nullable, Pence, Uuid } from '../../../http/schema-primitives.ts';
import { Pagination } from '../../../http/pagination.ts';

export const UK_REGIONS = ['england-and-wales', 'scotland', 'northern-ireland'] as const;
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

const Time = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:MM, 24-hour, Europe/London' });
const DayHours = Nullable(Type.Object({ open: Time, close: Time }, { additionalProperties: false, description: 'null: closed that day' }));
export const OfficeHours = Type.Object(
  Object.fromEntries(WEEKDAYS.map((d) => [d, DayHours])) as Record<(typeof WEEKDAYS)[number], typeof DayHours>,
  { description: 'opening hours per weekday (mon..sun, Europe/London); null for a closed day. The same week as GET /api/sla/settings (what office-hours SLA clocks count); Monday to Friday 09:00-17:30 until the agency saves its own' },
);
const OfficeHoursInput = Type.Partial(
  Type.Object(Object.fromEntries(WEEKDAYS.map((d) => [d, DayHours])) as Record<(typeof WEEKDAYS)[number], typeof DayHours>, { additionalProperties: false }),
  { additionalProperties: false, description: 'days to set; a day left out stays as it is (closed on a new agency)' },
);

export const RegisteredAddress = Type.Object(
  {
    line1: Type.String({ minLength: 1, maxLength: 200 }),
    line2: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    town: Type.String({ minLength: 1, maxLength: 100 }),
    postcode: Type.String({ minLength: 5, maxLength: 10, description: 'UK postcode; stored normalised (LS6 3HN)' }),
  },
  { additionalProperties: false },
);

export const Agency = Type.Object(
  {
    uuid: Uuid(),
    name: Type.String({ description: 'trading name, shown on documents and messages' }),
    legal_name: Nullable(Type.String()),
    registered_address: Nullable(Type.Object({ line1: Type.String(), line2: Nullable(Type.String()), town: Type.String(), postcode: Type.String() })),
    company_number: Nullable(Type.String({ description: 'Companies House number, e.g. 09876543 or SC123456' })),
    vat_number: Nullable(Type.String({ description: 'the money settings\' VAT number (docs/money.md)' })),
    contact_email: Nullable(Type.String()),
    contact_phone: Nullable(Type.String()),
    bank_holiday_region: Type.String({ description: 'england-and-wales, scotland or northern-ireland (SLA working days skip its bank holidays)' }),
    office_hours: OfficeHours,
    default_approval_limit_pence: Nullable(Pence({ description: "the agency's default spend limit (pence) for landlord approvals, used when neither the property nor its landlords set one; the same value as GET /api/landlords/settings" })),
    invoice_terms_days: Type.Integer({ description: 'days an invoice is due after issue (the money settings\' payment terms)' }),
    postcode_lookup: Type.Boolean({ description: 'look property postcodes up at postcodes.io: an unknown postcode is refused, coordinates and an empty town filled (docs/tenants.md "Postcode lookup")' }),
    status: Type.Union([Type.Literal('active'), Type.Literal('suspended')]),
    suspended_at: Nullable(DateTime()),
    suspended_reason: Nullable(Type.String()),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { description: 'A letting agency and its profile' },
);
export type AgencyDto = Static<typeof Agency>;

const Phone = Type.String({ maxLength: 30, pattern: '^\\+?[0-9 ()-]{6,29}$', description: 'digits, spaces, brackets, dashes, optional leading +' });
const profileFields = {
  name: Type.String({ minLength: 1, maxLength: 200, description: 'trading name' }),
  legal_name: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 200 }))),
  registered_address: Type.Optional(Nullable(RegisteredAddress)),
  company_number: Type.Optional(Nullable(Type.String({ pattern: '^([0-9]{8}|[A-Z]{2}[0-9]{6})$', description: '8 digits, or 2 letters and 6 digits (SC, NI, OC...)' }))),
  vat_number: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 20, pattern: '^[A-Z]{0,2}[0-9 ]{5,16}$', description: 'e.g. GB123456789' }))),
  contact_email: Type.Optional(Nullable(Type.String({ format: 'email', maxLength: 254 }))),
  contact_phone: Type.Optional(Nullable(Phone)),
  bank_holiday_region: Type.Optional(Type.Union(UK_REGIONS.map((r) => Type.Literal(r)))),
  office_hours: Type.Optional(OfficeHoursInput),
  default_approval_limit_pence: Type.Optional(Nullable(Pence())),
  invoice_terms_days: Type.Optional(Type.Integer({ minimum: 0, maximum: 365 })),
  postcode_lookup: Type.Optional(Type.Boolean({ description: 'look property postcodes up at postcodes.io (default false)' })),
};

export const CreateAgencyBody = Type.Object(
  {
    ...profileFields,
    branch_name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'the first branch (default "Head office")' })),
    admin: Type.Object(
      { name: Type.String({ minLength: 1, maxLength: 200 }), email: Type.String({ format: 'email', maxLength: 254 }) },
      { additionalProperties: false, description: 'the first administrator, invited by e-mail (docs/users.md, invitations)' },
    ),
  },
  { additionalProperties: false },
);
export type CreateAgencyInput = Static<typeof CreateAgencyBody>;

export const UpdateAgencyBody = Type.Partial(Type.Object(profileFields), { additionalProperties: false });
export type UpdateAgencyInput = Static<typeof UpdateAgencyBody>;

export const CreatedAgency = Type.Object({
  agency: Agency,
  branch: Type.Object({ uuid: Uuid(), name: Type.String() }),
  admin: Type.Object({ uuid: Uuid(), name: Type.String(), email: Type.String(), status: Type.String() }),
  invitation_sent: Type.Boolean({ description: 'false when the mail transport refused the invitation (send again with POST /api/users/{uuid}/invite)' }),
});

export const ListAgenciesQuery = Type.Object(
  {
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'search in trading and legal name' })),
    status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('suspended')])),
    ...Pagination,
  },
  { additionalProperties: false },
);
export type ListAgenciesQuery = Static<typeof ListAgenciesQuery>;

export const SuspendBody = Type.Object(
  { reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'why (kept on the agency, shown to SysOps)' })) },
  { additionalProperties: false },
);

export const SetupItem = Type.Object({
  key: Type.String({ description: 'branches, users, sla_rules, trades, contractors, properties, templates' }),
  label: Type.String(),
  done: Type.Boolean(),
  count: Type.Integer({ minimum: 0 }),
  link: Type.String({ description: 'the console page where it is done' }),
});
export const Setup = Type.Object({
  done: Type.Boolean({ description: 'true when every item is done' }),
  items: Type.Array(SetupItem),
});
export type SetupDto = Static<typeof Setup>;
