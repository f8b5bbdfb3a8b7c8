/**
 * SQL of job conversations (docs/conversations.md). Threads and messages are this module's
 * tables; the entries of a thread are read from the view `conversation_entries`, which adds the
 * job's case notes (job_notes) in the threads their visibility maps onto without copying them.
 */
import { sql } from 'kysely';
import type { DbOrTrx } from '../../../db/types.ts';
import type { Audience } from './conversations.schemas.ts';

/** Counts, unread entries and the newest entry of each of `audiences`, for `userId`. */
export async function threadSummaries(db: DbOrTrx, jobId: number, audiences: readonly Audience[], userId: number) {
  if (audiences.length === 0) return [];
  const counts = await db
    .selectFrom('conversation_entries as e')
    .leftJoin('conversation_reads as r', (j) => j.onRef('r.job_id', '=', 'e.job_id').onRef('r.audience', '=', 'e.audience').on('r.user_id', '=', userId))
    .select([
      'e.audience',
      sql<number>`count(*)::int`.as('total'),
      sql<number>`(count(*) filter (where (r.read_at is null or e.created_at > r.read_at) and e.author_user_id is distinct from ${userId}))::int`.as('unread'),
      sql<Date | null>`max(e.created_at)`.as('last_at'),
      sql<Date | null>`max(r.read_at)`.as('read_at'),
    ])
    .where('e.job_id', '=', jobId)
    .where('e.audience', 'in', audiences)
    .groupBy('e.audience')
    .execute();
  const latest = await db
    .selectFrom('conversation_entries as e')
    .distinctOn('e.audience')
    .select(['e.audience', 'e.body'])
    .where('e.job_id', '=', jobId)
    .where('e.audience', 'in', audiences)
    .orderBy('e.audience')
    .orderBy('e.created_at', 'desc')
    .orderBy('e.id', 'desc')
    .execute();
  const threads = await db.selectFrom('conversation_threads').select(['audience', 'uuid']).where('job_id', '=', jobId).execute();
  const reads = await db.selectFrom('conversation_reads').select(['audience', 'read_at']).where('job_id', '=', jobId).where('user_id', '=', userId).execute();
  return audiences.map((audience) => {
    const c = counts.find((x) => x.audience === audience);
    return {
      audience,
      uuid: threads.find((x) => x.audience === audience)?.uuid ?? null,
      total: c?.total ?? 0,
      unread: c?.unread ?? 0,
      lastAt: c?.last_at ?? null,
      preview: latest.find((x) => x.audience === audience)?.body ?? null,
      readAt: reads.find((x) => x.audience === audience)?.read_at ?? null,
    };
  });
}

function entriesQuery(db: DbOrTrx, jobId: number, audience: Audience) {
  return db
    .selectFrom('conversation_entries as e')
    .innerJoin('jobs as j', 'j.id', 'e.job_id')
    .innerJoin('agencies as a', 'a.id', 'j.agency_id')
    .leftJoin('users as u', 'u.id', 'e.author_user_id')
    .leftJoin('roles as r', 'r.id', 'u.role_id')
    .where('e.job_id', '=', jobId)
    .where('e.audience', '=', audience);
}

const ENTRY_COLUMNS = [
  'e.kind', 'e.id', 'e.uuid', 'e.audience', 'e.author_user_id', 'e.author_kind', 'e.author_name', 'e.channel', 'e.body', 'e.urgent', 'e.created_at',
  'j.uuid as job_uuid', 'u.uuid as author_uuid', 'u.name as user_name', 'r.code as role_code', 'a.name as agency_name',
] as const;

/** One page of a thread's entries, newest first, and the total. */
export async function listEntries(db: DbOrTrx, jobId: number, audience: Audience, page: { limit: number; offset: number }) {
  const base = entriesQuery(db, jobId, audience);
  const [rows, total] = await Promise.all([
    base.select(ENTRY_COLUMNS).orderBy('e.created_at', 'desc').orderBy('e.id', 'desc').limit(page.limit).offset(page.offset).execute(),
    base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}
export type EntryRow = Awaited<ReturnType<typeof listEntries>>['rows'][number];

/** One message (not a note) by id, as an entry row. */
export function findMessageEntry(db: DbOrTrx, jobId: number, audience: Audience, messageId: number) {
  return entriesQuery(db, jobId, audience).select(ENTRY_COLUMNS).where('e.kind', '=', 'message').where('e.id', '=', messageId).executeTakeFirst();
}

/** The live attached files of messages, by message id. */
export async function messageFiles(db: DbOrTrx, messageIds: readonly number[]) {
  if (messageIds.length === 0) return [];
  return db
    .selectFrom('conversation_message_files as mf')
    .innerJoin('job_files as f', 'f.id', 'mf.file_id')
    .innerJoin('jobs as j', 'j.id', 'f.job_id')
    .select(['mf.message_id', 'f.uuid', 'f.kind', 'f.original_filename', 'f.mime', 'f.size_bytes', 'j.uuid as job_uuid'])
    .where('mf.message_id', 'in', messageIds)
    .where('f.deleted_at', 'is', null)
    .orderBy('f.id')
    .execute();
}

/** The thread of a job and audience, created on first use; returns its id and uuid. */
export async function ensureThread(db: DbOrTrx, t: { uuid: string; agencyId: number; jobId: number; audience: Audience; at: Date }) {
  await db
    .insertInto('conversation_threads')
    .values({ uuid: t.uuid, agency_id: t.agencyId, job_id: t.jobId, audience: t.audience, created_at: t.at, last_message_at: null })
    .onConflict((oc) => oc.columns(['job_id', 'audience']).doNothing())
    .execute();
  return db.selectFrom('conversation_threads').select(['id', 'uuid']).where('job_id', '=', t.jobId).where('audience', '=', t.audience).executeTakeFirstOrThrow();
}

export interface NewMessage {
  uuid: string;
  agencyId: number;
  threadId: number;
  jobId: number;
  authorUserId: number | null;
  authorKind: 'staff' | 'tenant' | 'contractor' | 'landlord' | 'system';
  authorKey: string | null;
  authorName: string;
  channel: 'web' | 'email' | 'sms';
  body: string;
  urgent: boolean;
  externalId: string | null;
  at: Date;
}

/**
 * Inserts a message and moves the thread's last_message_at.
 * @returns its id, or undefined when a message with the same external id is already in the thread
 */
export async function insertMessage(db: DbOrTrx, m: NewMessage): Promise<number | undefined> {
  const row = await db
    .insertInto('conversation_messages')
    .values({
      uuid: m.uuid, agency_id: m.agencyId, thread_id: m.threadId, job_id: m.jobId, author_user_id: m.authorUserId, author_kind: m.authorKind,
      author_key: m.authorKey, author_name: m.authorName, channel: m.channel, body: m.body, urgent: m.urgent, external_id: m.externalId, created_at: m.at,
    })
    .onConflict((oc) => oc.columns(['thread_id', 'external_id']).where('external_id', 'is not', null).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!row) return undefined;
  await db.updateTable('conversation_threads').set({ last_message_at: m.at }).where('id', '=', m.threadId).execute();
  return row.id;
}

/** Links job files to a message. */
export async function linkFiles(db: DbOrTrx, messageId: number, fileIds: readonly number[]): Promise<void> {
  if (fileIds.length === 0) return;
  await db.insertInto('conversation_message_files').values(fileIds.map((file_id) => ({ message_id: messageId, file_id }))).execute();
}

/** Sets the caller's read mark of a thread (never moves it back). */
export async function markRead(db: DbOrTrx, jobId: number, audience: Audience, userId: number, at: Date): Promise<void> {
  await db
    .insertInto('conversation_reads')
    .values({ job_id: jobId, audience, user_id: userId, read_at: at })
    .onConflict((oc) => oc.columns(['job_id', 'audience', 'user_id']).doUpdateSet({ read_at: sql`greatest(conversation_reads.read_at, excluded.read_at)` }))
    .execute();
}

/** A thread with the fields of its job that routing a message needs; undefined when missing or the job is deleted. */
export function findThread(db: DbOrTrx, threadId: number) {
  return db
    .selectFrom('conversation_threads as t')
    .innerJoin('jobs as j', 'j.id', 't.job_id')
    .innerJoin('agencies as a', 'a.id', 't.agency_id')
    .select([
      't.id', 't.uuid', 't.agency_id', 't.job_id', 't.audience', 'j.uuid as job_uuid', 'j.reference', 'j.title', 'j.branch_id', 'j.tenant_id',
      'j.contractor_id', 'j.address_id', 'a.name as agency_name',
    ])
    .where('t.id', '=', threadId)
    .where('j.deleted_at', 'is', null)
    .executeTakeFirst();
}
export type ThreadRow = NonNullable<Awaited<ReturnType<typeof findThread>>>;

/** An active user's fields for deciding whether they belong to a thread. */
export function findUserPerson(db: DbOrTrx, userId: number) {
  return db
    .selectFrom('users as u')
    .leftJoin('roles as r', 'r.id', 'u.role_id')
    .select(['u.id', 'u.name', 'u.email', 'u.agency_id', 'u.tenant_id', 'u.contractor_id', 'u.landlord_id', 'u.status', 'r.code as role_code'])
    .where('u.id', '=', userId)
    .executeTakeFirst();
}

/**
 * The active accounts of an agency whose e-mail address is `email` (compared in lower case), for
 * finding who sent a received e-mail.
 */
export function activeUsersByEmail(db: DbOrTrx, agencyId: number, email: string) {
  return db
    .selectFrom('users')
    .select(['id'])
    .where('agency_id', '=', agencyId)
    .where('status', '=', 'active')
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .orderBy('id')
    .execute();
}

/** A tenant record of an agency (not erased). */
export function findTenantPerson(db: DbOrTrx, agencyId: number, tenantId: number) {
  return db.selectFrom('tenants').select(['id', 'name', 'email', 'mobile', 'phone']).where('id', '=', tenantId).where('agency_id', '=', agencyId).where('erased_at', 'is', null).executeTakeFirst();
}

/** A contractor record of an agency. */
export function findContractorPerson(db: DbOrTrx, agencyId: number, contractorId: number) {
  return db.selectFrom('contractors').select(['id', 'company_name', 'contact_name', 'email', 'phone']).where('id', '=', contractorId).where('agency_id', '=', agencyId).executeTakeFirst();
}

/** The landlords (not erased) owning a property address. */
export function propertyLandlords(db: DbOrTrx, agencyId: number, addressId: number) {
  return db
    .selectFrom('landlord_properties as lp')
    .innerJoin('landlords as l', 'l.id', 'lp.landlord_id')
    .select(['l.id', 'l.name', 'l.email', 'l.phone'])
    .where('lp.address_id', '=', addressId)
    .where('l.agency_id', '=', agencyId)
    .where('l.erased_at', 'is', null)
    .orderBy('l.id')
    .execute();
}

/** Active accounts linked to a landlord record. */
export function landlordUsers(db: DbOrTrx, agencyId: number, landlordId: number) {
  return db.selectFrom('users').select(['id', 'name', 'email']).where('landlord_id', '=', landlordId).where('agency_id', '=', agencyId).where('status', '=', 'active').execute();
}

/**
 * True when one of the landlord's login accounts holds an `sms_updates` consent in force
 * (docs/gdpr.md; a landlord record has no consents of its own).
 */
export async function landlordHasSmsConsent(db: DbOrTrx, agencyId: number, landlordId: number): Promise<boolean> {
  const row = await db.selectFrom('gdpr_consents as c').select('c.id')
    .where('c.agency_id', '=', agencyId).where('c.purpose', '=', 'sms_updates').where('c.withdrawn_at', 'is', null)
    .where('c.user_id', 'in', (eb) => eb.selectFrom('users').select('id').where('landlord_id', '=', landlordId).where('agency_id', '=', agencyId))
    .executeTakeFirst();
  return row !== undefined;
}

/** True when the tenant (record or account) has an `sms_updates` consent in force (docs/gdpr.md). */
export async function hasSmsConsent(db: DbOrTrx, agencyId: number, tenantId: number): Promise<boolean> {
  const row = await db
    .selectFrom('gdpr_consents as c')
    .select('c.id')
    .where('c.agency_id', '=', agencyId)
    .where('c.purpose', '=', 'sms_updates')
    .where('c.withdrawn_at', 'is', null)
    .where((eb) => eb.or([eb('c.tenant_id', '=', tenantId), eb('c.user_id', 'in', eb.selectFrom('users').select('id').where('tenant_id', '=', tenantId))]))
    .executeTakeFirst();
  return row !== undefined;
}
