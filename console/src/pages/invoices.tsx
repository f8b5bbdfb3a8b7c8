/**
 * The invoice list for staff (GET /api/invoices, docs/money.md): totals per status (count, gross
 * and still owed, pence shown as pounds), then the invoices and credit notes with their job,
 * contractor, dates and amounts; status filter and page in the URL (`/invoices?status=overdue&page=2`).
 */
import { Link } from 'react-router';
import { api } from '../api.ts';
import { pageCount, PAGE_SIZE } from '../logic/job-filters.ts';
import { useStatusPage } from '../logic/status-page.ts';
import { Button, formatDate, formatPence, Options, Pager, PageTitle, ProblemMessage, useLoad } from '../ui.tsx';

/** Invoice statuses (docs/money.md) and their labels. */
export const INVOICE_STATUSES: Record<string, string> = {
  draft: 'Draft',
  issued: 'Issued',
  part_paid: 'Part paid',
  overdue: 'Overdue',
  paid: 'Paid',
  void: 'Void',
};

/** The invoices page. */
export function InvoicesPage() {
  const { status, page: p, go, onFilter } = useStatusPage(INVOICE_STATUSES);
  const list = useLoad(async () => {
    const query = { limit: PAGE_SIZE, offset: (p - 1) * PAGE_SIZE, ...(status ? { status } : {}) };
    const { data } = await api.GET('/api/invoices', { params: { query: query as never } });
    return data!;
  }, [status, p]);
  const pages = pageCount(list.data?.count ?? 0);
  const totals = list.data?.totals ?? {};
  return (
    <>
      <PageTitle>Invoices</PageTitle>
      <ProblemMessage problem={list.problem} onRetry={list.reload} />
      <section aria-labelledby="invoice-totals">
        <h2 id="invoice-totals">Totals by status</h2>
        <div className="table-wrap" role="region" aria-label="Totals by status" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Status</th>
                <th scope="col">Count</th>
                <th scope="col">Gross</th>
                <th scope="col">Still owed</th>
              </tr>
            </thead>
            <tbody>
              {Object.entries(INVOICE_STATUSES)
                .filter(([k]) => totals[k])
                .map(([k, label]) => (
                  <tr key={k}>
                    <td>
                      <Link to={`/invoices?status=${k}`}>{label}</Link>
                    </td>
                    <td>{totals[k]!.count}</td>
                    <td>{formatPence(totals[k]!.gross_pence)}</td>
                    <td>{formatPence(totals[k]!.outstanding_pence)}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        </div>
      </section>
      <form className="filters filters-short" role="search" aria-label="Filter invoices" onSubmit={onFilter} key={status}>
        <label>
          Status
          <select name="status" defaultValue={status}>
            <option value="">Any status</option>
            <Options labels={INVOICE_STATUSES} />
          </select>
        </label>
        <Button type="submit" variant="secondary">
          Apply
        </Button>
      </form>
      <p className="count" aria-live="polite">
        {list.loading ? 'Loading…' : list.data?.count === 1 ? '1 invoice or credit note' : `${list.data?.count ?? 0} invoices and credit notes`}
      </p>
      <div className="table-wrap" role="region" aria-label="Invoices" tabIndex={0}>
        <table>
          <thead>
            <tr>
              <th scope="col">Number</th>
              <th scope="col">Job</th>
              <th scope="col">Contractor</th>
              <th scope="col">Status</th>
              <th scope="col">Issued</th>
              <th scope="col">Due</th>
              <th scope="col">Gross</th>
              <th scope="col">Still owed</th>
            </tr>
          </thead>
          <tbody>
            {(list.data?.data ?? []).map((i) => (
              <tr key={i.uuid}>
                <td>{i.invoice_number ?? (i.kind === 'credit_note' ? 'Credit note (draft)' : 'Draft')}</td>
                <td>
                  <Link to={`/jobs/${i.job_uuid}`}>{i.job_reference}</Link>
                </td>
                <td>{i.contractor_name}</td>
                <td>{INVOICE_STATUSES[i.status] ?? i.status}</td>
                <td>{formatDate(i.issue_date)}</td>
                <td>{formatDate(i.due_date)}</td>
                <td>{formatPence(i.gross_pence)}</td>
                <td>{formatPence(i.outstanding_pence)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager page={p} pages={pages} onPage={(page) => go({ page })} />
    </>
  );
}
