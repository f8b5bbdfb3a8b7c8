/** Wire shapes of the visit booking (docs/tenant-reporting.md "Booking the visit"). */
import { Type, type Static } from 'typebox';
import { DateTime, Nullable, Uuid } from '../../../http/schema-primitives.ts';


/** A span given by the caller: two ISO 8601 instants. */
export const SpanInput = Type.Object(
  {
    starts_at: Type.String({ format: 'date-time', description: 'start, ISO 8601 instant (UTC or with an offset)' }),
    ends_at: Type.String({ format: 'date-time', description: 'end, 60 minutes to 12 hours after the start' }),
  },
  { additionalProperties: false },
);

export const WindowsBody = Type.Object(
  {
    windows: Type.Array(SpanInput, { maxItems: 20, description: 'the availability windows (at most 6 kept; an empty list removes them): in the future, ending within 60 days, not overlapping' }),
  },
  { additionalProperties: false },
);

export const ChoiceBody = Type.Object({ ...SpanInput.properties }, { additionalProperties: false });

export const MissedBody = Type.Object(
  {
    missed_by: Type.Union([Type.Literal('tenant'), Type.Literal('contractor')], { description: 'tenant: nobody in (no access); contractor: did not come (no-show)' }),
    note: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);

const Span = {
  starts_at: DateTime(),
  ends_at: DateTime(),
  label: Type.String({ description: 'London time for people, e.g. "Thu 26 Nov 2026, 09:00-12:00"' }),
};

export const VisitPlan = Type.Object({
  job_uuid: Uuid(),
  reference: Type.String(),
  title: Type.String(),
  status_id: Type.Integer(),
  status: Type.String(),
  contractor_name: Nullable(Type.String()),
  windows: Type.Array(Type.Object({ uuid: Uuid(), ...Span, given_by: Type.String({ description: 'tenant, link or staff' }) }), { description: "the tenant's availability windows, earliest first" }),
  visit: Nullable(Type.Object({
    uuid: Uuid(), ...Span,
    booked_by: Type.String({ description: 'contractor, or tenant (picked a free slot)' }),
    reminder_sent_at: Nullable(DateTime('when the day-before reminder went out')),
  }, { description: 'the booked timed visit of a Scheduled job' })),
  free_slots: Type.Array(Type.Object(Span), { description: "the contractor's free slots over the next 14 days (working days: no weekend nor bank holiday of the agency's UK region; the agency's slots with hours), while the job is Assigned or Scheduled" }),
  missed: Type.Array(Type.Object({
    uuid: Uuid(), ...Span,
    missed_by: Type.String({ description: 'tenant (no access) or contractor (no-show)' }),
    note: Nullable(Type.String({ description: 'null for tenants' })),
    missed_at: DateTime(),
  })),
  rules: Type.Object({
    max_windows: Type.Integer(),
    horizon_days: Type.Integer(),
    min_minutes: Type.Integer(),
    max_hours: Type.Integer(),
  }),
});
export type VisitPlanDto = Static<typeof VisitPlan>;
