/** Schemas of the calendar endpoints (docs/calendar.md). */
import { Type, type Static } from 'typebox';
import { DateTime, IsoDate, Nullable, Uuid } from '../../../http/schema-primitives.ts';
import { Pagination } from '../../../http/pagination.ts';
import { WeatherBlock } from '../weather/index.ts';


export const TimeSlot = Type.Object({
  ID: Type.Integer(),
  range_label: Type.String(),
  starts_at: Nullable(Type.String({ description: 'HH:MM, Europe/London' })),
  ends_at: Nullable(Type.String({ description: 'HH:MM, Europe/London' })),
});

export const CalendarEntry = Type.Object(
  {
    job_uuid: Uuid({ description: 'also the UID of the iCalendar event' }),
    reference: Type.String(),
    title: Type.String(),
    summary: Type.String({ description: 'reference and title, e.g. "JOB-000123 Boiler not firing"' }),
    status: Type.String(),
    status_id: Type.Integer(),
    priority: Type.Integer(),
    scheduled_for: DateTime(),
    date: IsoDate('the London date of scheduled_for'),
    all_day: Type.Boolean(),
    start: DateTime({ description: 'UTC; from the date and the slot start (Europe/London)' }),
    end: DateTime({ description: 'UTC; from the date and the slot end (Europe/London)' }),
    time_range: Type.Union([TimeSlot, Type.Null()]),
    location: Nullable(Type.String({ description: 'the job address on one line' })),
    address_uuid: Nullable(Uuid()),
    branch_name: Type.String(),
    contractor_name: Nullable(Type.String()),
    weather: Type.Optional(WeatherBlock),
  },
  { description: 'A scheduled job in the calendar' },
);
export type CalendarEntryDto = Static<typeof CalendarEntry>;

export const CalendarQuery = Type.Object(
  {
    from_date: Type.Optional(IsoDate('first day, inclusive (Europe/London); default today')),
    to_date: Type.Optional(IsoDate('last day, inclusive (Europe/London); default from_date + 30 days; at most 366 days after from_date')),
    ...Pagination,
  },
  { additionalProperties: false },
);
export type CalendarQueryInput = Static<typeof CalendarQuery>;

export const FeedQuery = Type.Object(
  { key: Type.String({ minLength: 1, maxLength: 200, description: 'the feed key from POST /api/calendar/feed-key' }) },
  { additionalProperties: false },
);

export const FeedKeyCreated = Type.Object({
  key: Type.String({ description: '64 hex characters; shown once, only its SHA-256 is stored' }),
  feed_url: Type.String({ description: 'path of the feed with the key' }),
  created_at: DateTime(),
  regenerated: Type.Boolean({ description: 'true when an earlier key was replaced (and stops working)' }),
});

export const FeedKeyStatus = Type.Object({
  exists: Type.Boolean(),
  created_at: Nullable(DateTime()),
  last_used_at: Nullable(DateTime()),
});

