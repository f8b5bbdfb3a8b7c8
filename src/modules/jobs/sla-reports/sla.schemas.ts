/** Schemas of the SLA endpoints (docs/sla.md). */
import { Type, type Static } from 'typebox';
import { OrderParam, Pagination } from '../../../http/pagination.ts';
import { DateTime, IsoDate, Nullable, Uuid } from '../../../http/schema-primitives.ts';

const Enum = <T extends string>(values: readonly T[], description: string) => Type.Unsafe<T>({ type: 'string', enum: [...values], description });

export const CLOCK_STATES = ['running', 'at_risk', 'breached', 'met', 'paused', 'not_applicable'] as const;

export const Breach = Type.Object(
  {
    ID: Type.Integer({ description: 'the SLA clock' }),
    state: Type.String({ description: 'running, at_risk, breached, met, paused or not_applicable' }),
    job_uuid: Uuid(),
    reference: Type.String(),
    title: Type.String(),
    status: Type.String({ description: 'status of the job' }),
    priority: Type.Integer(),
    job_type_id: Type.Integer(),
    job_type: Type.String(),
    branch_uuid: Uuid(),
    branch_name: Type.String(),
    contractor_uuid: Nullable(Uuid()),
    contractor_name: Nullable(Type.String()),
    rule_uuid: Uuid(),
    rule_description: Type.String(),
    calendar: Type.String({ description: 'how the rule counts time: calendar_hours, calendar_days, working_days or office_hours (docs/sla.md)' }),
    minimum_response_days: Type.Integer({ description: 'allowance of the day modes; 0 for the hour modes' }),
    response_hours: Nullable(Type.Integer({ description: 'allowance of the hour modes; null for the day modes' })),
    started_at: DateTime('the rule\'s compare field on the job'),
    due_at: DateTime('when the allowed time runs out'),
    stopped_at: Nullable(DateTime('the rule\'s track field, once set')),
    breached_at: Nullable(DateTime('when the clock was flagged breached')),
    seconds_to_due: Type.Integer({ description: 'seconds from now to due_at (wall clock); negative once past' }),
  },
  { description: 'An SLA clock of a visible job' },
);

export const ListBreachesQuery = Type.Object(
  {
    state: Type.Optional(Enum(CLOCK_STATES, 'only clocks in this state; default at_risk and breached')),
    branch_uuid: Type.Optional(Uuid('only jobs of this branch')),
    contractor_uuid: Type.Optional(Uuid('only jobs assigned to this contractor')),
    priority: Type.Optional(Type.Integer({ minimum: 1, maximum: 5 })),
    job_type_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
    from_date: Type.Optional(IsoDate('clocks due on or after this UTC date')),
    to_date: Type.Optional(IsoDate('clocks due on or before this UTC date (inclusive)')),
    order: OrderParam('asc', 'by due_at'),
    ...Pagination,
  },
  { additionalProperties: false },
);
export type ListBreachesInput = Static<typeof ListBreachesQuery>;

export const JobClock = Type.Object(
  {
    ID: Type.Integer({ description: 'the SLA clock' }),
    state: Type.String({ description: 'running, at_risk, breached, met, paused or not_applicable' }),
    rule_uuid: Uuid(),
    rule_description: Type.String(),
    rule_deleted: Type.Boolean({ description: 'true when the rule was removed after this outcome was decided' }),
    job_status_from_id: Type.Integer(),
    job_status_to_id: Type.Integer(),
    date_field_to_compare: Type.String(),
    date_field_to_track: Type.String(),
    minimum_response_days: Type.Integer({ description: 'allowance of the day modes; 0 for the hour modes' }),
    response_hours: Nullable(Type.Integer({ description: 'allowance of the hour modes; null for the day modes' })),
    calendar: Type.String({ description: 'calendar_hours, calendar_days, working_days or office_hours (docs/sla.md)' }),
    started_at: DateTime(),
    due_at: DateTime(),
    at_risk_at: DateTime('when the agency\'s at-risk share of the allowed time is reached'),
    stopped_at: Nullable(DateTime()),
    breached_at: Nullable(DateTime()),
    paused_seconds: Type.Integer({ description: 'seconds On hold between start and stop (or now)' }),
    time_left_seconds: Nullable(Type.Integer({
      description: 'allowed time left at now (or at the stop), counted in the rule\'s calendar without On-hold time; negative when over; null for not_applicable',
    })),
  },
  { description: 'One SLA clock of a job' },
);

export const JobParams = Type.Object({ uuid: Uuid('the job') }, { additionalProperties: false });

export const ComplianceQuery = Type.Object(
  {
    from_date: IsoDate('clocks started on or after this UTC date'),
    to_date: IsoDate('clocks started on or before this UTC date (inclusive)'),
    group_by: Type.Optional(Enum(['branch', 'contractor', 'job_type', 'priority'] as const, 'default branch')),
    ...Pagination,
  },
  { additionalProperties: false },
);
export type ComplianceInput = Static<typeof ComplianceQuery>;

export const ComplianceRow = Type.Object(
  {
    group_by: Type.String(),
    key: Nullable(Type.String({ description: 'branch or contractor uuid, job type id or priority (as text); null: no contractor' })),
    name: Type.String(),
    met: Type.Integer(),
    breached: Type.Integer(),
    running: Type.Integer({ description: 'still running (running, at_risk or paused)' }),
    compliance_percent: Nullable(Type.Number({ description: 'met / (met + breached) x 100, one decimal; null when none finished' })),
    median_minutes_to_respond: Nullable(Type.Number({ description: 'median minutes from start to stop of the finished clocks, one decimal' })),
    calendars: Type.String({ description: 'how the rules measured in the group count time, comma-separated and sorted (calendar_hours, calendar_days, working_days, office_hours)' }),
  },
  { description: 'SLA compliance of one group' },
);

const HHMM = (description: string) => Type.String({ pattern: '^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$', description });
const OfficeDay = Nullable(
  Type.Object(
    { opens: HHMM('London wall-clock opening time, HH:MM'), closes: HHMM('London wall-clock closing time, HH:MM (24:00 allowed), after opens') },
    { additionalProperties: false, description: 'null: closed all day' },
  ),
);

/** The agency's office hours per weekday (London wall-clock), which office_hours rules count. */
export const OfficeHoursWeek = Type.Object(
  { mon: OfficeDay, tue: OfficeDay, wed: OfficeDay, thu: OfficeDay, fri: OfficeDay, sat: OfficeDay, sun: OfficeDay },
  { additionalProperties: false, description: 'office hours per weekday; at least one day open; bank holidays of uk_region are closed' },
);
export type OfficeHoursWeekDto = Static<typeof OfficeHoursWeek>;

export const SlaSettings = Type.Object({
  agency_uuid: Uuid(),
  agency_name: Type.String(),
  uk_region: Type.String({ description: 'england-and-wales, scotland or northern-ireland' }),
  at_risk_percent: Type.Integer({ description: 'share of the allowed time after which a clock is at risk' }),
  office_hours: OfficeHoursWeek,
  office_hours_default: Type.Boolean({ description: 'true while the agency has not set its own (Monday to Friday 09:00 to 17:30)' }),
});

export const SettingsQuery = Type.Object(
  { agency_uuid: Type.Optional(Uuid('SysOps: the agency (required); others: their own, may be left out')) },
  { additionalProperties: false },
);

export const UpdateSettingsBody = Type.Object(
  {
    agency_uuid: Type.Optional(Uuid('SysOps: the agency (required); others: their own, may be left out')),
    uk_region: Type.Optional(Enum(['england-and-wales', 'scotland', 'northern-ireland'] as const, 'bank holidays that working days skip')),
    at_risk_percent: Type.Optional(Type.Integer({ minimum: 1, maximum: 99, description: '1 to 99' })),
    office_hours: Type.Optional(OfficeHoursWeek),
  },
  { additionalProperties: false },
);
export type UpdateSettingsInput = Static<typeof UpdateSettingsBody>;
