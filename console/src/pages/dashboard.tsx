/**
 * The agent's and admin's dashboard (GET /api/dashboard): open jobs by status and by priority,
 * new jobs, visits today, tomorrow and overdue, SLA at risk and breached, certificates expiring,
 * compliance items expired, missing and due soon (docs/compliance.md) and unpaid invoices; for an
 * agency administrator, the setup checklist until it is done. Each status, priority and SLA figure links to the filtered job board
 * (`/jobs?sla=at_risk`), unpaid invoices to the invoice list. Three charts (docs/console.md
 * "Charts"): jobs opened and completed per week (GET /api/analytics/jobs?interval=week), SLA
 * breaches per week (GET /api/sla/breaches?state=breached, counted by the London week of their
 * due date) over the last 12 weeks, and open jobs by status (the dashboard's own figures); each
 * with a one-line summary and its figures in a visually hidden table (the text alternative). The
 * chart library is loaded with React.lazy, by this page only.
 */
import { lazy, Suspense, useMemo } from 'react';
import { Link } from 'react-router';
import { api } from '../api.ts';
import { PRIORITIES } from '../logic/job-filters.ts';
import { lastWeeks, londonDate, mondayOf, weekLabel } from '../logic/weeks.ts';
import { useSession } from '../session.tsx';
import type { Dashboard, Query } from '../types.ts';
import { formatPence, PageTitle, ProblemMessage, useLoad } from '../ui.tsx';
import type { ChartPoint, ChartSeries } from './dashboard-charts.tsx';

/** The chart drawings (recharts), downloaded when the dashboard first shows a chart. */
const Chart = lazy(() => import('./dashboard-charts.tsx'));

/** Weeks the weekly charts cover. */
const WEEKS = 12;
/** Breached clocks read for the SLA chart at most (pages of 200). */
const MAX_BREACHES = 2000;

/**
 * One chart: its title, a one-line summary, the drawing (hidden from assistive technology) and
 * its figures as a visually hidden table with a caption, which screen readers read instead.
 */
function ChartCard({
  id,
  title,
  summary,
  kind,
  series,
  rows,
  rowHeader,
}: {
  id: string;
  title: string;
  summary: string;
  kind: 'line' | 'bar';
  series: ChartSeries[];
  /** One row per point: its label on the chart, its label in the table, and the series' values. */
  rows: Array<{ label: string; long: string; values: Record<string, number> }>;
  rowHeader: string;
}) {
  const points: ChartPoint[] = rows.map((r) => ({ label: r.label, ...r.values }));
  return (
    <section className="chart" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <p className="hint">{summary}</p>
      <div className="chart-figure" aria-hidden="true">
        <Suspense fallback={null}>
          <Chart kind={kind} points={points} series={series} />
        </Suspense>
      </div>
      {/* A table is never narrower than its content: the hiding box around it keeps it off the page width. */}
      <div className="visually-hidden">
        <table>
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">{rowHeader}</th>
              {series.map((s) => (
                <th key={s.key} scope="col">
                  {s.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.long}>
                <th scope="row">{r.long}</th>
                {series.map((s) => (
                  <td key={s.key}>{r.values[s.key] ?? 0}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** The three charts: weekly jobs (with api.analytics.view), weekly SLA breaches (with api.sla.breaches.view), open jobs by status. */
function Charts({ dashboard }: { dashboard: Dashboard }) {
  const session = useSession();
  const canAnalytics = session.permissions.has('api.analytics.view');
  const canSla = session.permissions.has('api.sla.breaches.view');
  const weeks = useMemo(() => lastWeeks(new Date(), WEEKS), []);
  const today = londonDate(new Date());
  const weekly = useLoad(async () => {
    if (!canAnalytics) return null;
    const query: Query<'/api/analytics/jobs'> = { from_date: weeks[0] ?? today, to_date: today, interval: 'week', group_by: 'none', limit: 200 };
    const { data } = await api.GET('/api/analytics/jobs', { params: { query: query } });
    const by = new Map(data!.data.map((r) => [r.period, r]));
    return weeks.map((w) => ({ label: weekLabel(w), long: weekLabel(w, true), values: { opened: by.get(w)?.created ?? 0, completed: by.get(w)?.completed ?? 0 } }));
  }, [canAnalytics, weeks, today]);
  const breaches = useLoad(async () => {
    if (!canSla) return null;
    const counts = new Map(weeks.map((w) => [w, 0]));
    for (let offset = 0; offset < MAX_BREACHES; offset += 200) {
      const query: Query<'/api/sla/breaches'> = { state: 'breached', from_date: weeks[0], to_date: today, limit: 200, offset };
      const { data } = await api.GET('/api/sla/breaches', { params: { query: query } });
      for (const b of data!.data) {
        const w = mondayOf(londonDate(new Date(b.due_at)));
        if (counts.has(w)) counts.set(w, counts.get(w)! + 1);
      }
      if (offset + 200 >= data!.count) break;
    }
    return weeks.map((w) => ({ label: weekLabel(w), long: weekLabel(w, true), values: { breaches: counts.get(w) ?? 0 } }));
  }, [canSla, weeks, today]);
  const statusRows = dashboard.open_jobs.by_status.map((r) => ({ label: r.name, long: r.name, values: { jobs: r.count } }));
  const sum = (rows: Array<{ values: Record<string, number> }>, key: string) => rows.reduce((n, r) => n + (r.values[key] ?? 0), 0);
  return (
    <div className="charts">
      <ProblemMessage problem={weekly.problem ?? breaches.problem} onRetry={weekly.problem ? weekly.reload : breaches.reload} />
      {weekly.data ? (
        <ChartCard
          id="chart-weekly"
          title="Jobs opened and completed per week"
          summary={`Last ${WEEKS} weeks: ${sum(weekly.data, 'opened')} opened, ${sum(weekly.data, 'completed')} completed.`}
          kind="line"
          rowHeader="Week beginning"
          series={[
            { key: 'opened', name: 'Opened', colour: '#1f4e79' },
            { key: 'completed', name: 'Completed', colour: '#b35900' },
          ]}
          rows={weekly.data}
        />
      ) : null}
      {breaches.data ? (
        <ChartCard
          id="chart-sla"
          title="SLA breaches per week"
          summary={`Last ${WEEKS} weeks: ${sum(breaches.data, 'breaches')} SLA ${sum(breaches.data, 'breaches') === 1 ? 'breach' : 'breaches'}, by the week the time ran out.`}
          kind="bar"
          rowHeader="Week beginning"
          series={[{ key: 'breaches', name: 'SLA breaches', colour: '#b42318' }]}
          rows={breaches.data}
        />
      ) : null}
      <ChartCard
        id="chart-status"
        title="Jobs by status"
        summary={`${dashboard.open_jobs.total} open ${dashboard.open_jobs.total === 1 ? 'job' : 'jobs'}${statusRows.length ? `: ${statusRows.map((r) => `${r.values.jobs} ${r.label}`).join(', ')}` : ''}.`}
        kind="bar"
        rowHeader="Status"
        series={[{ key: 'jobs', name: 'Open jobs', colour: '#1f4e79' }]}
        rows={statusRows}
      />
    </div>
  );
}

function Tile({ label, value, to }: { label: string; value: string | number; to?: string }) {
  const body = (
    <>
      <span className="tile-value">{value}</span>
      <span className="tile-label">{label}</span>
    </>
  );
  return <li className="tile">{to ? <Link to={to}>{body}</Link> : body}</li>;
}

/** A titled two-column table of counts, each row linking to the filtered job board. */
function CountTable({
  id,
  title,
  column,
  rows,
}: {
  id: string;
  title: string;
  column: string;
  rows: Array<{ key: number; label: string; to: string; count: number }>;
}) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">{column}</th>
            <th scope="col">Jobs</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key}>
              <td>
                <Link to={r.to}>{r.label}</Link>
              </td>
              <td>{r.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/**
 * The setup checklist of a new agency (GET /api/agencies/current/setup), shown to its
 * administrators until every item is done.
 */
function SetupChecklist() {
  const setup = useLoad(['agencies', 'current', 'setup'], async () => (await api.GET('/api/agencies/current/setup')).data!.data);
  const x = setup.data;
  if (!x || x.done) return null;
  return (
    <section aria-labelledby="setup" className="setup">
      <h2 id="setup">Set up your agency</h2>
      <ul className="checklist">
        {x.items.map((i) => (
          <li key={i.key} className={i.done ? 'done' : 'todo'}>
            <span aria-hidden="true">{i.done ? '✓' : '○'}</span> {i.link.startsWith('/docs') ? <a href={i.link}>{i.label}</a> : <Link to={i.link}>{i.label}</Link>}{' '}
            <span className="hint">({i.done ? `done, ${i.count}` : 'to do'})</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The dashboard page. */
export function DashboardPage() {
  const session = useSession();
  const d = useLoad(['dashboard'], async () => (await api.GET('/api/dashboard')).data!.data);
  const x = d.data;
  return (
    <>
      <PageTitle>Dashboard</PageTitle>
      <ProblemMessage problem={d.problem} onRetry={d.reload} />
      {session.permissions.has('api.agencies.current.manage') && session.me?.agency_uuid ? <SetupChecklist /> : null}
      {x ? (
        <>
          <ul className="tiles" aria-label="Today">
            <Tile label="open jobs" value={x.open_jobs.total} to="/jobs" />
            <Tile label="new today" value={x.new_jobs.today} />
            <Tile label="visits today" value={x.visits.today} to="/jobs?sort=scheduled_for&order=asc" />
            <Tile label="visits overdue" value={x.visits.overdue} />
            {x.sla ? <Tile label="SLA at risk" value={x.sla.at_risk} to="/jobs?sla=at_risk" /> : null}
            {x.sla ? <Tile label="SLA breached" value={x.sla.breached} to="/jobs?sla=breached" /> : null}
            {x.certificates_expiring_30d !== undefined ? <Tile label="certificates expiring in 30 days" value={x.certificates_expiring_30d} /> : null}
            {x.compliance ? <Tile label="compliance items expired" value={x.compliance.expired} to="/compliance?status=expired" /> : null}
            {x.compliance ? <Tile label="compliance items missing" value={x.compliance.missing} to="/compliance?status=missing" /> : null}
            {x.compliance ? <Tile label="compliance items due soon" value={x.compliance.due_soon} to="/compliance?status=due_soon" /> : null}
            {x.unpaid_invoices ? (
              <Tile
                label="unpaid invoices"
                value={`${x.unpaid_invoices.count} (${formatPence(x.unpaid_invoices.total_pence)})`}
                to={session.permissions.has('api.invoices.view') ? '/invoices' : undefined}
              />
            ) : null}
          </ul>
          <Charts dashboard={x} />
          <div className="columns">
            <CountTable
              id="by-status"
              title="Open jobs by status"
              column="Status"
              rows={x.open_jobs.by_status.map((r) => ({ key: r.status_id, label: r.name, to: `/jobs?status=${r.status_id}`, count: r.count }))}
            />
            <CountTable
              id="by-priority"
              title="Open jobs by priority"
              column="Priority"
              rows={x.open_jobs.by_priority.map((r) => ({
                key: r.priority,
                label: PRIORITIES[r.priority] ?? String(r.priority),
                to: `/jobs?priority=${r.priority}`,
                count: r.count,
              }))}
            />
          </div>
        </>
      ) : d.loading ? (
        <p>Loading…</p>
      ) : null}
    </>
  );
}
