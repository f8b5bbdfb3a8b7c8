/** Schemas of GET /api/analytics/jobs (docs/insight.md "Analytics"). */
import { Type, type Static } from 'typebox';
import { Pagination } from '../../http/pagination.ts';
import { IsoDate } from '../../http/schema-primitives.ts';

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
