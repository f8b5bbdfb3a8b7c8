/** TypeBox schemas of the platform endpoints (docs/events.md): queue figures and outbox rows. */
import { Type, type Static } from 'typebox';
import { DateTime, Uuid } from '../../../http/schema-primitives.ts';

const Count = (description: string) => Type.Integer({ minimum: 0, description });

export const QueueFiguresSchema = Type.Object({
  name: Type.String({ description: 'pg-boss queue: handler.<handler>, task.<task> or dead-letter' }),
  counts: Type.Object({
    created: Count('waiting for a first try'),
    retry: Count('waiting for another try after a failure (backoff)'),
    active: Count('running now'),
    completed: Count('done (kept for a while)'),
    cancelled: Count('cancelled'),
    failed: Count('failed for good after the last try (a copy is in dead-letter)'),
  }),
  oldest_waiting_s: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: 'seconds the oldest runnable job has waited' }),
});

export const QueueOverview = Type.Object({
  queues: Type.Array(QueueFiguresSchema),
  outbox: Type.Object({
    unpublished: Count('committed events not yet handed to the queue'),
    lag_s: Count('age in seconds of the oldest of them (0 when none)'),
  }),
});

export const EventsQuery = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'only events of this name, e.g. job.created' })),
    limit: Type.Integer({ minimum: 1, maximum: 200, default: 50, description: 'page size (1 to 200)' }),
    offset: Type.Integer({ minimum: 0, maximum: 2_147_483_647, default: 0, description: 'rows to skip' }),
  },
  { additionalProperties: false },
);
export type EventsQuery = Static<typeof EventsQuery>;

export const OutboxEvent = Type.Object({
  ID: Uuid({ description: 'event id (the handlers\' idempotency key)' }),
  name: Type.String(),
  version: Type.Integer(),
  agency_uuid: Type.Union([Uuid(), Type.Null()]),
  payload: Type.Unknown({ description: 'as in docs/events.md' }),
  occurred_at: DateTime(),
  published_at: Type.Union([DateTime(), Type.Null()], { description: 'when the relay handed it to the queue' }),
});
