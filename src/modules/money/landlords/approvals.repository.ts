/** SQL for landlord approval requests and their single-use links (docs/landlords.md). No rules here. */
import { sql, type Insertable, type Updateable } from 'kysely';
import type { ApprovalRequestTable, ApprovalStatus } from '../../../db/schema.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { newToken } from '../../../lib/crypto.ts';

function base(db: DbOrTrx) {
  return db
    .selectFrom('approval_requests as ar')
    .innerJoin('jobs as j', 'j.id', 'ar.job_id')
    .innerJoin('landlords as l', 'l.id', 'ar.landlord_id')
    .leftJoin('addresses as a', 'a.id', 'j.address_id')
    .leftJoin('quotes as q', 'q.id', 'ar.quote_id')
    .select([
      'ar.id', 'ar.uuid', 'ar.agency_id', 'ar.job_id', 'ar.quote_id', 'ar.landlord_id', 'ar.amount_pence', 'ar.limit_pence', 'ar.description', 'ar.status',
      'ar.comment', 'ar.requested_by_user_id', 'ar.created_at', 'ar.expires_at', 'ar.reminded_at', 'ar.answered_at', 'ar.escalated_at', 'ar.updated_at',
      'j.uuid as job_uuid', 'j.reference as job_reference', 'j.title as job_title', 'j.branch_id', 'j.status_id as job_status_id', 'j.address_id',
      'l.uuid as landlord_uuid', 'l.name as landlord_name', 'l.email as landlord_email', 'l.phone as landlord_phone', 'q.uuid as quote_uuid',
      'a.line1 as address_line1', 'a.town as address_town', 'a.postcode as address_postcode',
    ]);
}

export type ApprovalRow = NonNullable<Awaited<ReturnType<typeof findApprovalById>>>;

/**
 * True when one of the landlord's login accounts (users.landlord_id) holds an `sms_updates`
 * consent in force (docs/gdpr.md, docs/landlords.md "By SMS").
 */
export async function landlordHasSmsConsent(db: DbOrTrx, agencyId: number, landlordId: number): Promise<boolean> {
  const row = await db.selectFrom('gdpr_consents as c').select('c.id')
    .where('c.agency_id', '=', agencyId).where('c.purpose', '=', 'sms_updates').where('c.withdrawn_at', 'is', null)
    .where('c.user_id', 'in', (eb) => eb.selectFrom('users').select('id').where('landlord_id', '=', landlordId).where('agency_id', '=', agencyId))
    .executeTakeFirst();
  return row !== undefined;
}

/** One approval by id. */
export function findApprovalById(db: DbOrTrx, id: number) {
  return base(db).where('ar.id', '=', id).executeTakeFirst();
}

/** One approval by uuid (any agency). */
export function findApprovalByUuid(db: DbOrTrx, uuid: string) {
  return base(db).where('ar.uuid', '=', uuid).executeTakeFirst();
}

export interface ApprovalFilter {
  agencyId: number | null;
  status?: ApprovalStatus;
  jobId?: number;
  landlordId?: number;
  limit: number;
  offset: number;
}

/** A page of approvals, newest first, and the total. */
export async function listApprovals(db: DbOrTrx, f: ApprovalFilter) {
  let q = base(db);
  if (f.agencyId !== null) q = q.where('ar.agency_id', '=', f.agencyId);
  if (f.status) q = q.where('ar.status', '=', f.status);
  if (f.jobId !== undefined) q = q.where('ar.job_id', '=', f.jobId);
  if (f.landlordId !== undefined) q = q.where('ar.landlord_id', '=', f.landlordId);
  const [rows, total] = await Promise.all([
    q.orderBy('ar.created_at', 'desc').orderBy('ar.id', 'desc').limit(f.limit).offset(f.offset).execute(),
    q.clearSelect().select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}

/** Every approval of a landlord, oldest first (GDPR report). */
export function approvalsOfLandlord(db: DbOrTrx, landlordId: number) {
  return base(db).where('ar.landlord_id', '=', landlordId).orderBy('ar.created_at').orderBy('ar.id').execute();
}

/** A pending (or questioned) approval of the job for the same quote (or for no quote), if any. */
export function openApprovalOf(db: DbOrTrx, jobId: number, quoteId: number | null) {
  let q = db.selectFrom('approval_requests').select('id').where('job_id', '=', jobId).where('status', 'in', ['pending', 'question']);
  q = quoteId === null ? q.where('quote_id', 'is', null) : q.where('quote_id', '=', quoteId);
  return q.executeTakeFirst();
}

/** Inserts an approval; returns its id. */
export async function insertApproval(db: DbOrTrx, row: Insertable<ApprovalRequestTable>): Promise<number> {
  return (await db.insertInto('approval_requests').values(row).returning('id').executeTakeFirstOrThrow()).id;
}

/**
 * Changes an approval only while its status is one of `from` (compare-and-set).
 * @returns true when the row changed
 */
export async function updateApprovalIf(db: DbOrTrx, id: number, from: ApprovalStatus[], patch: Updateable<ApprovalRequestTable>): Promise<boolean> {
  const r = await db.updateTable('approval_requests').set(patch).where('id', '=', id).where('status', 'in', from).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Inserts the link of an approval with a fresh random nonce; returns the nonce. */
export async function insertLink(db: DbOrTrx, approvalId: number, landlordId: number, expiresAt: Date, at: Date): Promise<string> {
  const nonce = newToken().slice(0, 32);
  await db.insertInto('approval_links').values({ approval_id: approvalId, landlord_id: landlordId, nonce, expires_at: expiresAt, created_at: at }).execute();
  return nonce;
}

/** The live (unused, unrevoked) link of an approval, newest first. */
export function liveLinkOf(db: DbOrTrx, approvalId: number) {
  return db.selectFrom('approval_links').select(['id', 'nonce', 'expires_at']).where('approval_id', '=', approvalId)
    .where('used_at', 'is', null).where('revoked_at', 'is', null).orderBy('id', 'desc').executeTakeFirst();
}

/** A link by its nonce, with the uuids it is scoped to. */
export function findLinkByNonce(db: DbOrTrx, nonce: string) {
  return db.selectFrom('approval_links as k')
    .innerJoin('approval_requests as ar', 'ar.id', 'k.approval_id')
    .innerJoin('landlords as l', 'l.id', 'k.landlord_id')
    .select(['k.id', 'k.approval_id', 'k.landlord_id', 'k.expires_at', 'k.used_at', 'k.used_action', 'k.revoked_at', 'ar.uuid as approval_uuid', 'l.uuid as landlord_uuid'])
    .where('k.nonce', '=', nonce)
    .executeTakeFirst();
}

/**
 * Consumes a link: one conditional update, so of two concurrent answers only one passes.
 * @returns true when this call consumed it
 */
export async function consumeLink(db: DbOrTrx, id: number, action: string, now: Date): Promise<boolean> {
  const r = await db.updateTable('approval_links').set({ used_at: now, used_action: action })
    .where('id', '=', id).where('used_at', 'is', null).where('revoked_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Revokes every live link of an approval; returns how many. */
export async function revokeLinks(db: DbOrTrx, approvalId: number, now: Date): Promise<number> {
  const r = await db.updateTable('approval_links').set({ revoked_at: now }).where('approval_id', '=', approvalId)
    .where('used_at', 'is', null).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** Pending approvals due a reminder at `now` (reminder time from the agency settings, default 48 h). */
export function dueReminders(db: DbOrTrx, now: Date) {
  return db.selectFrom('approval_requests as ar')
    .leftJoin('landlord_settings as s', 's.agency_id', 'ar.agency_id')
    .select(['ar.id'])
    .where('ar.status', '=', 'pending')
    .where('ar.reminded_at', 'is', null)
    .where('ar.expires_at', '>', now)
    .where(sql<boolean>`ar.created_at + make_interval(hours => coalesce(s.reminder_after_hours, 48)) <= ${now}`)
    .orderBy('ar.id')
    .execute();
}

/** Pending or questioned approvals whose time ran out at `now`. */
export function dueExpiries(db: DbOrTrx, now: Date) {
  return db.selectFrom('approval_requests').select('id').where('status', 'in', ['pending', 'question']).where('expires_at', '<=', now).orderBy('id').execute();
}

/** The user who answers for the agency on a job: its owning agent, else the agency's first active admin. */
export async function responsibleUser(db: DbOrTrx, agencyId: number, jobId: number) {
  const job = await db.selectFrom('jobs as j').leftJoin('users as u', 'u.id', 'j.agent_user_id').select(['u.id', 'u.uuid', 'u.name', 'u.email'])
    .where('j.id', '=', jobId).where('u.status', '=', 'active').executeTakeFirst();
  if (job?.id) return { id: job.id, uuid: job.uuid!, name: job.name!, email: job.email! };
  return db.selectFrom('users as u').innerJoin('roles as r', 'r.id', 'u.role_id').select(['u.id', 'u.uuid', 'u.name', 'u.email'])
    .where('u.agency_id', '=', agencyId).where('r.code', '=', 'admin').where('u.status', '=', 'active').orderBy('u.id').executeTakeFirst();
}

/** The facts of a quote the approval rules need. */
export function quoteFacts(db: DbOrTrx, quoteId: number) {
  return db.selectFrom('quotes as q').innerJoin('jobs as j', 'j.id', 'q.job_id').innerJoin('contractors as c', 'c.id', 'q.contractor_id')
    .select(['q.id', 'q.uuid', 'q.agency_id', 'q.job_id', 'q.gross_pence', 'q.status', 'q.submitted_by_user_id', 'j.address_id', 'c.company_name'])
    .where('q.id', '=', quoteId).executeTakeFirst();
}

/** The agency's name, for the landlord's e-mail and the answer page. */
export function agencyName(db: DbOrTrx, agencyId: number) {
  return db.selectFrom('agencies').select('name').where('id', '=', agencyId).executeTakeFirstOrThrow();
}

/** The job's address id. */
export function jobAddressId(db: DbOrTrx, jobId: number) {
  return db.selectFrom('jobs').select('address_id').where('id', '=', jobId).executeTakeFirstOrThrow();
}
