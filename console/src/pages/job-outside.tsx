/**
 * People outside the agency on the job page (docs/works-orders.md), for staff holding
 * `api.works-orders.manage` / `api.quote-requests.manage`: the job's signed links (works orders
 * and invitations to quote) with their state, a button to send the works order to the job's
 * contractor (POST /api/jobs/{uuid}/works-order) and one to withdraw a live link
 * (POST /api/works-order-links/{uuid}/revoke); the job's requests for competing quotes are in
 * job-quote-requests.tsx (re-exported here). The tokens never reach the console.
 */
import { api } from '../api.ts';
import { useSession } from '../session.tsx';
import { Button, formatDateTime, ProblemMessage, useAction, useLoad } from '../ui.tsx';

const LINK_STATES: Record<string, string> = { live: 'Live', used: 'Used', revoked: 'Withdrawn', expired: 'Expired' };

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

/** The job's requests for competing quotes and the form to ask for them (job-quote-requests.tsx). */
export { QuoteRequests } from './job-quote-requests.tsx';
