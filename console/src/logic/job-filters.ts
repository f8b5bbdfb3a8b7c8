/**
 * The job board's filters, search, sort and page, kept in the URL's query string so that a view
 * can be bookmarked, shared and restored with the back button (docs/console.md). Mapped one to one
 * onto the query of GET /api/jobs/manage (docs/jobs.md).
 */

export const SORTS = ['created_at', 'updated_at', 'priority', 'scheduled_for'] as const;
export type Sort = (typeof SORTS)[number];

/** States of a job's most urgent SLA clock (docs/sla.md), with their labels. */
export const SLA_STATES = { breached: 'Breached', at_risk: 'At risk', running: 'Running', paused: 'Paused', met: 'Met' } as const;
export type SlaState = keyof typeof SLA_STATES;

/** Rows per page of the board. */
export const PAGE_SIZE = 20;

export interface JobFilters {
  q: string;
  status_id: number | null;
  priority: number | null;
  sla_state: SlaState | null;
  sort: Sort;
  order: 'asc' | 'desc';
  page: number;
}

function positiveInt(v: string | null, max: number): number | null {
  if (v === null || !/^\d+$/.test(v)) return null;
  const n = Number(v);
  return n >= 1 && n <= max ? n : null;
}

/** Reads the filters from a query string; anything unknown or out of range falls back to the default. */
export function parseFilters(search: URLSearchParams): JobFilters {
  const sort = search.get('sort');
  return {
    q: (search.get('q') ?? '').slice(0, 200),
    status_id: positiveInt(search.get('status'), 99),
    priority: positiveInt(search.get('priority'), 5),
    sla_state: Object.hasOwn(SLA_STATES, search.get('sla') ?? '') ? (search.get('sla') as SlaState) : null,
    sort: (SORTS as readonly string[]).includes(sort ?? '') ? (sort as Sort) : 'created_at',
    order: search.get('order') === 'asc' ? 'asc' : 'desc',
    page: positiveInt(search.get('page'), 100_000) ?? 1,
  };
}

/** Writes the filters back to a query string, leaving out defaults (so the plain board is `/jobs`). */
export function filtersToSearch(f: JobFilters): URLSearchParams {
  const s = new URLSearchParams();
  if (f.q) s.set('q', f.q);
  if (f.status_id !== null) s.set('status', String(f.status_id));
  if (f.priority !== null) s.set('priority', String(f.priority));
  if (f.sla_state !== null) s.set('sla', f.sla_state);
  if (f.sort !== 'created_at') s.set('sort', f.sort);
  if (f.order !== 'desc') s.set('order', f.order);
  if (f.page > 1) s.set('page', String(f.page));
  return s;
}

/** The query of GET /api/jobs/manage for these filters. */
export function filtersToQuery(f: JobFilters) {
  return {
    ...(f.q ? { q: f.q } : {}),
    ...(f.status_id !== null ? { status_id: f.status_id } : {}),
    ...(f.priority !== null ? { priority: f.priority } : {}),
    ...(f.sla_state !== null ? { sla_state: f.sla_state } : {}),
    sort: f.sort,
    order: f.order,
    limit: PAGE_SIZE,
    offset: (f.page - 1) * PAGE_SIZE,
  };
}

/** Number of pages for `count` matching jobs (at least 1). */
export function pageCount(count: number): number {
  return Math.max(1, Math.ceil(count / PAGE_SIZE));
}

/** Priority names (docs/jobs.md "The job"). */
export const PRIORITIES: Record<number, string> = { 1: 'Emergency', 2: 'Urgent', 3: 'Routine', 4: 'Low', 5: 'Planned' };
