/**
 * The jobs list's SQL (spec 4.16; docs/jobs.md): one page and the capped count in one statement,
 * run as a named prepared statement per shape (src/db/prepared.ts). Query parts and the scope rule
 * come from jobs.repository.ts; the wire shape from job-json.ts.
 * The generated SQL of each statement is checked in under src/db/sql/ (npm run sql:snapshots).
 */
import { sql, type Expression } from 'kysely';
import { PreparedQuery, type Params } from '../../../db/prepared.ts';
import { sortOrderSql, type SortKey } from '../../../db/sort-order.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { jobJsonSql } from './job-json.ts';
import { JOB_DETAIL_COLUMNS, jobDetailQuery, matchesFilter, visibleTo, type JobFilter, type JobRow, type JobScope } from './jobs.repository.ts';

/** The list's count is exact up to this many jobs; above it the count is this number and `capped` is true. */
export const JOBS_COUNT_CAP = 10_000;

/** The filters that take a value (sort and order shape the text instead). */
type FilterKey = Exclude<keyof JobFilter, 'sort' | 'order' | 'limit' | 'offset'>;
const FILTER_KEYS: readonly FilterKey[] = [
  'statusId', 'jobTypeId', 'priority', 'branchUuid', 'contractorUuid', 'tenantUuid', 'addressUuid', 'agentUuid', 'refAgencyId', 'from', 'to', 'pattern', 'slaState',
];

/** What decides the text of a list statement. */
export interface ListShape {
  scope: JobScope['kind'];
  /** the filters set, in FILTER_KEYS order */
  filters: FilterKey[];
  sort: JobFilter['sort'];
  order: JobFilter['order'];
}

/** The values of one run: the scope's ids (prefixed `scope`) and the filter's values. */
export interface ListValues {
  scopeAgencyId?: number;
  scopeBranchId?: number;
  scopeContractorId?: number;
  scopeTenantId?: number;
  scopeLandlordId?: number;
  scopeUserId?: number;
  statusId?: number;
  jobTypeId?: number;
  priority?: number;
  branchUuid?: string;
  contractorUuid?: string;
  tenantUuid?: string;
  addressUuid?: string;
  agentUuid?: string;
  refAgencyId?: number;
  from?: Date;
  to?: Date;
  pattern?: string;
  slaState?: string;
  limit: number;
  offset: number;
}

/** The scope of `kind` with parameters for its ids. */
function scopeParams(kind: JobScope['kind'], p: Params<ListValues>): JobScope<Expression<number>> {
  switch (kind) {
    case 'agency':
      return { kind, agencyId: p('scopeAgencyId') };
    case 'branch':
      return { kind, agencyId: p('scopeAgencyId'), branchId: p('scopeBranchId') };
    case 'contractor':
      return { kind, contractorId: p('scopeContractorId') };
    case 'tenant':
      return { kind, tenantId: p('scopeTenantId'), userId: p('scopeUserId') };
    case 'landlord':
      return { kind, landlordId: p('scopeLandlordId') };
    default:
      return { kind };
  }
}

/** The filter of `shape` with parameters for its values. */
function filterParams(shape: ListShape, p: Params<ListValues>): JobFilter {
  const f: JobFilter = { sort: shape.sort, order: shape.order, limit: p('limit'), offset: p('offset') };
  for (const k of shape.filters) Object.assign(f, { [k]: p(k) });
  return f;
}

/** The capped count of visible jobs matching the filter (count of at most JOBS_COUNT_CAP + 1 rows). */
function cappedCount(db: DbOrTrx, shape: ListShape, p: Params<ListValues>) {
  const matching = db
    .selectFrom('jobs as j')
    .where('j.deleted_at', 'is', null)
    .where((eb) => visibleTo(eb, scopeParams(shape.scope, p)))
    .where((eb) => matchesFilter(eb, filterParams(shape, p)))
    .select(sql`1`.as('one'))
    .limit(JOBS_COUNT_CAP + 1);
  return db.selectFrom(matching.as('m')).select(sql<number>`count(*)::int`.as('n'));
}

/**
 * The column each sort field of the jobs list (GET /api/jobs `sort`) orders by, on the jobs row
 * `alias` (`j`, or `p` for the page's subquery). Only scheduled_for can be null (empty last either
 * way); NULLS LAST on the not-null columns would keep the (agency|branch, created_at desc, id desc)
 * indexes from serving the page.
 */
function jobSortKeys(alias: 'j' | 'p'): Record<JobFilter['sort'], SortKey> {
  return {
    created_at: `${alias}.created_at`,
    updated_at: `${alias}.updated_at`,
    priority: `${alias}.priority`,
    scheduled_for: { key: `${alias}.scheduled_for`, nulls: 'last' },
  };
}

/** The list's ORDER BY on `alias`: the sort field in `order`, then the id the same way. */
function jobsOrder(alias: 'j' | 'p', f: { sort: JobFilter['sort']; order: JobFilter['order'] }) {
  return sortOrderSql(jobSortKeys(alias)[f.sort], f.order, `${alias}.id`);
}

/** The page (JOB_DETAIL_COLUMNS, the SLA columns and the capped total on every row). */
function pageQuery(db: DbOrTrx, shape: ListShape, p: Params<ListValues>) {
  return (
    jobDetailQuery(db, scopeParams(shape.scope, p))
      .where((eb) => matchesFilter(eb, filterParams(shape, p)))
      .select(JOB_DETAIL_COLUMNS)
      .select(sql<number>`(${cappedCount(db, shape, p)})`.as('total_matching'))
      .orderBy(jobsOrder('j', shape))
      .limit(p('limit'))
      .offset(p('offset'))
  );
}

/** The capped count alone (a page past the end). */
export const JOBS_COUNT = new PreparedQuery('jobs_count', cappedCount);

/** The page written as JSON by the database: the jobs' objects joined by commas, and the total. */
export const JOBS_PAGE_JSON = new PreparedQuery('jobs_page_json', (db, shape: ListShape & { internal: boolean }, p: Params<ListValues>) => {
  const order = jobsOrder('p', shape);
  return db
    .selectFrom(pageQuery(db, shape, p).as('p'))
    .select([sql<string | null>`string_agg(${sql.raw(jobJsonSql(shape.internal))}, ',' order by ${order})`.as('json'), sql<number | null>`max(p.total_matching)`.as('total')]);
});

/** The shape and the values of a list request. */
function shapeOf(scope: JobScope, f: JobFilter): { shape: ListShape; values: ListValues } {
  const filters = FILTER_KEYS.filter((k) => f[k] !== undefined);
  const values = { limit: f.limit, offset: f.offset, ...Object.fromEntries(filters.map((k) => [k, f[k]])) } as ListValues;
  if (scope.kind === 'agency' || scope.kind === 'branch') values.scopeAgencyId = scope.agencyId;
  if (scope.kind === 'branch') values.scopeBranchId = scope.branchId;
  if (scope.kind === 'contractor') values.scopeContractorId = scope.contractorId;
  if (scope.kind === 'tenant') Object.assign(values, { scopeTenantId: scope.tenantId, scopeUserId: scope.userId });
  if (scope.kind === 'landlord') values.scopeLandlordId = scope.landlordId;
  return { shape: { scope: scope.kind, filters, sort: f.sort, order: f.order }, values };
}

/** The total when the page is empty: 0 on the first page, else counted on its own (an offset past the end). */
async function totalOfEmptyPage(db: DbOrTrx, shape: ListShape, values: ListValues): Promise<number> {
  if (values.offset === 0) return 0;
  const [counted] = await JOBS_COUNT.run(db, shape, values);
  return counted?.n ?? 0;
}

/**
 * One page of visible jobs matching the filter, sorted stably (id breaks ties), written as JSON by
 * the database (job-json.ts; JOBS_PAGE_JSON), and the total, exact up to JOBS_COUNT_CAP (`capped`
 * true above it). The total is counted on `jobs` alone (the page's joins follow required foreign
 * keys or are left joins, so they change no count, and the partial indexes can serve it) in the
 * same statement as the page. `json` is the page's job objects joined by commas (the inside of the list's `data` array; '' for an
 * empty page), in the page's order, each as GET /api/jobs/{uuid} writes it for this scope.
 * @param internal whether the costs, owning agent and hold origin are written (false for tenants)
 * @returns json, total (exact up to JOBS_COUNT_CAP), capped
 */
export async function listJobsJson(db: DbOrTrx, scope: JobScope, f: JobFilter, internal: boolean) {
  const { shape, values } = shapeOf(scope, f);
  const [row] = await JOBS_PAGE_JSON.run(db, { ...shape, internal }, values);
  const n = row?.json ? (row.total ?? 0) : await totalOfEmptyPage(db, shape, values);
  return { json: row?.json ?? '', total: Math.min(n, JOBS_COUNT_CAP), capped: n > JOBS_COUNT_CAP };
}

/**
 * Every visible job matching the filter (limit and offset ignored), in the list's order (sort,
 * scheduled_for nulls last, then id), as ids: the jobs register's first step (reports). Read from
 * `jobs` alone (one scan of the (agency|branch, created_at, id) index, or a sort of the matching
 * ids), so its cost grows with the register's size only; the rows are then read by id in pages
 * (jobsByIds). Paging the list itself with LIMIT/OFFSET re-read every earlier page for each page
 * (quadratic: 16 s for an agency's 10,000 jobs, bench/README.md "A million jobs") and could skip
 * or repeat a job created during the download.
 * @returns job ids, in order
 */
export async function visibleJobIds(db: DbOrTrx, scope: JobScope, f: JobFilter): Promise<number[]> {
  const rows = await db
    .selectFrom('jobs as j')
    .where('j.deleted_at', 'is', null)
    .where((eb) => visibleTo(eb, scope))
    .where((eb) => matchesFilter(eb, f))
    .select('j.id')
    .orderBy(jobsOrder('j', f))
    .execute();
  return rows.map((r) => r.id);
}

/**
 * The visible, live jobs among `ids` (JOB_DETAIL_COLUMNS and the SLA columns), in the order of
 * `ids`; a job deleted or moved out of the scope since the ids were read is left out.
 * @param ids at most a few hundred (one parameter each)
 */
export async function jobsByIds(db: DbOrTrx, scope: JobScope, ids: number[]): Promise<JobRow[]> {
  if (ids.length === 0) return [];
  const rows = await jobDetailQuery(db, scope).select(JOB_DETAIL_COLUMNS).where('j.id', 'in', ids).execute();
  const byId = new Map(rows.map((r) => [r.id, r as JobRow]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
