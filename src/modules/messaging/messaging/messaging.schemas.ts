/** Schemas of the delivery log and the notification preferences (docs/messaging.md). */
import { Type, type Static } from 'typebox';
import { Pagination } from '../../../http/pagination.ts';
import { DateTime, IsoDate, Nullable, Uuid } from '../../../http/schema-primitives.ts';

/** Text without NUL characters (PostgreSQL text cannot hold them). */
const NO_NUL = '^[^\\u0000]*$';
const Enum = <T extends string>(values: readonly T[], description: string) => Type.Unsafe<T>({ type: 'string', enum: [...values], description });

export const DELIVERY_STATUSES = ['queued', 'sent', 'failed', 'suppressed'] as const;

export const Delivery = Type.Object(
  {
    uuid: Uuid(),
    event_id: Uuid({ description: 'the domain event that caused it' }),
    event: Type.String({ description: 'domain event name, e.g. job.assigned' }),
    template: Type.String({ description: 'message kind, e.g. job.visit_booked' }),
    channel: Type.String({ description: 'email | push' }),
    recipient: Type.Object({
      kind: Type.String({ description: 'tenant | contractor | agent | admin' }),
      user_uuid: Nullable(Uuid()),
      name: Nullable(Type.String()),
      address: Nullable(Type.String({ description: 'e-mail address (email channel)' })),
    }),
    status: Type.String({ description: DELIVERY_STATUSES.join(' | ') }),
    reason: Nullable(Type.String({ description: 'why suppressed: consent_withdrawn, preference_off, no_device' })),
    attempts: Type.Integer(),
    last_error: Nullable(Type.String()),
    subject: Nullable(Type.String({ description: 'e-mail subject or push title' })),
    next_attempt_at: Nullable(DateTime()),
    created_at: DateTime(),
    updated_at: DateTime(),
    sent_at: Nullable(DateTime()),
  },
  { description: 'One message to one recipient on one channel' },
);
export type DeliveryDto = Static<typeof Delivery>;

export const ListDeliveriesQuery = Type.Object(
  {
    status: Type.Optional(Enum(DELIVERY_STATUSES, 'delivery status')),
    channel: Type.Optional(Enum(['email', 'push'] as const, 'channel')),
    event: Type.Optional(Type.String({ maxLength: 100, pattern: NO_NUL, description: 'domain event name' })),
    template: Type.Optional(Type.String({ maxLength: 100, pattern: NO_NUL, description: 'message kind' })),
    recipient: Type.Optional(Type.String({ maxLength: 254, pattern: NO_NUL, description: 'exact e-mail address' })),
    from_date: Type.Optional(IsoDate('created on or after (UTC)')),
    to_date: Type.Optional(IsoDate('created on or before (UTC)')),
    ...Pagination,
  },
  { additionalProperties: false },
);
export type ListDeliveriesQuery = Static<typeof ListDeliveriesQuery>;

export const Preference = Type.Object({
  event: Type.String({ description: 'message kind, e.g. job.visit_booked' }),
  channel: Type.String({ description: 'email | push' }),
  enabled: Type.Boolean({ description: 'false when mode is off' }),
  mode: Type.Union([Type.Literal('immediate'), Type.Literal('digest'), Type.Literal('off')], {
    description: 'immediate: one message per event; digest (e-mail of the SLA kinds): gathered into the hourly digest; off: not sent (docs/messaging.md "SLA notices and digests")',
  }),
  description: Type.String(),
});
export type PreferenceDto = Static<typeof Preference>;

export const SavePreferencesBody = Type.Object(
  {
    preferences: Type.Array(
      Type.Object(
        {
          event: Type.String({ minLength: 1, maxLength: 100, pattern: NO_NUL }),
          channel: Enum(['email', 'push'] as const, 'channel'),
          enabled: Type.Optional(Type.Boolean({ description: "on (the kind's default mode) or off; give this or mode" })),
          mode: Type.Optional(Enum(['immediate', 'digest', 'off'] as const, 'mode')),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 50 },
    ),
  },
  { additionalProperties: false },
);
export type SavePreferencesInput = Static<typeof SavePreferencesBody>;
