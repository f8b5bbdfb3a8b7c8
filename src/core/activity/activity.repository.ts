/**
 * Activity log storage (spec 2.3, 4.6). Every authentication event, every write and every refused
 * authorisation calls `recordActivity`; a write passes its own transaction so the entry commits
 * or rolls back with it (docs/architecture.md "Data rules").
 */
import { sql, type Expression } from 'kysely';
import { columnParams, PreparedQuery, type Params } from '../../db/prepared.ts';
import type { ActivityLogTable } from '../../db/schema.ts';
import type { DbOrTrx } from '../../db/types.ts';
import type { Actor } from '../auth-context.ts';

export type { DbOrTrx } from '../../db/types.ts';

export interface ActivityInput {
  /** `<resource>.<verb>`, for example `job.create` or `auth.login_failed`. */
  action: string;
  resourceType: string;
  resourceId?: number | null;
  /** Agency the entry belongs to; defaults to the actor's. */
  agencyId?: number | null;
  /** Overrides the actor for events without an authenticated caller (failed login). */
  userId?: number | null;
  userName?: string;
  /** Small JSON object of extra facts; never secrets. */
  details?: Record<string, unknown>;
}

/**
 * Appends one entry.
 * @param db the connection or, for a write, the write's transaction
 * @param actor the caller and its IP address
 * @param at UTC time of the event
 */
export async function recordActivity(db: DbOrTrx, actor: Actor, at: Date, input: ActivityInput): Promise<void> {
  await db.executeQuery(activityInsert(db, actor, at, input));
}

/** An entry as written: the table's columns but its id, details as JSON text. */
type EntryRow = Omit<ActivityLogTable, 'id' | 'details' | 'created_at'> & { details: string | null; created_at: Date };
const ENTRY_COLUMNS = ['agency_id', 'user_id', 'user_name', 'action', 'resource_type', 'resource_id', 'ip_address', 'details', 'created_at'] as const;

/** Every write appends an entry: a named prepared statement (src/db/prepared.ts). */
const ENTRY_INSERT = new PreparedQuery('activity_insert', (db, _shape: 'one', p: Params<EntryRow>) => db.insertInto('activity_log').values(columnParams(p, ENTRY_COLUMNS)));

/**
 * The insert of one entry, not yet run: recordActivity runs it, a write that sends its
 * statements together (src/db/pipeline.ts) passes it with them.
 */
export function activityInsert(db: DbOrTrx, actor: Actor, at: Date, input: ActivityInput) {
  return ENTRY_INSERT.statement(db, 'one', {
    agency_id: input.agencyId !== undefined ? input.agencyId : (actor.auth?.agencyId ?? null),
    user_id: input.userId !== undefined ? input.userId : (actor.auth?.userId ?? null),
    user_name: input.userName ?? actor.auth?.name ?? 'anonymous',
    action: input.action,
    resource_type: input.resourceType,
    resource_id: input.resourceId ?? null,
    ip_address: actor.ip,
    details: input.details ? JSON.stringify(input.details) : null,
    created_at: at,
  });
}

export interface ActivityFilter {
  /** Restrict to one agency; undefined for SysOps (all). */
  agencyId?: number;
  userId?: number;
  action?: string;
  /** LIKE pattern of the action's start, already escaped and ending in % ("job.%"). */
  actionPattern?: string;
  /** Inclusive lower bound (UTC). */
  from?: Date;
  /** Exclusive upper bound (UTC). */
  to?: Date;
  /** Keyset cursor: only entries older (in list order) than the entry with this id. */
  before?: number;
  /** Keyset cursor: only entries newer (in list order) than the entry with this id. */
  after?: number;
  limit: number;
  offset: number;
}

/**
 * The largest count computed exactly: counting a million index entries on every page read costs
 * more than the page itself, so above this the count stops at COUNT_CAP.
 */
export const COUNT_CAP = 10_000;

/** What decides the text of the list's statement: the filters set, the direction, the row's JSON. */
interface ListShape {
  set: Array<keyof ActivityFilter>;
  ascending: boolean;
  objectSql: string;
}

/** The activity log's page and capped count, one named prepared statement per shape (src/db/prepared.ts). */
export const ACTIVITY_PAGE = new PreparedQuery<ListShape, ActivityFilter, { json: string | null; n: number }>('activity_page', (db, shape, p) => {
  const has = (k: keyof ActivityFilter) => shape.set.includes(k);
  let q = db.selectFrom('activity_log');
  if (has('agencyId')) q = q.where('agency_id', '=', p('agencyId'));
  if (has('userId')) q = q.where('user_id', '=', p('userId'));
  if (has('action')) q = q.where('action', '=', p('action'));
  if (has('actionPattern')) q = q.where('action', 'like', p('actionPattern'));
  if (has('from')) q = q.where('created_at', '>=', p('from'));
  if (has('to')) q = q.where('created_at', '<', p('to'));
  let page = q;
  const cursor = (id: Expression<number>) => sql`(select c.created_at, c.id from activity_log c where c.id = ${id})`;
  if (has('before')) page = page.where(sql<boolean>`(created_at, id) < ${cursor(p('before'))}`);
  if (has('after')) page = page.where(sql<boolean>`(created_at, id) > ${cursor(p('after'))}`);
  const direction = shape.ascending ? 'asc' : 'desc';
  const rows = page.selectAll().orderBy('created_at', direction).orderBy('id', direction).limit(p('limit')).offset(p('offset'));
  const count = db.selectFrom(q.select(sql`1`.as('one')).limit(COUNT_CAP + 1).as('m')).select(sql<number>`count(*)::int`.as('n'));
  return db.selectNoFrom([
    sql<string | null>`(select string_agg(${sql.raw(shape.objectSql)}, ',' order by p.created_at desc, p.id desc) from (${rows}) p)`.as('json'),
    sql<number>`(${count})`.as('n'),
  ]);
});

/**
 * One page of entries, newest first, and the number of entries matching the filters (cursors
 * aside, exact up to COUNT_CAP) in one statement, the page written as JSON by the database
 * (src/db/json-sql.ts): `json` is the entries' objects joined by commas ('' for none). The cursors
 * compare (created_at, id), the list order, so a deep page costs what the first one does. Runs as
 * the named prepared statement ACTIVITY_PAGE of its set of filters.
 * @param objectSql the SQL writing one row of the subquery `p` (activity_log's columns) as its wire object
 * @returns json, total (<= COUNT_CAP) and capped (true when more entries match)
 */
export async function listActivityJson(db: DbOrTrx, f: ActivityFilter, objectSql: string) {
  const set = (Object.keys(f) as Array<keyof ActivityFilter>).filter((k) => f[k] !== undefined);
  const ascending = f.after !== undefined && f.before === undefined;
  const [row] = await ACTIVITY_PAGE.run(db, { set, ascending, objectSql }, f);
  const n = row?.n ?? 0;
  return { json: row?.json ?? '', total: Math.min(n, COUNT_CAP), capped: n > COUNT_CAP };
}

/**
 * Tables whose records an entry's resource_type names, for the entry's link (uuid) and label (an
 * expression over the record `r`; an invoice's number as invoiceNumber writes it; `uuid` 'null' for
 * tables without one), so the log
 * names what was changed in people's words ("Gas safety record, LS2 9XS", never "#3").
 */
const RESOURCE_TABLES: Record<string, { table: string; label: string; uuid?: string }> = {
  job: { table: 'jobs', label: 'r.reference' },
  invoice: { table: 'invoices', label: "(case r.kind when 'credit_note' then 'CN-' else 'INV-' end) || lpad(r.number::text, 6, '0')" },
  user: { table: 'users', label: 'r.name' },
  tenant: { table: 'tenants', label: 'r.name' },
  contractor: { table: 'contractors', label: 'r.company_name' },
  address: { table: 'addresses', label: 'r.postcode' },
  agency: { table: 'agencies', label: 'r.name' },
  landlord: { table: 'landlords', label: 'r.name' },
  branch: { table: 'branches', label: 'r.name' },
  role: { table: 'roles', label: 'r.name', uuid: 'null' },
  trade: { table: 'trades', label: 'r.name', uuid: 'null' },
  building: { table: 'buildings', label: "concat_ws(', ', coalesce(r.building_name, concat_ws(' ', r.building_number, r.street)), r.postcode)" },
  compliance_type: { table: 'compliance_item_types', label: 'r.name' },
  compliance_item_type: { table: 'compliance_item_types', label: 'r.name' },
  // "Gas safety record, LS2 9XS": the item's type and its property's postcode.
  compliance_item: {
    table: 'compliance_items',
    label: "(select t.name || ', ' || a.postcode from compliance_item_types t, addresses a where t.id = r.type_id and a.id = r.address_id)",
  },
  maintenance_schedule: { table: 'maintenance_schedules', label: 'r.title' },
  price_item: { table: 'price_items', label: 'r.name' },
  notice: { table: 'notices', label: 'r.title' },
  webhook_endpoint: { table: 'webhook_endpoints', label: 'r.url' },
  job_file: { table: 'job_files', label: 'r.original_filename' },
  // Records of a job are named by the job's reference.
  quote: { table: 'quotes', label: '(select j.reference from jobs j where j.id = r.job_id)' },
  approval: { table: 'approval_requests', label: '(select j.reference from jobs j where j.id = r.job_id)' },
  job_note: { table: 'job_notes', label: '(select j.reference from jobs j where j.id = r.job_id)' },
};

const resourceCase = (column: (t: { table: string; label: string; uuid?: string }) => string) =>
  `(case p.resource_type ${Object.entries(RESOURCE_TABLES)
    .map(([type, t]) => `when '${type}' then (select (${column(t)})::text from ${t.table} r where r.id = p.resource_id)`)
    .join(' ')} end)`;

const statusName = (key: string) =>
  `(case when p.resource_type = 'job' and p.details is not null then (select s.name from job_statuses s where s.id = (p.details->>'${key}')::int) end)`;

/**
 * SQL expressions (over the entry's row `p`) for the wire keys that read other records, so the
 * log can link and name them: the record's uuid and label (a job's reference, an invoice's
 * number, a person's or firm's name, an address's postcode) and, for a job's move, the status
 * names it went from and to (the entry's details).
 */
export const ENTRY_RESOURCE_COLUMNS: Record<string, string> = {
  resource_uuid: resourceCase((t) => t.uuid ?? 'r.uuid'),
  resource_label: resourceCase((t) => t.label),
  from_status: statusName('from_status_id'),
  to_status: statusName('to_status_id'),
};
