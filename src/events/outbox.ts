/**
 * Writes domain events into the outbox in the caller's transaction (docs/events.md): a rolled-back
 * change emits nothing, a committed one is never lost. Delivery to handlers happens after commit
 * (relay and queue, or `dispatchPendingEvents` in-process), never inside the request.
 */
import { Compile } from 'typebox/compile';
import type { DbOrTrx } from '../db/types.ts';
import { newUuid } from '../lib/crypto.ts';
import { currentTraceparent } from '../lib/tracing.ts';
import { EVENT_CATALOGUE, type EventName, type EventPayload } from './catalogue.ts';
import { outboxInsertQuery } from './outbox.repository.ts';

/** Each event's payload schema compiled once, on its first emit (TypeBox's Compile: a check costs microseconds, not a walk of the schema). */
const CHECKS = new Map<EventName, ReturnType<typeof Compile>>();

function payloadCheck(name: EventName): ReturnType<typeof Compile> {
  let check = CHECKS.get(name);
  if (!check) {
    check = Compile(EVENT_CATALOGUE[name].payload);
    CHECKS.set(name, check);
  }
  return check;
}

/** What a service emits. */
export interface EmitInput<N extends EventName> {
  name: N;
  /** Agency of the changed record; null for platform-wide events. */
  agencyId: number | null;
  payload: EventPayload<N>;
}

/**
 * Appends one event to the outbox (checked against the catalogue first).
 * @param trx the transaction of the change (required: an event outside a transaction could be
 *   written for a change that then rolls back)
 * @param at the UTC instant of the change (the service's clock)
 * @returns the event id (uuid)
 * @throws Error when the payload does not match the catalogue's schema (a programming error)
 */
export async function emitEvent<N extends EventName>(trx: DbOrTrx, at: Date, input: EmitInput<N>): Promise<string> {
  const { insert, eventId } = eventInsert(trx, at, input);
  await trx.executeQuery(insert);
  return eventId;
}

/**
 * The outbox insert of one event, not yet run: emitEvent runs it, a write that sends its
 * statements together (src/db/pipeline.ts) passes it with them (in its transaction).
 * @returns the insert and the event id (uuid)
 * @throws Error when the payload does not match the catalogue's schema (a programming error)
 */
export function eventInsert<N extends EventName>(trx: DbOrTrx, at: Date, input: EmitInput<N>) {
  const def = EVENT_CATALOGUE[input.name];
  const check = payloadCheck(input.name);
  if (!check.Check(input.payload)) {
    const first = check.Errors(input.payload)[0];
    throw new Error(`Event ${input.name}: payload does not match the catalogue (${first?.instancePath ?? ''} ${first?.message ?? ''})`);
  }
  const eventId = newUuid();
  // The emitting span (docs/operations.md "Tracing"): the job that delivers the event joins its trace.
  const traceparent = currentTraceparent();
  const insert = outboxInsertQuery(trx, {
    event_id: eventId,
    name: input.name,
    version: def.version,
    agency_id: input.agencyId,
    payload: JSON.stringify(input.payload),
    occurred_at: at,
    traceparent: traceparent ?? null,
  });
  return { insert, eventId };
}
