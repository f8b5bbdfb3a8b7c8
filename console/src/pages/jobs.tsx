/**
 * The job list for every role (GET /api/jobs/manage returns only the caller's jobs): the agent's
 * and admin's job board with status and priority filters, search, sort and paging kept in the URL
 * (logic/job-filters.ts); the contractor's assigned jobs; the tenant's own repairs.
 */
import { useRef, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
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
import { useSession } from '../session.tsx';
import type { Job } from '../types.ts';
import { Button, formatDate, formatDateTime, Options, Pager, PageTitle, PHONE_QUERY, ProblemMessage, useLoad, useMediaQuery } from '../ui.tsx';

/** A job as the list and the detail return it. */
export type JobRow = Job;

const SORT_LABELS: Record<string, string> = { created_at: 'Reported', updated_at: 'Last change', priority: 'Priority', scheduled_for: 'Visit date' };

/** A status badge (colour plus text, never colour alone). */
export function StatusBadge({ status, statusId }: { status: string; statusId: number }) {
  return <span className={`badge badge-s${statusId}`}>{status}</span>;
}

/** The job's SLA state as text ("SLA breached"); nothing when the job has no clock. */
export function SlaBadge({ state }: { state: string | null | undefined }) {
  if (!state || !Object.hasOwn(SLA_STATES, state)) return null;
  return <span className={`badge badge-sla-${state}`}>SLA {SLA_STATES[state as SlaState].toLowerCase()}</span>;
}

/** The list of jobs. */
export function Jobs() {
  const session = useSession();
  const [search, setSearch] = useSearchParams();
  const filters = parseFilters(search);
  const key = search.toString();
  const statuses = useLoad(async () => ((await api.GET('/api/jobs/statuses')).data as { data: Array<{ ID: number; name: string }> }).data, []);
  const list = useLoad(async () => {
    const { data } = await api.GET('/api/jobs/manage', { params: { query: filtersToQuery(filters) as never } });
    return data!;
  }, [key]);
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
  const [moreOpen, setMoreOpen] = useState(false);
  const set = [filters.status_id, filters.priority, filters.sla_state].filter((v) => v !== null && v !== undefined).length;
  const title = session.party === 'tenant' ? 'Your repairs' : session.party === 'contractor' ? 'Your jobs' : 'Job board';
  const pages = pageCount(list.data?.count ?? 0);
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
      <ul className="job-list">
        {(list.data?.data ?? []).map((j) => (
          <li key={j.uuid} className="job-card">
            <div className="job-card-head">
              <Link to={`/jobs/${j.uuid}`} className="job-link">
                <span className="ref">{j.reference}</span> {j.title}
              </Link>
              <span>
                <StatusBadge status={j.status} statusId={j.status_id} /> {session.party === 'staff' ? <SlaBadge state={j.sla_state} /> : null}
              </span>
            </div>
            <p className="meta">
              <span>{PRIORITIES[j.priority] ?? `Priority ${j.priority}`}</span>
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
