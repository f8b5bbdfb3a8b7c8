/** SQL of the delivery log (docs/messaging.md "Delivery log"). */
import type { Insertable, Updateable } from 'kysely';
import type { MessageDeliveryTable } from '../../../db/schema.ts';
import type { DbOrTrx } from '../../../db/types.ts';

/**
 * Inserts a delivery unless its slot is taken: one row per (event, message kind, recipient,
 * channel), so a redelivered event writes nothing new while two messages of one event to one
 * person (the "Work completed" e-mail and the survey) each keep their own row (docs/messaging.md
 * "Slots").
 * @returns true when inserted, false when the same message was already logged
 * @throws an Error naming the message kind, channel, recipient key and the database's cause when
 *   the insert fails (what the handler's log line and dead letter show)
 */
export async function insertDelivery(db: DbOrTrx, row: Insertable<MessageDeliveryTable>): Promise<boolean> {
  try {
    const r = await db
      .insertInto('message_deliveries')
      .values(row)
      // The slot's unique key includes created_at, the partition column (docs/operations.md "History
      // partitions and retention"); a redelivered event is kept out by its handler run
      // (event_handler_runs), recorded once per (handler, event) in the same transaction.
      .onConflict((oc) => oc.columns(['event_id', 'template_key', 'recipient_key', 'channel', 'created_at']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return r !== undefined;
  } catch (err) {
    const cause = (err as Error).message;
    const wrapped = new Error(`Could not log the ${row.channel} message ${row.template_key} to ${row.recipient_key} (${row.recipient_kind}): ${cause}`, { cause: err });
    // The driver's SQLSTATE stays readable by whatever classifies database errors.
    throw Object.assign(wrapped, { code: (err as { code?: unknown }).code });
  }
}

/**
 * Claims up to `limit` queued deliveries due at `now`, oldest first, in one statement (rows another
 * sender holds locked are skipped, so two senders never take the same row): counts each row's
 * attempt and pushes its next_attempt_at to `leaseUntil`, after which a row whose sender died is
 * due again.
 * @returns the claimed rows in id order (attempts already counted)
 */
export async function claimDueDeliveries(db: DbOrTrx, now: Date, leaseUntil: Date, limit: number) {
  const due = db
    .selectFrom('message_deliveries')
    .select('id')
    .where('status', '=', 'queued')
    .where('next_attempt_at', '<=', now)
    .orderBy('id')
    .limit(limit)
    .forUpdate()
    .skipLocked();
  const rows = await db
    .updateTable('message_deliveries')
    .set((eb) => ({ attempts: eb('attempts', '+', 1), next_attempt_at: leaseUntil, updated_at: now }))
    .where('id', 'in', due)
    .returning(['id', 'agency_id', 'channel', 'recipient_user_id', 'recipient_address', 'content', 'attempts'])
    .execute();
  return rows.sort((a, b) => a.id - b.id);
}
export type ClaimedDelivery = Awaited<ReturnType<typeof claimDueDeliveries>>[number];

/**
 * Gives claimed deliveries back unsent (the worker shut down first): the attempt their claim
 * counted is taken back and they are due again at `at`. No-op for none.
 */
export async function releaseDeliveries(db: DbOrTrx, ids: readonly number[], at: Date): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('message_deliveries')
    .set((eb) => ({ attempts: eb('attempts', '-', 1), next_attempt_at: at, updated_at: at }))
    .where('id', 'in', ids)
    .where('status', '=', 'queued')
    .where('attempts', '>', 0)
    .execute();
}

/** Marks the deliveries sent at `at` (one statement for a whole batch; no-op for none). */
export async function markSent(db: DbOrTrx, ids: readonly number[], at: Date): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('message_deliveries')
    .set({ status: 'sent', sent_at: at, updated_at: at, next_attempt_at: null, last_error: null, content: null })
    .where('id', 'in', ids)
    .execute();
}

/** Updates a delivery by id. */
export async function updateDelivery(db: DbOrTrx, id: number, changes: Updateable<MessageDeliveryTable>): Promise<void> {
  await db.updateTable('message_deliveries').set(changes).where('id', '=', id).execute();
}

export interface DeliveryFilter {
  agencyId: number;
  status?: string | undefined;
  channel?: string | undefined;
  event?: string | undefined;
  template?: string | undefined;
  recipient?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  limit: number;
  offset: number;
}

/** One page of the agency's deliveries, newest first, and the total. */
export async function listDeliveries(db: DbOrTrx, f: DeliveryFilter) {
  let q = db.selectFrom('message_deliveries as d').leftJoin('users as u', 'u.id', 'd.recipient_user_id').where('d.agency_id', '=', f.agencyId);
  if (f.status !== undefined) q = q.where('d.status', '=', f.status as 'queued');
  if (f.channel !== undefined) q = q.where('d.channel', '=', f.channel);
  if (f.event !== undefined) q = q.where('d.event_name', '=', f.event);
  if (f.template !== undefined) q = q.where('d.template_key', '=', f.template);
  if (f.recipient !== undefined) q = q.where('d.recipient_address', '=', f.recipient.toLowerCase());
  if (f.from !== undefined) q = q.where('d.created_at', '>=', f.from);
  if (f.to !== undefined) q = q.where('d.created_at', '<', f.to);
  const rows = await q
    .select([
      'd.uuid', 'd.event_id', 'd.event_name', 'd.template_key', 'd.channel', 'd.recipient_kind', 'd.recipient_address', 'u.uuid as user_uuid', 'u.name as user_name',
      'd.status', 'd.reason', 'd.attempts', 'd.last_error', 'd.subject', 'd.next_attempt_at', 'd.created_at', 'd.updated_at', 'd.sent_at',
    ])
    .orderBy('d.id', 'desc')
    .limit(f.limit)
    .offset(f.offset)
    .execute();
  const { n } = await q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  return { rows, total: Number(n) };
}
export type DeliveryRow = Awaited<ReturnType<typeof listDeliveries>>['rows'][number];

/** Recipient keys of a tenant: the record and its accounts. */
export async function tenantRecipientKeys(db: DbOrTrx, tenantId: number): Promise<string[]> {
  const accounts = await db.selectFrom('users').select('id').where('tenant_id', '=', tenantId).execute();
  return [`tenant:${tenantId}`, ...accounts.map((u) => `user:${u.id}`)];
}

/** Stops the queued tenant deliveries of the keys (suppressed, reason erased) and blanks every one's address, subject and content. */
export async function scrubTenantDeliveries(db: DbOrTrx, keys: string[], now: Date): Promise<void> {
  const mine = db.updateTable('message_deliveries').where('recipient_kind', '=', 'tenant').where('recipient_key', 'in', keys);
  await mine.set({ status: 'suppressed', reason: 'erased', next_attempt_at: null }).where('status', '=', 'queued').execute();
  await mine.set({ recipient_address: null, subject: null, content: null, last_error: null, updated_at: now }).execute();
}
