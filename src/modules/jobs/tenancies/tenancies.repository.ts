/** SQL of tenancies and the documents served on them (docs/compliance.md "Tenancies and served documents"); the rules are in served-rules.ts. */
import { sql, type Insertable } from 'kysely';
import type { TenancyServedDocumentTable } from '../../../db/schema.ts';
import type { DbOrTrx } from '../../../db/types.ts';

/** The property by uuid in the agency (null: every agency), with what the rules read: postcode, stated nation, gas supply. */
export function findProperty(db: DbOrTrx, agencyId: number | null, uuid: string) {
  return db.selectFrom('addresses as a').leftJoin('hazard_property_scopes as s', 's.address_id', 'a.id')
    .select(['a.id', 'a.uuid', 'a.agency_id', 'a.postcode', 'a.gas_supply', 's.nation'])
    .where('a.uuid', '=', uuid)
    .$if(agencyId !== null, (q) => q.where('a.agency_id', '=', agencyId!))
    .executeTakeFirst();
}

const TENANCY_COLUMNS = ['t.id', 't.uuid', 't.agency_id', 't.address_id', 't.kind', 't.created_at'] as const;

/** The property's tenancies, latest start first, with the total. */
export async function tenanciesOf(db: DbOrTrx, addressId: number, page: { limit: number; offset: number }) {
  const [rows, total] = await Promise.all([
    db.selectFrom('tenancies as t').select(TENANCY_COLUMNS).select([sql<string>`t.starts_on::text`.as('starts_on'), sql<string | null>`t.ends_on::text`.as('ends_on')])
      .where('t.address_id', '=', addressId).orderBy('t.starts_on', 'desc').orderBy('t.id', 'desc').limit(page.limit).offset(page.offset).execute(),
    db.selectFrom('tenancies').select((eb) => eb.fn.countAll<number>().as('n')).where('address_id', '=', addressId).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

/** One tenancy of the property by uuid. */
export function findTenancy(db: DbOrTrx, addressId: number, uuid: string) {
  return db.selectFrom('tenancies as t').select(TENANCY_COLUMNS).select([sql<string>`t.starts_on::text`.as('starts_on'), sql<string | null>`t.ends_on::text`.as('ends_on')])
    .where('t.address_id', '=', addressId).where('t.uuid', '=', uuid).executeTakeFirst();
}
export type TenancyRow = NonNullable<Awaited<ReturnType<typeof findTenancy>>>;

/** Inserts a tenancy with its tenants; returns its id. */
export async function insertTenancy(db: DbOrTrx, row: { uuid: string; agency_id: number; address_id: number; kind: 'assured_shorthold' | 'other'; starts_on: string; ends_on: string | null; created_by_user_id: number | null; now: Date }, tenantIds: number[]): Promise<number> {
  const { now, ...rest } = row;
  const { id } = await db.insertInto('tenancies').values({ ...rest, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
  await db.insertInto('tenancy_tenants').values(tenantIds.map((tenant_id) => ({ tenancy_id: id, tenant_id }))).execute();
  return id;
}

/** The agency's tenants by uuid (unknown ones and other agencies' left out). */
export function tenantsByUuid(db: DbOrTrx, agencyId: number, uuids: string[]) {
  return db.selectFrom('tenants').select(['id', 'uuid']).where('agency_id', '=', agencyId).where('uuid', 'in', uuids).where('erased_at', 'is', null).execute();
}

/** The tenants of the tenancies, by name. */
export function tenantsOf(db: DbOrTrx, tenancyIds: number[]) {
  if (tenancyIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('tenancy_tenants as tt').innerJoin('tenants as n', 'n.id', 'tt.tenant_id').select(['tt.tenancy_id', 'n.uuid', 'n.name'])
    .where('tt.tenancy_id', 'in', tenancyIds).orderBy('n.name').orderBy('n.id').execute();
}

/** The property's certificates of the gas record, EICR and EPC types, oldest first. */
export function certificatesOf(db: DbOrTrx, addressId: number) {
  return db.selectFrom('compliance_certificates as c').innerJoin('compliance_items as i', 'i.id', 'c.item_id').innerJoin('compliance_item_types as ty', 'ty.id', 'i.type_id')
    .select(['c.id', 'c.uuid', 'ty.code', sql<string>`c.issued_on::text`.as('issued_on')])
    .where('i.address_id', '=', addressId).where('ty.code', 'in', ['gas_safety', 'eicr', 'epc'])
    .orderBy('c.issued_on').orderBy('c.id').execute();
}

const SERVED_COLUMNS = [
  's.id', 's.uuid', 's.tenancy_id', 's.document', 's.certificate_id', 's.method', 's.proof_note', 's.proof_file_key', 's.proof_file_mime', 's.proof_file_size',
  's.proof_file_sha256', 's.created_at', 'c.uuid as certificate_uuid',
] as const;

/** The documents served on the tenancies, in order of service. */
export function servedOf(db: DbOrTrx, tenancyIds: number[]) {
  if (tenancyIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('tenancy_served_documents as s').leftJoin('compliance_certificates as c', 'c.id', 's.certificate_id').select(SERVED_COLUMNS)
    .select([sql<string>`s.served_on::text`.as('served_on'), sql<string | null>`s.guide_edition::text`.as('guide_edition'), sql<string | null>`c.issued_on::text`.as('certificate_issued_on')])
    .where('s.tenancy_id', 'in', tenancyIds).orderBy('s.served_on').orderBy('s.id').execute();
}
export type ServedRow = Awaited<ReturnType<typeof servedOf>>[number];

/** One served document of the tenancy by uuid. */
export async function findServed(db: DbOrTrx, tenancyId: number, uuid: string): Promise<ServedRow | undefined> {
  return (await servedOf(db, [tenancyId])).find((s) => s.uuid === uuid);
}

/** Inserts a served document; returns its id. */
export async function insertServed(db: DbOrTrx, row: Insertable<TenancyServedDocumentTable>): Promise<number> {
  return (await db.insertInto('tenancy_served_documents').values(row).returning('id').executeTakeFirstOrThrow()).id;
}

/** Sets the proof file of a served document. */
export async function setProofFile(db: DbOrTrx, id: number, f: { key: string; mime: string; size: number; sha256: string }): Promise<void> {
  await db.updateTable('tenancy_served_documents').set({ proof_file_key: f.key, proof_file_mime: f.mime, proof_file_size: f.size, proof_file_sha256: f.sha256 }).where('id', '=', id).execute();
}
