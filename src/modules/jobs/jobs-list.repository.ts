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

/**
 * One page of visible jobs matching the filter, sorted stably (id breaks ties), and the total,
 * exact up to JOBS_COUNT_CAP (`capped` true above it). The total is counted on `jobs` alone (the
 * page's joins follow required foreign keys or are left joins, so they change no count, and the
 * partial indexes can serve it) in the same statement as the page.
 * The SQL is compiled once per shape (query-templates.ts) and runs in the written join order
 * (inWrittenJoinOrder); the count of an empty page past the end (offset) runs on its own.
 */
export async function listJobs(db: DbOrTrx, scope: JobScope, f: JobFilter, pool?: pg.Pool) {
  const values: Record<string, unknown> = {};
  const s = withSlots(scope, 'scope', ['kind'], values);
  const sf = withSlots(f, 'filter', ['sort', 'order'], values);
  const key = JSON.stringify({ scope: scope.kind, filters: Object.keys(f).filter((k) => f[k as keyof JobFilter] !== undefined), sort: f.sort, order: f.order });
  const page = (q: DbOrTrx) =>
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
      .offset(sf.offset);
  type PageRow = Awaited<ReturnType<ReturnType<typeof page>['execute']>>[number];
  // In the written join order (a transaction with SET LOCAL): run as a prepared statement without
  // it, PostgreSQL kept choosing custom plans and searched the ten-table join orders on every
  // request (bench/README.md, 2026-11-23).
  const rows = await inWrittenJoinOrder(db, (q) => listTemplates.rows<PageRow>(q, undefined, `page ${key}`, () => page(q), values));
  let n = rows[0]?.total_matching ?? 0;
  if (rows.length === 0 && f.offset > 0) {
    const [counted] = await listTemplates.rows(db, pool, `count ${key}`, () => cappedCount(db, s, sf), values);
    n = counted?.n ?? 0;
  }
  return { rows: rows as JobRow[], total: Math.min(n, JOBS_COUNT_CAP), capped: n > JOBS_COUNT_CAP };
}
