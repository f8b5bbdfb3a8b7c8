/**
 * The jobs list's SQL (spec 4.16; docs/jobs.md): one page and the capped count in one statement,
 * compiled once per shape. Query parts and scope rules come from jobs.repository.ts and
 * job-visibility.ts.
 */
import { sql } from 'kysely';
import type pg from 'pg';
import { QueryTemplates, slot } from '../../db/query-templates.ts';
import type { DbOrTrx } from '../../db/types.ts';
import { visibleTo, type JobScope } from './job-visibility.ts';
import { jobJsonSql } from './job-json.ts';
import { inWrittenJoinOrder, JOB_DETAIL_COLUMNS, jobDetailQuery, matchesFilter, type JobFilter, type JobRow } from './jobs.repository.ts';

/** The list's count is exact up to this many jobs; above it the count is this number and `capped` is true. */
export const JOBS_COUNT_CAP = 10_000;

const listTemplates = new QueryTemplates();

/** `obj` with every defined value except `keep` replaced by a slot named `prefix.key`, and the values by slot name. */
function withSlots<T extends object>(obj: T, prefix: string, keep: ReadonlyArray<keyof T>, values: Record<string, unknown>): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (v === undefined || keep.includes(k as keyof T)) out[k] = v;
    else {
      out[k] = slot(`${prefix}.${k}`);
      values[`${prefix}.${k}`] = v;
    }
  }
  return out as T;
}

/** The capped count of visible jobs matching the filter, as a query (count of at most JOBS_COUNT_CAP + 1 rows). */
function cappedCount(db: DbOrTrx, scope: JobScope, f: JobFilter) {
  const matching = db
    .selectFrom('jobs as j')
    .where('j.deleted_at', 'is', null)
    .where((eb) => visibleTo(eb, scope))
    .where((eb) => matchesFilter(eb, f))
    .select(sql`1`.as('one'))
    .limit(JOBS_COUNT_CAP + 1);
  return db.selectFrom(matching.as('m')).select(sql<number>`count(*)::int`.as('n'));
}

/** The page query (JOB_DETAIL_COLUMNS, the SLA columns and the capped total on every row) over slotted scope and filter. */
function pageQuery(q: DbOrTrx, s: JobScope, sf: JobFilter, f: JobFilter) {
  return (
    jobDetailQuery(q, s)
      .where((eb) => matchesFilter(eb, sf))
      .select(JOB_DETAIL_COLUMNS)
      .select(sql<number>`(${cappedCount(q, s, sf)})`.as('total_matching'))
      // Only scheduled_for can be null; NULLS LAST on the not-null columns would keep the
      // (agency|branch, created_at desc, id desc) indexes from serving the page.
      .orderBy(`j.${f.sort}`, (ob) => {
        const dir = f.order === 'asc' ? ob.asc() : ob.desc();
        return f.sort === 'scheduled_for' ? dir.nullsLast() : dir;
      })
      .orderBy('j.id', f.order)
      .limit(sf.limit)
      .offset(sf.offset)
  );
}

/** The slotted scope and filter, their values, and the key of the statement's shape. */
function shapeOf(scope: JobScope, f: JobFilter) {
  const values: Record<string, unknown> = {};
  const s = withSlots(scope, 'scope', ['kind'], values);
  const sf = withSlots(f, 'filter', ['sort', 'order'], values);
  const key = JSON.stringify({ scope: scope.kind, filters: Object.keys(f).filter((k) => f[k as keyof JobFilter] !== undefined), sort: f.sort, order: f.order });
  return { s, sf, values, key };
}

/** The total when the page is empty: 0 on the first page, else counted on its own (an offset past the end). */
async function totalOfEmptyPage(db: DbOrTrx, pool: pg.Pool | undefined, shape: ReturnType<typeof shapeOf>, f: JobFilter): Promise<number> {
  if (f.offset === 0) return 0;
  const [counted] = await listTemplates.rows<{ n: number }>(db, pool, `count ${shape.key}`, () => cappedCount(db, shape.s, shape.sf), shape.values);
  return counted?.n ?? 0;
}

/**
 * One page of visible jobs matching the filter, sorted stably (id breaks ties), and the total,
 * exact up to JOBS_COUNT_CAP (`capped` true above it). The total is counted on `jobs` alone (the
 * page's joins follow required foreign keys or are left joins, so they change no count, and the
 * partial indexes can serve it) in the same statement as the page.
 * The SQL is compiled once per shape (query-templates.ts) and runs in the written join order
 * (inWrittenJoinOrder); the count of an empty page past the end (offset) runs on its own.
 * @returns rows (JobRow), total, capped
 */
export async function listJobs(db: DbOrTrx, scope: JobScope, f: JobFilter, pool?: pg.Pool) {
  const shape = shapeOf(scope, f);
  const page = (q: DbOrTrx) => pageQuery(q, shape.s, shape.sf, f);
  type PageRow = Awaited<ReturnType<ReturnType<typeof page>['execute']>>[number];
  // In the written join order (a transaction with SET LOCAL): run as a prepared statement without
  // it, PostgreSQL kept choosing custom plans and searched the ten-table join orders on every
  // request (bench/README.md, 2026-11-23).
  const rows = await inWrittenJoinOrder(db, (q) => listTemplates.rows<PageRow>(q, undefined, `page ${shape.key}`, () => page(q), shape.values));
  const n = rows.length > 0 ? rows[0]!.total_matching : await totalOfEmptyPage(db, pool, shape, f);
  return { rows: rows as JobRow[], total: Math.min(n, JOBS_COUNT_CAP), capped: n > JOBS_COUNT_CAP };
}

/**
 * The same page as listJobs, written as JSON by the database (job-json.ts): `json` is the page's
 * job objects joined by commas (the inside of the list's `data` array; '' for an empty page), in
 * the page's order, each as GET /api/jobs/{uuid} writes it for this scope.
 * @param internal whether the costs, owning agent and hold origin are written (false for tenants)
 * @param pools the PostgreSQL pools (deps.pool, deps.plannedPool); none on PGlite
 * @returns json, total (exact up to JOBS_COUNT_CAP), capped
 */
export async function listJobsJson(db: DbOrTrx, scope: JobScope, f: JobFilter, internal: boolean, pools: { pool?: pg.Pool | undefined; plannedPool?: pg.Pool | undefined } = {}) {
  const shape = shapeOf(scope, f);
  const dir = f.order === 'asc' ? 'asc' : 'desc';
  const order = sql.raw(`p."${f.sort}" ${dir}${f.sort === 'scheduled_for' ? ' nulls last' : ''}, p.id ${dir}`);
  const page = (q: DbOrTrx) =>
    q
      .selectFrom(pageQuery(q, shape.s, shape.sf, f).as('p'))
      .select([sql<string | null>`string_agg(${sql.raw(jobJsonSql(internal))}, ',' order by ${order})`.as('json'), sql<number | null>`max(p.total_matching)`.as('total')]);
  type JsonRow = { json: string | null; total: number | null };
  const statement = `json ${internal} ${shape.key}`;
  // On PostgreSQL, sessions that keep the written join order and generic plans serve it as one
  // prepared statement (database.ts plannedPool); elsewhere a transaction with SET LOCAL does.
  const [row] =
    pools.plannedPool && !db.isTransaction
      ? await listTemplates.rows<JsonRow>(db, pools.plannedPool, statement, () => page(db), shape.values)
      : await inWrittenJoinOrder(db, (q) => listTemplates.rows<JsonRow>(q, undefined, statement, () => page(q), shape.values));
  const n = row?.json ? (row.total ?? 0) : await totalOfEmptyPage(db, pools.pool, shape, f);
  return { json: row?.json ?? '', total: Math.min(n, JOBS_COUNT_CAP), capped: n > JOBS_COUNT_CAP };
}
