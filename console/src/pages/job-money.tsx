/**
 * Quotes and invoices of a job on the job page (docs/money.md), for whoever holds
 * `api.quotes.manage` / `api.invoices.view` (staff and the job's contractor): the job's quotes
 * (GET /api/jobs/{uuid}/quotes) and invoices (GET /api/invoices?job_uuid=) with status and gross,
 * and a one-line form that submits a quote (POST /api/jobs/{uuid}/quotes, before Completed) or a
 * draft invoice (POST /api/invoices, on a Completed or Invoiced job). Amounts are typed in pounds
 * and sent as pence ex VAT; the server computes the VAT.
 */
import { useState, type FormEvent } from 'react';
import { api } from '../api.ts';
import { moneyActions, poundsToPence } from '../logic/money.ts';
import { useSession } from '../session.tsx';
import { Button, formatPence, Options, ProblemMessage, useAction, useLoad } from '../ui.tsx';
import { invoiceStatusLabel } from './invoices.tsx';

const VAT_RATES: Record<string, string> = { standard: 'Standard (20 %)', reduced: 'Reduced (5 %)', zero: 'Zero', exempt: 'Exempt' };

/** The money section of the job page; nothing for a caller without the quote and invoice keys. */
export function JobMoney({ jobUuid, statusId }: { jobUuid: string; statusId: number }) {
  const session = useSession();
  const canQuote = session.permissions.has('api.quotes.manage');
  const canInvoice = session.permissions.has('api.invoices.manage') && session.permissions.has('api.invoices.view');
  const quotes = useLoad(['jobs', jobUuid, 'quotes', canQuote], async () =>
    canQuote ? (await api.GET('/api/jobs/{uuid}/quotes', { params: { path: { uuid: jobUuid } } })).data!.data : [],
  );
  const invoices = useLoad(['invoices', 'job', jobUuid, canInvoice], async () =>
    canInvoice ? (await api.GET('/api/invoices', { params: { query: { job_uuid: jobUuid } } })).data!.data : [],
  );
  const allowed = moneyActions(statusId);
  const kind: 'quote' | 'invoice' | null = canQuote && allowed.quote ? 'quote' : canInvoice && allowed.invoice ? 'invoice' : null;
  if (!canQuote && !canInvoice) return null;
  const rows = [
    ...(quotes.data ?? []).map((q) => ({ key: q.uuid, what: 'Quote', status: q.status, gross: q.gross_pence })),
    ...(invoices.data ?? []).map((i) => ({
      key: i.uuid,
      what: i.invoice_number ?? 'Invoice (draft)',
      status: invoiceStatusLabel(i.status),
      gross: i.gross_pence,
    })),
  ];
  return (
    <section aria-labelledby="money">
      <h2 id="money">Quotes and invoices</h2>
      <ProblemMessage problem={quotes.problem ?? invoices.problem} onRetry={() => (quotes.reload(), invoices.reload())} />
      {rows.length === 0 ? <p>None yet.</p> : null}
      <ul className="documents">
        {rows.map((r) => (
          <li key={r.key}>
            {r.what}: {r.status}, {formatPence(r.gross)} including VAT
          </li>
        ))}
      </ul>
      {kind ? <MoneyForm kind={kind} jobUuid={jobUuid} onDone={() => (quotes.reload(), invoices.reload())} /> : null}
    </section>
  );
}

/** One line (description, quantity, unit price in pounds, VAT rate) submitted as a quote or a draft invoice. */
function MoneyForm({ kind, jobUuid, onDone }: { kind: 'quote' | 'invoice'; jobUuid: string; onDone: () => void }) {
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
      vat_rate: String(f.get('vat_rate')) as 'standard',
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
      <div className="field">
        <label htmlFor="money-vat">VAT rate</label>
        <select id="money-vat" name="vat_rate" defaultValue="standard">
          <Options labels={VAT_RATES} />
        </select>
      </div>
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
