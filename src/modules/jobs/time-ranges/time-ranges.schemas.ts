/** Schemas of the job time-range endpoints (spec 2.5, 4.13; docs/time-ranges.md). */
import { Type, type Static } from 'typebox';
import { Uuid } from '../../../http/schema-primitives.ts';

const HHMM = (description: string) =>
  Type.Union([Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description }), Type.Null()]);

export const TimeRange = Type.Object(
  {
    ID: Type.Integer(),
    range_label: Type.String({ description: 'label of the time slot' }),
    starts_at: Type.Union([Type.String(), Type.Null()], { description: 'HH:MM local time, or null' }),
    ends_at: Type.Union([Type.String(), Type.Null()], { description: 'HH:MM local time, or null' }),
    sort_order: Type.Integer(),
    agency_uuid: Type.Union([Uuid(), Type.Null()], { description: 'null: a global slot every agency sees' }),
  },
  { description: 'Job time range (spec 2.5) with its times, order and owner' },
);
export type TimeRangeDto = Static<typeof TimeRange>;

export const ListTimeRangesQuery = Type.Object(
  { action: Type.Unsafe<'list'>({ type: 'string', enum: ['list'], description: 'mode; the only value is list' }) },
  { additionalProperties: false },
);

const fields = {
  range_label: Type.String({ minLength: 1, maxLength: 100, description: '1 to 100 characters, unique among the slots the agency sees' }),
  starts_at: HHMM('HH:MM (00:00 to 23:59) or null'),
  ends_at: HHMM('HH:MM, later than starts_at, or null'),
  sort_order: Type.Integer({ minimum: 0, maximum: 100_000, description: 'position in the list (ascending)' }),
};

export const CreateTimeRangeBody = Type.Object(
  {
    range_label: fields.range_label,
    starts_at: Type.Optional(fields.starts_at),
    ends_at: Type.Optional(fields.ends_at),
    sort_order: Type.Optional(fields.sort_order),
  },
  { additionalProperties: false },
);
export type CreateTimeRangeInput = Static<typeof CreateTimeRangeBody>;

export const UpdateTimeRangeBody = Type.Object(
  {
    range_label: Type.Optional(fields.range_label),
    starts_at: Type.Optional(fields.starts_at),
    ends_at: Type.Optional(fields.ends_at),
    sort_order: Type.Optional(fields.sort_order),
  },
  { additionalProperties: false },
);
export type UpdateTimeRangeInput = Static<typeof UpdateTimeRangeBody>;

export const TimeRangeParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) }, { additionalProperties: false });
