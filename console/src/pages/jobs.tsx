/**
 * The job list for every role (GET /api/jobs/manage returns only the caller's jobs): the agent's
 * and admin's job board with status and priority filters, search, sort and paging kept in the URL
 * (logic/job-filters.ts); the contractor's assigned jobs; the tenant's own repairs. The board is a
 * list of cards, not a table: its "Sort by" buttons stand for the column headers (a click sorts
 * by that field, a second click the other way), sorted by the API (`sort` and `order` of GET
 * /api/jobs/manage) across all pages, and kept in the URL (`/jobs?sort=priority&order=asc`).
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { Link, useLocation, useSearchParams } from 'react-router';
import { api } from '../api.ts';
import { useLiveEvents } from '../live.ts';
import {
  filtersToQuery,
  filtersToSearch,
  pageCount,
  parseFilters,
  PRIORITIES,
  SLA_STATES,
  SORTS,
  type JobFilters,
  type SlaState,
} from '../logic/job-filters.ts';
import { describeProblem } from '../logic/errors.ts';
import { NotifyButton } from '../phone.tsx';
import { saveTodaysJobs } from '../pwa.ts';
import { useSession } from '../session.tsx';
import type { Job } from '../types.ts';
import { Button, formatDate, formatDateTime, Options, Pager, PageTitle, PHONE_QUERY, prefetchLoad, ProblemMessage, useLoad, useMediaQuery } from '../ui.tsx';

/** A job as the list and the detail return it. */
export type JobRow = Job;

const SORT_LABELS: Record<string, string> = { created_at: 'Reported', updated_at: 'Last change', priority: 'Priority', scheduled_for: 'Visit date' };

/** A status badge (colour plus text, never colour alone). */
export function StatusBadge({ status, statusId }: { status: string; statusId: number }) {
  const session = useSession();
  // A tenant's repair is done once Completed: the agency's invoicing is not theirs to follow.
  const shown = session.party === 'tenant' && statusId === INVOICED ? 'Completed' : status;
  return <span className={`badge badge-s${statusId === INVOICED && shown === 'Completed' ? COMPLETED : statusId}`}>{shown}</span>;
}

/** Statuses whose words a tenant reads differently (docs/jobs.md): Completed 7, Invoiced 8; Closed 9 and Cancelled 10 end every SLA clock. */
const COMPLETED = 7;
const INVOICED = 8;
const ENDED = [9, 10];

/**
 * The job's SLA state as text ("SLA breached"); nothing when the job has no clock, or when it is
 * Closed or Cancelled (`statusId`): a cancelled job was not late, its clock simply stopped.
 */
export function SlaBadge({ state, statusId }: { state: string | null | undefined; statusId?: number }) {
  if (statusId !== undefined && ENDED.includes(statusId)) return null;
  if (!state || !Object.hasOwn(SLA_STATES, state)) return null;
  return <span className={`badge badge-sla-${state}`}>SLA {SLA_STATES[state as SlaState].toLowerCase()}</span>;
}

/** The statuses of the board's filter: their query key and load (GET /api/jobs/statuses). */
const STATUSES_KEY = ['jobs', 'statuses'];
async function loadStatuses() {
  return ((await api.GET('/api/jobs/statuses')).data as { data: Array<{ ID: number; name: string }> }).data;
}

/**
 * The board's page of jobs for the URL's search (`sort=priority&page=2`): its query key and its
 * load (GET /api/jobs/manage with the filters of logic/job-filters.ts).
 */
function listQuery(search: URLSearchParams) {
  const filters = parseFilters(search);
  return {
    key: ['jobs', 'list', search.toString()],
    load: async () => (await api.GET('/api/jobs/manage', { params: { query: filtersToQuery(filters) } })).data!,
  };
}

/**
 * Starts the job board's two reads (its page of jobs for the address's search, and the statuses)
 * at start-up when the address is the board (`/jobs`), at the same time as the session's: the
 * board then renders with them instead of asking once the session has answered and the page has
 * rendered once (docs/console.md "How it is built and served"). Anything else: nothing.
 * @param client the console's query client (query.ts)
 * @param location the address opened (window.location)
 */
export function prefetchJobBoard(client: QueryClient, location: { pathname: string; search: string }): void {
  if (location.pathname !== '/jobs') return;
  const list = listQuery(new URLSearchParams(location.search));
  prefetchLoad(client, list.key, list.load);
  prefetchLoad(client, STATUSES_KEY, loadStatuses);
}

/** The list of jobs. */
export function Jobs() {
  const session = useSession();
  const location = useLocation();
  const [search, setSearch] = useSearchParams();
  const filters = parseFilters(search);
  const key = search.toString();
  const statuses = useLoad(STATUSES_KEY, loadStatuses);
  const query = listQuery(search);
  const list = useLoad(query.key, query.load);
  // A contractor's or tenant's jobs visited today are read ahead, for the installable app offline.
  const rows = list.data?.data;
  useEffect(() => {
    if (rows && session.party !== 'staff') void saveTodaysJobs(rows);
  }, [rows, session.party]);
  // Another person's change (or one's own in another tab) shows without a reload, quietly: the
  // count keeps its number (no "Loading jobs…" read out by screen readers at every change).
  const quiet = useRef(false);
  useLiveEvents('*', () => {
    quiet.current = true;
    list.reload();
  });
  if (!list.loading) quiet.current = false;
  const update = (patch: Partial<JobFilters>) => setSearch(filtersToSearch({ ...filters, page: 1, ...patch }));
  const onSearch = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const num = (k: string) => (form.get(k) ? Number(form.get(k)) : null);
    update({
      q: String(form.get('q') ?? ''),
      status_id: num('status'),
      priority: num('priority'),
      sla_state: Object.hasOwn(SLA_STATES, String(form.get('sla') ?? '')) ? (String(form.get('sla')) as SlaState) : null,
      sort: String(form.get('sort')) as JobFilters['sort'],
      order: form.get('order') === 'asc' ? 'asc' : 'desc',
    });
  };
  const phone = useMediaQuery(PHONE_QUERY);
  const bulk = session.party === 'staff' && session.permissions.has('api.jobs.manage.manage');
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [bulkResult, setBulkResult] = useState<string | null>(null);
  const [moreOpen, setMoreOpen] = useState(false);
  const set = [filters.status_id, filters.priority, filters.sla_state].filter((v) => v !== null && v !== undefined).length;
  const title = session.party === 'tenant' ? 'Your repairs' : session.party === 'contractor' ? 'Your jobs' : 'Job board';
  const pages = pageCount(list.data?.count ?? 0);
  // A message from the page that sent us here (the job page after a job was deleted).
  const flash = (location.state as { flash?: string } | null)?.flash;
  return (
    <>
      <PageTitle
        actions={
          session.party !== 'contractor' ? (
            <Link className="btn btn-primary" to={session.party === 'tenant' ? '/report' : '/jobs/new'}>
              {session.party === 'tenant' ? 'Report a repair' : 'New job'}
            </Link>
          ) : null
        }
      >
        {title}
      </PageTitle>
      {flash ? (
        <p className="notice" role="status">
          {flash}
        </p>
      ) : null}
      {session.party !== 'staff' ? <NotifyButton /> : null}
      <form className={session.party === 'staff' ? 'filters filters-sla' : 'filters'} role="search" aria-label="Filter jobs" onSubmit={onSearch} key={key}>
        <label>
          Search
          <input type="search" name="q" defaultValue={filters.q} placeholder="Reference, title or text" />
        </label>
        {phone ? (
          <button
            type="button"
            className="btn btn-secondary filters-toggle"
            aria-expanded={moreOpen}
            aria-controls="more-filters"
            onClick={() => setMoreOpen((o) => !o)}
          >
            {moreOpen ? 'Hide filters' : `Filters and sort${set > 0 ? ` (${set} set)` : ''}`}
          </button>
        ) : null}
        <div id="more-filters" className="filters-more" hidden={phone && !moreOpen}>
          <label>
            Status
            <select name="status" defaultValue={filters.status_id ?? ''}>
              <option value="">Any status</option>
              {(statuses.data ?? []).map((s) => (
                <option key={s.ID} value={s.ID}>
                  {s.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            Priority
            <select name="priority" defaultValue={filters.priority ?? ''}>
              <option value="">Any priority</option>
              <Options labels={PRIORITIES} />
            </select>
          </label>
          {session.party === 'staff' ? (
            <label>
              SLA
              <select name="sla" defaultValue={filters.sla_state ?? ''}>
                <option value="">Any SLA state</option>
                <Options labels={SLA_STATES} />
              </select>
            </label>
          ) : null}
          <label>
            Sort by
            <select name="sort" defaultValue={filters.sort}>
              {SORTS.map((s) => (
                <option key={s} value={s}>
                  {SORT_LABELS[s]}
                </option>
              ))}
            </select>
          </label>
          <label>
            Order
            <select name="order" defaultValue={filters.order}>
              <option value="desc">Newest / highest first</option>
              <option value="asc">Oldest / lowest first</option>
            </select>
          </label>
        </div>
        <Button type="submit" variant="secondary">
          Apply
        </Button>
      </form>
      <ProblemMessage problem={list.problem} onRetry={list.reload} />
      <p className="count" aria-live="polite">
        {list.loading && !quiet.current ? 'Loading jobs…' : `${list.data?.count ?? 0} job${list.data?.count === 1 ? '' : 's'}`}
      </p>
      {bulk && selected.size > 0 ? (
        <BulkBar
          jobs={(list.data?.data ?? []).filter((j) => selected.has(j.uuid))}
          statuses={statuses.data ?? []}
          onDone={(message) => (setSelected(new Set()), setBulkResult(message), list.reload())}
        />
      ) : null}
      {bulkResult ? (
        <p className="notice" role="status">
          {bulkResult}
        </p>
      ) : null}
      <div className="sort-bar" role="group" aria-label="Sort jobs">
        <span aria-hidden="true">Sort by</span>
        {SORTS.map((s) => {
          const active = filters.sort === s;
          return (
            <button
              key={s}
              type="button"
              className="btn btn-secondary"
              aria-pressed={active}
              aria-label={`Sort by ${SORT_LABELS[s]}${active ? `, ${filters.order === 'asc' ? 'ascending' : 'descending'}` : ''}`}
              onClick={() => update({ sort: s, order: active && filters.order === 'desc' ? 'asc' : 'desc' })}
            >
              {SORT_LABELS[s]}
              {active ? <span aria-hidden="true">{filters.order === 'asc' ? ' ▲' : ' ▼'}</span> : null}
            </button>
          );
        })}
      </div>
      <ul className="job-list">
        {(list.data?.data ?? []).map((j) => (
          <li key={j.uuid} className="job-card">
            <div className="job-card-head">
              {bulk ? (
                <input
                  type="checkbox"
                  aria-label={`Select ${j.reference}`}
                  checked={selected.has(j.uuid)}
                  onChange={(e) =>
                    setSelected((prev) => {
                      const next = new Set(prev);
                      if (e.target.checked) next.add(j.uuid);
                      else next.delete(j.uuid);
                      return next;
                    })
                  }
                />
              ) : null}
              <Link to={`/jobs/${j.uuid}`} className="job-link">
                <span className="ref">{j.reference}</span> {j.title}
              </Link>
              <span>
                <StatusBadge status={j.status} statusId={j.status_id} /> {session.party === 'staff' ? <SlaBadge state={j.sla_state} statusId={j.status_id} /> : null}
              </span>
            </div>
            <p className="meta">
              <span>{PRIORITIES[j.priority] ?? 'Routine'}</span>
              {j.address_line1 ? <span>{[j.address_line1, j.postcode].filter(Boolean).join(', ')}</span> : null}
              {session.party !== 'contractor' && j.contractor_name ? <span>Contractor: {j.contractor_name}</span> : null}
              {j.scheduled_for ? (
                <span>
                  Visit {formatDate(j.scheduled_for)}
                  {j.time_range ? `, ${j.time_range}` : ''}
                </span>
              ) : null}
              <span>Reported {formatDateTime(j.created_at)}</span>
            </p>
          </li>
        ))}
      </ul>
      {!list.loading && list.data?.count === 0 ? (
        search.toString() === '' && session.party === 'staff' ? (
          <div className="empty-state" role="note">
            <p>
              No jobs yet. Log a repair a tenant phoned in with <Link to="/jobs/new">New job</Link>; it needs the property, so add or import your properties
              first (<Link to="/addresses">Addresses</Link>).
            </p>
          </div>
        ) : (
          <p>No jobs match.</p>
        )
      ) : null}
      <Pager page={filters.page} pages={pages} onPage={(page) => setSearch(filtersToSearch({ ...filters, page }))} />
    </>
  );
}

/** One line of a CSV file (RFC 4180 quoting; a cell starting with = + - @ is prefixed with ' against formula injection). */
function csvLine(cells: Array<string | number | null | undefined>): string {
  return cells
    .map((c) => {
      let v = c === null || c === undefined ? '' : String(c);
      if (/^[=+\-@]/.test(v)) v = `'${v}`;
      return /[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v;
    })
    .join(',');
}

/**
 * Actions on the selected jobs of the board: move them all to a status (POST
 * /api/jobs/{uuid}/transitions, one by one; the refused ones are listed with the API's reason),
 * assign them all to a contractor (POST /api/jobs/{uuid}/assignment), or download them as CSV.
 */
function BulkBar({ jobs, statuses, onDone }: { jobs: JobRow[]; statuses: Array<{ ID: number; name: string }>; onDone: (message: string) => void }) {
  const contractors = useLoad(['contractors', 'first', 100], async () => (await api.GET('/api/contractors', { params: { query: { limit: 100 } } })).data!.data);
  const [status, setStatus] = useState('');
  const [contractor, setContractor] = useState('');
  const [busy, setBusy] = useState(false);
  const each = async (verb: string, call: (j: JobRow) => Promise<unknown>) => {
    setBusy(true);
    const refused: string[] = [];
    for (const j of jobs) {
      try {
        await call(j);
      } catch (e) {
        refused.push(`${j.reference}: ${describeProblem(e).message}`);
      }
    }
    setBusy(false);
    const ok = jobs.length - refused.length;
    onDone(`${ok} job${ok === 1 ? '' : 's'} ${verb}.${refused.length ? ` Not done: ${refused.join('; ')}` : ''}`);
  };
  const exportCsv = () => {
    const head = ['Reference', 'Title', 'Status', 'Priority', 'Address', 'Postcode', 'Contractor', 'Visit', 'Reported'];
    const rows = jobs.map((j) =>
      csvLine([
        j.reference,
        j.title,
        j.status,
        PRIORITIES[j.priority] ?? j.priority,
        j.address_line1,
        j.postcode,
        j.contractor_name,
        j.scheduled_for?.slice(0, 10),
        j.created_at,
      ]),
    );
    const url = URL.createObjectURL(new Blob([[csvLine(head), ...rows].join('\r\n') + '\r\n'], { type: 'text/csv' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'jobs.csv';
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <section className="bulk-bar" aria-label="Selected jobs">
      <strong>{jobs.length} selected</strong>
      <label>
        Move to
        <select value={status} onChange={(e) => setStatus(e.target.value)}>
          <option value="">Choose a status</option>
          {statuses.map((s) => (
            <option key={s.ID} value={s.ID}>
              {s.name}
            </option>
          ))}
        </select>
      </label>
      <Button
        variant="secondary"
        isDisabled={busy || !status}
        onPress={() =>
          void each('moved', (j) => api.POST('/api/jobs/{uuid}/transitions', { params: { path: { uuid: j.uuid } }, body: { to_status_id: Number(status) } }))
        }
      >
        Move
      </Button>
      <label>
        Assign to
        <select value={contractor} onChange={(e) => setContractor(e.target.value)}>
          <option value="">Choose a contractor</option>
          {(contractors.data ?? []).map((c) => (
            <option key={c.uuid} value={c.uuid}>
              {c.company_name}
            </option>
          ))}
        </select>
      </label>
      <Button
        variant="secondary"
        isDisabled={busy || !contractor}
        onPress={() =>
          void each('assigned', (j) => api.POST('/api/jobs/{uuid}/assignment', { params: { path: { uuid: j.uuid } }, body: { contractor_uuid: contractor } }))
        }
      >
        Assign
      </Button>
      <Button variant="secondary" onPress={exportCsv}>
        Export as CSV
      </Button>
    </section>
  );
}
