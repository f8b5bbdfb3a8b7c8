/**
 * The compliance register for staff (GET /api/compliance and GET /api/compliance/schedules,
 * docs/compliance.md): items per status with the totals, each item's latest certificate and its
 * expiry, then the live planned maintenance schedules with the next due dates and the dates their
 * jobs are raised. Status filter and page in the URL (`/compliance?status=expired&page=2`).
 */
import { Link } from 'react-router';
import { api } from '../api.ts';
import { pageCount, PAGE_SIZE } from '../logic/job-filters.ts';
import { useStatusPage } from '../logic/status-page.ts';
import { Button, formatDate, Options, Pager, PageTitle, ProblemMessage, useLoad } from '../ui.tsx';

/** Item statuses (docs/compliance.md "Statuses"), most urgent first, and their labels. */
export const COMPLIANCE_STATUSES: Record<string, string> = {
  expired: 'Expired',
  missing: 'Missing',
  due_soon: 'Due soon',
  valid: 'Valid',
};

/** The compliance page. */
export function CompliancePage() {
  const { status, page: p, go, onFilter } = useStatusPage(COMPLIANCE_STATUSES);
  const register = useLoad(async () => {
    const query = { limit: PAGE_SIZE, offset: (p - 1) * PAGE_SIZE, ...(status ? { status } : {}) };
    const { data } = await api.GET('/api/compliance', { params: { query: query as never } });
    return data!;
  }, [status, p]);
  const schedules = useLoad(async () => {
    const { data } = await api.GET('/api/compliance/schedules', { params: { query: { limit: 200, offset: 0 } } });
    return data!;
  }, []);
  const totals = register.data?.totals;
  return (
    <>
      <PageTitle>Compliance</PageTitle>
      <ProblemMessage problem={register.problem} onRetry={register.reload} />
      <section aria-labelledby="compliance-totals">
        <h2 id="compliance-totals">Items by status</h2>
        <ul className="tiles" aria-label="Items by status">
          {Object.entries(COMPLIANCE_STATUSES).map(([k, label]) => (
            <li key={k} className="tile">
              <Link to={`/compliance?status=${k}`}>
                <span className="tile-value">{totals ? totals[k as keyof typeof totals] : '…'}</span>
                <span className="tile-label">{label.toLowerCase()}</span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
      <form className="filters filters-short" role="search" aria-label="Filter compliance items" onSubmit={onFilter} key={status}>
        <label>
          Status
          <select name="status" defaultValue={status}>
            <option value="">Any status</option>
            <Options labels={COMPLIANCE_STATUSES} />
          </select>
        </label>
        <Button type="submit" variant="secondary">
          Apply
        </Button>
      </form>
      <p className="count" aria-live="polite">
        {register.loading ? 'Loading…' : register.data?.count === 1 ? '1 item' : `${register.data?.count ?? 0} items`}
      </p>
      <div className="table-wrap" role="region" aria-label="Compliance items" tabIndex={0}>
        <table>
          <thead>
            <tr>
              <th scope="col">Property</th>
              <th scope="col">Item</th>
              <th scope="col">Status</th>
              <th scope="col">Expires</th>
              <th scope="col">Issued by</th>
            </tr>
          </thead>
          <tbody>
            {(register.data?.data ?? []).map((i) => (
              <tr key={i.uuid}>
                <td>{i.address}</td>
                <td>{i.type_name}</td>
                <td>{COMPLIANCE_STATUSES[i.status] ?? i.status}</td>
                <td>{i.expires_on_text ?? (i.certificate_uuid ? 'No expiry' : '')}</td>
                <td>{i.contractor_name ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager page={p} pages={pageCount(register.data?.count ?? 0)} onPage={(page) => go({ page })} />

      <section aria-labelledby="maintenance-schedules">
        <h2 id="maintenance-schedules">Planned maintenance</h2>
        <ProblemMessage problem={schedules.problem} onRetry={schedules.reload} />
        <p className="count" aria-live="polite">
          {schedules.loading ? 'Loading…' : schedules.data?.count === 1 ? '1 schedule' : `${schedules.data?.count ?? 0} schedules`}
        </p>
        <div className="table-wrap" role="region" aria-label="Planned maintenance schedules" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Schedule</th>
                <th scope="col">Properties</th>
                <th scope="col">Contractor</th>
                <th scope="col">Next due (job raised)</th>
              </tr>
            </thead>
            <tbody>
              {(schedules.data?.data ?? []).map((s) => (
                <tr key={s.uuid}>
                  <td>
                    {s.title}
                    <br />
                    <small>{s.rrule}</small>
                  </td>
                  <td>{s.address ?? `Every property with a ${s.type_name ?? s.type} item`}</td>
                  <td>{s.contractor_name ?? 'Not assigned'}</td>
                  <td>
                    <ul className="plain-list">
                      {s.next.map((n) => (
                        <li key={n.due_on}>
                          {n.due_on_text} (raised {formatDate(n.raise_on)})
                        </li>
                      ))}
                    </ul>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </>
  );
}
