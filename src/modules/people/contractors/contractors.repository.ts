/** SQL for contractors, their trades, coverage, contacts and certificates (docs/contractors.md). */
import { sql, type Insertable, type Updateable } from 'kysely';
import type { ContractorCertificationTable, ContractorTable } from '../../../db/schema.ts';
import { sortOrderSql, type SortDirection, type SortKey } from '../../../db/sort-order.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { likeEscape } from '../../../db/text-match.ts';

export interface ContractorFilter {
  agencyId: number | null;
  q?: string;
  tradeCode?: string;
  district?: string;
  active?: boolean;
  /** the sort field (GET /api/contractors `sort`) and direction */
  sort: 'company_name' | 'contact_name' | 'active';
  order: SortDirection;
  limit: number;
  offset: number;
}

const COLUMNS = [
  'c.id', 'c.uuid', 'c.agency_id', 'c.company_name', 'c.contact_name', 'c.email', 'c.phone', 'c.notes', 'c.active',
  'c.address_line1', 'c.address_line2', 'c.address_town', 'c.address_postcode', 'c.created_at', 'c.updated_at',
] as const;

/** The column each sort field of the contractors list orders by; no contact name last either way. */
const CONTRACTOR_SORT_KEYS: Record<ContractorFilter['sort'], SortKey> = {
  company_name: 'c.company_name',
  contact_name: { key: 'c.contact_name', nulls: 'last' },
  active: 'c.active',
};

/**
 * One page of contractors in `f.sort` order (`f.order`; no contact name last either way; the id
 * breaks ties in the same direction), and the total. The default, company name ascending, is the
 * list's order of old.
 */
export async function listContractors(db: DbOrTrx, f: ContractorFilter) {
  let q = db.selectFrom('contractors as c');
  if (f.agencyId !== null) q = q.where('c.agency_id', '=', f.agencyId);
  if (f.active !== undefined) q = q.where('c.active', '=', f.active);
  if (f.q) {
    const p = `%${likeEscape(f.q)}%`;
    q = q.where((eb) => eb.or([eb('c.company_name', 'ilike', p), eb('c.contact_name', 'ilike', p)]));
  }
  if (f.tradeCode) {
    const code = f.tradeCode;
    q = q.where((eb) => eb.exists(
      eb.selectFrom('contractor_trades as ct').innerJoin('trades as tr', 'tr.id', 'ct.trade_id').select('ct.trade_id')
        .whereRef('ct.contractor_id', '=', 'c.id').where('tr.code', '=', code),
    ));
  }
  if (f.district) {
    const d = f.district;
    q = q.where((eb) => eb.exists(
      eb.selectFrom('contractor_coverage as cc').select('cc.district').whereRef('cc.contractor_id', '=', 'c.id').where('cc.district', '=', d),
    ));
  }
  const [rows, total] = await Promise.all([
    q
      .select(COLUMNS)
      .orderBy(sortOrderSql(CONTRACTOR_SORT_KEYS[f.sort], f.order, 'c.id'))
      .limit(f.limit)
      .offset(f.offset)
      .execute(),
    q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}

export type ContractorRow = Awaited<ReturnType<typeof listContractors>>['rows'][number];

/** One contractor by uuid (any agency). */
/**
 * THE lookup of a contractor by uuid for other modules (jobs, users): id and agency, within one
 * agency (agencyId null: any agency).
 */
export function findContractorRef(db: DbOrTrx, uuid: string, agencyId: number | null = null) {
  let q = db.selectFrom('contractors').select(['id', 'agency_id']).where('uuid', '=', uuid);
  if (agencyId !== null) q = q.where('agency_id', '=', agencyId);
  return q.executeTakeFirst();
}

export function findByUuid(db: DbOrTrx, uuid: string) {
  return db.selectFrom('contractors as c').select(COLUMNS).where('c.uuid', '=', uuid).executeTakeFirst();
}

/** One contractor by id. */
export function findById(db: DbOrTrx, id: number) {
  return db.selectFrom('contractors as c').select(COLUMNS).where('c.id', '=', id).executeTakeFirst();
}

/** Every active contractor of an agency. */
export function activeOfAgency(db: DbOrTrx, agencyId: number) {
  return db.selectFrom('contractors as c').select(COLUMNS).where('c.agency_id', '=', agencyId).where('c.active', '=', true).orderBy('c.company_name').execute();
}

/** Trades of the given contractors. */
export function tradesOf(db: DbOrTrx, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('contractor_trades as ct').innerJoin('trades as t', 't.id', 'ct.trade_id')
    .select(['ct.contractor_id', 't.id', 't.code', 't.name']).where('ct.contractor_id', 'in', ids).orderBy('t.name').execute();
}

/** Coverage districts of the given contractors. */
export function coverageOf(db: DbOrTrx, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('contractor_coverage').select(['contractor_id', 'district']).where('contractor_id', 'in', ids).orderBy('district').execute();
}

/** Contacts of the given contractors, primary first. */
export function contactsOf(db: DbOrTrx, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('contractor_contacts').select(['contractor_id', 'uuid', 'name', 'role', 'email', 'phone', 'is_primary'])
    .where('contractor_id', 'in', ids).orderBy('is_primary', 'desc').orderBy('id').execute();
}

/** Contractor ids (of the given) with a linked login account. */
export async function withLogin(db: DbOrTrx, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('users').select('contractor_id').where('contractor_id', 'in', ids).execute();
  return new Set(rows.map((r) => r.contractor_id!));
}

/** Inserts a contractor; returns its id. */
export async function insertContractor(db: DbOrTrx, row: Insertable<ContractorTable>): Promise<number> {
  return (await db.insertInto('contractors').values(row).returning('id').executeTakeFirstOrThrow()).id;
}

/** Updates a contractor. */
export async function updateContractor(db: DbOrTrx, id: number, patch: Updateable<ContractorTable>): Promise<void> {
  await db.updateTable('contractors').set(patch).where('id', '=', id).execute();
}

/** Replaces the trades of a contractor. */
export async function replaceTrades(db: DbOrTrx, id: number, tradeIds: number[]): Promise<void> {
  await db.deleteFrom('contractor_trades').where('contractor_id', '=', id).execute();
  if (tradeIds.length > 0) await db.insertInto('contractor_trades').values(tradeIds.map((t) => ({ contractor_id: id, trade_id: t }))).execute();
}

/** Replaces the coverage districts of a contractor. */
export async function replaceCoverage(db: DbOrTrx, id: number, districts: string[]): Promise<void> {
  await db.deleteFrom('contractor_coverage').where('contractor_id', '=', id).execute();
  if (districts.length > 0) await db.insertInto('contractor_coverage').values(districts.map((d) => ({ contractor_id: id, district: d }))).execute();
}

/** Replaces the contacts of a contractor. */
export async function replaceContacts(
  db: DbOrTrx, id: number, contacts: Array<{ uuid: string; name: string; role: string | null; email: string | null; phone: string | null; is_primary: boolean }>, at: Date,
): Promise<void> {
  await db.deleteFrom('contractor_contacts').where('contractor_id', '=', id).execute();
  if (contacts.length > 0) await db.insertInto('contractor_contacts').values(contacts.map((c) => ({ ...c, contractor_id: id, created_at: at }))).execute();
}

const CERT_COLUMNS = [
  'cc.id', 'cc.uuid', 'cc.agency_id', 'cc.contractor_id', 'c.uuid as contractor_uuid', 'c.company_name', 'cc.cert_type', 'cc.reference',
  sql<string | null>`to_char(cc.issued_on, 'YYYY-MM-DD')`.as('issued_on'),
  sql<string>`to_char(cc.expires_on, 'YYYY-MM-DD')`.as('expires_on'),
  'cc.file_key', 'cc.file_mime', 'cc.file_sha256', 'cc.created_at',
] as const;

function certBase(db: DbOrTrx) {
  return db.selectFrom('contractor_certifications as cc').innerJoin('contractors as c', 'c.id', 'cc.contractor_id').where('cc.deleted_at', 'is', null);
}

/** Live certificates of the given contractors, by expiry. */
export function certificationsOf(db: DbOrTrx, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return certBase(db).select(CERT_COLUMNS).where('cc.contractor_id', 'in', ids).orderBy('cc.expires_on').orderBy('cc.id').execute();
}
export type CertRow = Awaited<ReturnType<typeof certificationsOf>>[number];

/** One live certificate of a contractor by uuid. */
export function findCertification(db: DbOrTrx, contractorId: number, uuid: string) {
  return certBase(db).select(CERT_COLUMNS).where('cc.contractor_id', '=', contractorId).where('cc.uuid', '=', uuid).executeTakeFirst();
}

/** Live certificates of an agency (every agency when null) expiring between two ISO days, inclusive. */
export async function expiring(db: DbOrTrx, agencyId: number | null, from: string, to: string, page: { limit: number; offset: number }) {
  let q = certBase(db).where('c.active', '=', true).where('cc.expires_on', '>=', from).where('cc.expires_on', '<=', to);
  if (agencyId !== null) q = q.where('cc.agency_id', '=', agencyId);
  const [rows, total] = await Promise.all([
    q.select(CERT_COLUMNS).orderBy('cc.expires_on').orderBy('c.company_name').orderBy('cc.id').limit(page.limit).offset(page.offset).execute(),
    q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}

/** Inserts a certificate; returns its id. */
export async function insertCertification(db: DbOrTrx, row: Insertable<ContractorCertificationTable>): Promise<number> {
  return (await db.insertInto('contractor_certifications').values(row).returning('id').executeTakeFirstOrThrow()).id;
}

/** Updates a certificate. */
export async function updateCertification(db: DbOrTrx, id: number, patch: Updateable<ContractorCertificationTable>): Promise<void> {
  await db.updateTable('contractor_certifications').set(patch).where('id', '=', id).execute();
}

/** Live certifications of active contractors expiring between `from` and `to` (ISO dates, inclusive), oldest id first. */
export function certificationsExpiring(db: DbOrTrx, from: string, to: string) {
  return db
    .selectFrom('contractor_certifications as cc')
    .innerJoin('contractors as c', 'c.id', 'cc.contractor_id')
    .select(['cc.id', 'cc.agency_id', 'cc.contractor_id', sql<string>`to_char(cc.expires_on, 'YYYY-MM-DD')`.as('expires_on')])
    .where('cc.deleted_at', 'is', null)
    .where('c.active', '=', true)
    .where('cc.expires_on', '>=', from)
    .where('cc.expires_on', '<=', to)
    .orderBy('cc.id')
    .execute();
}

/**
 * Records that the expiry of a certification on `expiresOn` was warned about, unless it was before.
 * @returns true when this call recorded it
 */
export async function recordExpiryWarning(db: DbOrTrx, certificationId: number, expiresOn: string, at: Date): Promise<boolean> {
  const fresh = await db
    .insertInto('certificate_expiry_warnings')
    .values({ certification_id: certificationId, expires_on: expiresOn, warned_at: at })
    .onConflict((oc) => oc.columns(['certification_id', 'expires_on']).doNothing())
    .returning('certification_id')
    .executeTakeFirst();
  return fresh !== undefined;
}

/** A job by uuid (not deleted) with what contractor matching needs: trade, date, postcode. */
export function jobForMatching(db: DbOrTrx, uuid: string) {
  return db
    .selectFrom('jobs as j')
    .leftJoin('addresses as a', 'a.id', 'j.address_id')
    .select(['j.id', 'j.uuid', 'j.agency_id', 'j.trade_id', 'j.scheduled_for', 'a.postcode'])
    .where('j.uuid', '=', uuid)
    .where('j.deleted_at', 'is', null)
    .executeTakeFirst();
}

/**
 * Workload: per contractor, the open jobs (not Closed or Cancelled, not deleted) assigned to it,
 * leaving out `exceptJobId` (the job being matched). Contractors with none are absent.
 */
export function openJobsOf(db: DbOrTrx, ids: number[], exceptJobId: number) {
  if (ids.length === 0) return Promise.resolve([] as Array<{ contractor_id: number; n: number }>);
  return db
    .selectFrom('jobs as j')
    .innerJoin('job_statuses as s', 's.id', 'j.status_id')
    .select(['j.contractor_id as contractor_id', sql<number>`count(*)::int`.as('n')])
    .where('j.contractor_id', 'in', ids)
    .where('s.is_open', '=', true)
    .where('j.deleted_at', 'is', null)
    .where('j.id', '<>', exceptJobId)
    .groupBy('j.contractor_id')
    .execute() as Promise<Array<{ contractor_id: number; n: number }>>;
}

/** A contractor of the agency: id and whether it is active. */
export function contractorActive(db: DbOrTrx, agencyId: number, contractorId: number) {
  return db.selectFrom('contractors').select(['id', 'active']).where('id', '=', contractorId).where('agency_id', '=', agencyId).executeTakeFirst();
}
