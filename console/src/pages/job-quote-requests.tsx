/**
 * Competing quotes (docs/works-orders.md; docs/console.md "A job's hazard and competing
 * quotes"). On the job page, for staff holding `api.quote-requests.manage`: asking
 * 2 to 10 contractors for quotes by a deadline (POST /api/jobs/{uuid}/quote-requests), and the
 * job's requests (GET /api/jobs/{uuid}/quote-requests), each read on its own
 * (GET /api/quote-requests/{uuid}) so "Check for answers" re-reads only it: its invitations'
 * state side by side, cheapest quote first, with a button to award one
 * (POST /api/quote-requests/{uuid}/award, `api.quotes.approve`). For a contractor holding
 * `api.quote-requests.respond`, the page /quote-requests: its open invitations
 * (GET /api/quote-requests/invitations), each answered with a priced line or declined
 * (POST /api/quote-requests/{uuid}/answer).
 */
import { useState, type FormEvent } from 'react';
import { api } from '../api.ts';
import { poundsToPence } from '../logic/money.ts';
import { useSession } from '../session.tsx';
import type { RequestBody } from '../types.ts';
import { Button, formatLondonDate, formatLondonDateTime, formatPence, PageTitle, ProblemMessage, useAction, useConfirm, useLoad } from '../ui.tsx';
import { Labelled } from './labelled.tsx';
import { Notice } from './people-forms.tsx';

const ENTRY_STATES: Record<string, string> = { invited: 'Asked, no answer yet', quoted: 'Quoted', declined: 'Cannot quote', awarded: 'Awarded', not_awarded: 'Not chosen' };
const REQUEST_STATES: Record<string, string> = { open: 'Open', awarded: 'Awarded', cancelled: 'Cancelled' };
const INVITATION_STATES: Record<string, string> = { invited: 'Waiting for your answer', quoted: 'You sent a quote', declined: 'You could not quote' };
type VatRate = NonNullable<RequestBody<'/api/quote-requests/{uuid}/answer', 'post'>['lines']>[number]['vat_rate'];
const VAT_RATES: Record<VatRate, string> = { standard: 'Standard (20 %)', reduced: 'Reduced (5 %)', zero: 'Zero', exempt: 'Exempt' };

/** YYYY-MM-DD of the London day `days` from today (the deadline field's default). */
function londonDayIn(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toLocaleDateString('en-CA', { timeZone: 'Europe/London' });
}

/**
 * The job's competing quotes for staff: the requests, then the form to ask again when none is
 * open; nothing without `api.quote-requests.manage`.
 * @param jobUuid the job's uuid
 */
export function QuoteRequests({ jobUuid }: { jobUuid: string }) {
  const session = useSession();
  const allowed = session.permissions.has('api.quote-requests.manage');
  const requests = useLoad(['jobs', jobUuid, 'quote-requests', allowed], async () =>
    allowed ? (await api.GET('/api/jobs/{uuid}/quote-requests', { params: { path: { uuid: jobUuid } } })).data!.data : [],
  );
  const [done, setDone] = useState<string | null>(null);
  if (!allowed) return null;
  const list = requests.data ?? [];
  return (
    <section aria-labelledby="quote-requests">
      <h2 id="quote-requests">Competing quotes</h2>
      <ProblemMessage problem={requests.problem} onRetry={requests.reload} />
      <Notice text={done} />
      {requests.data && list.length === 0 ? <p>No contractors asked to quote yet. Ask two or more below to compare their prices.</p> : null}
      {list.map((r) => (
        <QuoteRequestCard key={r.uuid} requestUuid={r.uuid} onChanged={requests.reload} />
      ))}
      {requests.data && !list.some((r) => r.status === 'open') ? (
        <AskForQuotes
          jobUuid={jobUuid}
          onSent={(names) => {
            setDone(`Asked ${names} to quote.`);
            requests.reload();
          }}
        />
      ) : null}
    </section>
  );
}

/** One request for quotes, read on its own: state, deadline, the contractors' answers side by side, award. */
function QuoteRequestCard({ requestUuid, onChanged }: { requestUuid: string; onChanged: () => void }) {
  const session = useSession();
  const request = useLoad(['quote-requests', requestUuid], async () => (await api.GET('/api/quote-requests/{uuid}', { params: { path: { uuid: requestUuid } } })).data!.data);
  const action = useAction();
  const r = request.data;
  if (!r) return <ProblemMessage problem={request.problem} onRetry={request.reload} />;
  const award = (quoteUuid: string) =>
    void action.run(async () => {
      await api.POST('/api/quote-requests/{uuid}/award', { params: { path: { uuid: requestUuid } }, body: { quote_uuid: quoteUuid } });
      request.reload();
      onChanged();
    });
  return (
    <div className="quote-request">
      <ProblemMessage problem={action.problem ?? request.problem} onRetry={request.reload} />
      <p>
        {REQUEST_STATES[r.status] ?? r.status}: asked {formatLondonDate(r.created_at)}, answers by {formatLondonDateTime(r.deadline_at)}
        {r.past_deadline && r.status === 'open' ? ' (deadline passed)' : ''}.{r.notes ? ` Notes to the contractors: ${r.notes}` : ''}
      </p>
      <div className="table-wrap" role="region" aria-label="Quotes side by side" tabIndex={0}>
        <table>
          <thead>
            <tr>
              <th scope="col">Rank</th>
              <th scope="col">Contractor</th>
              <th scope="col">Answer</th>
              <th scope="col">Net</th>
              <th scope="col">VAT</th>
              <th scope="col">Total</th>
              <th scope="col">Notes</th>
              <th scope="col">Award</th>
            </tr>
          </thead>
          <tbody>
            {r.entries.map((e) => (
              <tr key={e.contractor_uuid}>
                <td>{e.rank ?? '-'}</td>
                <td>{e.contractor_name}</td>
                <td>
                  {ENTRY_STATES[e.status] ?? e.status}
                  {e.responded_at ? ` (${formatLondonDate(e.responded_at)})` : ''}
                </td>
                <td>{e.net_pence === null ? '-' : formatPence(e.net_pence)}</td>
                <td>{e.vat_pence === null ? '-' : formatPence(e.vat_pence)}</td>
                <td>{e.gross_pence === null ? '-' : formatPence(e.gross_pence)}</td>
                <td>{e.notes ?? ''}</td>
                <td>
                  {r.status === 'open' && e.quote_uuid && e.quote_status === 'submitted' && session.permissions.has('api.quotes.approve') ? (
                    <Button onPress={() => award(e.quote_uuid!)} isDisabled={action.busy} aria-label={`Award to ${e.contractor_name}`}>
                      Award
                    </Button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {r.status === 'open' ? (
        <Button variant="secondary" onPress={request.reload} isDisabled={request.loading}>
          Check for answers
        </Button>
      ) : null}
    </div>
  );
}

/** The form asking several contractors for quotes: the active contractors with an e-mail address, a deadline day, notes. */
function AskForQuotes({ jobUuid, onSent }: { jobUuid: string; onSent: (names: string) => void }) {
  const contractors = useLoad(['contractors', 'active', 100], async () => (await api.GET('/api/contractors', { params: { query: { active: true, limit: 100 } } })).data!.data);
  const action = useAction();
  const reachable = (contractors.data ?? []).filter((c) => c.active && c.email);
  const send = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    const chosen = f.getAll('contractor').map(String);
    const day = String(f.get('deadline') ?? '');
    const notes = String(f.get('notes') ?? '').trim();
    if (chosen.length < 2) {
      action.setProblem({ message: 'Tick at least two contractors to compare their quotes.', field: 'contractor_uuids', retry: false, retryAfterSeconds: null, status: 400 });
      return;
    }
    // Answers until 17:00 (the browser's time) on the day chosen.
    const deadline = day ? new Date(`${day}T17:00:00`).toISOString() : '';
    const names = reachable.filter((c) => chosen.includes(c.uuid)).map((c) => c.company_name);
    void action.run(async () => {
      await api.POST('/api/jobs/{uuid}/quote-requests', { params: { path: { uuid: jobUuid } }, body: { contractor_uuids: chosen, deadline_at: deadline, ...(notes ? { notes } : {}) } });
      form.reset();
      onSent(names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : names.join(''));
    });
  };
  return (
    <form className="form" onSubmit={send} aria-label="Ask for competing quotes">
      <h3>Ask for competing quotes</h3>
      <ProblemMessage problem={action.problem ?? contractors.problem} onRetry={contractors.reload} />
      {contractors.data && reachable.length < 2 ? <p>Two or more active contractors with an e-mail address are needed; add them under Contractors.</p> : null}
      <fieldset>
        <legend>Contractors to ask (2 to 10)</legend>
        {reachable.map((c) => (
          <label key={c.uuid} className="checkbox-native">
            <input type="checkbox" name="contractor" value={c.uuid} /> {c.company_name}
            {c.trades.length ? ` (${c.trades.join(', ')})` : ''}
          </label>
        ))}
      </fieldset>
      <Labelled label="Answers by" hint="Until 17:00 on that day; at most 60 days ahead." required>
        {(id, describedBy) => <input id={id} name="deadline" type="date" required min={londonDayIn(0)} max={londonDayIn(60)} defaultValue={londonDayIn(7)} aria-describedby={describedBy} />}
      </Labelled>
      <Labelled label="Notes for the contractors">
        {(id) => <textarea id={id} name="notes" rows={2} maxLength={2000} />}
      </Labelled>
      <div className="button-row">
        <Button type="submit" isDisabled={action.busy || reachable.length < 2}>
          Ask for quotes
        </Button>
      </div>
    </form>
  );
}

/**
 * /quote-requests for a contractor: the requests for a quote sent to its account, earliest
 * deadline first, each answered with a priced line (and notes) or declined with a reason.
 */
export function QuoteInvitationsPage() {
  const invitations = useLoad(['quote-requests', 'invitations'], async () => (await api.GET('/api/quote-requests/invitations')).data!.data);
  const [done, setDone] = useState<string | null>(null);
  const list = invitations.data ?? [];
  return (
    <>
      <PageTitle>Quote requests</PageTitle>
      <ProblemMessage problem={invitations.problem} onRetry={invitations.reload} />
      <Notice text={done} />
      {invitations.data && list.length === 0 ? <p>No requests for a quote at the moment. When an agency asks you to quote, the request shows here and in your e-mail.</p> : null}
      {list.map((i) => (
        <section key={i.quote_request_uuid} aria-labelledby={`qr-${i.quote_request_uuid}`} className="quote-invitation">
          <h2 id={`qr-${i.quote_request_uuid}`}>
            {i.job_reference}: {i.job_title}
          </h2>
          <dl className="details">
            <dt>Property</dt>
            <dd>{i.address ?? '-'}</dd>
            <dt>Answer by</dt>
            <dd>{formatLondonDateTime(i.deadline_at)}</dd>
            <dt>State</dt>
            <dd>{INVITATION_STATES[i.status] ?? i.status}</dd>
          </dl>
          {i.job_description ? <p className="description">{i.job_description}</p> : null}
          {i.notes ? <p>Notes from the agency: {i.notes}</p> : null}
          {i.status === 'invited' ? (
            <AnswerForm
              requestUuid={i.quote_request_uuid}
              reference={i.job_reference}
              onAnswered={(text) => {
                setDone(text);
                invitations.reload();
              }}
            />
          ) : null}
        </section>
      ))}
    </>
  );
}

/** A contractor's answer to one request: a priced line with VAT rate and notes, or "Cannot quote" (asked first). */
function AnswerForm({ requestUuid, reference, onAnswered }: { requestUuid: string; reference: string; onAnswered: (text: string) => void }) {
  const action = useAction();
  const { ask, dialog } = useConfirm();
  const path = { params: { path: { uuid: requestUuid } } };
  const quote = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const pence = poundsToPence(String(f.get('price') ?? ''));
    if (pence === null) {
      action.setProblem({ message: 'Please check the price: pounds and pence, such as 1250.00.', field: 'unit_price_pence', retry: false, retryAfterSeconds: null, status: 400 });
      return;
    }
    const notes = String(f.get('notes') ?? '').trim();
    const rate = String(f.get('vat_rate'));
    const vatRate: VatRate = rate === 'reduced' || rate === 'zero' || rate === 'exempt' ? rate : 'standard';
    void action.run(async () => {
      await api.POST('/api/quote-requests/{uuid}/answer', {
        ...path,
        body: { lines: [{ description: String(f.get('description') ?? ''), quantity: Number(f.get('quantity') || 1), unit_price_pence: pence, vat_rate: vatRate }], ...(notes ? { notes } : {}) },
      });
      onAnswered(`Your quote for ${reference} was sent.`);
    });
  };
  const decline = () =>
    ask({
      title: `Decline to quote for ${reference}?`,
      body: 'The agency is told you cannot quote; you cannot answer this request again.',
      confirmLabel: 'Decline to quote',
      cancelLabel: 'Keep the request',
      danger: true,
      text: { label: 'Why you cannot quote (optional)' },
      onConfirm: (reason) =>
        void action.run(async () => {
          await api.POST('/api/quote-requests/{uuid}/answer', { ...path, body: { decline: true, ...(reason.trim() ? { reason: reason.trim() } : {}) } });
          onAnswered(`You declined to quote for ${reference}.`);
        }),
    });
  return (
    <>
      {dialog}
      <ProblemMessage problem={action.problem} />
      <form className="form" onSubmit={quote} aria-label={`Your quote for ${reference}`}>
        <Labelled label="Work quoted for" required>
          {(id) => <input id={id} name="description" required maxLength={500} />}
        </Labelled>
        <Labelled label="Quantity" required>
          {(id) => <input id={id} name="quantity" type="number" required min={0.001} step={0.001} defaultValue={1} />}
        </Labelled>
        <Labelled label="Unit price before VAT (£)" required>
          {(id) => <input id={id} name="price" inputMode="decimal" required />}
        </Labelled>
        <Labelled label="VAT rate">
          {(id) => (
            <select id={id} name="vat_rate" defaultValue="standard">
              {Object.entries(VAT_RATES).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </Labelled>
        <Labelled label="Notes for the agency">
          {(id) => <textarea id={id} name="notes" rows={2} maxLength={2000} />}
        </Labelled>
        <div className="button-row">
          <Button type="submit" isDisabled={action.busy}>
            Send quote
          </Button>
        </div>
      </form>
      <div className="button-row">
        <Button variant="danger" onPress={decline} isDisabled={action.busy}>
          Cannot quote
        </Button>
      </div>
    </>
  );
}
