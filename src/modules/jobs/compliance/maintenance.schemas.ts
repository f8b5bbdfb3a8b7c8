/** Schemas of the planned maintenance endpoints (docs/compliance.md "Planned maintenance"). */
import { Type, type Static } from 'typebox';
import { Pagination } from '../../../http/pagination.ts';
import { DateTime, IsoDate, Nullable, Uuid } from '../../../http/schema-primitives.ts';

const TypeCode = Type.String({ pattern: '^[a-z0-9_]{1,40}$', description: 'a compliance item type code, e.g. gas_safety' });
const RRuleText = Type.String({
  minLength: 6, maxLength: 500,
  description: 'an RFC 5545 RRULE without DTSTART, e.g. FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=15 (an RRULE: prefix is accepted); FREQ DAILY, WEEKLY, MONTHLY or YEARLY',
});
const LeadDays = Type.Integer({ minimum: 0, maximum: 365, description: 'days before each due date the job is raised' });
const Priority = Type.Integer({ minimum: 1, maximum: 5, description: 'priority of the raised jobs, 1 emergency to 5 planned (default 4)' });

export const Occurrence = Type.Object({
  due_on: IsoDate(),
  due_on_text: Type.String({ description: 'the due date for people, e.g. "Mon 15 Mar 2027"' }),
  raise_on: IsoDate({ description: 'the London date the job is raised (due_on minus lead_days)' }),
});

export const RaisedOccurrence = Type.Object({
  due_on: IsoDate(),
  raised_at: DateTime(),
  address_uuid: Uuid(),
  address: Type.String(),
  job_uuid: Nullable(Uuid()),
  job_reference: Nullable(Type.String()),
  job_status: Nullable(Type.String()),
  item_uuid: Nullable(Uuid({ description: 'the compliance item the job serves' })),
  certificate_uuid: Nullable(Uuid({ description: 'the certificate taken from the job\'s first document' })),
});

export const Schedule = Type.Object(
  {
    uuid: Uuid(),
    title: Type.String(),
    description: Type.String(),
    address_uuid: Nullable(Uuid({ description: 'the property; null: every property with an item of `type`' })),
    address: Nullable(Type.String()),
    type: Nullable(Type.String({ description: 'the compliance item type code the work satisfies' })),
    type_name: Nullable(Type.String()),
    rrule: Type.String({ description: 'the RRULE in its normal form' }),
    starts_on: IsoDate({ description: 'DTSTART (London date)' }),
    lead_days: Type.Integer(),
    contractor_uuid: Nullable(Uuid({ description: 'the contractor the raised jobs are assigned to' })),
    contractor_name: Nullable(Type.String()),
    trade_id: Nullable(Type.Integer()),
    trade_name: Nullable(Type.String()),
    priority: Type.Integer(),
    active_from: IsoDate({ description: 'occurrences due before this London date are never raised (creation, or the last change of rrule or starts_on)' }),
    retired: Type.Boolean(),
    next: Type.Array(Occurrence, { description: 'the next occurrences from today (three in lists, five in a read)' }),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { description: 'A planned maintenance schedule' },
);

export const ScheduleDetail = Type.Object({
  ...Schedule.properties,
  raised: Type.Array(RaisedOccurrence, { description: 'the latest 20 raised occurrences, latest due date first' }),
});

export const ScheduleQuery = Type.Object(
  {
    state: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('retired'), Type.Literal('all')], { description: 'default active' })),
    address_uuid: Type.Optional(Uuid({ description: 'only schedules of this property' })),
    type: Type.Optional(TypeCode),
    contractor_uuid: Type.Optional(Uuid({ description: 'only schedules assigned to this contractor' })),
    ...Pagination,
  },
  { additionalProperties: false },
);
export type ScheduleQueryInput = Static<typeof ScheduleQuery>;

export const CreateScheduleBody = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 200, description: 'the raised jobs\' title' }),
    description: Type.Optional(Type.String({ maxLength: 4000 })),
    address_uuid: Type.Optional(Uuid({ description: 'one property; without it, type covers every property with an item of the type' })),
    type: Type.Optional(TypeCode),
    rrule: RRuleText,
    starts_on: IsoDate({ description: 'DTSTART, a London date' }),
    lead_days: LeadDays,
    contractor_uuid: Type.Optional(Uuid({ description: 'the contractor who usually does it' })),
    trade_id: Type.Optional(Type.Integer({ minimum: 1 })),
    priority: Type.Optional(Priority),
  },
  { additionalProperties: false },
);
export type CreateScheduleInput = Static<typeof CreateScheduleBody>;

export const UpdateScheduleBody = Type.Object(
  {
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    description: Type.Optional(Type.String({ maxLength: 4000 })),
    rrule: Type.Optional(RRuleText),
    starts_on: Type.Optional(IsoDate()),
    lead_days: Type.Optional(LeadDays),
    contractor_uuid: Type.Optional(Nullable(Uuid({ description: 'null: raise the jobs unassigned' }))),
    trade_id: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
    priority: Type.Optional(Priority),
  },
  { additionalProperties: false },
);
export type UpdateScheduleInput = Static<typeof UpdateScheduleBody>;
