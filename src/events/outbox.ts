/**
 * Writes domain events into the outbox in the caller's transaction (docs/events.md): a rolled-back
 * change emits nothing, a committed one is never lost. Delivery to handlers happens after commit
 * (relay and queue, or `dispatchPendingEvents` in-process), never inside the request.
 */
import { Type } from 'typebox';
import { Compile } from 'typebox/compile';
import type { DbOrTrx } from '../db/types.ts';
import { newUuid } from '../lib/crypto.ts';
import { currentTraceparent } from '../lib/tracing.ts';
import { EVENT_CATALOGUE, type EventName, type EventPayload } from './catalogue.ts';
import { outboxInsertQuery, type PayloadFill } from './outbox.repository.ts';

/**
 * Each event's payload schema compiled once, on its first emit (TypeBox's Compile: a check costs
 * microseconds, not a walk of the schema); without the fields an insert fills from a row (PayloadFill).
 */
const CHECKS = new Map<string, ReturnType<typeof Compile>>();

function payloadCheck(name: EventName, filled: readonly string[] = []): ReturnType<typeof Compile> {
  const key = [name, ...filled].join(' ');
  let check = CHECKS.get(key);
  if (!check) {
    const schema = EVENT_CATALOGUE[name].payload;
    check = Compile(filled.length > 0 ? Type.Omit(schema, [...filled]) : schema);
    CHECKS.set(key, check);
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
 * @param fill payload fields the insert reads from a row the transaction wrote before it (PayloadFill,
 *   src/events/outbox.repository.ts): `input.payload` then leaves them out, and is checked without them
 * @returns the insert and the event id (uuid)
 * @throws Error when the payload does not match the catalogue's schema (a programming error)
 */
export function eventInsert<N extends EventName, F extends keyof EventPayload<N> & string = never>(
  trx: DbOrTrx,
  at: Date,
  input: Omit<EmitInput<N>, 'payload'> & { payload: Omit<EventPayload<N>, F> },
  fill?: PayloadFill<F>,
) {
  const def = EVENT_CATALOGUE[input.name];
  const check = payloadCheck(input.name, fill?.columns);
  if (!check.Check(input.payload)) {
    const first = check.Errors(input.payload)[0];
    throw new Error(`Event ${input.name}: payload does not match the catalogue (${first?.instancePath ?? ''} ${first?.message ?? ''})`);
  }
  const eventId = newUuid();
  // The emitting span (docs/operations.md "Tracing"): the job that delivers the event joins its trace.
  const traceparent = currentTraceparent();
  const row = {
    event_id: eventId,
    name: input.name,
    version: def.version,
    agency_id: input.agencyId,
    payload: JSON.stringify(input.payload),
    occurred_at: at,
    traceparent: traceparent ?? null,
  };
  return { insert: outboxInsertQuery(trx, row, fill), eventId };
}
