/**
 * Quotes and invoices of a job on the job page (docs/money.md), for whoever holds
 * `api.quotes.manage` / `api.invoices.view` (staff and the job's contractor): the job's quotes
 * (GET /api/jobs/{uuid}/quotes) and invoices (GET /api/invoices?job_uuid=) with status and gross,
 * and a one-line form that submits a quote (POST /api/jobs/{uuid}/quotes, before Completed) or a
 * draft invoice (POST /api/invoices, on a Completed or Invoiced job). Amounts are typed in pounds
 * and sent as pence ex VAT; the server computes the VAT (none for a contractor not registered for
 * VAT: the form then offers no rate and every total says "no VAT"). Staff with
 * `api.quotes.approve` compare the quotes side by side and approve or reject a submitted one
 * (POST .../quotes/{quote_uuid}/approve or /reject, with an internal note); the invoices link to
 * their own page (/invoices/{uuid}).
 */
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api } from '../api.ts';
import { moneyActions, poundsToPence, invoiceStatusLabel } from '../logic/money.ts';
import { useSession } from '../session.tsx';
import { Button, formatPence, Options, ProblemMessage, useAction, useConfirm, useLoad } from '../ui.tsx';
import { QuoteDetail } from './job-manage.tsx';

type VatRate = 'standard' | 'reduced' | 'zero' | 'exempt';
const VAT_RATES: Record<VatRate, string> = { standard: 'Standard (20 %)', reduced: 'Reduced (5 %)', zero: 'Zero', exempt: 'Exempt' };

/** The VAT rate code chosen in the select (standard when it is not one of VAT_RATES). */
function vatRateOf(value: string): VatRate {
  return Object.hasOwn(VAT_RATES, value) ? (value as VatRate) : 'standard';
}

/** "£96.00 including VAT", or "£80.00, no VAT (not VAT-registered)": never a silent drop of the VAT. */
function grossWords(gross: number, vatRegistered: boolean): string {
  return vatRegistered ? `${formatPence(gross)} including VAT` : `${formatPence(gross)}, no VAT (not VAT-registered)`;
}

/**
 * The money section of the job page; nothing for a caller without the quote and invoice keys.
 * Staff holding `api.quotes.approve` approve or reject a submitted quote here (the reason is the
 * agency's internal note, never shown to the contractor); several quotes are compared side by side.
 */
export function JobMoney({ jobUuid, statusId, contractorUuid = null }: { jobUuid: string; statusId: number; contractorUuid?: string | null }) {
  const session = useSession();
  const canQuote = session.permissions.has('api.quotes.manage');
  const canInvoice = session.permissions.has('api.invoices.manage') && session.permissions.has('api.invoices.view');
  const canDecide = session.party === 'staff' && session.permissions.has('api.quotes.approve');
  const seesPricing = session.party === 'staff' && session.permissions.has('api.pricing.view');
  const quotes = useLoad(['jobs', jobUuid, 'quotes', canQuote], async () =>
    canQuote ? (await api.GET('/api/jobs/{uuid}/quotes', { params: { path: { uuid: jobUuid } } })).data!.data : [],
  );
  const invoices = useLoad(['invoices', 'job', jobUuid, canInvoice], async () =>
    canInvoice ? (await api.GET('/api/invoices', { params: { query: { job_uuid: jobUuid } } })).data!.data : [],
  );
  // Whether the job's contractor charges VAT (staff read it; a contractor's own earlier quotes say it).
  const vat = useLoad(['pricing', 'contractor-vat', contractorUuid, seesPricing], async () =>
    seesPricing && contractorUuid ? (await api.GET('/api/pricing/contractors/{uuid}/vat', { params: { path: { uuid: contractorUuid } } })).data!.data.registered : null,
  );
  const vatRegistered: boolean | null = vat.data ?? quotes.data?.[0]?.vat_registered ?? null;
  const action = useAction();
  const { ask, dialog } = useConfirm();
  const [decided, setDecided] = useState<string | null>(null);
  const [shown, setShown] = useState<string | null>(null);
  const allowed = moneyActions(statusId);
  const kind: 'quote' | 'invoice' | null = canQuote && allowed.quote ? 'quote' : canInvoice && allowed.invoice ? 'invoice' : null;
  if (!canQuote && !canInvoice) return null;
  type Quote = NonNullable<typeof quotes.data>[number];
  const decide = (q: Quote, decision: 'approve' | 'reject') =>
    ask({
      title: `${decision === 'approve' ? 'Approve' : 'Reject'} the quote of ${q.contractor_name} for ${formatPence(q.gross_pence)}?`,
      body:
        decision === 'approve'
          ? 'The job gets this agreed cost and moves to Approved; any other open quote on it is rejected.'
          : 'The contractor sees that the quote was rejected.',
      text: { label: 'Internal note (optional, not shown to the contractor)' },
      confirmLabel: decision === 'approve' ? 'Approve quote' : 'Reject quote',
      danger: decision === 'reject',
      onConfirm: (reason) =>
        void action.run(async () => {
          const path = { params: { path: { uuid: jobUuid, quote_uuid: q.uuid } }, body: reason.trim() ? { reason: reason.trim() } : {} };
          if (decision === 'approve') await api.POST('/api/jobs/{uuid}/quotes/{quote_uuid}/approve', path);
          else await api.POST('/api/jobs/{uuid}/quotes/{quote_uuid}/reject', path);
          setDecided(`Quote of ${q.contractor_name} ${decision === 'approve' ? 'approved' : 'rejected'}.`);
          quotes.reload();
        }),
    });
  const quoteRows = quotes.data ?? [];
  return (
    <section aria-labelledby="money">
      <h2 id="money">Quotes and invoices</h2>
      <ProblemMessage problem={quotes.problem ?? invoices.problem} onRetry={() => (quotes.reload(), invoices.reload())} />
      {quoteRows.length === 0 && (invoices.data ?? []).length === 0 ? <p>None yet.</p> : null}
      {quoteRows.length > 0 ? (
        <div className="table-wrap" role="region" aria-label="Quotes" tabIndex={0}>
          <table className="quotes">
            <caption>{quoteRows.length > 1 ? `${quoteRows.length} quotes, side by side` : 'Quote'}</caption>
            <thead>
              <tr>
                <th scope="col">Contractor</th>
                <th scope="col">Work</th>
                <th scope="col">Status</th>
                <th scope="col">Before VAT</th>
                <th scope="col">VAT</th>
                <th scope="col">Total</th>
                {canDecide ? <th scope="col">Decision</th> : null}
              </tr>
            </thead>
            <tbody>
              {quoteRows.map((q) => (
                <tr key={q.uuid}>
                  <td>{q.contractor_name}</td>
                  <td>
                    {q.lines.map((l) => l.description).join('; ')}{' '}
                    <Button variant="secondary" onPress={() => setShown(shown === q.uuid ? null : q.uuid)} aria-expanded={shown === q.uuid} aria-label={`${shown === q.uuid ? 'Hide lines' : 'Lines'} of the quote of ${q.contractor_name}`}>
                      {shown === q.uuid ? 'Hide lines' : 'Lines'}
                    </Button>
                  </td>
                  <td>
                    {QUOTE_STATUSES[q.status] ?? q.status}
                    {canDecide && q.decision_reason ? <span className="hint"> ({q.decision_reason})</span> : null}
                  </td>
                  <td>{formatPence(q.net_pence)}</td>
                  <td>{q.vat_registered ? formatPence(q.vat_pence) : 'No VAT (not VAT-registered)'}</td>
                  <td>{formatPence(q.gross_pence)}</td>
                  {canDecide ? (
                    <td>
                      {q.status === 'submitted' ? (
                        <span className="button-row">
                          <Button onPress={() => decide(q, 'approve')} isDisabled={action.busy} aria-label={`Approve the quote of ${q.contractor_name}`}>
                            Approve
                          </Button>
                          <Button variant="secondary" onPress={() => decide(q, 'reject')} isDisabled={action.busy} aria-label={`Reject the quote of ${q.contractor_name}`}>
                            Reject
                          </Button>
                        </span>
                      ) : (
                        'Decided'
                      )}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {shown && quoteRows.some((q) => q.uuid === shown) ? <QuoteDetail jobUuid={jobUuid} quoteUuid={shown} /> : null}
      <ProblemMessage problem={action.problem} />
      {decided ? (
        <p className="notice" role="status">
          {decided}
        </p>
      ) : null}
      <ul className="documents">
        {(invoices.data ?? []).map((i) => (
          <li key={i.uuid}>
            <Link to={`/invoices/${i.uuid}`}>{i.invoice_number ?? (i.kind === 'credit_note' ? 'Credit note (draft)' : 'Invoice (draft)')}</Link>: {invoiceStatusLabel(i.status)},{' '}
            {grossWords(i.gross_pence, i.vat_registered)}
          </li>
        ))}
      </ul>
      {kind ? <MoneyForm kind={kind} jobUuid={jobUuid} vatRegistered={vatRegistered} onDone={() => (quotes.reload(), invoices.reload())} /> : null}
      {dialog}
    </section>
  );
}

const QUOTE_STATUSES: Record<string, string> = { submitted: 'Waiting for a decision', approved: 'Approved', rejected: 'Rejected' };

/** One line (description, quantity, unit price in pounds, VAT rate) submitted as a quote or a draft invoice. */
function MoneyForm({ kind, jobUuid, vatRegistered, onDone }: { kind: 'quote' | 'invoice'; jobUuid: string; vatRegistered: boolean | null; onDone: () => void }) {
  const action = useAction();
  const [done, setDone] = useState<string | null>(null);
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    const pence = poundsToPence(String(f.get('price') ?? ''));
    if (pence === null) {
      action.setProblem({ message: 'Enter the price in pounds, such as 79.50.', field: 'price', retry: false, retryAfterSeconds: null, status: 400 });
      return;
    }
    const line = {
      description: String(f.get('description') ?? ''),
      quantity: Number(f.get('quantity') ?? 1),
      unit_price_pence: pence,
      // A contractor who is not VAT-registered charges none: the API applies 0 % whatever the code
      // (and the rate of the code again if they register before the invoice is issued).
      vat_rate: vatRegistered === false ? ('standard' as const) : vatRateOf(String(f.get('vat_rate'))),
    };
    setDone(null);
    void action.run(async () => {
      if (kind === 'quote') await api.POST('/api/jobs/{uuid}/quotes', { params: { path: { uuid: jobUuid } }, body: { lines: [line] } });
      else {
        // The contractor's own invoice number and date (HMRC VAT Notice 700, 16.3): given, the
        // invoice is theirs; left empty, the agency self-bills under a recorded agreement.
        const reference = String(f.get('contractor_reference') ?? '').trim();
        const dated = String(f.get('supplier_invoice_date') ?? '');
        await api.POST('/api/invoices', {
          body: { job_uuid: jobUuid, lines: [line], ...(reference ? { contractor_reference: reference } : {}), ...(reference && dated ? { supplier_invoice_date: dated } : {}) },
        });
      }
      form.reset();
      setDone(kind === 'quote' ? 'Quote submitted.' : 'Invoice submitted as a draft for the agency to issue.');
      onDone();
    });
  };
  const field = action.problem?.field;
  const title = kind === 'quote' ? 'Submit a quote' : 'Submit an invoice';
  return (
    <form className="form" onSubmit={onSubmit} aria-labelledby="money-form">
      <h3 id="money-form">{title}</h3>
      <div className="field">
        <label htmlFor="money-description">Work or part</label>
        <input id="money-description" name="description" required maxLength={500} />
      </div>
      <div className="field">
        <label htmlFor="money-quantity">Quantity</label>
        <input id="money-quantity" name="quantity" type="number" min="0.001" step="0.001" defaultValue="1" required />
      </div>
      <div className="field">
        <label htmlFor="money-price">Unit price in pounds, before VAT</label>
        <input id="money-price" name="price" inputMode="decimal" required aria-invalid={field === 'price' || undefined} />
        {field === 'price' ? <p className="field-error">{action.problem?.message}</p> : null}
      </div>
      {vatRegistered === false ? (
        <p className="hint">No VAT is added: the contractor is not VAT-registered.</p>
      ) : (
        <div className="field">
          <label htmlFor="money-vat">VAT rate</label>
          <select id="money-vat" name="vat_rate" defaultValue="standard" aria-describedby="money-vat-hint">
            <Options labels={VAT_RATES} />
          </select>
          <p className="hint" id="money-vat-hint">
            {vatRegistered === null ? 'If the contractor is not VAT-registered, no VAT is added whatever the rate.' : 'The contractor is VAT-registered.'}
          </p>
        </div>
      )}
      {kind === 'invoice' ? (
        <>
          <div className="field">
            <label htmlFor="money-reference">Your invoice number</label>
            <input id="money-reference" name="contractor_reference" maxLength={60} aria-describedby="money-reference-hint" />
            <p className="hint" id="money-reference-hint">
              Leave it empty if the agency writes your invoice for you (self-billing).
            </p>
          </div>
          <div className="field">
            <label htmlFor="money-date">Date on your invoice</label>
            <input id="money-date" name="supplier_invoice_date" type="date" />
          </div>
        </>
      ) : null}
      {field !== 'price' ? <ProblemMessage problem={action.problem} /> : null}
      {done ? (
        <p className="notice" role="status">
          {done}
        </p>
      ) : null}
      <Button type="submit" isDisabled={action.busy}>
        {title}
      </Button>
    </form>
  );
}
