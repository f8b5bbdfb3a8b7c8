/**
 * SQL of the agency export (docs/onboarding.md, "Export"): the rows of each CSV and the job files,
 * over one agency, a page at a time. Each CSV is an `ExportQuery`: `keys()` reads the ids its rows
 * are ordered by, in one array (one query, a number per row), and `page(ids)` reads the rows of a
 * slice of them (`id = any(...)`: primary-key lookups, the same plan and cost for every page, whatever
 * the table's size or its statistics). Only a page of rows is ever held. No rules here.
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import type { DbOrTrx } from '../../../db/types.ts';

/** One CSV's queries: the ordering ids of its rows (ascending), and the rows of some of those ids, in that order. */
export interface ExportQuery<R> {
  keys(): Promise<number[]>;
  page(ids: readonly number[]): Promise<R[]>;
}

/** `column = any(ids)`, an int array parameter (one statement text for every page size). */
function among(column: string, ids: readonly number[]): Expression<SqlBool> {
  return sql<SqlBool>`${sql.ref(column)} = any(${[...ids]}::int[])`;
}

/** The selection of the ascending distinct values of `column` as one int array, `ids` (null over no row). */
function idsOf(column: string) {
  return sql<number[] | null>`array_agg(distinct ${sql.ref(column)} order by ${sql.ref(column)})`.as('ids');
}

/** The ids of a keys query's one row (empty when it found none). */
function idList(row: { ids: number[] | null } | undefined): number[] {
  return row?.ids ?? [];
}

/** The agency's branches, for branches.csv. */
export function exportBranches(db: DbOrTrx, agencyId: number) {
  const from = db.selectFrom('branches').where('agency_id', '=', agencyId);
  return {
    keys: async () => idList(await from.select(idsOf('id')).executeTakeFirst()),
    page: (ids: readonly number[]) => from.select(['uuid', 'name', 'sharing_enabled', 'closed_at', 'created_at']).where(among('id', ids)).orderBy('id').execute(),
  };
}

/** The agency's users with role and branch names, for users.csv. */
export function exportUsers(db: DbOrTrx, agencyId: number) {
  const from = db.selectFrom('users as u').innerJoin('roles as r', 'r.id', 'u.role_id').leftJoin('branches as b', 'b.id', 'u.branch_id').where('u.agency_id', '=', agencyId);
  return {
    keys: async () => idList(await from.select(idsOf('u.id')).executeTakeFirst()),
    page: (ids: readonly number[]) =>
      from.select(['u.uuid', 'u.name', 'u.email', 'r.code as role', 'b.name as branch', 'u.status', 'u.last_login_at', 'u.created_at']).where(among('u.id', ids)).orderBy('u.id').execute(),
  };
}

/**
 * The agency's properties with branch names, for properties.csv: the address import's columns
 * (lines and PAF parts; the parts of an address the backfill has not reached yet are empty and the
 * service fills them, export.service.ts), the communal flag, the building's uuid, the uuid.
 */
export function exportProperties(db: DbOrTrx, agencyId: number) {
  const from = db.selectFrom('addresses as a').leftJoin('branches as b', 'b.id', 'a.branch_id').leftJoin('buildings as bd', 'bd.id', 'a.building_id').where('a.agency_id', '=', agencyId);
  return {
    keys: async () => idList(await from.select(idsOf('a.id')).executeTakeFirst()),
    page: (ids: readonly number[]) =>
      from.select(['a.uuid', 'a.external_ref', 'a.line1', 'a.line2', 'a.line3', 'a.sub_building', 'a.building_name', 'a.building_number', 'a.street', 'a.locality',
        'a.town', 'a.county', 'a.postcode', 'b.name as branch', 'a.is_communal', 'bd.uuid as building_uuid', 'a.created_at'])
        .where(among('a.id', ids)).orderBy('a.id').execute(),
  };
}

/** The agency's tenants, for tenants.csv. */
export function exportTenants(db: DbOrTrx, agencyId: number) {
  const from = db.selectFrom('tenants').where('agency_id', '=', agencyId);
  return {
    keys: async () => idList(await from.select(idsOf('id')).executeTakeFirst()),
    page: (ids: readonly number[]) =>
      from.select(['uuid', 'external_ref', 'name', 'email', 'phone', 'mobile', 'preferred_contact', 'erased_at', 'created_at']).where(among('id', ids)).orderBy('id').execute(),
  };
}

/**
 * The agency's tenant-property links, for tenant_properties.csv: in the tenant import's columns
 * (the tenant's external_ref, name and e-mail; the property's reference, or its postcode and
 * lines), so the file imports back as tenants with their properties. Keyed by tenant: a page is
 * every link of its tenants.
 */
export function exportTenantProperties(db: DbOrTrx, agencyId: number) {
  const from = db.selectFrom('tenant_addresses as ta').innerJoin('tenants as t', 't.id', 'ta.tenant_id').innerJoin('addresses as a', 'a.id', 'ta.address_id')
    .where('t.agency_id', '=', agencyId).where('t.erased_at', 'is', null);
  return {
    keys: async () => idList(await from.select(idsOf('t.id')).executeTakeFirst()),
    page: (ids: readonly number[]) =>
      from.select(['t.external_ref', 't.name', 't.email', 'a.external_ref as property_ref', 'a.postcode as property_postcode', 'a.line1 as property_line1', 'a.line2 as property_line2', 'ta.created_at'])
        .where(among('t.id', ids)).orderBy('t.id').orderBy('a.id').execute(),
  };
}

/** The agency's contractors with their trade codes and coverage districts, for contractors.csv. */
export function exportContractors(db: DbOrTrx, agencyId: number) {
  const from = db.selectFrom('contractors as c').where('c.agency_id', '=', agencyId);
  return {
    keys: async () => idList(await from.select(idsOf('c.id')).executeTakeFirst()),
    page: (ids: readonly number[]) =>
      from.select(['c.uuid', 'c.external_ref', 'c.company_name', 'c.contact_name', 'c.email', 'c.phone', 'c.active',
        sql<string[]>`array(select t.code from contractor_trades ct join trades t on t.id = ct.trade_id where ct.contractor_id = c.id order by 1)`.as('trades'),
        sql<string[]>`array(select district from contractor_coverage where contractor_id = c.id order by 1)`.as('coverage'), 'c.created_at'])
        .where(among('c.id', ids)).orderBy('c.id').execute(),
  };
}

/**
 * The agency's landlords with their own reference (external_ref, the landlord import's key), for
 * landlords.csv. Never the bank details (they are read only by holders of the bank-details key).
 */
export function exportLandlords(db: DbOrTrx, agencyId: number) {
  const from = db.selectFrom('landlords').where('agency_id', '=', agencyId);
  return {
    keys: async () => idList(await from.select(idsOf('id')).executeTakeFirst()),
    page: (ids: readonly number[]) =>
      from.select(['uuid', 'external_ref', 'kind', 'name', 'email', 'phone', 'address_line1', 'address_line2', 'address_town', 'address_postcode', 'vat_registered', 'vat_number',
        'approval_limit_pence', 'erased_at', 'created_at'])
        .where(among('id', ids)).orderBy('id').execute(),
  };
}

/** The agency's landlord-property links with the ownership share (basis points), for landlord_properties.csv; keyed by landlord. */
export function exportLandlordProperties(db: DbOrTrx, agencyId: number) {
  const from = db.selectFrom('landlord_properties as lp').innerJoin('landlords as l', 'l.id', 'lp.landlord_id').innerJoin('addresses as a', 'a.id', 'lp.address_id').where('l.agency_id', '=', agencyId);
  return {
    keys: async () => idList(await from.select(idsOf('l.id')).executeTakeFirst()),
    page: (ids: readonly number[]) =>
      from.select(['l.uuid as landlord_uuid', 'l.external_ref as landlord_external_ref', 'a.uuid as property_uuid', 'a.external_ref as property_external_ref', 'lp.share_bp', 'lp.created_at'])
        .where(among('l.id', ids)).orderBy('l.id').orderBy('a.id').execute(),
  };
}

/**
 * The agency's live contractor certificates, for certificates.csv: the contractor by its reference
 * and company name (the contractor import's keys), and `certificate` in the import's
 * `type:reference:expiry` form.
 */
export function exportCertificates(db: DbOrTrx, agencyId: number) {
  const from = db.selectFrom('contractor_certifications as cc').innerJoin('contractors as c', 'c.id', 'cc.contractor_id').where('cc.agency_id', '=', agencyId).where('cc.deleted_at', 'is', null);
  return {
    keys: async () => idList(await from.select(idsOf('cc.id')).executeTakeFirst()),
    page: (ids: readonly number[]) =>
      from.select(['cc.uuid', 'c.external_ref as contractor_external_ref', 'c.company_name as contractor_company_name', 'cc.cert_type', 'cc.reference', sql<string>`cc.issued_on::text`.as('issued_on'), sql<string>`cc.expires_on::text`.as('expires_on'),
        sql<string>`cc.cert_type || ':' || cc.reference || ':' || cc.expires_on::text`.as('certificate')])
        .where(among('cc.id', ids)).orderBy('cc.id').execute(),
  };
}

/** The agency's live jobs with status, branch and linked uuids, for jobs.csv. */
export function exportJobs(db: DbOrTrx, agencyId: number) {
  const from = db.selectFrom('jobs as j').innerJoin('branches as b', 'b.id', 'j.branch_id').innerJoin('job_statuses as s', 's.id', 'j.status_id')
    .leftJoin('addresses as a', 'a.id', 'j.address_id').leftJoin('tenants as t', 't.id', 'j.tenant_id').leftJoin('contractors as c', 'c.id', 'j.contractor_id').leftJoin('trades as tr', 'tr.id', 'j.trade_id')
    .where('b.agency_id', '=', agencyId).where('j.deleted_at', 'is', null);
  return {
    keys: async () => idList(await from.select(idsOf('j.id')).executeTakeFirst()),
    page: (ids: readonly number[]) =>
      from.select(['j.uuid', 'j.reference', 'j.title', 'j.description', 'j.priority', 's.name as status', 'b.name as branch', 'a.uuid as property_uuid', 't.uuid as tenant_uuid',
        'c.uuid as contractor_uuid', 'tr.code as trade', 'j.estimated_cost_pence', 'j.agreed_cost_pence', 'j.scheduled_for', 'j.completed_at', 'j.closed_at', 'j.created_at'])
        .where(among('j.id', ids)).orderBy('j.id').execute(),
  };
}

/** The notes on the agency's jobs, for job_notes.csv. */
export function exportJobNotes(db: DbOrTrx, agencyId: number) {
  const from = db.selectFrom('job_notes as n').innerJoin('jobs as j', 'j.id', 'n.job_id').innerJoin('branches as b', 'b.id', 'j.branch_id').where('b.agency_id', '=', agencyId);
  return {
    keys: async () => idList(await from.select(idsOf('n.id')).executeTakeFirst()),
    page: (ids: readonly number[]) => from.select(['n.uuid', 'j.reference as job_reference', 'n.visibility', 'n.body', 'n.created_at']).where(among('n.id', ids)).orderBy('n.id').execute(),
  };
}

/** The agency's invoices with job reference and contractor uuid, for invoices.csv. */
export function exportInvoices(db: DbOrTrx, agencyId: number) {
  const from = db.selectFrom('invoices as i').innerJoin('jobs as j', 'j.id', 'i.job_id').innerJoin('contractors as c', 'c.id', 'i.contractor_id').where('i.agency_id', '=', agencyId);
  return {
    keys: async () => idList(await from.select(idsOf('i.id')).executeTakeFirst()),
    page: (ids: readonly number[]) =>
      from.select(['i.uuid', 'i.kind', 'i.number', 'i.status', 'j.reference as job_reference', 'c.uuid as contractor_uuid', sql<string>`i.issue_date::text`.as('issue_date'),
        sql<string>`i.due_date::text`.as('due_date'), 'i.net_pence', 'i.vat_pence', 'i.gross_pence', 'i.paid_pence'])
        .where(among('i.id', ids)).orderBy('i.id').execute(),
  };
}

/** The agency's live job files (storage key, name, uuid, job reference), for files/<job reference>/. */
export function exportJobFiles(db: DbOrTrx, agencyId: number) {
  return db.selectFrom('job_files as f').innerJoin('jobs as j', 'j.id', 'f.job_id')
    .select(['f.storage_key', 'f.original_filename', 'f.uuid', 'j.reference']).where('f.agency_id', '=', agencyId).where('f.deleted_at', 'is', null).orderBy('f.id').execute();
}
