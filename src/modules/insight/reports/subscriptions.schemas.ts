/** Schemas of the report subscriptions (docs/insight.md "Scheduled reports"). */
import { Type, type Static } from 'typebox';
import { Pagination } from '../../../http/pagination.ts';
import { DateTime, Uuid } from '../../../http/schema-primitives.ts';

const ReportName = Type.Union([
  Type.Literal('jobs-register'), Type.Literal('contractor-performance'), Type.Literal('sla-compliance'), Type.Literal('tenant-jobs-per-property'),
  Type.Literal('certificates-register'),
]);
const Format = Type.Union([Type.Literal('csv'), Type.Literal('xlsx')]);
const Frequency = Type.Union([Type.Literal('weekly'), Type.Literal('monthly')], {
  description: 'weekly: once per ISO week (from Monday 06:00 UTC); monthly: once per month (from the 1st)',
});
const Filters = Type.Record(Type.String({ maxLength: 50 }), Type.Unknown(), {
  maxProperties: 20,
  description: 'the filters of the report (query parameters of its download, without format)',
});

export const CreateSubscriptionBody = Type.Object(
  { report: ReportName, format: Type.Optional(Format), frequency: Frequency, filters: Type.Optional(Filters) },
  { additionalProperties: false },
);
export type CreateSubscriptionInput = Static<typeof CreateSubscriptionBody>;

export const UpdateSubscriptionBody = Type.Object(
  { format: Type.Optional(Format), frequency: Type.Optional(Frequency), filters: Type.Optional(Filters) },
  { additionalProperties: false },
);
export type UpdateSubscriptionInput = Static<typeof UpdateSubscriptionBody>;

export const SubscriptionParams = Type.Object({ uuid: Uuid() }, { additionalProperties: false });
export const SubscriptionListQuery = Type.Object(Pagination, { additionalProperties: false });

export const Subscription = Type.Object({
  uuid: Uuid(),
  report: Type.String(),
  format: Format,
  frequency: Type.Union([Type.Literal('weekly'), Type.Literal('monthly')]),
  filters: Type.Record(Type.String(), Type.Unknown()),
  last_period: Type.Union([Type.String(), Type.Null()], { description: 'period last delivered: 2026-W48 or 2026-11' }),
  last_sent_at: Type.Union([DateTime(), Type.Null()]),
  created_at: DateTime(),
  updated_at: DateTime(),
});
export type SubscriptionDto = Static<typeof Subscription>;
