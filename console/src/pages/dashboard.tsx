/**
 * The agent's and admin's dashboard (GET /api/dashboard): open jobs by status and by priority,
 * new jobs, visits today, tomorrow and overdue, SLA at risk and breached, certificates expiring,
 * compliance items expired, missing and due soon (docs/compliance.md) and unpaid invoices; for an
 * agency administrator, the setup checklist until it is done. Each status, priority and SLA figure links to the filtered job board
 * (`/jobs?sla=at_risk`), unpaid invoices to the invoice list.
 */
import { Link } from 'react-router';
import { api } from '../api.ts';
import { PRIORITIES } from '../logic/job-filters.ts';
import { useSession } from '../session.tsx';
import { formatPence, PageTitle, ProblemMessage, useLoad } from '../ui.tsx';

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
  const setup = useLoad(async () => (await api.GET('/api/agencies/current/setup')).data!.data, []);
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
  const d = useLoad(async () => (await api.GET('/api/dashboard')).data!.data, []);
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
