/** SQL of outbound webhooks: endpoints and deliveries, always inside one agency (docs/webhooks.md). */
import { sql, type Insertable, type Updateable } from 'kysely';
import type { WebhookDeliveryTable, WebhookEndpointTable } from '../../../db/schema.ts';
import type { DbOrTrx } from '../../../db/types.ts';

/** One page of an agency's endpoints, oldest first, and the total. */
export async function listEndpoints(db: DbOrTrx, agencyId: number, page: { limit: number; offset: number }) {
  const q = db.selectFrom('webhook_endpoints').where('agency_id', '=', agencyId);
  const [rows, total] = await Promise.all([
    q.selectAll().orderBy('id').limit(page.limit).offset(page.offset).execute(),
    q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}
export type EndpointRow = Awaited<ReturnType<typeof listEndpoints>>['rows'][number];

/** An endpoint of the agency by uuid. */
export function findEndpoint(db: DbOrTrx, agencyId: number, uuid: string) {
  return db.selectFrom('webhook_endpoints').selectAll().where('agency_id', '=', agencyId).where('uuid', '=', uuid).executeTakeFirst();
}

/** An endpoint by id (delivery engine). */
export function endpointById(db: DbOrTrx, id: number) {
  return db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The endpoints of `ids` (one statement for a batch of deliveries). */
export function endpointsByIds(db: DbOrTrx, ids: readonly number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('webhook_endpoints').selectAll().where('id', 'in', [...ids]).execute();
}

export function insertEndpoint(db: DbOrTrx, row: Insertable<WebhookEndpointTable>) {
  return db.insertInto('webhook_endpoints').values(row).returningAll().executeTakeFirstOrThrow();
}

export function updateEndpoint(db: DbOrTrx, id: number, set: Updateable<WebhookEndpointTable>) {
  return db.updateTable('webhook_endpoints').set(set).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function deleteEndpoint(db: DbOrTrx, id: number): Promise<void> {
  await db.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
}

/** The agency's enabled endpoints (fan-out). */
export function enabledEndpoints(db: DbOrTrx, agencyId: number) {
  return db.selectFrom('webhook_endpoints').selectAll().where('agency_id', '=', agencyId).where('enabled', '=', true).execute();
}

/**
 * Queues a delivery; a second one for the same endpoint, message and created_at is ignored (the key
 * includes the partition column; a redelivered event is kept out by its handler run, recorded once
 * per (handler, event) in the same transaction).
 */
export async function insertDelivery(db: DbOrTrx, row: Insertable<WebhookDeliveryTable>) {
  return db
    .insertInto('webhook_deliveries')
    .values(row)
    .onConflict((oc) => oc.columns(['endpoint_id', 'message_id', 'created_at']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

const DELIVERY_COLUMNS = [
  'd.id', 'd.uuid', 'd.agency_id', 'd.endpoint_id', 'd.message_id', 'd.event_name', 'd.payload', 'd.status', 'd.attempts',
  'd.next_attempt_at', 'd.last_attempt_at', 'd.last_response_code', 'd.last_duration_ms', 'd.last_error', 'd.created_at',
  'd.traceparent', 'e.uuid as endpoint_uuid',
] as const;

/** One page of the agency's deliveries, newest first, and the total. */
export async function listDeliveries(
  db: DbOrTrx,
  agencyId: number,
  f: { endpointUuid?: string | undefined; status?: string | undefined; limit: number; offset: number },
) {
  let q = db.selectFrom('webhook_deliveries as d').innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id').where('d.agency_id', '=', agencyId);
  if (f.endpointUuid !== undefined) q = q.where('e.uuid', '=', f.endpointUuid);
  if (f.status !== undefined) q = q.where('d.status', '=', f.status as 'pending');
  const [rows, total] = await Promise.all([
    q.select(DELIVERY_COLUMNS).orderBy('d.id', 'desc').limit(f.limit).offset(f.offset).execute(),
    q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}
export type DeliveryRow = Awaited<ReturnType<typeof listDeliveries>>['rows'][number];

/** A delivery of the agency by uuid. */
export function findDelivery(db: DbOrTrx, agencyId: number, uuid: string) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .select(DELIVERY_COLUMNS)
    .where('d.agency_id', '=', agencyId)
    .where('d.uuid', '=', uuid)
    .executeTakeFirst();
}

/**
 * Claims up to `limit` pending deliveries due at `now` whose endpoint is enabled, oldest due first,
 * in one statement, each as claimDelivery claims one (rows another sender holds locked are
 * skipped).
 * @returns the claimed rows in id order, `attempts` already counting this attempt
 */
export async function claimDueDeliveries(db: DbOrTrx, now: Date, leaseUntil: Date, limit: number) {
  const due = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .select('d.id')
    .where('d.status', '=', 'pending')
    .where('d.next_attempt_at', '<=', now)
    .where('e.enabled', '=', true)
    .orderBy('d.next_attempt_at')
    .orderBy('d.id')
    .limit(limit)
    .forUpdate('d')
    .skipLocked();
  const rows = await db
    .updateTable('webhook_deliveries as d')
    .from('webhook_endpoints as e')
    .set((eb) => ({ attempts: eb('d.attempts', '+', 1), last_attempt_at: now, next_attempt_at: leaseUntil }))
    .whereRef('e.id', '=', 'd.endpoint_id')
    .where('d.id', 'in', due)
    .returning(DELIVERY_COLUMNS)
    .execute();
  return rows.sort((a, b) => a.id - b.id);
}

/**
 * Gives claimed deliveries back unsent (a shutdown came first): the attempt their claim counted is
 * taken back and they are due again at `now`, for the next worker. No-op for none.
 */
export async function releaseDeliveries(db: DbOrTrx, ids: readonly number[], now: Date): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('webhook_deliveries')
    .set((eb) => ({ attempts: eb('attempts', '-', 1), next_attempt_at: now }))
    .where('id', 'in', ids)
    .where('status', '=', 'pending')
    .where('attempts', '>', 0)
    .execute();
}

/** Marks deliveries succeeded with each one's response code and duration (one statement; no-op for none). */
export async function markSucceeded(db: DbOrTrx, results: ReadonlyArray<{ id: number; code: number; durationMs: number }>): Promise<void> {
  if (results.length === 0) return;
  await db
    .updateTable('webhook_deliveries')
    .from(sql`json_array_elements(${JSON.stringify(results)}::json)`.as('r'))
    .set({ status: 'succeeded', next_attempt_at: null, last_error: null, last_response_code: sql`(r->>'code')::int`, last_duration_ms: sql`(r->>'durationMs')::int` })
    .where(sql<boolean>`webhook_deliveries.id = (r->>'id')::int`)
    .execute();
}

/**
 * Claims a due delivery for one attempt before it is sent: counts the attempt and moves
 * next_attempt_at to `leaseUntil`, so a worker that dies mid-send leaves the attempt counted and the
 * delivery due again after the lease, and two workers never send the same attempt.
 * @returns the attempt's number (1 for the first), or undefined when the delivery is no longer due
 */
export async function claimDelivery(db: DbOrTrx, id: number, now: Date, leaseUntil: Date): Promise<number | undefined> {
  const row = await db
    .updateTable('webhook_deliveries')
    .set((eb) => ({ attempts: eb('attempts', '+', 1), last_attempt_at: now, next_attempt_at: leaseUntil }))
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .returning('attempts')
    .executeTakeFirst();
  return row?.attempts;
}

export async function updateDelivery(db: DbOrTrx, id: number, set: Updateable<WebhookDeliveryTable>): Promise<void> {
  await db.updateTable('webhook_deliveries').set(set).where('id', '=', id).execute();
}

/** The last time a delivery to the endpoint succeeded, or undefined. */
export async function lastSuccessAt(db: DbOrTrx, endpointId: number): Promise<Date | undefined> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.max('last_attempt_at').as('at'))
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'succeeded')
    .executeTakeFirst();
  return row?.at ? new Date(row.at as Date) : undefined;
}

/** E-mail addresses of the agency's active administrators. */
export async function adminEmails(db: DbOrTrx, agencyId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('users as u')
    .innerJoin('roles as r', 'r.id', 'u.role_id')
    .select('u.email')
    .where('u.agency_id', '=', agencyId)
    .where('r.code', '=', 'admin')
    .where('u.status', '=', 'active')
    .execute();
  return rows.map((r) => r.email);
}
