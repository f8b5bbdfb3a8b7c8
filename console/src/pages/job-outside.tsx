/**
 * People outside the agency on the job page (docs/works-orders.md), for staff holding
 * `api.works-orders.manage` / `api.quote-requests.manage`: the job's signed links (works orders
 * and invitations to quote) with their state, a button to send the works order to the job's
 * contractor (POST /api/jobs/{uuid}/works-order) and one to withdraw a live link
 * (POST /api/works-order-links/{uuid}/revoke); and the job's requests for competing quotes side by
 * side (GET /api/jobs/{uuid}/quote-requests), cheapest first, with a button to award one
 * (POST /api/quote-requests/{uuid}/award). The tokens never reach the console.
 */
import { api } from '../api.ts';
import { useSession } from '../session.tsx';
import { Button, formatDateTime, formatPence, ProblemMessage, useAction, useLoad } from '../ui.tsx';

const LINK_STATES: Record<string, string> = { live: 'Live', used: 'Used', revoked: 'Withdrawn', expired: 'Expired' };
const ENTRY_STATES: Record<string, string> = { invited: 'Asked', quoted: 'Quoted', declined: 'Cannot quote', awarded: 'Awarded', not_awarded: 'Not chosen' };

/** Works-order links of the job with send and withdraw buttons; nothing without the key. */
export function WorksOrderLinks({ jobUuid, hasContractor }: { jobUuid: string; hasContractor: boolean }) {
  const session = useSession();
  const allowed = session.permissions.has('api.works-orders.manage');
  const links = useLoad(['jobs', jobUuid, 'works-order-links', allowed], async () =>
    allowed ? (await api.GET('/api/jobs/{uuid}/works-order-links', { params: { path: { uuid: jobUuid } } })).data!.data : [],
  );
  const action = useAction();
  if (!allowed) return null;
  const send = () =>
    void action.run(async () => {
      await api.POST('/api/jobs/{uuid}/works-order', { params: { path: { uuid: jobUuid } }, body: {} });
      links.reload();
    });
  const revoke = (uuid: string) =>
    void action.run(async () => {
      await api.POST('/api/works-order-links/{uuid}/revoke', { params: { path: { uuid } }, body: {} });
      links.reload();
    });
  return (
    <section aria-labelledby="links">
      <h2 id="links">Links sent to contractors</h2>
      <ProblemMessage problem={links.problem ?? action.problem} onRetry={links.reload} />
      {(links.data ?? []).length === 0 ? <p>No works order or invitation to quote sent by link.</p> : null}
      <ul className="documents">
        {(links.data ?? []).map((l) => (
          <li key={l.uuid}>
            {l.purpose === 'works_order' ? 'Works order' : 'Invitation to quote'} to {l.contractor_name}: {LINK_STATES[l.state] ?? l.state}, until{' '}
            {formatDateTime(l.expires_at)}
            {l.last_used_at ? `, last used ${formatDateTime(l.last_used_at)}` : ''}{' '}
            {l.state === 'live' ? (
              <Button variant="danger" onPress={() => revoke(l.uuid)} isDisabled={action.busy} aria-label={`Withdraw the link of ${l.contractor_name}`}>
                Withdraw
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
      {hasContractor ? (
        <Button variant="secondary" onPress={send} isDisabled={action.busy}>
          Send the works order by link
        </Button>
      ) : null}
    </section>
  );
}

/** The job's requests for competing quotes, side by side, with the award button. */
export function QuoteRequests({ jobUuid }: { jobUuid: string }) {
  const session = useSession();
  const allowed = session.permissions.has('api.quote-requests.manage');
  const requests = useLoad(['jobs', jobUuid, 'quote-requests', allowed], async () =>
    allowed ? (await api.GET('/api/jobs/{uuid}/quote-requests', { params: { path: { uuid: jobUuid } } })).data!.data : [],
  );
  const action = useAction();
  if (!allowed || (requests.data ?? []).length === 0) return null;
  const award = (requestUuid: string, quoteUuid: string) =>
    void action.run(async () => {
      await api.POST('/api/quote-requests/{uuid}/award', { params: { path: { uuid: requestUuid } }, body: { quote_uuid: quoteUuid } });
      requests.reload();
    });
  return (
    <section aria-labelledby="quote-requests">
      <h2 id="quote-requests">Competing quotes</h2>
      <ProblemMessage problem={requests.problem ?? action.problem} onRetry={requests.reload} />
      {(requests.data ?? []).map((r) => (
        <div key={r.uuid}>
          <p>
            {r.status === 'open' ? 'Open' : r.status === 'awarded' ? 'Awarded' : 'Cancelled'}; answers by {formatDateTime(r.deadline_at)}
            {r.past_deadline && r.status === 'open' ? ' (deadline passed)' : ''}
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
                  <td>{ENTRY_STATES[e.status] ?? e.status}</td>
                  <td>{e.net_pence === null ? '-' : formatPence(e.net_pence)}</td>
                  <td>{e.vat_pence === null ? '-' : formatPence(e.vat_pence)}</td>
                  <td>{e.gross_pence === null ? '-' : formatPence(e.gross_pence)}</td>
                  <td>{e.notes ?? ''}</td>
                  <td>
                    {r.status === 'open' && e.quote_uuid && e.quote_status === 'submitted' && session.permissions.has('api.quotes.approve') ? (
                      <Button onPress={() => award(r.uuid, e.quote_uuid!)} isDisabled={action.busy} aria-label={`Award to ${e.contractor_name}`}>
                        Award
                      </Button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          </div>
        </div>
      ))}
    </section>
  );
}
