/**
 * SQL of the compliance register (docs/compliance.md): item types, the items of each property,
 * their certificates, and the register with each item's status computed from its latest
 * certificate against a London date. No rules here.
 */
import { sql, type Expression, type RawBuilder } from 'kysely';
import { PreparedQuery, type Params } from '../../../db/prepared.ts';
import { sortOrderSql, type SortDirection, type SortKey } from '../../../db/sort-order.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { newUuid } from '../../../lib/crypto.ts';
import { UK_COMPLIANCE_TYPES } from './compliance-types.ts';
import type { EpcRating } from './regulations.ts';

/** The statuses of an item, in the order the totals list them. */
export const COMPLIANCE_STATUSES = ['valid', 'due_soon', 'expired', 'missing', 'non_compliant'] as const;
export type ComplianceStatus = (typeof COMPLIANCE_STATUSES)[number];

/** Inserts the UK types the agency lacks (by code); existing types are left as they are. */
export async function seedTypes(db: DbOrTrx, agencyId: number, now: Date): Promise<void> {
  await db
    .insertInto('compliance_item_types')
    .values(UK_COMPLIANCE_TYPES.map((t) => ({ ...t, uuid: newUuid(), agency_id: agencyId, created_at: now, updated_at: now })))
    .onConflict((oc) =>
      oc.columns(['agency_id', 'code'])
        .doUpdateSet((eb) => ({ regulation: eb.ref('excluded.regulation'), applies_to: eb.ref('excluded.applies_to') }))
        .where('compliance_item_types.custom', '=', false)
        .where('compliance_item_types.regulation', '=', ''))
    .execute();
}

/**
 * Whether `seedTypes` would find nothing to write for the agency: each UK type's code is there, and
 * none of those rows is a seeded row still without its regulation (what the seeding's update
 * fills). One index read; the seeding's insert takes a sequence value per UK type and locks the
 * rows it meets, so it runs only when this answers false.
 */
export async function typesSeeded(db: DbOrTrx, agencyId: number): Promise<boolean> {
  const [r] = await TYPES_SEEDED.run(db, 'one', { agencyId });
  return Number(r?.n) === UK_COMPLIANCE_TYPES.length;
}

/** typesSeeded's statement, run before every register read: named and prepared (src/db/prepared.ts). */
const TYPES_SEEDED = new PreparedQuery('compliance_types_seeded', (db, _shape: 'one', p: Params<{ agencyId: number }>) =>
  db
    .selectFrom('compliance_item_types')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('agency_id', '=', p('agencyId'))
    .where('code', 'in', UK_COMPLIANCE_TYPES.map((t) => t.code))
    .where((eb) => eb.or([eb('custom', '=', true), eb('regulation', '<>', '')])),
);

const TYPE_COLUMNS = ['id', 'uuid', 'code', 'name', 'interval_months', 'at_tenancy_start', 'hmo_only', 'required_document', 'due_soon_days', 'custom', 'retired_at', 'applies_to', 'regulation'] as const;

/** The agency's types, by name; retired ones only when asked. */
export function listTypes(db: DbOrTrx, agencyId: number, withRetired = false) {
  return db
    .selectFrom('compliance_item_types')
    .select(TYPE_COLUMNS)
    .where('agency_id', '=', agencyId)
    .$if(!withRetired, (q) => q.where('retired_at', 'is', null))
    .orderBy('name')
    .execute();
}
export type TypeRow = Awaited<ReturnType<typeof listTypes>>[number];

/** One type of the agency by code, or undefined. */
export function findType(db: DbOrTrx, agencyId: number, code: string) {
  return db
    .selectFrom('compliance_item_types')
    .select(TYPE_COLUMNS)
    .where('agency_id', '=', agencyId)
    .where('code', '=', code)
    .executeTakeFirst();
}

/** One type of the agency by uuid, or undefined. */
export function findTypeByUuid(db: DbOrTrx, agencyId: number, uuid: string) {
  return db.selectFrom('compliance_item_types').select(TYPE_COLUMNS).where('agency_id', '=', agencyId).where('uuid', '=', uuid).executeTakeFirst();
}

/** The columns of a custom type. */
export interface TypeFields {
  name: string;
  interval_months: number | null;
  at_tenancy_start: boolean;
  hmo_only: boolean;
  required_document: string;
  due_soon_days: number;
}

/** Inserts a custom type unless the code is taken; returns its id, or undefined when taken. */
export async function insertCustomType(db: DbOrTrx, row: TypeFields & { agency_id: number; code: string }, now: Date) {
  const r = await db
    .insertInto('compliance_item_types')
    .values({ ...row, uuid: newUuid(), custom: true, created_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(['agency_id', 'code']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return r?.id;
}

/** Changes a type's columns (retired_at: retire). */
export async function updateType(db: DbOrTrx, id: number, set: Partial<TypeFields> & { retired_at?: Date }, now: Date): Promise<void> {
  await db.updateTable('compliance_item_types').set({ ...set, updated_at: now }).where('id', '=', id).execute();
}

/** How many items and live schedules use a type. */
export async function typeUse(db: DbOrTrx, typeId: number) {
  const [items, schedules] = await Promise.all([
    db.selectFrom('compliance_items').select((eb) => eb.fn.countAll<number>().as('n')).where('type_id', '=', typeId).executeTakeFirstOrThrow(),
    db.selectFrom('maintenance_schedules').select((eb) => eb.fn.countAll<number>().as('n')).where('type_id', '=', typeId).where('retired_at', 'is', null).executeTakeFirstOrThrow(),
  ]);
  return { items: Number(items.n), schedules: Number(schedules.n) };
}

/** A property (address) of the agency by uuid, or undefined. */
export function findAddress(db: DbOrTrx, agencyId: number | null, uuid: string) {
  return db
    .selectFrom('addresses')
    .select(['id', 'agency_id', 'branch_id'])
    .where('uuid', '=', uuid)
    .$if(agencyId !== null, (q) => q.where('agency_id', '=', agencyId!))
    .executeTakeFirst();
}

/** Inserts an item unless the property already has one of the type; returns its id and whether it is new. */
export async function insertItem(db: DbOrTrx, row: { agency_id: number; address_id: number; type_id: number }, now: Date) {
  const inserted = await db
    .insertInto('compliance_items')
    .values({ ...row, uuid: newUuid(), created_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(['address_id', 'type_id']).doNothing())
    .returning(['id', 'uuid'])
    .executeTakeFirst();
  if (inserted) return { ...inserted, created: true };
  const existing = await db
    .selectFrom('compliance_items')
    .select(['id', 'uuid'])
    .where('address_id', '=', row.address_id)
    .where('type_id', '=', row.type_id)
    .executeTakeFirstOrThrow();
  return { ...existing, created: false };
}

/** An item by uuid within an agency (any agency for null), with its type, or undefined. */
export function findItem(db: DbOrTrx, agencyId: number | null, uuid: string) {
  return db
    .selectFrom('compliance_items as i')
    .innerJoin('compliance_item_types as t', 't.id', 'i.type_id')
    .select(['i.id', 'i.uuid', 'i.agency_id', 'i.address_id', 't.interval_months', 't.code as type_code', 't.at_tenancy_start'])
    .where('i.uuid', '=', uuid)
    .$if(agencyId !== null, (q) => q.where('i.agency_id', '=', agencyId!))
    .executeTakeFirst();
}

/** A live job file of the agency by uuid (id and job), or undefined. */
export function findJobFile(db: DbOrTrx, agencyId: number, uuid: string) {
  return db
    .selectFrom('job_files')
    .select(['id', 'job_id'])
    .where('uuid', '=', uuid)
    .where('agency_id', '=', agencyId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** Inserts a certificate; returns its id. */
export async function insertCertificate(
  db: DbOrTrx,
  row: {
    agency_id: number; item_id: number; issued_on: string; expires_on: string | null; reference: string;
    contractor_id: number | null; job_id: number | null; job_file_id: number | null; created_by_user_id: number | null;
  } & CertificateRuleFields,
  now: Date,
): Promise<{ id: number; uuid: string }> {
  return db
    .insertInto('compliance_certificates')
    .values({ ...row, uuid: newUuid(), created_at: now })
    .returning(['id', 'uuid'])
    .executeTakeFirstOrThrow();
}

/** What the regulations ask a certificate to show (docs/compliance.md "The rules"); each optional. */
export interface CertificateRuleFields {
  epc_rating?: EpcRating | null;
  exemption_reference?: string | null;
  exemption_until?: string | null;
  outcome?: 'satisfactory' | 'unsatisfactory' | null;
  remedial_due_on?: string | null;
  remedial_completed_on?: string | null;
  tenant_copy_due_on?: string | null;
  tenant_copy_served_on?: string | null;
  tenant_copy_method?: string | null;
  smoke_alarm_storeys?: number | null;
  co_alarm_rooms?: string[] | null;
  tenancy_start_on?: string | null;
}

const RULE_COLUMNS = [
  'c.epc_rating', 'c.exemption_reference', 'c.exemption_until', 'c.outcome', 'c.remedial_due_on', 'c.remedial_completed_on', 'c.tenant_copy_due_on',
  'c.tenant_copy_served_on', 'c.tenant_copy_method', 'c.smoke_alarm_storeys', 'c.co_alarm_rooms', 'c.tenancy_start_on',
] as const;

/** The latest certificate of an item (by issue date), or undefined: what a renewal is measured from. */
export function latestCertificate(db: DbOrTrx, itemId: number) {
  return db
    .selectFrom('compliance_certificates as c')
    .select(['c.id', 'c.uuid', 'c.issued_on', 'c.expires_on'])
    .where('c.item_id', '=', itemId)
    .orderBy('c.issued_on', 'desc')
    .orderBy('c.id', 'desc')
    .executeTakeFirst();
}

/** A certificate of an item by uuid, with its rule fields, or undefined. */
export function findCertificate(db: DbOrTrx, itemId: number, uuid: string) {
  return db.selectFrom('compliance_certificates as c').select(['c.id', 'c.uuid', 'c.issued_on', ...RULE_COLUMNS]).where('c.item_id', '=', itemId).where('c.uuid', '=', uuid).executeTakeFirst();
}

/** Changes what was recorded after the fact on a certificate (document, tenant copy, remedial works, exemption). */
export async function updateCertificate(db: DbOrTrx, id: number, set: CertificateRuleFields & { job_id?: number; job_file_id?: number }): Promise<void> {
  if (Object.keys(set).length === 0) return;
  await db.updateTable('compliance_certificates').set(set).where('id', '=', id).execute();
}

/** What a property is, for the items it needs and its alarms. */
export function propertyProfile(db: DbOrTrx, addressId: number) {
  return db
    .selectFrom('addresses as a')
    .leftJoin('buildings as b', 'b.id', 'a.building_id')
    .select(['a.uuid', 'a.gas_supply', 'a.storeys', 'a.combustion_rooms', 'a.is_hmo', 'a.is_communal', 'b.uuid as building_uuid', 'b.has_lift'])
    .where('a.id', '=', addressId)
    .executeTakeFirstOrThrow();
}

/** Records what a property is (gas supply, storeys, rooms with a fixed combustion appliance). */
export async function setProfile(db: DbOrTrx, addressId: number, set: { gas_supply?: boolean | null; storeys?: number | null; combustion_rooms?: string[] }, now: Date): Promise<void> {
  await db.updateTable('addresses').set({ ...set, updated_at: now }).where('id', '=', addressId).execute();
}

/** A building of the agency by uuid, or undefined. */
export function findBuilding(db: DbOrTrx, agencyId: number, uuid: string) {
  return db.selectFrom('buildings').select(['id', 'uuid', 'has_lift']).where('agency_id', '=', agencyId).where('uuid', '=', uuid).executeTakeFirst();
}

/** Records whether a building has a lift. */
export async function setBuildingLift(db: DbOrTrx, buildingId: number, hasLift: boolean, now: Date): Promise<void> {
  await db.updateTable('buildings').set({ has_lift: hasLift, updated_at: now }).where('id', '=', buildingId).execute();
}

/**
 * The rule of application of each `applies_to` on an address `a` left-joined to its building
 * `bl` and a type `t` (docs/compliance.md "What a property needs").
 */
const APPLIES_SQL = sql`(
  (not a.is_communal and t.applies_to = 'dwelling')
  or (not a.is_communal and t.applies_to = 'gas' and a.gas_supply is distinct from false)
  or (not a.is_communal and t.applies_to = 'hmo' and a.is_hmo)
  or (a.is_communal and t.applies_to = 'communal')
  or (a.is_communal and t.applies_to = 'lift' and coalesce(bl.has_lift, false)))`;

/**
 * Gives every property of the agency (every agency for null) an item of each live type its
 * profile requires and it lacks, marked derived; the properties already holding one are left as
 * they are. One statement; no sequence value is taken when nothing is new.
 * @returns the number of items created
 */
export async function deriveItems(db: DbOrTrx, agencyId: number | null, now: Date, addressId?: number): Promise<number> {
  const values: DeriveValues = { now };
  if (agencyId !== null) values.agencyId = agencyId;
  if (addressId !== undefined) values.addressId = addressId;
  const r = await db.executeQuery(DERIVE.statement(db, { agency: agencyId !== null, address: addressId !== undefined }, values));
  return Number(r.numAffectedRows ?? 0);
}

/** The derivation's parameters (deriveItems). */
interface DeriveValues {
  agencyId?: number;
  addressId?: number;
  now: Date;
}

/**
 * deriveItems' statement for one shape (an agency or every one, a property or every one), run as a
 * named prepared statement (src/db/prepared.ts): the register's read runs it on every request.
 */
const DERIVE = new PreparedQuery('compliance_derive', (db, shape: { agency: boolean; address: boolean }, p: Params<DeriveValues>) => {
  return sql`
    insert into compliance_items (uuid, agency_id, address_id, type_id, derived, created_at, updated_at)
    select gen_random_uuid(), a.agency_id, a.id, t.id, true, ${p('now')}, ${p('now')}
    from addresses a
    join compliance_item_types t on t.agency_id = a.agency_id and t.retired_at is null
    left join buildings bl on bl.id = a.building_id
    where ${shape.agency ? sql`a.agency_id = ${p('agencyId')}` : sql`true`}
      and ${shape.address ? sql`a.id = ${p('addressId')}` : sql`true`}
      and ${APPLIES_SQL}
      and not exists (select 1 from compliance_items i where i.address_id = a.id and i.type_id = t.id)
    on conflict (address_id, type_id) do nothing`;
});

/**
 * Removes the derived items of a property (or of a building's units) that its profile no longer
 * requires and that hold no certificate (a gas item once the property is recorded without gas);
 * items with certificates stay, their history kept.
 */
export async function dropUnneededItems(db: DbOrTrx, where: { addressId?: number; buildingId?: number }): Promise<void> {
  await sql`
    delete from compliance_items where id in (
      select i.id from compliance_items i
      join addresses a on a.id = i.address_id
      join compliance_item_types t on t.id = i.type_id
      left join buildings bl on bl.id = a.building_id
      where i.derived
        and ${where.addressId !== undefined ? sql`a.id = ${where.addressId}` : sql`a.building_id = ${where.buildingId ?? -1}`}
        and not ${APPLIES_SQL}
        and not exists (select 1 from compliance_certificates c where c.item_id = i.id)
        and not exists (select 1 from maintenance_occurrences o where o.item_id = i.id)
        and not exists (select 1 from compliance_reminders r where r.item_id = i.id))`.execute(db);
}

/** The ids of the agency's properties by uuid (the ones found), of a building's units, or every one. */
export function addressIds(db: DbOrTrx, agencyId: number, sel: { uuids?: string[]; buildingId?: number }) {
  return db
    .selectFrom('addresses')
    .select(['id', 'uuid'])
    .where('agency_id', '=', agencyId)
    .$if(sel.uuids !== undefined, (q) => q.where('uuid', 'in', sel.uuids!))
    .$if(sel.buildingId !== undefined, (q) => q.where('building_id', '=', sel.buildingId!))
    .orderBy('id')
    .execute();
}

/**
 * Gives each listed property an item of the type unless it has one (one statement).
 * @returns the number of items created
 */
export async function insertItems(db: DbOrTrx, agencyId: number, addressIdsList: number[], typeId: number, now: Date): Promise<number> {
  if (addressIdsList.length === 0) return 0;
  const r = await sql`
    insert into compliance_items (uuid, agency_id, address_id, type_id, created_at, updated_at)
    select gen_random_uuid(), ${agencyId}, a.id, ${typeId}, ${now}, ${now}
    from addresses a
    where a.agency_id = ${agencyId} and a.id in (${sql.join(addressIdsList)})
      and not exists (select 1 from compliance_items i where i.address_id = a.id and i.type_id = ${typeId})
    on conflict (address_id, type_id) do nothing`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}

/** The certificates of an item, newest issue first, with contractor and file. */
export function certificatesOf(db: DbOrTrx, itemId: number) {
  return db
    .selectFrom('compliance_certificates as c')
    .leftJoin('contractors as k', 'k.id', 'c.contractor_id')
    .leftJoin('job_files as f', 'f.id', 'c.job_file_id')
    .leftJoin('jobs as j', 'j.id', 'c.job_id')
    .select([
      'c.uuid', 'c.issued_on', 'c.expires_on', 'c.reference', 'c.created_at', 'k.uuid as contractor_uuid', 'k.company_name as contractor_name',
      'f.uuid as file_uuid', 'f.original_filename as file_name', 'j.uuid as job_uuid', ...RULE_COLUMNS,
    ])
    .where('c.item_id', '=', itemId)
    .orderBy('c.issued_on', 'desc')
    .orderBy('c.id', 'desc')
    .execute();
}

/** Filters of the register (ids resolved by the service). */
export interface RegisterFilter {
  agencyId: number | null;
  /** London date the statuses refer to (YYYY-MM-DD). */
  today: string;
  status?: ComplianceStatus;
  branchId?: number;
  typeCode?: string;
  addressId?: number;
  itemUuid?: string;
  /** the sort field (GET /api/compliance `sort`; default status) and direction (default asc) */
  sort?: RegisterSort | undefined;
  order?: SortDirection | undefined;
  limit: number;
  offset: number;
}

/** The filters of RegisterFilter that, when set, add a condition to the register's statement. */
const REGISTER_FILTERS = ['branchId', 'typeCode', 'addressId', 'itemUuid'] as const;

/** What decides the register statement's text: an agency or every one, the filters set, a status, the sort. */
interface RegisterShape {
  agency: boolean;
  filters: Array<(typeof REGISTER_FILTERS)[number]>;
  status: boolean;
  sort: RegisterSort;
  order: SortDirection;
}

/** The register statement's parameters. */
interface RegisterValues {
  agencyId?: number;
  today: string;
  status?: ComplianceStatus | undefined;
  branchId?: number | undefined;
  typeCode?: string | undefined;
  addressId?: number | undefined;
  itemUuid?: string | undefined;
  limit: number;
  offset: number;
}

/** The sort fields of the register (GET /api/compliance `sort`). */
export type RegisterSort = 'status' | 'address' | 'type_name' | 'expires_on' | 'contractor_name';

/**
 * The columns each sort field of the register orders by, on the register's row `r`. `status` is by
 * urgency (expired, missing, due soon, valid), then expiry (none first), postcode and item: the
 * register's order of old, the default. Empty expiries and contractors last when sorted by them.
 */
const REGISTER_SORT_KEYS: Record<RegisterSort, SortKey[]> = {
  status: [
    sql`case r.status when 'expired' then 0 when 'non_compliant' then 1 when 'missing' then 2 when 'due_soon' then 3 else 4 end`,
    { key: 'r.expires_on', nulls: 'first' },
    'r.postcode',
    'r.type_name',
  ],
  address: ['r.line1', 'r.town', 'r.postcode'],
  type_name: ['r.type_name'],
  expires_on: [{ key: 'r.expires_on', nulls: 'last' }],
  contractor_name: [{ key: 'r.contractor_name', nulls: 'last' }],
};

/**
 * The register's rows before the status filter, with what the status, the filters and every sort
 * key read (REGISTER_SORT_KEYS): each item's id, its latest certificate's id (by issue date, then
 * id), the sort columns and the status on the London date `today`. The page's other columns are
 * read afterwards for the page's rows only (`register`).
 */
function registerBase(shape: RegisterShape, p: Params<RegisterValues>): RawBuilder<unknown> {
  const where: RawBuilder<unknown>[] = [sql`true`];
  if (shape.agency) where.push(sql`i.agency_id = ${p('agencyId')}`);
  if (shape.filters.includes('branchId')) where.push(sql`a.branch_id = ${p('branchId')}`);
  if (shape.filters.includes('typeCode')) where.push(sql`t.code = ${p('typeCode')}`);
  if (shape.filters.includes('addressId')) where.push(sql`i.address_id = ${p('addressId')}`);
  if (shape.filters.includes('itemUuid')) where.push(sql`i.uuid = ${p('itemUuid')}`);
  const today: Expression<string> = p('today');
  return sql`
    select i.id, l.id as certificate_id, a.line1, a.town, a.postcode, t.name as type_name, l.expires_on, k.company_name as contractor_name,
      case when l.id is null then 'missing'
        when l.expires_on is not null and l.expires_on < ${today}::date then 'expired'
        when t.code = 'epc' and l.epc_rating in ('F', 'G') and (l.exemption_until is null or l.exemption_until < ${today}::date) then 'non_compliant'
        when l.outcome = 'unsatisfactory' and l.remedial_completed_on is null and l.remedial_due_on < ${today}::date then 'non_compliant'
        when t.code = 'smoke_co_alarms' and l.smoke_alarm_storeys is not null
          and (l.smoke_alarm_storeys < coalesce(a.storeys, 1) or not (a.combustion_rooms <@ coalesce(l.co_alarm_rooms, '{}'::text[]))) then 'non_compliant'
        when l.outcome = 'unsatisfactory' and l.remedial_completed_on is null then 'due_soon'
        when l.expires_on is null then 'valid'
        when l.expires_on <= ${today}::date + t.due_soon_days then 'due_soon'
        else 'valid' end as status
    from compliance_items i
    join addresses a on a.id = i.address_id
    join compliance_item_types t on t.id = i.type_id
    left join lateral (
      select c.id, c.expires_on, c.contractor_id, c.epc_rating, c.exemption_until, c.outcome, c.remedial_due_on, c.remedial_completed_on,
        c.smoke_alarm_storeys, c.co_alarm_rooms
      from compliance_certificates c
      where c.item_id = i.id order by c.issued_on desc, c.id desc limit 1
    ) l on true
    left join contractors k on k.id = l.contractor_id
    where ${sql.join(where, sql` and `)}`;
}

/** One register row. */
export interface RegisterRow {
  id: number;
  uuid: string;
  address_uuid: string;
  line1: string;
  town: string;
  postcode: string;
  branch_uuid: string | null;
  branch_name: string | null;
  type_code: string;
  type_name: string;
  interval_months: number | null;
  at_tenancy_start: boolean;
  required_document: string;
  certificate_uuid: string | null;
  issued_on: string | null;
  expires_on: string | null;
  contractor_uuid: string | null;
  contractor_name: string | null;
  file_uuid: string | null;
  regulation: string;
  storeys: number | null;
  combustion_rooms: string[];
  derived: boolean;
  epc_rating: EpcRating | null;
  exemption_reference: string | null;
  exemption_until: string | null;
  outcome: 'satisfactory' | 'unsatisfactory' | null;
  remedial_due_on: string | null;
  remedial_completed_on: string | null;
  tenant_copy_due_on: string | null;
  tenant_copy_served_on: string | null;
  smoke_alarm_storeys: number | null;
  co_alarm_rooms: string[] | null;
  status: ComplianceStatus;
}

/**
 * The register's statement for one shape (which filters are set, the sort and its direction): the
 * rows are derived once (`registerBase`), the totals counted and the page chosen from them, and the
 * page's columns read for its rows only; the totals (an array in COMPLIANCE_STATUSES order) come on
 * every row, and on one row of nulls when the page is empty.
 */
const REGISTER = new PreparedQuery('compliance_register', (db, shape: RegisterShape, p: Params<RegisterValues>) => {
  const statusWhere = shape.status ? sql`r.status = ${p('status')}` : sql`true`;
  const order = sortOrderSql(REGISTER_SORT_KEYS[shape.sort], shape.order, 'r.id');
  const counts = sql.join(COMPLIANCE_STATUSES.map((s) => sql`(count(*) filter (where status = ${sql.lit(s)}))::int`));
  return sql<RegisterRow & { register_totals: number[] }>`
    with base as materialized (${registerBase(shape, p)}),
    totals as (select array[${counts}] as register_totals from base),
    page as (select r.id, r.certificate_id, r.status from base r where ${statusWhere} order by ${order} limit ${p('limit')} offset ${p('offset')})
    select r.*, totals.* from totals left join (
      select i.id, i.uuid, a.uuid as address_uuid, a.line1, a.town, a.postcode, b.uuid as branch_uuid, b.name as branch_name,
        t.code as type_code, t.name as type_name, t.interval_months, t.at_tenancy_start, t.required_document, t.regulation,
        l.uuid as certificate_uuid, l.issued_on, l.expires_on, k.uuid as contractor_uuid, k.company_name as contractor_name,
        f.uuid as file_uuid, a.storeys, a.combustion_rooms, i.derived,
        l.epc_rating, l.exemption_reference, to_char(l.exemption_until, 'YYYY-MM-DD') as exemption_until, l.outcome,
        to_char(l.remedial_due_on, 'YYYY-MM-DD') as remedial_due_on, to_char(l.remedial_completed_on, 'YYYY-MM-DD') as remedial_completed_on,
        to_char(l.tenant_copy_due_on, 'YYYY-MM-DD') as tenant_copy_due_on, to_char(l.tenant_copy_served_on, 'YYYY-MM-DD') as tenant_copy_served_on,
        l.smoke_alarm_storeys, l.co_alarm_rooms, p.status
      from page p
      join compliance_items i on i.id = p.id
      join addresses a on a.id = i.address_id
      join compliance_item_types t on t.id = i.type_id
      left join branches b on b.id = a.branch_id
      left join compliance_certificates l on l.id = p.certificate_id
      left join contractors k on k.id = l.contractor_id
      left join job_files f on f.id = l.job_file_id
    ) r on true
    order by ${order}`;
});

/**
 * One page of the register in `f.sort` order (REGISTER_SORT_KEYS; default status urgency: expired,
 * missing, due soon, valid; then expiry and address; the id breaks ties in the same direction),
 * the number of rows matching every filter, and the totals per status matching every filter but
 * the status. One statement (REGISTER), run as a named prepared statement (src/db/prepared.ts:
 * parsed and planned once per connection and shape, docs/architecture.md "Prepared statements").
 * @returns rows (the page), count (rows matching every filter), totals (per status)
 */
export async function register(db: DbOrTrx, f: RegisterFilter) {
  const filters = REGISTER_FILTERS.filter((k) => f[k] !== undefined);
  const shape: RegisterShape = { agency: f.agencyId !== null, filters, status: f.status !== undefined, sort: f.sort ?? 'status', order: f.order ?? 'asc' };
  const values: RegisterValues = { today: f.today, limit: f.limit, offset: f.offset, branchId: f.branchId, typeCode: f.typeCode, addressId: f.addressId, itemUuid: f.itemUuid, status: f.status };
  if (f.agencyId !== null) values.agencyId = f.agencyId;
  const found = await REGISTER.run(db, shape, values);
  const byStatus = Object.fromEntries(COMPLIANCE_STATUSES.map((s) => [s, 0])) as Record<ComplianceStatus, number>;
  // Every row carries the same totals (one row of nulls besides them when the page is empty).
  const totals = found[0]?.register_totals ?? [];
  COMPLIANCE_STATUSES.forEach((s, n) => { byStatus[s] = Number(totals[n] ?? 0); });
  const rows: RegisterRow[] = [];
  for (const { register_totals: _totals, ...row } of found) if (row.id !== null) rows.push(row);
  const count = f.status ? byStatus[f.status] : Object.values(byStatus).reduce((a, b) => a + b, 0);
  return { rows, count, totals: byStatus };
}

/**
 * Items whose latest certificate expires from `today` to `horizon` (London dates, inclusive), over
 * every agency, with the days left: the candidates for a reminder before expiry.
 */
export async function expiringItems(db: DbOrTrx, today: string, horizon: string) {
  const r = await sql<{ id: number; uuid: string; agency_id: number; address_id: number; expires_on: string; days_left: number }>`
    select i.id, i.uuid, i.agency_id, i.address_id, to_char(l.expires_on, 'YYYY-MM-DD') as expires_on, (l.expires_on - ${today}::date)::int as days_left
    from compliance_items i
    join lateral (
      select c.expires_on from compliance_certificates c where c.item_id = i.id order by c.issued_on desc, c.id desc limit 1
    ) l on true
    where l.expires_on between ${today}::date and ${horizon}::date
    order by i.id`.execute(db);
  return r.rows;
}

/**
 * Records the reminders of an item for an expiry date and thresholds; only the rows not there
 * before are returned, so a threshold is reminded once whatever the number of scans.
 * @returns the thresholds newly recorded
 */
export async function recordReminders(db: DbOrTrx, row: { agency_id: number; item_id: number; expires_on: string }, thresholds: readonly number[], now: Date): Promise<number[]> {
  if (thresholds.length === 0) return [];
  const r = await db
    .insertInto('compliance_reminders')
    .values(thresholds.map((t) => ({ ...row, threshold_days: t, created_at: now })))
    .onConflict((oc) => oc.columns(['item_id', 'expires_on', 'threshold_days']).doNothing())
    .returning('threshold_days')
    .execute();
  return r.map((x) => x.threshold_days);
}

/** Sets the HMO flag of a property. */
export async function setHmo(db: DbOrTrx, addressId: number, hmo: boolean, now: Date): Promise<void> {
  await db.updateTable('addresses').set({ is_hmo: hmo, updated_at: now }).where('id', '=', addressId).execute();
}

/** The agency's HMO-only types (fire risk assessment, licence, and any custom one so marked). */
export function hmoTypes(db: DbOrTrx, agencyId: number) {
  return db.selectFrom('compliance_item_types').select(['id', 'code']).where('agency_id', '=', agencyId).where('hmo_only', '=', true).where('retired_at', 'is', null).orderBy('code').execute();
}
