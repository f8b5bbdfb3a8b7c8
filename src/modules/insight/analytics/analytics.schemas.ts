/** Schemas of GET /api/analytics/jobs (docs/insight.md "Analytics"). */
import { Type, type Static } from 'typebox';
import { Pagination } from '../../../http/pagination.ts';
import { IsoDate } from '../../../http/schema-primitives.ts';

export const AnalyticsQuery = Type.Object(
  {
    from_date: IsoDate('first London date of the range (inclusive)'),
    to_date: IsoDate('last London date of the range (inclusive; at most 731 days after from_date)'),
    interval: Type.Union([Type.Literal('week'), Type.Literal('month')], { default: 'month', description: 'weeks start on Monday' }),
    group_by: Type.Union(
      [Type.Literal('none'), Type.Literal('branch'), Type.Literal('trade'), Type.Literal('contractor'), Type.Literal('job_type'), Type.Literal('priority')],
      { default: 'none' },
    ),
    ...Pagination,
  },
  { additionalProperties: false },
);
export type AnalyticsQueryInput = Static<typeof AnalyticsQuery>;

const Seconds = Type.Union([Type.Number({ minimum: 0 }), Type.Null()], { description: 'elapsed seconds (not working hours); null without events' });
const Percentiles = Type.Object({ median_s: Seconds, p90_s: Seconds, jobs: Type.Integer({ minimum: 0 }) });

export const AnalyticsRowSchema = Type.Object({
  period: IsoDate('first day of the London week (Monday) or month'),
  group: Type.Object({ key: Type.String(), label: Type.String() }),
  created: Type.Integer({ minimum: 0 }),
  completed: Type.Integer({ minimum: 0 }),
  cancelled: Type.Integer({ minimum: 0 }),
  time_to_assign: Percentiles,
  time_to_attend: Percentiles,
  time_to_complete: Percentiles,
  first_time_fix_rate: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], {
    description: 'completed jobs that were scheduled at most once / completed jobs; null when none completed',
  }),
  cost: Type.Object({
    jobs: Type.Integer({ minimum: 0, description: 'completed jobs with an agreed cost' }),
    total_pence: Type.Integer({ minimum: 0 }),
    mean_pence: Type.Union([Type.Integer(), Type.Null()]),
    median_pence: Type.Union([Type.Number(), Type.Null()]),
  }),
});
export type AnalyticsRowDto = Static<typeof AnalyticsRowSchema>;

/** Query of the scorecards and deflections: a London date range, default the last 90 days. */
export const RangeQuery = Type.Object(
  {
    from_date: Type.Optional(IsoDate('first London date (default 89 days before to_date)')),
    to_date: Type.Optional(IsoDate('last London date (default today); at most 731 days after from_date')),
  },
  { additionalProperties: false },
);
export type RangeQueryInput = Static<typeof RangeQuery>;

const Rate = (description: string) => Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], { description: `${description}; null when there is nothing to count` });

export const Scorecard = Type.Object({
  contractor_uuid: Type.String({ format: 'uuid' }),
  company_name: Type.String(),
  from_date: IsoDate(),
  to_date: IsoDate(),
  jobs: Type.Integer({ minimum: 0, description: 'its jobs created in the range' }),
  response: Type.Object({
    median_s: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: 'median elapsed seconds from assignment to acceptance' }),
    jobs: Type.Integer({ minimum: 0 }),
  }),
  attendance: Type.Object({
    visits_due: Type.Integer({ minimum: 0, description: 'booked visits attended, or whose date has passed' }),
    on_slot: Type.Integer({ minimum: 0, description: 'attended on the booked London date within the slot\'s hours' }),
    rate: Rate('on_slot / visits_due'),
    no_shows: Type.Integer({ minimum: 0, description: 'booked visits it missed (counted as due, not on the slot)' }),
    tenant_no_access: Type.Integer({ minimum: 0, description: 'booked visits the tenant missed (no access; not held against it)' }),
  }),
  first_time_fix: Type.Object({
    completed: Type.Integer({ minimum: 0 }),
    fixed_first_time: Type.Integer({ minimum: 0, description: 'scheduled at most once and never recalled' }),
    recalls: Type.Integer({ minimum: 0, description: 'recalls raised against its jobs' }),
    rate: Rate('fixed_first_time / completed'),
  }),
  rating: Type.Object({
    surveys: Type.Integer({ minimum: 0, description: 'answered satisfaction surveys' }),
    average: Type.Union([Type.Number({ minimum: 1, maximum: 5 }), Type.Null()], { description: 'mean rating 1 to 5, two decimals' }),
  }),
  cost: Type.Object({
    jobs: Type.Integer({ minimum: 0, description: 'completed jobs with an agreed cost' }),
    total_pence: Type.Integer({ minimum: 0 }),
    mean_pence: Type.Union([Type.Integer(), Type.Null()]),
  }),
  sla: Type.Object({
    met: Type.Integer({ minimum: 0 }),
    breached: Type.Integer({ minimum: 0 }),
    compliance: Rate('met / (met + breached) SLA clocks of its jobs'),
  }),
});
export type ScorecardDto = Static<typeof Scorecard>;

export const DeflectionRowSchema = Type.Object({
  flow_code: Type.String(),
  flow_name: Type.String(),
  reports: Type.Integer({ minimum: 0 }),
  deflected: Type.Integer({ minimum: 0, description: 'settled by self-help advice, no job' }),
  emergencies: Type.Integer({ minimum: 0 }),
  jobs: Type.Integer({ minimum: 0, description: 'new jobs raised' }),
  added_to_job: Type.Integer({ minimum: 0, description: 'added to an open job (duplicates)' }),
  deflection_rate: Rate('deflected / reports'),
});
