/** SQL for agencies and the setup checklist's counts (docs/onboarding.md). No rules here. */
import { sql, type Updateable } from 'kysely';
import type { AgencyTable } from '../../../db/schema.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { containsPattern } from '../../../db/text-match.ts';

const COLUMNS = [
  'id', 'uuid', 'name', 'legal_name', 'registered_line1', 'registered_line2', 'registered_town', 'registered_postcode',
  'company_number', 'contact_email', 'contact_phone', 'uk_region', 'default_approval_limit_pence', 'postcode_lookup',
  'suspended_at', 'suspended_reason', 'created_at', 'updated_at',
] as const;

/** One agency by uuid, or undefined. */
export function findAgencyByUuid(db: DbOrTrx, uuid: string) {
  return db.selectFrom('agencies').select(COLUMNS).where('uuid', '=', uuid).executeTakeFirst();
}

/** One agency by id, or undefined. */
export function findAgencyById(db: DbOrTrx, id: number) {
  return db.selectFrom('agencies').select(COLUMNS).where('id', '=', id).executeTakeFirst();
}

export type AgencyRow = NonNullable<Awaited<ReturnType<typeof findAgencyById>>>;

/** One page of agencies by name, and the total. */
export async function listAgencies(db: DbOrTrx, f: { q?: string | undefined; status?: 'active' | 'suspended' | undefined; limit: number; offset: number }) {
  let q = db.selectFrom('agencies');
  if (f.q) {
    const pattern = containsPattern(f.q, { lowerCase: true });
    q = q.where((eb) => eb.or([eb(sql`lower(name)`, 'like', pattern), eb(sql`lower(coalesce(legal_name, ''))`, 'like', pattern)]));
  }
  if (f.status === 'active') q = q.where('suspended_at', 'is', null);
  if (f.status === 'suspended') q = q.where('suspended_at', 'is not', null);
  const [rows, total] = await Promise.all([
    q.select(COLUMNS).orderBy('name').orderBy('id').limit(f.limit).offset(f.offset).execute(),
    q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}

/** True when another agency has this trading name (case-insensitive). */
export async function agencyNameTaken(db: DbOrTrx, name: string, exceptId?: number): Promise<boolean> {
  let q = db.selectFrom('agencies').select('id').where(sql`lower(name)`, '=', name.toLowerCase());
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

/** The writable agency columns; `office_hours` (deprecated) is not one: the week lives in agency_office_hours. */
export type AgencyWrite = Omit<Updateable<AgencyTable>, 'id' | 'uuid' | 'created_at' | 'office_hours'>;

/**
 * Replaces an agency's office hours (table agency_office_hours, the one place they are kept and
 * what the SLA clocks count): one row per open weekday, 0 = Monday, London minutes after midnight.
 */
export async function replaceOfficeHours(db: DbOrTrx, agencyId: number, days: Array<{ weekday: number; opens_minute: number; closes_minute: number }>, now: Date): Promise<void> {
  await db.deleteFrom('agency_office_hours').where('agency_id', '=', agencyId).execute();
  if (days.length) await db.insertInto('agency_office_hours').values(days.map((d) => ({ ...d, agency_id: agencyId, updated_at: now }))).execute();
}

/** Inserts an agency; returns its id. */
export async function insertAgency(db: DbOrTrx, uuid: string, fields: AgencyWrite & { name: string }, now: Date): Promise<number> {
  const row = await db
    .insertInto('agencies')
    .values({ ...fields, uuid, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Updates fields of an agency. */
export async function updateAgency(db: DbOrTrx, id: number, fields: AgencyWrite, now: Date): Promise<void> {
  await db.updateTable('agencies').set({ ...fields, updated_at: now }).where('id', '=', id).execute();
}

/** True when a user (of any agency) has this e-mail address, compared as given. */
export async function userEmailExists(db: DbOrTrx, email: string): Promise<boolean> {
  return (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()) !== undefined;
}

/** Inserts a new agency's first branch (sharing off). */
export async function insertFirstBranch(db: DbOrTrx, branch: { uuid: string; agencyId: number; name: string }, now: Date): Promise<void> {
  await db.insertInto('branches').values({ uuid: branch.uuid, agency_id: branch.agencyId, name: branch.name, sharing_enabled: false, created_at: now, updated_at: now }).execute();
}

/** Takes a row lock on the agency for the rest of the transaction. */
export async function lockAgency(db: DbOrTrx, id: number): Promise<void> {
  await db.selectFrom('agencies').select('id').where('id', '=', id).forUpdate().execute();
}

/** Counts behind the setup checklist of one agency. */
export async function setupCounts(db: DbOrTrx, agencyId: number) {
  const row = await db
    .selectNoFrom([
      sql<number>`(select count(*)::int from branches where agency_id = ${agencyId} and closed_at is null)`.as('branches'),
      sql<number>`(select count(*)::int from users u join roles r on r.id = u.role_id where u.agency_id = ${agencyId} and u.status <> 'disabled' and r.code in ('admin', 'agent'))`.as('users'),
      sql<number>`(select count(*)::int from branch_sla_rules where agency_id = ${agencyId} and deleted_at is null)`.as('sla_rules'),
      sql<number>`(select count(distinct ct.trade_id)::int from contractor_trades ct join contractors c on c.id = ct.contractor_id where c.agency_id = ${agencyId})`.as('trades'),
      sql<number>`(select count(*)::int from contractors where agency_id = ${agencyId} and active)`.as('contractors'),
      sql<number>`(select count(*)::int from addresses where agency_id = ${agencyId})`.as('properties'),
      sql<number>`(select count(distinct template_key)::int from message_template_versions where agency_id = ${agencyId})`.as('templates'),
    ])
    .executeTakeFirstOrThrow();
  return row;
}
