/**
 * The invoice list for staff (GET /api/invoices, docs/money.md): totals per status (count, gross
 * and still owed, pence shown as pounds), then the invoices and credit notes with their job,
 * contractor, dates and amounts; status filter, page and column sort in the URL
 * (`/invoices?status=overdue&page=2&sort=due_date&order=asc`). GET /api/invoices sorts them
 * (`sort` and `order`, docs/api.md) across every page; a new sort goes back to page 1.
 * Each row's next steps for whoever holds the keys (docs/money.md): issue or void a draft
 * (`api.invoices.issue`), mark an issued one paid in full today by bank transfer
 * (`POST /api/invoices/{uuid}/payments`, `api.invoices.payments.manage`; a part payment, another
 * date or method on the invoice's own page, invoice.tsx), and a credit note with its required reason
 * (`POST /api/invoices/{uuid}/credit-notes`), each asked about in a dialog first.
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api.ts';
import { pageCount, PAGE_SIZE } from '../logic/job-filters.ts';
import { useStatusPage } from '../logic/status-page.ts';
import { apiSortQuery } from '../logic/sort.ts';
import { useUrlTable } from '../logic/url-table.ts';
import { useSession } from '../session.tsx';
import { Button, formatDate, formatPence, Options, Pager, PageTitle, ProblemMessage, useAction, useConfirm, useLoad } from '../ui.tsx';
import { DataTable } from '../table.tsx';
import { INVOICE_STATUSES, invoiceStatusLabel } from '../logic/money.ts';
import type { SortOf } from '../types.ts';


/** Today's date in London as YYYY-MM-DD (a payment's paid_on). */
function todayInLondon(): string {
  return new Date().toLocaleDateString('en-CA', { timeZone: 'Europe/London' });
}


/** The columns GET /api/invoices sorts by (its `sort` values, docs/api.md). */
const INVOICE_SORTS: readonly SortOf<'/api/invoices'>[] = [
  'invoice_number',
  'contractor_name',
  'job_reference',
  'status',
  'issue_date',
  'due_date',
  'gross_pence',
  'outstanding_pence',
];

/** The invoices page. */
export function InvoicesPage() {
  const { status, page: p, go, onFilter } = useStatusPage(INVOICE_STATUSES);
  const { sort, onSortChange } = useUrlTable(INVOICE_SORTS);
  const sortQuery = apiSortQuery(sort);
  const list = useLoad(['invoices', 'page', { status, p, ...sortQuery }], async () => {
    const query = { limit: PAGE_SIZE, offset: (p - 1) * PAGE_SIZE, ...(status ? { status } : {}), ...sortQuery };
    const { data } = await api.GET('/api/invoices', { params: { query: query } });
    return data!;
  });
  const pages = pageCount(list.data?.count ?? 0);
  const totals = list.data?.totals ?? {};
  const session = useSession();
  const action = useAction();
  const { ask, dialog } = useConfirm();
  const canIssue = session.permissions.has('api.invoices.issue');
  const canPay = session.permissions.has('api.invoices.payments.manage');
  const [done, setDone] = useState<string | null>(null);
  const write = (what: string, call: () => Promise<unknown>) =>
    void action.run(async () => {
      setDone(null);
      await call();
      setDone(what);
      list.reload();
    });
  type Row = NonNullable<typeof list.data>['data'][number];
  const name = (i: Row) => i.invoice_number ?? (i.kind === 'credit_note' ? 'Credit note (draft)' : 'Draft invoice');
  const rowActions = (i: Row) => {
    const path = { params: { path: { uuid: i.uuid } } };
    const owed = ['issued', 'part_paid', 'overdue'].includes(i.status) && i.outstanding_pence > 0;
    const buttons: Array<[string, () => void, 'primary' | 'secondary' | 'danger']> = [];
    if (canIssue && i.status === 'draft')
      buttons.push([
        'Issue',
        () =>
          ask({
            title: `Issue the invoice of ${i.contractor_name} for ${formatPence(i.gross_pence)}?`,
            body: 'It takes the next invoice number and its due date; a Completed job becomes Invoiced. An issued invoice is corrected by a credit note.',
            confirmLabel: 'Issue invoice',
            onConfirm: () => write(`Invoice of ${i.contractor_name} issued.`, () => api.POST('/api/invoices/{uuid}/issue', { ...path, body: {} })),
          }),
        'primary',
      ]);
    if (canPay && owed)
      buttons.push([
        'Mark paid',
        () =>
          ask({
            title: `Mark ${name(i)} paid?`,
            body: `Records a bank transfer today of ${formatPence(i.outstanding_pence)}, what is still owed. For a part payment, another date or method, open ${name(i)} instead.`,
            confirmLabel: 'Mark paid',
            onConfirm: () =>
              write(`${name(i)} marked paid.`, () =>
                api.POST('/api/invoices/{uuid}/payments', {
                  ...path,
                  body: { amount_pence: i.outstanding_pence, paid_on: todayInLondon(), method: 'bank_transfer' },
                }),
              ),
          }),
        'primary',
      ]);
    if (canIssue && i.kind !== 'credit_note' && owed)
      buttons.push([
        'Credit note',
        () =>
          ask({
            title: `Credit note against ${name(i)}`,
            body: `Reduces what is still owed (${formatPence(i.outstanding_pence)}); the reason is printed on the credit note. VAT is worked out as on the invoice (none if the contractor is not VAT registered).`,
            confirmLabel: 'Issue credit note',
            amount: { label: 'Amount in pounds, before VAT' },
            text: { label: 'Reason', required: true },
            onConfirm: (reason, pence) =>
              write(`Credit note against ${name(i)} issued.`, () =>
                api.POST('/api/invoices/{uuid}/credit-notes', {
                  ...path,
                  body: { reason, lines: [{ description: reason.slice(0, 500), quantity: 1, unit_price_pence: pence ?? 0, vat_rate: 'standard' }] },
                }),
              ),
          }),
        'secondary',
      ]);
    if (canIssue && i.status === 'draft')
      buttons.push([
        'Void',
        () =>
          ask({
            title: `Void ${name(i)}?`,
            body: 'A void invoice cannot be issued or paid; the contractor may submit a new one.',
            confirmLabel: 'Void invoice',
            cancelLabel: 'Keep it',
            danger: true,
            text: { label: 'Reason (optional)' },
            onConfirm: (reason) => write(`${name(i)} voided.`, () => api.POST('/api/invoices/{uuid}/void', { ...path, body: reason ? { reason } : {} })),
          }),
        'danger',
      ]);
    if (buttons.length === 0) return null;
    return (
      <span className="button-row">
        {buttons.map(([label, onPress, variant]) => (
          <Button key={label} variant={variant} isDisabled={action.busy} onPress={onPress} aria-label={`${label}: ${name(i)}, ${i.contractor_name}`}>
            {label}
          </Button>
        ))}
      </span>
    );
  };
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
      <ProblemMessage problem={action.problem} />
      {done ? (
        <p className="notice" role="status">
          {done}
        </p>
      ) : null}
      <DataTable<Row>
        label="Invoices"
        rowKey={(i) => i.uuid}
        rows={list.data?.data ?? []}
        sort={sort}
        onSortChange={onSortChange}
        empty={
          list.loading || list.problem ? null : status ? (
            <p>
              No {INVOICE_STATUSES[status]?.toLowerCase() ?? ''} invoices. <Link to="/invoices">Show every status</Link>.
            </p>
          ) : (
            <p>No invoices yet. A contractor's invoice appears here once they submit it for a job they completed; you then issue it and record its payment.</p>
          )
        }
        columns={[
          // Sorted by the API across every page (no sortValue: the rows arrive in order).
          { header: 'Number', sortKey: 'invoice_number', cell: (i) => <Link to={`/invoices/${i.uuid}`}>{name(i)}</Link> },
          { header: 'Contractor', key: true, sortKey: 'contractor_name', cell: (i) => i.contractor_name },
          { header: 'Job', key: true, sortKey: 'job_reference', cell: (i) => <Link to={`/jobs/${i.job_uuid}`}>{i.job_reference}</Link> },
          { header: 'Status', key: true, sortKey: 'status', cell: (i) => invoiceStatusLabel(i.status) },
          { header: 'Issued', sortKey: 'issue_date', cell: (i) => formatDate(i.issue_date) },
          { header: 'Due', key: true, sortKey: 'due_date', cell: (i) => formatDate(i.due_date) },
          { header: 'Gross', key: true, sortKey: 'gross_pence', cell: (i) => formatPence(i.gross_pence) },
          { header: 'Still owed', key: true, sortKey: 'outstanding_pence', cell: (i) => formatPence(i.outstanding_pence) },
          ...(canIssue || canPay ? [{ header: 'Next step', key: true, cell: rowActions }] : []),
        ]}
      />
      {dialog}
      <Pager page={p} pages={pages} onPage={(page) => go({ page })} />
    </>
  );
}
