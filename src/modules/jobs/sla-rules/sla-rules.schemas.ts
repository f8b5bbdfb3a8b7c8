/** Schemas of the branch SLA response-time rule endpoints (spec 2.3a, 4.7, 4.8; docs/sla-rules.md). */
import { Type, type Static } from 'typebox';
import { Pagination } from '../../../http/pagination.ts';
import { DateTime, Uuid } from '../../../http/schema-primitives.ts';
import { SLA_CALENDARS, type SlaCalendar } from '../sla/index.ts';

/** The job date fields a rule may name (columns of `jobs`). */
export const JOB_DATE_FIELDS = [
  'created_at', 'approved_at', 'assigned_at', 'scheduled_for', 'attended_at',
  'completed_at', 'invoiced_at', 'closed_at', 'cancelled_at', 'updated_at',
] as const;
export type JobDateField = (typeof JOB_DATE_FIELDS)[number];

const DateField = (description: string) =>
  Type.Unsafe<JobDateField>({ type: 'string', enum: [...JOB_DATE_FIELDS], description });
const Calendar = (description: string) =>
  Type.Unsafe<SlaCalendar>({ type: 'string', enum: [...SLA_CALENDARS], description });
const NullableInt = (options: { minimum: number; maximum?: number; description: string }) =>
  Type.Union([Type.Integer(options), Type.Null()]);

export const SlaRule = Type.Object(
  {
    uuid: Uuid(),
    branch_uuid: Uuid(),
    branch_name: Type.String(),
    job_status_from_id: Type.Integer(),
    job_status_to_id: Type.Integer(),
    job_type_id: NullableInt({ minimum: 1, description: 'null: every job type' }),
    job_priority: NullableInt({ minimum: 1, maximum: 5, description: 'null: every priority' }),
    date_field_to_track: DateField('job date field whose value is measured'),
    date_field_to_compare: DateField('job date field the measurement starts from'),
    minimum_response_days: Type.Integer({ minimum: 0, description: 'allowance in days of the day modes (calendar_days, working_days); 0 for the hour modes' }),
    response_hours: NullableInt({ minimum: 1, description: 'allowance in hours of the hour modes (calendar_hours, office_hours); null for the day modes' }),
    calendar: Calendar('how time counts (docs/sla.md): calendar_hours, calendar_days (London dates), working_days (London dates, weekends and the region\'s bank holidays skipped) or office_hours (the agency\'s office hours, bank holidays skipped)'),
    description: Type.String(),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { description: 'A stored branch SLA response-time rule (spec 2.3a plus its identity and times)' },
);
export type SlaRuleDto = Static<typeof SlaRule>;

export const UpsertSlaRuleBody = Type.Object(
  {
    uuid: Type.Optional(Uuid({ description: 'rule to update; absent to create' })),
    branch_uuid: Type.Optional(Uuid({ description: 'required on create' })),
    job_status_from_id: Type.Optional(Type.Integer({ minimum: 1, description: 'required on create; a job status id' })),
    job_status_to_id: Type.Optional(Type.Integer({ minimum: 1, description: 'required on create; a job status id other than job_status_from_id' })),
    job_type_id: Type.Optional(NullableInt({ minimum: 1, description: 'optional; null or absent on create: every job type' })),
    date_field_to_track: Type.Optional(DateField('required on create')),
    date_field_to_compare: Type.Optional(DateField('required on create; differs from date_field_to_track')),
    job_priority: Type.Optional(NullableInt({ minimum: 1, maximum: 5, description: 'optional; 1 emergency to 5 planned; null: every priority' })),
    minimum_response_days: Type.Optional(Type.Integer({ minimum: 0, maximum: 3650, description: 'whole days, 0 to 3650; required on create with a day mode (calendar_days, working_days)' })),
    response_hours: Type.Optional(NullableInt({ minimum: 1, maximum: 87600, description: 'whole hours, 1 to 87600; required with an hour mode (calendar_hours, office_hours), null or absent with a day mode' })),
    calendar: Type.Optional(Calendar('optional; calendar_hours, calendar_days (default on create), working_days or office_hours (docs/sla.md)')),
    description: Type.Optional(Type.String({ maxLength: 1000, description: 'optional free text, at most 1000 characters' })),
  },
  { additionalProperties: false },
);
export type UpsertSlaRuleInput = Static<typeof UpsertSlaRuleBody>;

export const DeleteSlaRuleBody = Type.Object(
  {
    uuid: Uuid(),
  },
  { additionalProperties: false },
);

export const ListSlaRulesQuery = Type.Object(
  { branch_uuid: Type.Optional(Uuid({ description: 'only the rules of this branch' })), ...Pagination },
  { additionalProperties: false },
);
