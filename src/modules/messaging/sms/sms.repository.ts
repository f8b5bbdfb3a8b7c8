/** SQL of the SMS log and the opt-out list (docs/conversations.md "SMS"). */
import { sql, type Insertable } from 'kysely';
import type { SmsMessageTable } from '../../../db/schema.ts';
import type { DbOrTrx } from '../../../db/types.ts';

/** True when the number replied STOP and has not replied START since. */
export async function isOptedOut(db: DbOrTrx, phone: string): Promise<boolean> {
  return (await db.selectFrom('sms_opt_outs').select('phone').where('phone', '=', phone).executeTakeFirst()) !== undefined;
}

/** Puts a number on the opt-out list (keeps the first date). */
export async function optOut(db: DbOrTrx, phone: string, keyword: string, at: Date): Promise<void> {
  await db.insertInto('sms_opt_outs').values({ phone, keyword, opted_out_at: at }).onConflict((oc) => oc.column('phone').doNothing()).execute();
}

/** Takes a number off the opt-out list. */
export async function optIn(db: DbOrTrx, phone: string): Promise<void> {
  await db.deleteFrom('sms_opt_outs').where('phone', '=', phone).execute();
}

/**
 * Waits for, and holds until the transaction ends, the lock of one number's STOP and START texts,
 * so that they change its consents one at a time, in the order they are applied.
 */
export async function lockNumberConsent(trx: DbOrTrx, phone: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`sms_consent:${phone}`}))`.execute(trx);
}

/**
 * Records a STOP or START text by the provider's message id, once ever.
 * @returns false when that message id was recorded before (a redelivered or replayed request)
 */
export async function recordKeywordText(db: DbOrTrx, t: { provider: string; sid: string; keyword: string; action: 'stop' | 'start'; at: Date }): Promise<boolean> {
  const row = await db
    .insertInto('sms_keyword_texts')
    .values({ provider: t.provider, provider_sid: t.sid, keyword: t.keyword, action: t.action, received_at: t.at })
    .onConflict((oc) => oc.columns(['provider', 'provider_sid']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Inserts an SMS log row; returns its id, or undefined when the provider's id is already logged (a redelivered webhook). */
export async function insertSms(db: DbOrTrx, row: Insertable<SmsMessageTable>): Promise<number | undefined> {
  const r = await db
    .insertInto('sms_messages')
    .values(row)
    .onConflict((oc) => oc.columns(['provider', 'provider_sid']).where('provider_sid', 'is not', null).doNothing())
    .returning('id')
    .executeTakeFirst();
  return r?.id;
}

/** The provider's final statuses of an outbound message: a report of an earlier stage never replaces one. */
export const FINAL_SMS_STATUSES: readonly string[] = ['delivered', 'undelivered', 'failed', 'read', 'canceled'];

/**
 * Records a status report of an outbound message by the provider's id; the price only when given.
 * A report of a stage before the end (queued, sending, sent, ...) does not replace a final status
 * (FINAL_SMS_STATUSES): a late or replayed report cannot move a message back.
 * @returns 'updated'; 'stale' when the message already has a final status and this report is of
 *   an earlier stage (nothing changed); 'unknown' when no message has that id
 */
export async function updateStatus(
  db: DbOrTrx,
  provider: string,
  sid: string,
  s: { status: string; errorCode: string | null; segments: number | null; priceMicros: number | null; currency: string | null; at: Date },
): Promise<'updated' | 'stale' | 'unknown'> {
  const r = await db
    .updateTable('sms_messages')
    .set({
      status: s.status,
      error_code: s.errorCode,
      updated_at: s.at,
      ...(s.segments !== null ? { segments: s.segments } : {}),
      ...(s.priceMicros !== null ? { price_micros: s.priceMicros, price_currency: s.currency } : {}),
    })
    .where('provider', '=', provider)
    .where('provider_sid', '=', sid)
    .where('direction', '=', 'outbound')
    .$if(!FINAL_SMS_STATUSES.includes(s.status), (q) => q.where('status', 'not in', FINAL_SMS_STATUSES))
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) > 0) return 'updated';
  const known = await db.selectFrom('sms_messages').select('id').where('provider', '=', provider).where('provider_sid', '=', sid).where('direction', '=', 'outbound').executeTakeFirst();
  return known ? 'stale' : 'unknown';
}

/** The newest outbound message to a number that belongs to a thread (where a reply goes). */
export function lastThreadMessageTo(db: DbOrTrx, phone: string) {
  return db
    .selectFrom('sms_messages')
    .select(['agency_id', 'thread_id'])
    .where('to_number', '=', phone)
    .where('direction', '=', 'outbound')
    .where('thread_id', 'is not', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

/** A received message by id. */
export function findReceivedSms(db: DbOrTrx, id: number) {
  return db.selectFrom('sms_messages').select(['id', 'agency_id', 'thread_id', 'from_number', 'body', 'provider_sid', 'created_at']).where('id', '=', id).where('direction', '=', 'inbound').executeTakeFirst();
}

/** Counts and costs of an agency's outbound SMS created in [from, to). */
export async function usage(db: DbOrTrx, agencyId: number, from: Date, to: Date) {
  const rows = await db
    .selectFrom('sms_messages')
    .select([
      'price_currency',
      sql<number>`count(*)::int`.as('messages'),
      sql<number>`coalesce(sum(segments), 0)::int`.as('segments'),
      sql<number>`(count(*) filter (where status = 'delivered'))::int`.as('delivered'),
      sql<number>`(count(*) filter (where status in ('failed', 'undelivered')))::int`.as('failed'),
      sql<number>`(count(*) filter (where price_micros is null))::int`.as('unpriced'),
      sql<string>`coalesce(sum(price_micros), 0)::text`.as('price_micros'),
    ])
    .where('agency_id', '=', agencyId)
    .where('direction', '=', 'outbound')
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .groupBy('price_currency')
    .execute();
  const received = await db
    .selectFrom('sms_messages')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('agency_id', '=', agencyId)
    .where('direction', '=', 'inbound')
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .executeTakeFirstOrThrow();
  return { rows, received: received.n };
}
