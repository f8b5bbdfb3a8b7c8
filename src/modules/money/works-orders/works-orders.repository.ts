/** SQL for works-order links, quote requests and their invitations (docs/works-orders.md). No rules here. */
import { randomBytes } from 'node:crypto';
import type { Insertable, Updateable } from 'kysely';
import type { QuoteRequestTable, WorksOrderLinkTable } from '../../../db/schema.ts';
import type { DbOrTrx } from '../../../db/types.ts';

export type LinkPurpose = 'works_order' | 'quote';

/** Inserts a link with a fresh random nonce (32 hex). @returns id and nonce */
export async function insertLink(db: DbOrTrx, row: Omit<Insertable<WorksOrderLinkTable>, 'nonce'>) {
  const nonce = randomBytes(16).toString('hex');
  const r = await db.insertInto('works_order_links').values({ ...row, nonce }).returning('id').executeTakeFirstOrThrow();
  return { id: r.id, nonce };
}

const LINK_COLUMNS = [
  'k.id', 'k.uuid', 'k.agency_id', 'k.job_id', 'k.contractor_id', 'k.purpose', 'k.quote_request_id', 'k.nonce', 'k.expires_at', 'k.created_at',
  'k.last_used_at', 'k.used_at', 'k.used_action', 'k.revoked_at', 'j.uuid as job_uuid', 'j.reference as job_reference', 'j.branch_id',
  'j.contractor_id as job_contractor_id', 'j.deleted_at as job_deleted_at', 'c.uuid as contractor_uuid', 'c.company_name', 'c.contact_name', 'c.email as contractor_email',
] as const;

function linkQuery(db: DbOrTrx) {
  return db.selectFrom('works_order_links as k').innerJoin('jobs as j', 'j.id', 'k.job_id').innerJoin('contractors as c', 'c.id', 'k.contractor_id');
}

/** A link by its nonce, with the job and contractor it is scoped to. */
export function findLinkByNonce(db: DbOrTrx, nonce: string) {
  return linkQuery(db).select(LINK_COLUMNS).where('k.nonce', '=', nonce).executeTakeFirst();
}
export type LinkRow = NonNullable<Awaited<ReturnType<typeof findLinkByNonce>>>;

/** A link by id. */
export function findLinkById(db: DbOrTrx, id: number) {
  return linkQuery(db).select(LINK_COLUMNS).where('k.id', '=', id).executeTakeFirst();
}

/** A link by uuid in an agency (null agency: any, for SysOps). */
export function findLinkByUuid(db: DbOrTrx, uuid: string, agencyId: number | null) {
  let q = linkQuery(db).select(LINK_COLUMNS).where('k.uuid', '=', uuid);
  if (agencyId !== null) q = q.where('k.agency_id', '=', agencyId);
  return q.executeTakeFirst();
}

/** The links of a job, newest first. */
export function linksOfJob(db: DbOrTrx, jobId: number) {
  return linkQuery(db).select(LINK_COLUMNS).where('k.job_id', '=', jobId).orderBy('k.id', 'desc').execute();
}

/** Revokes the live links of a job (of one purpose and, when given, one contractor). @returns how many */
export async function revokeLiveLinks(db: DbOrTrx, jobId: number, purpose: LinkPurpose, at: Date, byUserId: number | null, contractorId?: number) {
  let q = db.updateTable('works_order_links').set({ revoked_at: at, revoked_by_user_id: byUserId })
    .where('job_id', '=', jobId).where('purpose', '=', purpose).where('revoked_at', 'is', null).where('used_at', 'is', null);
  if (contractorId !== undefined) q = q.where('contractor_id', '=', contractorId);
  const r = await q.executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** Revokes one link if it is live. @returns false when used or revoked already */
export async function revokeLink(db: DbOrTrx, id: number, at: Date, byUserId: number | null): Promise<boolean> {
  const r = await db.updateTable('works_order_links').set({ revoked_at: at, revoked_by_user_id: byUserId })
    .where('id', '=', id).where('revoked_at', 'is', null).where('used_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Uses a link up with one conditional update (live and unexpired), so of two concurrent final
 * answers only one passes. @returns false when it was not live any more
 */
export async function consumeLink(db: DbOrTrx, id: number, action: string, now: Date): Promise<boolean> {
  const r = await db.updateTable('works_order_links').set({ used_at: now, used_action: action, last_used_at: now })
    .where('id', '=', id).where('used_at', 'is', null).where('revoked_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Records the last use of a link. */
export async function touchLink(db: DbOrTrx, id: number, now: Date): Promise<void> {
  await db.updateTable('works_order_links').set({ last_used_at: now }).where('id', '=', id).execute();
}

/**
 * The user a link's action runs as: the contractor's own active login when it has one, else the
 * job's agent, else the agency's first active administrator.
 */
export async function actingUser(db: DbOrTrx, agencyId: number, jobId: number, contractorId: number) {
  const own = await db.selectFrom('users').select(['id', 'uuid', 'email']).where('contractor_id', '=', contractorId).where('status', '=', 'active')
    .orderBy('id').executeTakeFirst();
  if (own) return { ...own, own: true };
  const agent = await db.selectFrom('jobs as j').innerJoin('users as u', 'u.id', 'j.agent_user_id').select(['u.id', 'u.uuid', 'u.email'])
    .where('j.id', '=', jobId).where('u.status', '=', 'active').executeTakeFirst();
  if (agent) return { ...agent, own: false };
  const admin = await db.selectFrom('users as u').innerJoin('roles as r', 'r.id', 'u.role_id').select(['u.id', 'u.uuid', 'u.email'])
    .where('u.agency_id', '=', agencyId).where('r.code', '=', 'admin').where('u.status', '=', 'active').orderBy('u.id').executeTakeFirst();
  return admin ? { ...admin, own: false } : undefined;
}

/** What the contractor's page shows of the job. */
export function jobForLink(db: DbOrTrx, jobId: number) {
  return db.selectFrom('jobs as j')
    .innerJoin('agencies as ag', 'ag.id', 'j.agency_id')
    .innerJoin('job_statuses as s', 's.id', 'j.status_id')
    .leftJoin('addresses as a', 'a.id', 'j.address_id')
    .leftJoin('job_time_ranges as tr', 'tr.id', 'j.time_range_id')
    .select([
      'j.id', 'j.uuid', 'j.reference', 'j.title', 'j.description', 'j.priority', 'j.status_id', 's.name as status', 'j.scheduled_for', 'j.contractor_accepted_at',
      'j.attended_at', 'j.completed_at', 'j.agency_id', 'ag.name as agency_name', 'a.line1', 'a.line2', 'a.town', 'a.postcode', 'tr.range_label as time_range',
    ])
    .where('j.id', '=', jobId).executeTakeFirstOrThrow();
}

/** The agency's time slots (for booking a visit). */
export function timeRanges(db: DbOrTrx, agencyId: number) {
  return db.selectFrom('job_time_ranges').select(['id', 'range_label as label']).where('retired_at', 'is', null)
    .where((eb) => eb.or([eb('agency_id', 'is', null), eb('agency_id', '=', agencyId)])).orderBy('sort_order').orderBy('id').execute();
}

/** The contractor's invoices of a job (drafts and issued), newest first. */
export function invoicesOf(db: DbOrTrx, jobId: number, contractorId: number) {
  return db.selectFrom('invoices').select(['uuid', 'status', 'gross_pence', 'created_at']).where('job_id', '=', jobId).where('contractor_id', '=', contractorId)
    .where('kind', '=', 'invoice').orderBy('id', 'desc').execute();
}

// Quote requests

/** Inserts a quote request. @returns its id */
export async function insertQuoteRequest(db: DbOrTrx, row: Insertable<QuoteRequestTable>): Promise<number> {
  return (await db.insertInto('quote_requests').values(row).returning('id').executeTakeFirstOrThrow()).id;
}

/** Invites one contractor. @returns the invitation id */
export async function insertInvitation(db: DbOrTrx, requestId: number, contractorId: number, at: Date): Promise<number> {
  return (await db.insertInto('quote_request_invitations').values({ quote_request_id: requestId, contractor_id: contractorId, status: 'invited', quote_id: null, responded_at: null, created_at: at })
    .returning('id').executeTakeFirstOrThrow()).id;
}

const REQUEST_COLUMNS = [
  'qr.id', 'qr.uuid', 'qr.agency_id', 'qr.job_id', 'qr.deadline_at', 'qr.notes', 'qr.status', 'qr.awarded_quote_id', 'qr.awarded_at', 'qr.created_at',
  'j.uuid as job_uuid', 'j.reference as job_reference', 'j.title as job_title', 'j.branch_id',
] as const;

function requestQuery(db: DbOrTrx) {
  return db.selectFrom('quote_requests as qr').innerJoin('jobs as j', 'j.id', 'qr.job_id');
}

/** A quote request by uuid (any agency: the service checks the job's visibility). */
export function findQuoteRequest(db: DbOrTrx, uuid: string) {
  return requestQuery(db).select(REQUEST_COLUMNS).where('qr.uuid', '=', uuid).where('j.deleted_at', 'is', null).executeTakeFirst();
}
export type QuoteRequestRow = NonNullable<Awaited<ReturnType<typeof findQuoteRequest>>>;

/** A quote request by id. */
export function quoteRequestById(db: DbOrTrx, id: number) {
  return requestQuery(db).select(REQUEST_COLUMNS).where('qr.id', '=', id).executeTakeFirstOrThrow();
}

/** The quote requests of a job, newest first. */
export function requestsOfJob(db: DbOrTrx, jobId: number) {
  return requestQuery(db).select(REQUEST_COLUMNS).where('qr.job_id', '=', jobId).orderBy('qr.id', 'desc').execute();
}

/** The open request of a job, locked. */
export function lockOpenRequestOfJob(db: DbOrTrx, jobId: number) {
  return db.selectFrom('quote_requests').select(['id', 'status']).where('job_id', '=', jobId).where('status', '=', 'open').forUpdate().executeTakeFirst();
}

/** Changes a request if it is still open. @returns false otherwise */
export async function updateRequestIfOpen(db: DbOrTrx, id: number, set: Updateable<QuoteRequestTable>): Promise<boolean> {
  const r = await db.updateTable('quote_requests').set(set).where('id', '=', id).where('status', '=', 'open').executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** The invitations of requests with the contractor and its quote, in invitation order. */
export function invitationsOf(db: DbOrTrx, requestIds: number[]) {
  if (requestIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('quote_request_invitations as i')
    .innerJoin('contractors as c', 'c.id', 'i.contractor_id')
    .leftJoin('quotes as q', 'q.id', 'i.quote_id')
    .select([
      'i.id', 'i.quote_request_id', 'i.contractor_id', 'i.status', 'i.responded_at', 'i.created_at', 'c.uuid as contractor_uuid', 'c.company_name', 'c.contact_name',
      'c.email as contractor_email', 'q.id as quote_id', 'q.uuid as quote_uuid', 'q.status as quote_status', 'q.net_pence', 'q.vat_pence', 'q.gross_pence', 'q.notes as quote_notes',
      'q.created_at as quoted_at',
    ])
    .where('i.quote_request_id', 'in', requestIds).orderBy('i.id').execute();
}
export type InvitationRow = Awaited<ReturnType<typeof invitationsOf>>[number];

/** The invitation of a contractor to a request, locked. */
export function lockInvitation(db: DbOrTrx, requestId: number, contractorId: number) {
  return db.selectFrom('quote_request_invitations').select(['id', 'status', 'quote_id']).where('quote_request_id', '=', requestId).where('contractor_id', '=', contractorId)
    .forUpdate().executeTakeFirst();
}

/** Sets an invitation's answer. */
export async function answerInvitation(db: DbOrTrx, id: number, status: 'quoted' | 'declined', quoteId: number | null, at: Date): Promise<void> {
  await db.updateTable('quote_request_invitations').set({ status, quote_id: quoteId, responded_at: at }).where('id', '=', id).execute();
}

/** Marks the winner and the others of an awarded request. */
export async function settleInvitations(db: DbOrTrx, requestId: number, winnerContractorId: number): Promise<void> {
  await db.updateTable('quote_request_invitations').set({ status: 'awarded' }).where('quote_request_id', '=', requestId).where('contractor_id', '=', winnerContractorId).execute();
  await db.updateTable('quote_request_invitations').set({ status: 'not_awarded' }).where('quote_request_id', '=', requestId)
    .where('contractor_id', '!=', winnerContractorId).where('status', 'in', ['invited', 'quoted']).execute();
}

/** The open requests a contractor is invited to and has not answered (its portal inbox), by deadline. */
export function openInvitationsOfContractor(db: DbOrTrx, contractorId: number) {
  return requestQuery(db).innerJoin('quote_request_invitations as i', 'i.quote_request_id', 'qr.id')
    .leftJoin('addresses as a', 'a.id', 'j.address_id')
    .select([...REQUEST_COLUMNS, 'i.status as invitation_status', 'j.description as job_description', 'a.line1', 'a.town', 'a.postcode'])
    .where('i.contractor_id', '=', contractorId).where('qr.status', '=', 'open').where('j.deleted_at', 'is', null)
    .orderBy('qr.deadline_at').execute();
}

/** The request (if any) awaiting an award that a quote answers. */
export function requestOfQuote(db: DbOrTrx, quoteId: number) {
  return db.selectFrom('quote_request_invitations as i').innerJoin('quote_requests as qr', 'qr.id', 'i.quote_request_id')
    .select(['qr.id', 'qr.status', 'i.contractor_id']).where('i.quote_id', '=', quoteId).executeTakeFirst();
}

/** A quote's contractor and gross (for the award). */
export function quoteOf(db: DbOrTrx, quoteId: number) {
  return db.selectFrom('quotes').select(['id', 'uuid', 'job_id', 'contractor_id', 'gross_pence', 'status']).where('id', '=', quoteId).executeTakeFirst();
}

/** A quote by uuid within a job. */
export function quoteByUuid(db: DbOrTrx, jobId: number, uuid: string) {
  return db.selectFrom('quotes').select(['id', 'uuid', 'job_id', 'contractor_id', 'gross_pence', 'status']).where('uuid', '=', uuid).where('job_id', '=', jobId).executeTakeFirst();
}

/** Contractors of an agency by uuid (active ones). */
export function contractorsByUuid(db: DbOrTrx, agencyId: number, uuids: string[]) {
  return db.selectFrom('contractors').select(['id', 'uuid', 'company_name', 'email', 'active']).where('agency_id', '=', agencyId).where('uuid', 'in', uuids).execute();
}

/** Gives back a link a failed final action used up (only that action's use). */
export async function releaseLink(db: DbOrTrx, id: number, action: string): Promise<void> {
  await db.updateTable('works_order_links').set({ used_at: null, used_action: null }).where('id', '=', id).where('used_action', '=', action).execute();
}

/** Contractors by id (name and e-mail). */
export function contractorsOfIds(db: DbOrTrx, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('contractors').select(['id', 'uuid', 'company_name', 'contact_name', 'email']).where('id', 'in', ids).execute();
}

/** Uses up a contractor's live quote links of a request (answered in the portal). */
export async function consumeQuoteLinks(db: DbOrTrx, requestId: number, contractorId: number, action: string, now: Date): Promise<void> {
  await db.updateTable('works_order_links').set({ used_at: now, used_action: action }).where('quote_request_id', '=', requestId)
    .where('contractor_id', '=', contractorId).where('used_at', 'is', null).where('revoked_at', 'is', null).execute();
}
