/**
 * The SQL of the first-run account and the demo data set (src/seed; docs/demo-data.md): the
 * seed writes fixture rows it builds itself, so its writes are the plain table writers below, and
 * its reads are named for what each step looks up. Every function takes `DbOrTrx` first, so the
 * whole demo load runs in its one transaction. No rules here (docs/architecture.md, "Layers").
 */
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Database } from './schema.ts';
import type { DbOrTrx } from './types.ts';

/** A table of the schema. */
export type SeedTable = keyof Database & string;
/** A table whose rows have an integer `id`. */
type TableWithId = { [T in SeedTable]: Database[T] extends { id: unknown } ? T : never }[SeedTable];

// The writers take the table's own row types; Kysely cannot narrow a generic table name, hence
// the casts inside (the signatures keep the callers typed).

/**
 * Inserts `rows` into `table` in one statement; nothing returned.
 * @param options.ignoreConflicts rows that violate a unique constraint are skipped (ON CONFLICT DO NOTHING)
 */
export async function insertRows<T extends SeedTable>(db: DbOrTrx, table: T, rows: Insertable<Database[T]>[], options: { ignoreConflicts?: boolean } = {}): Promise<void> {
  if (rows.length === 0) return;
  const insert = db.insertInto(table).values(rows as any);
  await (options.ignoreConflicts ? insert.onConflict((oc) => oc.doNothing()) : insert).execute();
}

/** Inserts `rows` into `table` in one statement and returns the stored rows (ids and defaults filled in), in insertion order. */
export async function insertReturning<T extends TableWithId>(db: DbOrTrx, table: T, rows: Insertable<Database[T]>[]): Promise<Selectable<Database[T]>[]> {
  if (rows.length === 0) return [];
  return (await db.insertInto(table).values(rows as any).returningAll().execute()) as Selectable<Database[T]>[];
}

/** Inserts one row into `table` and returns its `id`. */
export async function insertId<T extends TableWithId>(db: DbOrTrx, table: T, row: Insertable<Database[T]>): Promise<number> {
  const stored = (await db.insertInto(table).values(row as any).returning('id' as any).executeTakeFirstOrThrow()) as { id: number };
  return stored.id;
}

/** Sets `set` on the row of `table` with this `id`. */
export async function updateById<T extends TableWithId>(db: DbOrTrx, table: T, id: number, set: Updateable<Database[T]>): Promise<void> {
  await db.updateTable(table as TableWithId).set(set as any).where('id' as any, '=', id).execute();
}

/** True when the database holds any user account (the first-run account and the demo load only fill an empty one). */
export async function hasAnyUser(db: DbOrTrx): Promise<boolean> {
  return (await db.selectFrom('users').select('id').limit(1).executeTakeFirst()) !== undefined;
}

/** True when the database holds any agency. */
export async function hasAnyAgency(db: DbOrTrx): Promise<boolean> {
  return (await db.selectFrom('agencies').select('id').limit(1).executeTakeFirst()) !== undefined;
}

/** Every role's id by its code (built-in and custom). */
export async function roleIdsByCode(db: DbOrTrx): Promise<Map<string, number>> {
  return new Map((await db.selectFrom('roles').select(['id', 'code']).execute()).map((r) => [r.code, r.id]));
}

/**
 * Trades by code, oldest first.
 * @param options.globalOnly only the platform's trades (no agency's own)
 */
export async function tradeIdsByCode(db: DbOrTrx, options: { globalOnly?: boolean } = {}): Promise<Map<string, number>> {
  let query = db.selectFrom('trades').select(['id', 'code']).orderBy('id');
  if (options.globalOnly) query = query.where('agency_id', 'is', null);
  return new Map((await query.execute()).map((t) => [t.code, t.id]));
}

/** The id of the agency with this exact name, or undefined. */
export async function agencyIdByName(db: DbOrTrx, name: string): Promise<number | undefined> {
  return (await db.selectFrom('agencies').select('id').where('name', '=', name).executeTakeFirst())?.id;
}

/** The agency's first `limit` properties' ids, oldest first. */
export async function firstAddressIds(db: DbOrTrx, agencyId: number, limit: number): Promise<number[]> {
  return (await db.selectFrom('addresses').select('id').where('agency_id', '=', agencyId).orderBy('id').limit(limit).execute()).map((a) => a.id);
}

/** Every property's agency and postcode, oldest first. */
export async function addressPostcodes(db: DbOrTrx): Promise<Array<{ agency_id: number; postcode: string }>> {
  return db.selectFrom('addresses').select(['agency_id', 'postcode']).orderBy('id').execute();
}

/** The agency's contractors' ids, oldest first. */
export async function contractorIdsOf(db: DbOrTrx, agencyId: number): Promise<number[]> {
  return (await db.selectFrom('contractors').select('id').where('agency_id', '=', agencyId).orderBy('id').execute()).map((c) => c.id);
}

/** Every contractor with its agency, oldest first. */
export async function allContractors(db: DbOrTrx): Promise<Array<{ id: number; agency_id: number }>> {
  return db.selectFrom('contractors').select(['id', 'agency_id']).orderBy('id').execute();
}

/** The agency's compliance item types: code -> id. */
export async function complianceTypeIds(db: DbOrTrx, agencyId: number): Promise<Map<string, number>> {
  return new Map((await db.selectFrom('compliance_item_types').select(['id', 'code']).where('agency_id', '=', agencyId).execute()).map((t) => [t.code, t.id]));
}

/** Every contractor's trades by code, by contractor then code. */
export async function contractorTradeCodes(db: DbOrTrx): Promise<Array<{ contractor_id: number; code: string }>> {
  return db
    .selectFrom('contractor_trades as ct')
    .innerJoin('trades as t', 't.id', 'ct.trade_id')
    .select(['ct.contractor_id', 't.code'])
    .orderBy('ct.contractor_id')
    .orderBy('t.code')
    .execute();
}

/** The postcode of every job with a contractor and a property, by job. */
export async function contractorJobPostcodes(db: DbOrTrx): Promise<Array<{ contractor_id: number | null; postcode: string }>> {
  return db
    .selectFrom('jobs as j')
    .innerJoin('addresses as a', 'a.id', 'j.address_id')
    .select(['j.contractor_id', 'a.postcode'])
    .where('j.contractor_id', 'is not', null)
    .orderBy('j.id')
    .execute();
}

/** Every tenant not erased, with its agency, oldest first. */
export async function activeTenants(db: DbOrTrx): Promise<Array<{ id: number; agency_id: number }>> {
  return db.selectFrom('tenants').select(['id', 'agency_id']).where('erased_at', 'is', null).orderBy('id').execute();
}

/** Users by e-mail address (id, e-mail, agency). */
export async function usersByEmail(db: DbOrTrx, emails: string[]): Promise<Array<{ id: number; email: string; agency_id: number | null }>> {
  return db.selectFrom('users').select(['id', 'email', 'agency_id']).where('email', 'in', emails).execute();
}

/** The e-mail address of a user (throws when there is none). */
export async function userEmail(db: DbOrTrx, userId: number): Promise<string> {
  return (await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirstOrThrow()).email;
}

/** Every active account with its role code and the tenant or contractor it stands for. */
export async function activeUsersWithRole(db: DbOrTrx) {
  return db
    .selectFrom('users as u')
    .innerJoin('roles as r', 'r.id', 'u.role_id')
    .select(['u.id', 'u.agency_id', 'u.tenant_id', 'u.contractor_id', 'r.code'])
    .where('u.status', '=', 'active')
    .execute();
}

/** The ids of the time slots not retired, in their display order. */
export async function activeTimeRangeIds(db: DbOrTrx): Promise<number[]> {
  return (await db.selectFrom('job_time_ranges').select('id').where('retired_at', 'is', null).orderBy('sort_order').execute()).map((s) => s.id);
}

/** Every job not deleted, with what the notes, files and calendar step needs, oldest first. */
export async function jobsForNotesAndFiles(db: DbOrTrx) {
  return db
    .selectFrom('jobs')
    .select(['id', 'agency_id', 'branch_id', 'status_id', 'tenant_id', 'contractor_id', 'scheduled_for', 'time_range_id', 'created_at', 'title'])
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .execute();
}

/** Every job without a status history row, with its status dates, oldest first. */
export async function jobsWithoutHistory(db: DbOrTrx) {
  return db
    .selectFrom('jobs as j')
    .select([
      'j.id', 'j.status_id', 'j.reported_by_user_id', 'j.agent_user_id', 'j.created_at', 'j.updated_at', 'j.approved_at', 'j.assigned_at',
      'j.scheduled_for', 'j.attended_at', 'j.completed_at', 'j.invoiced_at', 'j.closed_at', 'j.cancelled_at',
    ])
    .where((eb) => eb.not(eb.exists(eb.selectFrom('job_status_history as h').select('h.id').whereRef('h.job_id', '=', 'j.id'))))
    .orderBy('j.id')
    .execute();
}

/** The agency's first `limit` scheduled jobs of priority 3 or more with a property and a contractor. */
export async function scheduledJobsWithContractor(db: DbOrTrx, agencyId: number, limit: number) {
  return db
    .selectFrom('jobs')
    .select(['id', 'contractor_id'])
    .where('agency_id', '=', agencyId)
    .where('status_id', '=', 5)
    .where('priority', '>=', 3)
    .where('address_id', 'is not', null)
    .where('contractor_id', 'is not', null)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** The agency's first `limit` jobs (not deleted) at these properties, oldest first. */
export async function jobsAtAddresses(db: DbOrTrx, agencyId: number, addressIds: number[], limit: number) {
  if (addressIds.length === 0) return [];
  return db
    .selectFrom('jobs')
    .select(['id', 'address_id', 'title'])
    .where('agency_id', '=', agencyId)
    .where('address_id', 'in', addressIds)
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** The agency's jobs (not deleted) of one contractor in these statuses, oldest first. */
export async function contractorJobsIn(db: DbOrTrx, agencyId: number, contractorId: number, statusIds: number[]) {
  return db
    .selectFrom('jobs')
    .select(['id', 'contractor_id', 'created_at'])
    .where('agency_id', '=', agencyId)
    .where('contractor_id', '=', contractorId)
    .where('status_id', 'in', statusIds)
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .execute();
}

/** How many SLA clocks are in each state, by state. */
export async function slaClockStates(db: DbOrTrx): Promise<Array<{ state: string; n: number }>> {
  return db.selectFrom('sla_clocks').select(['state', db.fn.countAll<number>().as('n')]).groupBy('state').orderBy('state').execute();
}

/**
 * The agency's latest open job (not deleted, not in statuses 7 to 10) with a tenant, created at or
 * before `createdBy`: the latest whose title matches `preferTitle` (ILIKE) when there is one, else the latest.
 */
export async function latestOpenTenantJob(db: DbOrTrx, agencyId: number, createdBy: Date, preferTitle: string) {
  const open = db
    .selectFrom('jobs')
    .select(['id', 'agency_id', 'created_at', 'reference'])
    .where('agency_id', '=', agencyId)
    .where('tenant_id', 'is not', null)
    .where('deleted_at', 'is', null)
    .where('status_id', 'not in', [7, 8, 9, 10])
    .where('created_at', '<=', createdBy)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc');
  return (await open.where('title', 'ilike', preferTitle).executeTakeFirst()) ?? (await open.executeTakeFirst());
}

/** The agency's legal name, or null when it has none (throws when there is no such agency). */
export async function agencyLegalName(db: DbOrTrx, agencyId: number): Promise<string | null> {
  return (await db.selectFrom('agencies').select('legal_name').where('id', '=', agencyId).executeTakeFirstOrThrow()).legal_name;
}

/** The agency's landlords' ids, oldest first. */
export async function landlordIdsOf(db: DbOrTrx, agencyId: number): Promise<number[]> {
  return (await db.selectFrom('landlords').select('id').where('agency_id', '=', agencyId).orderBy('id').execute()).map((l) => l.id);
}

/** The agency's issued invoices and credit notes (not draft or void) with their job's property, by issue date then id. */
export async function billedInvoices(db: DbOrTrx, agencyId: number) {
  return db
    .selectFrom('invoices as i')
    .innerJoin('jobs as j', 'j.id', 'i.job_id')
    .select(['i.id', 'j.address_id'])
    .where('i.agency_id', '=', agencyId)
    .where('i.status', 'not in', ['draft', 'void'])
    .orderBy('i.issue_date')
    .orderBy('i.id')
    .execute();
}

/** True when the property has a landlord. */
export async function hasLandlord(db: DbOrTrx, addressId: number): Promise<boolean> {
  return (await db.selectFrom('landlord_properties').select('landlord_id').where('address_id', '=', addressId).executeTakeFirst()) !== undefined;
}

/** The agency's branches (id and name), oldest first. */
export async function branchesOf(db: DbOrTrx, agencyId: number): Promise<Array<{ id: number; name: string }>> {
  return db.selectFrom('branches').select(['id', 'name']).where('agency_id', '=', agencyId).orderBy('id').execute();
}

/** The agency's first `limit` tenant homes (tenant, property and its branch), by tenant. */
export async function tenantHomes(db: DbOrTrx, agencyId: number, limit: number) {
  return db
    .selectFrom('tenant_addresses as ta')
    .innerJoin('tenants as t', 't.id', 'ta.tenant_id')
    .innerJoin('addresses as a', 'a.id', 'ta.address_id')
    .select(['t.id as tenant_id', 'a.id as address_id', 'a.branch_id'])
    .where('t.agency_id', '=', agencyId)
    .orderBy('t.id')
    .limit(limit)
    .execute();
}

/** The agency's tenant logins: user id by tenant id. */
export async function tenantUserIds(db: DbOrTrx, agencyId: number): Promise<Map<number, number>> {
  const users = await db.selectFrom('users').select(['id', 'tenant_id']).where('agency_id', '=', agencyId).where('tenant_id', 'is not', null).execute();
  return new Map(users.map((u) => [u.tenant_id!, u.id]));
}

/** The agency's latest job (not deleted) at the property (id and status), or undefined. */
export async function latestJobAt(db: DbOrTrx, agencyId: number, addressId: number) {
  return db
    .selectFrom('jobs')
    .select(['id', 'status_id'])
    .where('agency_id', '=', agencyId)
    .where('address_id', '=', addressId)
    .where('deleted_at', 'is', null)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
}

/** The agency's `limit` most recently completed jobs (not deleted) with a tenant and a contractor, latest first. */
export async function completedTenantJobs(db: DbOrTrx, agencyId: number, limit: number) {
  return db
    .selectFrom('jobs')
    .select(['id', 'tenant_id', 'contractor_id', 'completed_at', 'address_id', 'trade_id'])
    .where('agency_id', '=', agencyId)
    .where('completed_at', 'is not', null)
    .where('tenant_id', 'is not', null)
    .where('contractor_id', 'is not', null)
    .where('deleted_at', 'is', null)
    .orderBy('completed_at', 'desc')
    .limit(limit)
    .execute();
}

/** The earliest job (not deleted, other than `exceptJobId`) of the trade at the property created strictly between `after` and `before` (id and creation time), or undefined. */
export async function firstJobOfTradeBetween(db: DbOrTrx, addressId: number, tradeId: number, after: Date, before: Date, exceptJobId: number) {
  return db
    .selectFrom('jobs')
    .select(['id', 'created_at'])
    .where('address_id', '=', addressId)
    .where('trade_id', '=', tradeId)
    .where('created_at', '>', after)
    .where('created_at', '<', before)
    .where('id', '!=', exceptJobId)
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .executeTakeFirst();
}

/** The id of the agency's landlord with this e-mail address, or undefined. */
export async function landlordIdByEmail(db: DbOrTrx, agencyId: number, email: string): Promise<number | undefined> {
  return (await db.selectFrom('landlords').select('id').where('agency_id', '=', agencyId).where('email', '=', email).executeTakeFirst())?.id;
}

/** The id of the built-in (platform) role with this code, or undefined. */
export async function builtInRoleId(db: DbOrTrx, code: string): Promise<number | undefined> {
  return (await db.selectFrom('roles').select('id').where('code', '=', code).where('agency_id', 'is', null).executeTakeFirst())?.id;
}

/** The ids of the properties the landlord owns (in no particular order). */
export async function landlordAddressIds(db: DbOrTrx, landlordId: number): Promise<number[]> {
  return (await db.selectFrom('landlord_properties').select('address_id').where('landlord_id', '=', landlordId).execute()).map((r) => r.address_id);
}

/** The agency's first `limit` active contractors with an e-mail address other than `exceptId` (id and company name), oldest first. */
export async function activeContractorsWithEmail(db: DbOrTrx, agencyId: number, exceptId: number, limit: number) {
  return db
    .selectFrom('contractors')
    .select(['id', 'company_name'])
    .where('agency_id', '=', agencyId)
    .where('active', '=', true)
    .where('email', 'is not', null)
    .where('id', '!=', exceptId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** The agency's oldest Reported job (not deleted) at one of these properties without an approval request (its id), or undefined. */
export async function firstReportedJobWithoutApproval(db: DbOrTrx, agencyId: number, addressIds: number[]) {
  if (addressIds.length === 0) return undefined;
  return db
    .selectFrom('jobs')
    .select(['id'])
    .where('agency_id', '=', agencyId)
    .where('address_id', 'in', addressIds)
    .where('status_id', '=', 1)
    .where('deleted_at', 'is', null)
    .where('id', 'not in', db.selectFrom('approval_requests').select('job_id'))
    .orderBy('id')
    .executeTakeFirst();
}

/** The agency's oldest Assigned job (not deleted) of a contractor other than `exceptContractorId` (id and contractor), or undefined. */
export async function firstAssignedJobOfOtherContractor(db: DbOrTrx, agencyId: number, exceptContractorId: number) {
  return db
    .selectFrom('jobs as j')
    .select(['j.id', 'j.contractor_id'])
    .where('j.agency_id', '=', agencyId)
    .where('j.status_id', '=', 4)
    .where('j.deleted_at', 'is', null)
    .where('j.contractor_id', 'is not', null)
    .where('j.contractor_id', '!=', exceptContractorId)
    .orderBy('j.id')
    .executeTakeFirst();
}

/** Jobs with a tenant, for the demo conversations: the tenant's and contractor's names, oldest first. */
export async function jobsForConversations(db: DbOrTrx) {
  return db
    .selectFrom('jobs as j')
    .innerJoin('tenants as t', 't.id', 'j.tenant_id')
    .leftJoin('contractors as c', 'c.id', 'j.contractor_id')
    .select(['j.id', 'j.agency_id', 'j.branch_id', 'j.tenant_id', 'j.contractor_id', 'j.status_id', 'j.created_at', 't.name as tenant_name', 'c.company_name', 'c.contact_name'])
    .where('j.deleted_at', 'is', null)
    .where('t.erased_at', 'is', null)
    .orderBy('j.id')
    .execute();
}

/** Active admins and agents with their names, for the demo conversations. */
export async function staffWithNames(db: DbOrTrx) {
  return db
    .selectFrom('users as u')
    .innerJoin('roles as r', 'r.id', 'u.role_id')
    .select(['u.id', 'u.agency_id', 'u.name'])
    .where('u.status', '=', 'active')
    .where('r.code', 'in', ['admin', 'agent'])
    .orderBy('u.id')
    .execute();
}

/**
 * The agency's live Assigned or Scheduled jobs with a contractor and a tenant, the demo contractor's
 * first, then oldest first (the demo visits step picks from them).
 */
export async function visitCandidateJobs(db: DbOrTrx, agencyId: number, contractorId: number) {
  return db
    .selectFrom('jobs')
    .select(['id', 'status_id', 'contractor_id', 'tenant_id', 'assigned_at', 'scheduled_for'])
    .where('agency_id', '=', agencyId)
    .where('status_id', 'in', [4, 5])
    .where('contractor_id', 'is not', null)
    .where('tenant_id', 'is not', null)
    .where('deleted_at', 'is', null)
    .orderBy(sql`contractor_id = ${contractorId}`, 'desc')
    .orderBy('id')
    .execute();
}
