/**
 * One invoice or credit note on its own page, `/invoices/{uuid}` (docs/console.md "Invoices",
 * docs/money.md): `GET /api/invoices/{uuid}` with its lines, totals, dates and VAT facts; the PDF
 * (`/api/invoices/{uuid}/pdf`, opened in the browser's viewer); its payments
 * (`GET /api/invoices/{uuid}/payments`) and a payment recorded with amount, date, method and
 * reference (`POST /api/invoices/{uuid}/payments`, part payments allowed, `api.invoices.payments.manage`);
 * a credit note with amount, VAT rate and reason (`POST /api/invoices/{uuid}/credit-notes`);
 * issue and void of a draft (`api.invoices.issue`), and its notes and payment terms changed while
 * a draft (`PUT /api/invoices/{uuid}`, `api.invoices.manage`).
 */
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { api } from '../api.ts';
import { poundsToPence, invoiceStatusLabel } from '../logic/money.ts';
import { useSession } from '../session.tsx';
import { Button, formatDate, formatPence, PageTitle, ProblemMessage, useAction, useConfirm, useLoad } from '../ui.tsx';
import { Loaded, Notice } from './people-forms.tsx';

const METHODS = { bank_transfer: 'Bank transfer', card: 'Card', cheque: 'Cheque', cash: 'Cash', direct_debit: 'Direct debit', other: 'Other' } as const;
type Method = keyof typeof METHODS;
const VAT_RATES = { standard: 'Standard (20 %)', reduced: 'Reduced (5 %)', zero: 'Zero', exempt: 'Exempt' } as const;
type VatRate = keyof typeof VAT_RATES;

function isMethod(v: string): v is Method {
  return Object.hasOwn(METHODS, v);
}
function isVatRate(v: string): v is VatRate {
  return Object.hasOwn(VAT_RATES, v);
}

/** Today's date in London as YYYY-MM-DD. */
function todayInLondon(): string {
  return new Date().toLocaleDateString('en-CA', { timeZone: 'Europe/London' });
}

/** The invoice page. */
export function InvoicePage() {
  const { uuid = '' } = useParams();
  const session = useSession();
  const invoice = useLoad(['invoices', uuid], async () => (await api.GET('/api/invoices/{uuid}', { params: { path: { uuid } } })).data!.data);
  const payments = useLoad(['invoices', uuid, 'payments'], async () => (await api.GET('/api/invoices/{uuid}/payments', { params: { path: { uuid } } })).data!.data);
  const action = useAction();
  const { ask, dialog } = useConfirm();
  const [notice, setNotice] = useState<string | null>(null);
  const canPay = session.permissions.has('api.invoices.payments.manage');
  const canIssue = session.permissions.has('api.invoices.issue');
  const canEdit = session.permissions.has('api.invoices.manage');
  const reload = () => (invoice.reload(), payments.reload());
  const done = (text: string) => (setNotice(text), reload());

  const onPayment = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    const pence = poundsToPence(String(f.get('amount') ?? ''));
    if (pence === null || pence <= 0) return action.setProblem({ message: 'Type the amount paid in pounds, e.g. 40 or 40.00.', field: 'amount', retry: false, retryAfterSeconds: null, status: 400 });
    const method = String(f.get('method') ?? 'bank_transfer');
    const reference = String(f.get('reference') ?? '').trim();
    void action.run(async () => {
      await api.POST('/api/invoices/{uuid}/payments', {
        params: { path: { uuid } },
        body: { amount_pence: pence, paid_on: String(f.get('paid_on') || todayInLondon()), method: isMethod(method) ? method : 'other', ...(reference ? { reference } : {}) },
      });
      form.reset();
      done(`Payment of ${formatPence(pence)} recorded.`);
    });
  };

  const onCredit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    const pence = poundsToPence(String(f.get('credit_amount') ?? ''));
    if (pence === null || pence <= 0) return action.setProblem({ message: 'Type the amount to credit in pounds, before VAT.', field: 'credit_amount', retry: false, retryAfterSeconds: null, status: 400 });
    const reason = String(f.get('reason') ?? '').trim();
    const rate = String(f.get('credit_vat') ?? 'standard');
    void action.run(async () => {
      await api.POST('/api/invoices/{uuid}/credit-notes', {
        params: { path: { uuid } },
        body: { reason, lines: [{ description: reason.slice(0, 500), quantity: 1, unit_price_pence: pence, vat_rate: isVatRate(rate) ? rate : 'standard' }] },
      });
      form.reset();
      done('Credit note issued.');
    });
  };

  const onDraft = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const terms = Number(f.get('payment_terms_days'));
    const notes = String(f.get('notes') ?? '').trim();
    void action.run(async () => {
      await api.PUT('/api/invoices/{uuid}', { params: { path: { uuid } }, body: { payment_terms_days: terms, notes: notes || null } });
      done('Draft saved.');
    });
  };

  return (
    <>
      <PageTitle>{invoice.data ? (invoice.data.invoice_number ?? (invoice.data.kind === 'credit_note' ? 'Draft credit note' : 'Draft invoice')) : 'Invoice'}</PageTitle>
      <p>
        <Link to="/invoices">All invoices</Link>
      </p>
      <Notice text={notice} />
      <ProblemMessage problem={action.problem} />
      <Loaded load={invoice}>
        {(i) => {
          const owed = ['issued', 'part_paid', 'overdue'].includes(i.status) && i.outstanding_pence > 0;
          const name = i.invoice_number ?? 'this draft';
          return (
            <>
              <dl className="details">
                <dt>Status</dt>
                <dd>{invoiceStatusLabel(i.status)}</dd>
                <dt>Job</dt>
                <dd>
                  <Link to={`/jobs/${i.job_uuid}`}>{i.job_reference}</Link>
                </dd>
                <dt>Contractor</dt>
                <dd>
                  <Link to={`/contractors/${i.contractor_uuid}`}>{i.contractor_name}</Link>
                  {i.contractor_reference ? ` (their invoice ${i.contractor_reference})` : ''}
                  {i.self_billed ? ' (self-billed)' : ''}
                </dd>
                {i.credited_invoice_number ? (
                  <>
                    <dt>Credits</dt>
                    <dd>{i.credited_invoice_uuid ? <Link to={`/invoices/${i.credited_invoice_uuid}`}>{i.credited_invoice_number}</Link> : i.credited_invoice_number}</dd>
                  </>
                ) : null}
                <dt>Issued</dt>
                <dd>{i.issue_date ? formatDate(i.issue_date) : 'Not yet'}</dd>
                <dt>Due</dt>
                <dd>{i.due_date ? formatDate(i.due_date) : `${i.payment_terms_days} days after issue`}</dd>
                <dt>VAT</dt>
                <dd>{i.vat_registered ? `Registered${i.contractor_vat_number ? ` (${i.contractor_vat_number})` : ''}` : 'The contractor is not VAT-registered: no VAT'}</dd>
                {i.notes ? (
                  <>
                    <dt>Notes</dt>
                    <dd>{i.notes}</dd>
                  </>
                ) : null}
              </dl>
              {i.invoice_number ? (
                <p>
                  <a href={`/api/invoices/${i.uuid}/pdf`} target="_blank" rel="noreferrer" className="btn btn-secondary">
                    Open the PDF
                  </a>
                </p>
              ) : null}
              <div className="table-wrap" role="region" aria-label="Lines" tabIndex={0}>
                <table>
                  <caption>Lines</caption>
                  <thead>
                    <tr>
                      <th scope="col">Work or part</th>
                      <th scope="col">Quantity</th>
                      <th scope="col">Unit price</th>
                      <th scope="col">Before VAT</th>
                      <th scope="col">VAT</th>
                    </tr>
                  </thead>
                  <tbody>
                    {i.lines.map((l) => (
                      <tr key={l.position}>
                        <td>{l.description}</td>
                        <td>{l.quantity}</td>
                        <td>{formatPence(l.unit_price_pence)}</td>
                        <td>{formatPence(l.net_pence)}</td>
                        <td>{formatPence(l.vat_pence)}</td>
                      </tr>
                    ))}
                  </tbody>
                  <tfoot>
                    <tr>
                      <th scope="row" colSpan={3}>
                        Total
                      </th>
                      <td>{formatPence(i.net_pence)}</td>
                      <td>{formatPence(i.vat_pence)}</td>
                    </tr>
                  </tfoot>
                </table>
              </div>
              <p className="invoice-totals">
                Gross {formatPence(i.gross_pence)} · paid {formatPence(i.paid_pence)} · credited {formatPence(i.credited_pence)} · <strong>still owed {formatPence(i.outstanding_pence)}</strong>
              </p>
              {canIssue && i.status === 'draft' ? (
                <div className="button-row">
                  <Button
                    onPress={() =>
                      ask({
                        title: `Issue ${i.kind === 'credit_note' ? 'the credit note' : 'the invoice'} of ${i.contractor_name} for ${formatPence(i.gross_pence)}?`,
                        body: 'It takes the next number and its due date; a Completed job becomes Invoiced. An issued invoice is corrected by a credit note.',
                        confirmLabel: 'Issue invoice',
                        onConfirm: () =>
                          void action.run(async () => {
                            await api.POST('/api/invoices/{uuid}/issue', { params: { path: { uuid } }, body: {} });
                            done('Issued.');
                          }),
                      })
                    }
                    isDisabled={action.busy}
                  >
                    Issue
                  </Button>
                  <Button
                    variant="danger"
                    onPress={() =>
                      ask({
                        title: `Void ${name}?`,
                        body: 'A void invoice cannot be issued or paid; the contractor may submit a new one.',
                        confirmLabel: 'Void invoice',
                        cancelLabel: 'Keep it',
                        danger: true,
                        text: { label: 'Reason (optional)' },
                        onConfirm: (reason) =>
                          void action.run(async () => {
                            await api.POST('/api/invoices/{uuid}/void', { params: { path: { uuid } }, body: reason ? { reason } : {} });
                            done('Voided.');
                          }),
                      })
                    }
                    isDisabled={action.busy}
                  >
                    Void
                  </Button>
                </div>
              ) : null}
              {canEdit && i.status === 'draft' ? (
                <form className="form" onSubmit={onDraft} key={`draft-${i.updated_at}`}>
                  <h2>Change the draft</h2>
                  <div className="field">
                    <label htmlFor="payment_terms_days">Payment terms (days after issue)</label>
                    <input id="payment_terms_days" name="payment_terms_days" type="number" min={0} max={120} defaultValue={i.payment_terms_days} />
                  </div>
                  <div className="field">
                    <label htmlFor="invoice-notes">Notes</label>
                    <textarea id="invoice-notes" name="notes" maxLength={2000} defaultValue={i.notes ?? ''} rows={3} />
                  </div>
                  <Button type="submit" variant="secondary" isDisabled={action.busy}>
                    Save draft
                  </Button>
                </form>
              ) : null}
              <section aria-labelledby="payments">
                <h2 id="payments">Payments</h2>
                <ProblemMessage problem={payments.problem} onRetry={payments.reload} />
                {payments.data && payments.data.length === 0 ? <p>No payments yet.</p> : null}
                {payments.data && payments.data.length > 0 ? (
                  <ul className="plain-list">
                    {payments.data.map((p) => (
                      <li key={p.uuid}>
                        {formatPence(p.amount_pence)} on {formatDate(p.paid_on)} by {isMethod(p.method) ? METHODS[p.method].toLowerCase() : p.method}
                        {p.reference ? ` (${p.reference})` : ''}
                        {p.recorded_by ? `, recorded by ${p.recorded_by}` : ''}
                      </li>
                    ))}
                  </ul>
                ) : null}
                {canPay && owed && i.kind !== 'credit_note' ? (
                  <form className="form" onSubmit={onPayment}>
                    <h3>Record a payment</h3>
                    <div className="field">
                      <label htmlFor="amount">Amount in pounds</label>
                      <input id="amount" name="amount" inputMode="decimal" required defaultValue={(i.outstanding_pence / 100).toFixed(2)} aria-describedby="amount-hint" />
                      <p className="hint" id="amount-hint">
                        Up to {formatPence(i.outstanding_pence)}; less is a part payment.
                      </p>
                    </div>
                    <div className="field">
                      <label htmlFor="paid_on">Paid on</label>
                      <input id="paid_on" name="paid_on" type="date" required max={todayInLondon()} defaultValue={todayInLondon()} />
                    </div>
                    <div className="field">
                      <label htmlFor="method">Method</label>
                      <select id="method" name="method" defaultValue="bank_transfer">
                        {Object.entries(METHODS).map(([k, v]) => (
                          <option key={k} value={k}>
                            {v}
                          </option>
                        ))}
                      </select>
                    </div>
                    <div className="field">
                      <label htmlFor="reference">Reference (optional)</label>
                      <input id="reference" name="reference" maxLength={100} />
                    </div>
                    <Button type="submit" isDisabled={action.busy}>
                      Record payment
                    </Button>
                  </form>
                ) : null}
              </section>
              {canIssue && owed && i.kind !== 'credit_note' ? (
                <form className="form" onSubmit={onCredit}>
                  <h2>Credit note</h2>
                  <p className="hint">Reduces what is still owed; the reason is printed on the credit note. VAT as on the invoice (none if the contractor is not VAT-registered).</p>
                  <div className="field">
                    <label htmlFor="credit_amount">Amount in pounds, before VAT</label>
                    <input id="credit_amount" name="credit_amount" inputMode="decimal" required />
                  </div>
                  {i.vat_registered ? (
                    <div className="field">
                      <label htmlFor="credit_vat">VAT rate</label>
                      <select id="credit_vat" name="credit_vat" defaultValue="standard">
                        {Object.entries(VAT_RATES).map(([k, v]) => (
                          <option key={k} value={k}>
                            {v}
                          </option>
                        ))}
                      </select>
                    </div>
                  ) : null}
                  <div className="field">
                    <label htmlFor="reason">Reason</label>
                    <input id="reason" name="reason" required maxLength={2000} />
                  </div>
                  <Button type="submit" variant="secondary" isDisabled={action.busy}>
                    Issue credit note
                  </Button>
                </form>
              ) : null}
            </>
          );
        }}
      </Loaded>
      {dialog}
    </>
  );
}
