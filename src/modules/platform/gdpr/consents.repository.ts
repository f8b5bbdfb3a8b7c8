/** SQL for GDPR consents (docs/gdpr.md). */
import { sql, type Insertable, type Updateable } from 'kysely';
import type { GdprConsentTable } from '../../../db/schema.ts';
import type { DbOrTrx } from '../../../db/types.ts';

export interface ConsentFilter {
  agencyId: number | null;
  tenantId?: number;
  userId?: number;
  purpose?: string;
  active?: boolean;
  limit: number;
  offset: number;
}

function base(db: DbOrTrx) {
  return db
    .selectFrom('gdpr_consents as g')
    .leftJoin('tenants as t', 't.id', 'g.tenant_id')
    .leftJoin('users as u', 'u.id', 'g.user_id')
    .leftJoin('users as r', 'r.id', 'g.recorded_by_user_id')
    .select([
      'g.id', 'g.uuid', 'g.agency_id', 'g.tenant_id', 'g.user_id', 't.uuid as tenant_uuid', 'u.uuid as user_uuid', 'g.purpose', 'g.source',
      'g.given_at', 'g.withdrawn_at', 'g.withdrawn_source', 'r.name as recorded_by', 'g.created_at',
    ]);
}
export type ConsentRow = NonNullable<Awaited<ReturnType<typeof findByUuid>>>;

/** One page of consents, newest given first, and the total. */
export async function listConsents(db: DbOrTrx, f: ConsentFilter) {
  let q = db.selectFrom('gdpr_consents as g');
  if (f.agencyId !== null) q = q.where('g.agency_id', '=', f.agencyId);
  if (f.tenantId !== undefined) q = q.where('g.tenant_id', '=', f.tenantId);
  if (f.userId !== undefined) q = q.where('g.user_id', '=', f.userId);
  if (f.purpose !== undefined) q = q.where('g.purpose', '=', f.purpose);
  if (f.active !== undefined) q = q.where('g.withdrawn_at', f.active ? 'is' : 'is not', null);
  const [ids, total] = await Promise.all([
    q.select('g.id').orderBy('g.given_at', 'desc').orderBy('g.id', 'desc').limit(f.limit).offset(f.offset).execute(),
    q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  if (ids.length === 0) return { rows: [], total: total.n };
  const rows = await base(db).where('g.id', 'in', ids.map((r) => r.id)).orderBy('g.given_at', 'desc').orderBy('g.id', 'desc').execute();
  return { rows, total: total.n };
}

/** Every consent of a tenant (and of its login users), newest first. */
export function consentsOfTenant(db: DbOrTrx, tenantId: number, userIds: number[]) {
  return base(db)
    .where((eb) => eb.or([eb('g.tenant_id', '=', tenantId), ...(userIds.length ? [eb('g.user_id', 'in', userIds)] : [])]))
    .orderBy('g.given_at', 'desc')
    .orderBy('g.id', 'desc')
    .execute();
}

/** Every consent of the given user accounts (a landlord's logins), newest first. */
export function consentsOfUsers(db: DbOrTrx, userIds: number[]) {
  if (userIds.length === 0) return Promise.resolve([]);
  return base(db).where('g.user_id', 'in', userIds).orderBy('g.given_at', 'desc').orderBy('g.id', 'desc').execute();
}

/** One consent by uuid (any agency). */
export function findByUuid(db: DbOrTrx, uuid: string) {
  return base(db).where('g.uuid', '=', uuid).executeTakeFirst();
}

/** The consent in force of a person for a purpose, if any. */
export function findActive(db: DbOrTrx, person: { tenantId: number | null; userId: number | null }, purpose: string) {
  let q = base(db).where('g.purpose', '=', purpose).where('g.withdrawn_at', 'is', null);
  q = person.tenantId !== null ? q.where('g.tenant_id', '=', person.tenantId) : q.where('g.user_id', '=', person.userId);
  return q.executeTakeFirst();
}

/** Inserts a consent; returns its id. */
export async function insertConsent(db: DbOrTrx, row: Insertable<GdprConsentTable>): Promise<number> {
  return (await db.insertInto('gdpr_consents').values(row).returning('id').executeTakeFirstOrThrow()).id;
}

/** Updates a consent. */
export async function updateConsent(db: DbOrTrx, id: number, patch: Updateable<GdprConsentTable>): Promise<void> {
  await db.updateTable('gdpr_consents').set(patch).where('id', '=', id).execute();
}

/** A user account by uuid: id and agency. */
export function userAgency(db: DbOrTrx, uuid: string) {
  return db.selectFrom('users').select(['id', 'agency_id']).where('uuid', '=', uuid).executeTakeFirst();
}

/**
 * Tenant records (not erased) and landlord records whose phone or mobile may be `digits` (the
 * last nine digits of a number): candidates, which the caller checks with normalisePhone.
 */
export async function holdersOfNumber(db: DbOrTrx, digits: string) {
  const like = `%${digits}`;
  const onlyDigits = (column: string) => sql<string>`regexp_replace(coalesce(${sql.ref(column)}, ''), '[^0-9]', '', 'g')`;
  const [tenants, landlords] = await Promise.all([
    db.selectFrom('tenants as t').innerJoin('agencies as a', 'a.id', 't.agency_id')
      .select(['t.id', 't.agency_id', 'a.name as agency_name', 't.phone', 't.mobile'])
      .where('t.erased_at', 'is', null)
      .where((eb) => eb.or([eb(onlyDigits('t.mobile'), 'like', like), eb(onlyDigits('t.phone'), 'like', like)]))
      .execute(),
    db.selectFrom('landlords as l').innerJoin('agencies as a', 'a.id', 'l.agency_id')
      .select(['l.id', 'l.agency_id', 'a.name as agency_name', 'l.phone'])
      .where('l.erased_at', 'is', null)
      .where(onlyDigits('l.phone'), 'like', like)
      .execute(),
  ]);
  return { tenants, landlords };
}

/** The `purpose` consents of tenant records, their login accounts and landlords' login accounts (any state), oldest first. */
export function consentsOfHolders(db: DbOrTrx, tenantIds: number[], landlordIds: number[], purpose: string) {
  return db.selectFrom('gdpr_consents as g')
    .select(['g.id', 'g.agency_id', 'g.tenant_id', 'g.user_id', 'g.source', 'g.withdrawn_at', 'g.withdrawn_source'])
    .where('g.purpose', '=', purpose)
    .where((eb) => eb.or([
      ...(tenantIds.length ? [eb('g.tenant_id', 'in', tenantIds), eb('g.user_id', 'in', eb.selectFrom('users').select('id').where('tenant_id', 'in', tenantIds))] : []),
      ...(landlordIds.length ? [eb('g.user_id', 'in', eb.selectFrom('users').select('id').where('landlord_id', 'in', landlordIds))] : []),
    ]))
    .orderBy('g.given_at').orderBy('g.id')
    .execute();
}
