/**
 * The job page for every role: details, the legal moves as buttons (logic/transitions.ts over
 * GET /api/jobs/statuses), assignment to a matched contractor with a visit slot (staff), accept
 * or decline (the assigned contractor), the history timeline, notes with their visibility, and
 * photos with previews and upload (the phone's camera on a phone), documents (job-files.tsx), the
 * conversation threads (job-conversations.tsx), and for staff the job's SLA state (docs/sla.md).
 * Accept, decline, the moves, notes and photos go through the outbox (outbox.ts): made offline,
 * they wait on the phone, are shown as waiting, and are sent when the connection is back
 * (docs/console.md "On a phone: the installable app").
 */
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { useVisitPlan } from './visit-plan.ts';
import { Link, useLocation, useParams, useSearchParams } from 'react-router';
import { useLiveEvents } from '../live.ts';
import { api } from '../api.ts';
import { PRIORITIES } from '../logic/job-filters.ts';
import { shareWords } from '../logic/landlords.ts';
import { longDate } from '../logic/recurrence.ts';
import { useSession } from '../session.tsx';
import { formatDateTime, formatLondonDateTime, PageTitle, ProblemMessage, useLoad } from '../ui.tsx';
import { CONVERSATIONS_PERMISSION, MessagesTabLabel, useConversations } from './job-threads.tsx';
import { SlaBadge, StatusBadge } from './jobs.tsx';
import { useReloadWhenSent } from './job-waiting.ts';
import { jobReads } from './job-reads.ts';
import { Actions } from './job-actions.tsx';
import { OwningAgent } from './job-agent.tsx';
import type { JobTab } from './job-tabs.tsx';

// The job page's first view is its title, details and "What next". The visit panel, the tabs
// (job-tabs.tsx) and the staff's management and hazard sections are chunks of their own, loaded
// once the first view has been painted, and each tab's contents when the tab is first shown, so
// that a job page opened first downloads only what it shows first (docs/console.md "How it is
// built and served").
const VisitPanel = lazy(async () => ({ default: (await import('./visit.tsx')).VisitPanel }));
const JobManage = lazy(async () => ({ default: (await import('./job-manage.tsx')).JobManage }));
const HazardPanel = lazy(async () => ({ default: (await import('./job-hazard.tsx')).HazardPanel }));
// The tabs (react-aria-components' Tabs, with their collection and selection code) and through
// them each tab's panel.
const JobTabs = lazy(async () => ({ default: (await import('./job-tabs.tsx')).JobTabs }));

/** Whether a job page has been painted in this tab of the browser: from then on its chunks are wanted at once (the first tab opened again shows without waiting a frame). */
let jobPainted = false;

/**
 * Its children once the page around it has been painted (a frame later: after the next animation
 * frame and a task), `fallback` (default nothing) until then and until their chunk has come: for
 * the parts of the job page below "What next", so that their chunks are asked for after the first
 * paint of the job rather than before it.
 */
function AfterFirstPaint({ children, fallback = null }: { children: ReactNode; fallback?: ReactNode }) {
  const [painted, setPainted] = useState(jobPainted);
  useEffect(() => {
    if (painted) return;
    let task: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      task = setTimeout(() => {
        jobPainted = true;
        setPainted(true);
      }, 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      if (task !== undefined) clearTimeout(task);
    };
  }, [painted]);
  return painted ? <Suspense fallback={fallback}>{children}</Suspense> : fallback;
}

const TABS = ['photos', 'notes', 'messages', 'money', 'links'];

/** The job page: details and "What next" on top, then tabs (photos and documents, notes, messages, money, links; `?tab=`). */
export function JobPage() {
  const { uuid = '' } = useParams();
  const location = useLocation();
  const flash = (location.state as { flash?: string } | null)?.flash;
  const session = useSession();
  const reads = jobReads(uuid);
  const job = useLoad(reads.job.key, reads.job.load);
  const statuses = useLoad(reads.statuses.key, reads.statuses.load);
  const history = useLoad(reads.history.key, reads.history.load);
  const [search, setSearch] = useSearchParams();
  const tab = TABS.includes(search.get('tab') ?? '') ? search.get('tab')! : 'photos';
  const setTab = (t: string) => setSearch(t === 'photos' ? {} : { tab: t }, { replace: true, state: location.state });
  const reloadAll = () => {
    job.reload();
    history.reload();
  };
  useReloadWhenSent(uuid, reloadAll);
  // Changes made by others (another agent, the contractor, the tenant) show without a reload.
  useLiveEvents(uuid, reloadAll);
  const conversations = useConversations(uuid);
  const plan = useVisitPlan(uuid);
  const messagesTab = session.permissions.has(CONVERSATIONS_PERMISSION);
  const tabs: JobTab[] = [
    { id: 'photos', label: 'Photos and documents' },
    { id: 'notes', label: 'Notes' },
    ...(messagesTab ? [{ id: 'messages', label: <MessagesTabLabel threads={conversations.threads.data} /> }] : []),
    ...(session.party !== 'tenant' ? [{ id: 'money', label: 'Quotes and invoices' }] : []),
    ...(session.party === 'staff' ? [{ id: 'links', label: 'Links' }] : []),
  ];
  const j = job.data;
  if (!j) {
    return (
      <>
        <PageTitle>{job.loading ? 'Loading job…' : 'Job'}</PageTitle>
        <ProblemMessage problem={job.problem} onRetry={job.reload} />
      </>
    );
  }
  return (
    <>
      <PageTitle>{`${j.reference}: ${j.title}`}</PageTitle>
      {flash ? (
        <p className="notice" role="status">
          {flash}
        </p>
      ) : null}
      <p>
        <Link to="/jobs">Back to the jobs</Link>
      </p>
      <div className="job-layout">
        <div>
          <section aria-labelledby="details">
            <h2 id="details">Details</h2>
            <dl className="details">
              <dt>Status</dt>
              <dd>
                <StatusBadge status={j.status} statusId={j.status_id} />
              </dd>
              {session.party === 'staff' ? (
                <>
                  <dt>SLA</dt>
                  <dd>
                    {j.sla_state && j.is_open ? (
                      <>
                        <SlaBadge state={j.sla_state} statusId={j.status_id} />
                        {j.sla_due_at && j.sla_state !== 'met' ? (
                          <>
                            {' '}
                            {j.sla_state === 'breached' ? 'was due' : 'due by'} <time dateTime={j.sla_due_at}>{formatLondonDateTime(j.sla_due_at)}</time>
                          </>
                        ) : null}
                      </>
                    ) : j.is_open ? (
                      'no SLA clock'
                    ) : (
                      'no SLA clock: the job is over'
                    )}
                  </dd>
                </>
              ) : null}
              <dt>Priority</dt>
              <dd>{PRIORITIES[j.priority] ?? 'Routine'}</dd>
              <dt>Property</dt>
              <dd>
                {j.address_uuid && session.party === 'staff' && session.permissions.has('api.addresses.view') ? (
                  <Link to={`/properties/${j.address_uuid}`}>{[j.address_line1, j.town, j.postcode].filter(Boolean).join(', ')}</Link>
                ) : (
                  [j.address_line1, j.town, j.postcode].filter(Boolean).join(', ') || '-'
                )}
              </dd>
              {j.tenant_name ? (
                <>
                  <dt>Tenant</dt>
                  <dd>
                    {j.tenant_name}
                    {j.tenant_phone ? (
                      <>
                        {', '}
                        <a href={`tel:${j.tenant_phone.replace(/\s+/g, '')}`}>{j.tenant_phone}</a>
                      </>
                    ) : null}
                  </dd>
                </>
              ) : null}
              <dt>Contractor</dt>
              <dd>
                {j.contractor_name ?? 'not assigned yet'}
                {j.contractor_name ? (j.contractor_accepted_at ? ' (accepted)' : ' (not accepted yet)') : ''}
              </dd>
              <dt>Trade</dt>
              <dd>{j.trade ?? 'not set'}</dd>
              <dt>Job type</dt>
              <dd>{j.job_type}</dd>
              {j.address_uuid && session.party === 'staff' && session.permissions.has('api.landlords.view') ? <LandlordOf addressUuid={j.address_uuid} /> : null}
              <dt>Visit</dt>
              <dd>
                {plan.data?.visit
                  ? plan.data.visit.label
                  : j.scheduled_for
                    ? `${[longDate(j.scheduled_for), j.time_range].filter(Boolean).join(', ')} (no exact time yet)`
                    : 'not booked'}
              </dd>
              <dt>Branch</dt>
              <dd>{j.branch_name}</dd>
              {session.party === 'staff' ? <OwningAgent job={j} onChanged={reloadAll} /> : null}
              <dt>Reported</dt>
              <dd>{formatDateTime(j.created_at)}</dd>
            </dl>
            {j.description ? <p className="description">{j.description}</p> : null}
          </section>
          {statuses.data ? <Actions job={j} statuses={statuses.data} onChanged={reloadAll} onTab={setTab} /> : null}
          <AfterFirstPaint>
            <VisitPanel
              jobUuid={uuid}
              party={session.party}
              onChanged={reloadAll}
              daySlot={j.scheduled_for ? { day: longDate(j.scheduled_for), slot: j.time_range } : null}
            />
          </AfterFirstPaint>
          {session.party === 'staff' ? (
            <AfterFirstPaint>
              <JobManage job={j} onChanged={reloadAll} />
              <HazardPanel jobUuid={uuid} />
            </AfterFirstPaint>
          ) : null}
          <AfterFirstPaint fallback={<TabsPlaceholder tabs={tabs} selected={tab} />}>
            <JobTabs tabs={tabs} selected={tab} onSelect={setTab} jobUuid={uuid} job={j} party={session.party} conversations={conversations} />
          </AfterFirstPaint>
        </div>
        <section aria-labelledby="timeline" className="timeline">
          <h2 id="timeline">History</h2>
          <ProblemMessage problem={history.problem} onRetry={history.reload} />
          <ol>
            {(history.data ?? [])
              // A tenant's repair is done at Completed: the agency's invoicing is not shown to them.
              .filter((h) => session.party !== 'tenant' || h.to_status !== 'Invoiced')
              .map((h) => (
              <li key={h.ID}>
                <strong>{h.from_status ? `${h.from_status} → ${h.to_status}` : h.to_status}</strong>
                <span className="meta">
                  {formatDateTime(h.created_at)}
                  {h.by_user_name ? ` by ${h.by_user_name}` : ''}
                </span>
                {h.note ? <span className="note">{h.note}</span> : null}
              </li>
            ))}
          </ol>
        </section>
      </div>
      {session.party === 'staff' ? null : (
        <p className="hint">
          {messagesTab ? 'Questions about this job? Write to the agency under Messages; you can also reply to its e-mails.' : 'Questions about this job? Add a note and the agency will see it.'}
        </p>
      )}
    </>
  );
}

/**
 * What stands in the tabs' place until their chunk (pages/job-tabs.tsx) has come: the same strip
 * of labels, the selected one marked, and "Loading…" below, drawn with the tabs' own classes so
 * that nothing moves when the tabs arrive. Hidden from assistive technology: it is not yet
 * something to use, and the tabs replace it a frame after the first paint.
 */
function TabsPlaceholder({ tabs, selected }: { tabs: JobTab[]; selected: string }) {
  return (
    <div className="tabs" aria-hidden="true">
      <div className="tab-strip">
        {tabs.map((t) => (
          <div key={t.id} className="tab" data-selected={t.id === selected || undefined}>
            {t.label}
          </div>
        ))}
      </div>
      <div className="tab-panel">
        <p className="loading">Loading…</p>
      </div>
    </div>
  );
}

/** The property's landlords with their shares (GET /api/landlords/properties/{address_uuid}), as a row of the details. */
function LandlordOf({ addressUuid }: { addressUuid: string }) {
  const owners = useLoad(['landlords', 'property', addressUuid], async () =>
    (await api.GET('/api/landlords/properties/{address_uuid}', { params: { path: { address_uuid: addressUuid } } })).data!.data,
  );
  const list = owners.data?.owners ?? [];
  return (
    <>
      <dt>Landlord</dt>
      <dd>
        {owners.problem ? 'could not be read' : owners.data === null ? 'Loading…' : list.length === 0 ? 'none linked' : null}
        {list.map((o, i) => (
          <span key={o.landlord_uuid}>
            {i > 0 ? ', ' : ''}
            <Link to={`/landlords/${o.landlord_uuid}`}>{o.name}</Link>
            {o.share_bp < 10000 ? ` (${shareWords(o.share_bp)})` : ''}
          </span>
        ))}
      </dd>
    </>
  );
}
