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

/** A dead-letter job as the operators see it (docs/operations.md "Dead-letter queue"). */
export const DeadLetter = Type.Object({
  ID: Uuid({ description: 'the dead-letter job\'s id (pg-boss)' }),
  queue: Type.Union([Type.String(), Type.Null()], { description: 'the queue it failed in: handler.<handler> or task.<task>; retry puts it back there' }),
  event_id: Type.Union([Uuid(), Type.Null()], { description: 'the domain event a handler job carried; null for a periodic task' }),
  tries: Type.Integer({ minimum: 0, description: 'tries made before it was given up' }),
  error: Type.Union([Type.String(), Type.Null()], { description: 'the last try\'s error message' }),
  first_queued_at: Type.Union([DateTime(), Type.Null()], { description: 'when the original job was queued' }),
  failed_at: DateTime({ description: 'when it was given up and copied here' }),
});

export const DeadLettersQuery = Type.Object(
  {
    queue: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'only those that failed in this queue, e.g. handler.webhooks.fanout' })),
    limit: Type.Integer({ minimum: 1, maximum: 200, default: 50, description: 'page size (1 to 200)' }),
    offset: Type.Integer({ minimum: 0, maximum: 2_147_483_647, default: 0, description: 'rows to skip' }),
  },
  { additionalProperties: false },
);
export type DeadLettersQuery = Static<typeof DeadLettersQuery>;

export const DeadLetterSelection = Type.Object(
  {
    ids: Type.Optional(Type.Array(Uuid(), { minItems: 1, maxItems: 1000, uniqueItems: true, description: 'these dead letters (IDs from the list)' })),
    queue: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'the dead letters that failed in this queue' })),
    all: Type.Optional(Type.Literal(true, { description: 'every dead letter; not with ids or queue' })),
  },
  { additionalProperties: false, description: 'which dead letters: ids and/or queue, or all: true (one of them is required)' },
);
export type DeadLetterSelection = Static<typeof DeadLetterSelection>;

export const DeadLettersRetried = Type.Object({ retried: Count('moved back to their queues, to run again with their tries reset') });
export const DeadLettersPurged = Type.Object({ purged: Count('deleted for good') });
