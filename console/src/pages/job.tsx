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

/** Calls `reload` after the outbox has sent a write of job `uuid` (the page shows it as done). */
function useReloadWhenSent(uuid: string, reload: () => void) {
  const sent = useOutbox().sent.filter((d) => d.jobUuid === uuid).length;
  const latest = useRef(reload);
  useEffect(() => {
    latest.current = reload;
  });
  useEffect(() => {
    if (sent > 0) latest.current();
  }, [sent]);
}

/** The outbox's writes of kinds `kinds` for job `uuid`, oldest first. */
function useWaiting(uuid: string, kinds: Array<OutboxEntry['kind']>): OutboxEntry[] {
  return useOutbox().waiting.filter((e) => e.jobUuid === uuid && kinds.includes(e.kind));
}
import { VisitPanel } from './visit.tsx';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Dialog, Form, Modal, ModalOverlay, Tab, TabList, TabPanel, Tabs, type Key } from 'react-aria-components';
import { Link, useLocation, useParams, useSearchParams } from 'react-router';
import { useLiveEvents } from '../live.ts';
import { api } from '../api.ts';
import { PRIORITIES } from '../logic/job-filters.ts';
import { canAssign, canDecline, legalMoves, moveLabel, type JobStatus, type NextStatus, type Party } from '../logic/transitions.ts';
import { sendOrQueue, type OutboxEntry } from '../outbox.ts';
import { useOutbox } from '../phone.tsx';
import { useSession } from '../session.tsx';
import type { RequestBody } from '../types.ts';
import { Button, formatDate, formatDateTime, formatLondonDateTime, Options, PageTitle, ProblemMessage, useAction, useConfirm, useLoad } from '../ui.tsx';
import { ConversationsPanel, CONVERSATIONS_PERMISSION, MessagesTabLabel, useConversations } from './job-conversations.tsx';
import { Documents } from './job-files.tsx';
import { JobMoney } from './job-money.tsx';
import { QuoteRequests, WorksOrderLinks } from './job-outside.tsx';
import { SlaBadge, StatusBadge, type JobRow } from './jobs.tsx';

const VISIBILITY: Record<string, string> = {
  internal: 'Staff only',
  tenant: 'Shared with the tenant',
  contractor: 'Shared with the contractor',
  both: 'Shared with tenant and contractor',
};

/**
 * Who sees a note, said from the reader's side: staff read the visibility as set; a contractor's
 * own note (visibility contractor) is "Seen by you and the agency", not "Shared with the contractor".
 */
export function visibilityLabel(visibility: string, party: Party): string {
  if (party === 'contractor') {
    if (visibility === 'contractor') return 'Seen by you and the agency';
    if (visibility === 'both') return 'Seen by the agency, you and the tenant';
  }
  if (party === 'tenant') {
    if (visibility === 'tenant') return 'Seen by you and the agency';
    if (visibility === 'both') return 'Seen by the agency, you and the contractor';
  }
  return VISIBILITY[visibility] ?? visibility;
}

/** The moves asked about in a dialog first (they end the job or cannot be taken back). */
const CONFIRMED_MOVES: Record<string, { title: string; body: string; confirm: string; keep: string }> = {
  Cancelled: {
    title: 'Cancel this job?',
    body: 'The job stops here: the contractor and the tenant are told, and it cannot be reopened.',
    confirm: 'Cancel job',
    keep: 'Keep the job',
  },
  Closed: {
    title: 'Close this job?',
    body: 'Closing ends the job for everyone; it cannot be reopened (a recall makes a new job).',
    confirm: 'Close job',
    keep: 'Keep it open',
  },
};

const TABS = ['photos', 'notes', 'messages', 'money', 'links'];

/** The job page: details and "What next" on top, then tabs (photos and documents, notes, messages, money, links; `?tab=`). */
export function JobPage() {
  const { uuid = '' } = useParams();
  const location = useLocation();
  const flash = (location.state as { flash?: string } | null)?.flash;
  const session = useSession();
  const path = { params: { path: { uuid } } };
  const job = useLoad(['jobs', uuid], async () => (await api.GET('/api/jobs/{uuid}', path)).data!.data);
  const statuses = useLoad(['jobs', 'statuses'], async () => (await api.GET('/api/jobs/statuses')).data!.data);
  const history = useLoad(['jobs', uuid, 'history'], async () => (await api.GET('/api/jobs/{uuid}/history', path)).data!.data);
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
  const messagesTab = session.permissions.has(CONVERSATIONS_PERMISSION);
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
                    {j.sla_state ? (
                      <>
                        <SlaBadge state={j.sla_state} />
                        {j.sla_due_at && j.sla_state !== 'met' ? (
                          <>
                            {' '}
                            {j.sla_state === 'breached' ? 'was due' : 'due by'} <time dateTime={j.sla_due_at}>{formatLondonDateTime(j.sla_due_at)}</time>
                          </>
                        ) : null}
                      </>
                    ) : (
                      'no SLA clock'
                    )}
                  </dd>
                </>
              ) : null}
              <dt>Priority</dt>
              <dd>{PRIORITIES[j.priority] ?? j.priority}</dd>
              <dt>Property</dt>
              <dd>{[j.address_line1, j.town, j.postcode].filter(Boolean).join(', ') || '-'}</dd>
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
              <dt>Visit</dt>
              <dd>{j.scheduled_for ? `${formatDate(j.scheduled_for)}${j.time_range ? `, ${j.time_range}` : ''}` : 'not booked'}</dd>
              <dt>Branch</dt>
              <dd>{j.branch_name}</dd>
              <dt>Reported</dt>
              <dd>{formatDateTime(j.created_at)}</dd>
            </dl>
            {j.description ? <p className="description">{j.description}</p> : null}
          </section>
          {statuses.data ? <Actions job={j} statuses={statuses.data} onChanged={reloadAll} onTab={setTab} /> : null}
          <VisitPanel jobUuid={uuid} party={session.party} onChanged={reloadAll} />
          <Tabs className="tabs" selectedKey={tab} onSelectionChange={(k: Key) => setTab(String(k))}>
            <TabList aria-label="Job sections">
              <Tab id="photos" className="tab">
                Photos and documents
              </Tab>
              <Tab id="notes" className="tab">
                Notes
              </Tab>
              {messagesTab ? (
                <Tab id="messages" className="tab">
                  <MessagesTabLabel threads={conversations.threads.data} />
                </Tab>
              ) : null}
              {session.party !== 'tenant' ? (
                <Tab id="money" className="tab">
                  Quotes and invoices
                </Tab>
              ) : null}
              {session.party === 'staff' ? (
                <Tab id="links" className="tab">
                  Links
                </Tab>
              ) : null}
            </TabList>
            <TabPanel id="photos" className="tab-panel">
              <Photos uuid={uuid} reference={j.reference} />
              <Documents uuid={uuid} />
            </TabPanel>
            <TabPanel id="notes" className="tab-panel">
              <Notes uuid={uuid} reference={j.reference} />
            </TabPanel>
            {messagesTab ? (
              <TabPanel id="messages" className="tab-panel">
                <ConversationsPanel jobUuid={uuid} conversations={conversations} />
              </TabPanel>
            ) : null}
            {session.party !== 'tenant' ? (
              <TabPanel id="money" className="tab-panel">
                <JobMoney jobUuid={uuid} statusId={j.status_id} />
                {session.party === 'staff' ? <QuoteRequests jobUuid={uuid} /> : null}
              </TabPanel>
            ) : null}
            {session.party === 'staff' ? (
              <TabPanel id="links" className="tab-panel">
                <WorksOrderLinks jobUuid={uuid} hasContractor={Boolean(j.contractor_uuid)} />
              </TabPanel>
            ) : null}
          </Tabs>
        </div>
        <section aria-labelledby="timeline" className="timeline">
          <h2 id="timeline">History</h2>
          <ProblemMessage problem={history.problem} onRetry={history.reload} />
          <ol>
            {(history.data ?? []).map((h) => (
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
 * "What next": only the moves the caller may make now, as clear choices. The assigned contractor
 * first accepts or declines (no other move until accepted); a tenant gets "add details" and
 * "cancel this repair"; staff get the moves with an optional note, and the assignment form.
 * Cancel, close and decline are asked about in a dialog first (useConfirm).
 */
function Actions({ job, statuses, onChanged, onTab }: { job: JobRow; statuses: JobStatus[]; onChanged: () => void; onTab: (tab: string) => void }) {
  const session = useSession();
  const party = session.party;
  const assign = canAssign(statuses, job, party);
  const mustRespond = party === 'contractor' && canDecline(statuses, job, party) && !job.contractor_accepted_at;
  // The assigned contractor makes no other move before accepting (docs/jobs.md "Assignment").
  const moves = mustRespond ? [] : legalMoves(statuses, job, party);
  const action = useAction();
  const { ask, dialog } = useConfirm();
  const [note, setNote] = useState('');
  const waiting = useWaiting(job.uuid, ['accept', 'decline', 'transition']);
  const write = { jobUuid: job.uuid, jobReference: job.reference };
  const move = (m: NextStatus, text: string) =>
    action.run(async () => {
      const body = { to_status_id: m.status_id, ...(text ? { note: text } : {}) };
      if ((await sendOrQueue({ ...write, kind: 'transition', label: moveLabel(m), body })) === 'sent') onChanged();
      setNote('');
    });
  const press = (m: NextStatus) => {
    const c = CONFIRMED_MOVES[m.name];
    if (!c) return void move(m, note.trim());
    ask({
      title: party === 'tenant' && m.name === 'Cancelled' ? 'Cancel this repair?' : c.title,
      body: party === 'tenant' && m.name === 'Cancelled' ? 'The agency stops working on it. If the problem comes back, report it again.' : c.body,
      confirmLabel: party === 'tenant' && m.name === 'Cancelled' ? 'Cancel repair' : c.confirm,
      cancelLabel: c.keep,
      danger: true,
      text: { label: party === 'staff' ? 'Note with the change (optional)' : 'Why? (optional)', initial: note.trim() },
      onConfirm: (text) => void move(m, text),
    });
  };
  const decline = () =>
    ask({
      title: 'Decline this job?',
      body: 'The agency is told and assigns another contractor.',
      confirmLabel: 'Decline job',
      cancelLabel: 'Go back',
      danger: true,
      text: { label: 'Reason for the agency', required: true },
      onConfirm: (reason) =>
        void action.run(async () => {
          if ((await sendOrQueue({ ...write, kind: 'decline', label: 'Decline job', body: { reason } })) === 'sent') onChanged();
        }),
    });
  if (waiting.length > 0) {
    // A move made offline waits: no other move until it is sent (the job's status is not known till then).
    return (
      <section aria-labelledby="actions" className="what-next">
        <h2 id="actions">What next</h2>
        <p className="waiting">Waiting to send: {waiting.map((w) => w.label).join(', then ')}. The job shows its new status once it is sent.</p>
      </section>
    );
  }
  if (moves.length === 0 && !assign && !mustRespond) return null;
  const cancel = moves.find((m) => m.name === 'Cancelled');
  return (
    <section aria-labelledby="actions" className="what-next">
      <h2 id="actions">What next</h2>
      {mustRespond ? (
        <>
          <p>
            You have been asked to do this job{job.scheduled_for ? ` on ${formatDate(job.scheduled_for)}${job.time_range ? `, ${job.time_range}` : ''}` : ''}.
            Can you take it?
          </p>
          <div className="button-row">
            <Button
              isDisabled={action.busy}
              onPress={() =>
                action.run(async () => {
                  if ((await sendOrQueue({ ...write, kind: 'accept', label: 'Accept job', body: {} })) === 'sent') onChanged();
                })
              }
            >
              Accept job
            </Button>
            <Button variant="danger" isDisabled={action.busy} onPress={decline}>
              Decline job
            </Button>
          </div>
        </>
      ) : null}
      {party === 'tenant' ? (
        <ul className="choices">
          <li>
            <p>Something to add, or a photo of the problem? The agency sees it straight away.</p>
            <Button variant="secondary" onPress={() => onTab('notes')}>
              Add details
            </Button>
          </li>
          {cancel ? (
            <li>
              <p>Fixed already, or no longer needed?</p>
              <Button variant="secondary" isDisabled={action.busy} onPress={() => press(cancel)}>
                Cancel this repair
              </Button>
            </li>
          ) : null}
        </ul>
      ) : moves.length > 0 ? (
        <>
          {party === 'staff' ? (
            <div className="field">
              <label htmlFor="move-note">Note with the change (optional)</label>
              <textarea id="move-note" rows={2} value={note} onChange={(e) => setNote(e.target.value)} maxLength={1000} />
            </div>
          ) : null}
          <div className="button-row">
            {moves.map((m) => (
              <Button key={m.status_id} variant={CONFIRMED_MOVES[m.name] ? 'danger' : 'primary'} isDisabled={action.busy} onPress={() => press(m)}>
                {moveLabel(m)}
              </Button>
            ))}
          </div>
        </>
      ) : null}
      <ProblemMessage problem={action.problem} />
      {assign ? <Assign job={job} onChanged={onChanged} /> : null}
      {dialog}
    </section>
  );
}

/** What to warn about before assigning `m`: the trade it lacks and the postcode it does not cover. */
export function assignmentWarnings(m: MatchRow): string[] {
  const out: string[] = [];
  if (m.offers_trade === false) out.push(m.reasons.find((r) => r.startsWith('Does not offer')) ?? 'Does not offer the trade');
  if (m.covers_postcode === false) out.push(m.reasons.find((r) => r.startsWith('Does not cover')) ?? 'Does not cover the postcode');
  return out;
}

/** The body of POST /api/jobs/{uuid}/assignment. */
type AssignmentBody = RequestBody<'/api/jobs/{uuid}/assignment', 'post'>;

type MatchRow = NonNullable<Awaited<ReturnType<typeof loadMatches>>>[number];

async function loadMatches(jobUuid: string) {
  const { data } = await api.GET('/api/contractors/match', { params: { query: { job_uuid: jobUuid, limit: 50 } } });
  return data!.data;
}

/**
 * Assignment to a matched contractor with a visit slot (POST /api/jobs/{uuid}/assignment): each
 * contractor of GET /api/contractors/match with its score and reasons (trade, coverage,
 * certificate, workload); choosing a firm that lacks the trade or does not cover the postcode asks
 * for confirmation in a dialog first.
 */
function Assign({ job, onChanged }: { job: JobRow; onChanged: () => void }) {
  const matches = useLoad(['jobs', job.uuid, 'matches'], () => loadMatches(job.uuid));
  const slots = useLoad(['jobs', 'time-ranges'], async () => {
    const { data } = await api.GET('/api/jobs/time-ranges', { params: { query: { action: 'list' } } });
    return data!.data;
  });
  const action = useAction();
  const [chosen, setChosen] = useState(job.contractor_uuid ?? '');
  const [pending, setPending] = useState<{ body: AssignmentBody; match: MatchRow; warnings: string[] } | null>(null);
  const assign = (body: AssignmentBody) =>
    action.run(async () => {
      await api.POST('/api/jobs/{uuid}/assignment', { params: { path: { uuid: job.uuid } }, body: body });
      onChanged();
    });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const date = String(f.get('scheduled_for') ?? '');
    const slot = String(f.get('time_range_id') ?? '');
    if (!chosen) {
      action.setProblem({ message: 'Choose a contractor.', field: 'contractor_uuid', retry: false, retryAfterSeconds: null, status: 400 });
      return;
    }
    const body = { contractor_uuid: chosen, ...(slot ? { time_range_id: Number(slot) } : {}), ...(date ? { scheduled_for: date } : {}) };
    const match = (matches.data ?? []).find((m) => m.contractor_uuid === chosen);
    const warnings = match ? assignmentWarnings(match) : [];
    if (match && warnings.length > 0) setPending({ body, match, warnings });
    else void assign(body);
  };
  const field = action.problem?.field;
  return (
    <Form className="form assign" onSubmit={onSubmit} aria-labelledby="assign-title">
      <h3 id="assign-title">{job.contractor_uuid ? 'Reassign or rebook' : 'Assign a contractor'}</h3>
      <fieldset className="field" aria-describedby="match-hint">
        <legend>Contractor</legend>
        <p id="match-hint" className="hint">
          Best match first: offers the trade (50), covers the postcode (30), holds the required certificate (20); then fewer open jobs.
        </p>
        {matches.loading ? <p>Loading matches…</p> : null}
        <ProblemMessage problem={matches.problem} onRetry={matches.reload} />
        {matches.data && matches.data.length === 0 ? <p>No active contractors yet: add or import them on the Contractors page.</p> : null}
        <ul className="match-list">
          {(matches.data ?? []).map((m) => (
            <li key={m.contractor_uuid}>
              <label>
                <input
                  type="radio"
                  name="contractor_uuid"
                  value={m.contractor_uuid}
                  checked={chosen === m.contractor_uuid}
                  onChange={() => setChosen(m.contractor_uuid)}
                />
                <span>{m.company_name}</span>
                <span className="score">{m.eligible ? `score ${m.score}/100` : 'not assignable'}</span>
              </label>
              <ul className="reasons">
                {m.reasons.map((r) => (
                  <li key={r} className={r.startsWith('Does not') || r.startsWith('Contractor') ? 'warn' : undefined}>
                    {r}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
        {field === 'contractor_uuid' ? <p className="field-error">{action.problem?.message}</p> : null}
      </fieldset>
      <div className="field">
        <label htmlFor="slot">Time slot</label>
        <select id="slot" name="time_range_id" defaultValue={job.time_range_id ?? ''}>
          <option value="">No slot yet</option>
          {(slots.data ?? []).map((s) => (
            <option key={s.ID} value={s.ID}>
              {s.range_label}
            </option>
          ))}
        </select>
        {field === 'time_range_id' ? <p className="field-error">{action.problem?.message}</p> : null}
      </div>
      <div className="field">
        <label htmlFor="visit-date">Visit date</label>
        <input id="visit-date" name="scheduled_for" type="date" defaultValue={job.scheduled_for?.slice(0, 10) ?? ''} aria-describedby="visit-hint" />
        <p id="visit-hint" className="hint">
          With a date the job is Scheduled; without, Assigned.
        </p>
        {field === 'scheduled_for' ? <p className="field-error">{action.problem?.message}</p> : null}
      </div>
      {action.problem && !field ? <ProblemMessage problem={action.problem} /> : null}
      <Button type="submit" isDisabled={action.busy}>
        Assign
      </Button>
      <ModalOverlay className="modal-overlay" isOpen={pending !== null} onOpenChange={(open) => !open && setPending(null)} isDismissable>
        <Modal className="modal">
          <Dialog role="alertdialog" aria-labelledby="assign-warning-title">
            <h2 id="assign-warning-title">Assign {pending?.match.company_name} anyway?</h2>
            <ul>
              {(pending?.warnings ?? []).map((w) => (
                <li key={w}>{w}.</li>
              ))}
            </ul>
            <p>A better-matched contractor may be listed above.</p>
            <div className="button-row">
              <Button
                variant="danger"
                onPress={() => {
                  const body = pending!.body;
                  setPending(null);
                  void assign(body);
                }}
              >
                Assign anyway
              </Button>
              <Button variant="secondary" autoFocus onPress={() => setPending(null)}>
                Choose another
              </Button>
            </div>
          </Dialog>
        </Modal>
      </ModalOverlay>
    </Form>
  );
}

/** Photos with previews, and upload. */
function Photos({ uuid, reference }: { uuid: string; reference: string }) {
  const list = useLoad(['jobs', uuid, 'photos'], async () => (await api.GET('/api/jobs/{uuid}/photos', { params: { path: { uuid } } })).data!.data);
  useReloadWhenSent(uuid, list.reload);
  const waiting = useWaiting(uuid, ['photo']);
  const action = useAction();
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const file = new FormData(form).get('file');
    if (!(file instanceof File) || file.size === 0) {
      action.setProblem({ message: 'Choose a photo first.', field: 'file', retry: false, retryAfterSeconds: null, status: 400 });
      return;
    }
    void action.run(async () => {
      const done = await sendOrQueue({ jobUuid: uuid, jobReference: reference, kind: 'photo', label: 'Photo', file, fileName: file.name });
      form.reset();
      if (done === 'sent') list.reload();
    });
  };
  return (
    <section aria-labelledby="photos">
      <h2 id="photos">Photos</h2>
      <ProblemMessage problem={list.problem} onRetry={list.reload} />
      {list.data && list.data.length === 0 && waiting.length === 0 ? <p>No photos yet.</p> : null}
      {waiting.length > 0 ? (
        <ul className="photos-waiting">
          {waiting.map((w) => (
            <li key={w.key} className="waiting">
              Waiting to send: photo {w.fileName}
            </li>
          ))}
        </ul>
      ) : null}
      <ul className="photos">
        {(list.data ?? []).map((p) => (
          <li key={p.uuid}>
            <a href={p.download_url} target="_blank" rel="noreferrer">
              <img src={p.download_url} alt={p.description ?? `Photo ${p.filename}`} width={160} height={120} />
            </a>
            <span className="meta">
              {p.uploaded_by_name ?? ''} {formatDateTime(p.created_at)}
            </span>
          </li>
        ))}
      </ul>
      <form className="form inline" onSubmit={onSubmit}>
        <div className="field">
          <label htmlFor="photo-upload">Add a photo</label>
          <input id="photo-upload" name="file" type="file" accept="image/*" capture="environment" />
        </div>
        <ProblemMessage problem={action.problem} />
        <Button type="submit" variant="secondary" isDisabled={action.busy}>
          Upload photo
        </Button>
      </form>
    </section>
  );
}

/** Notes with their visibility, and a new note. */
function Notes({ uuid, reference }: { uuid: string; reference: string }) {
  const session = useSession();
  const list = useLoad(['jobs', uuid, 'notes'], async () => (await api.GET('/api/jobs/{uuid}/notes', { params: { path: { uuid } } })).data!.data);
  useLiveEvents(uuid, (e) => {
    if (e.type === 'job.note_added' || e.type === 'resync') list.reload();
  });
  useReloadWhenSent(uuid, list.reload);
  const waiting = useWaiting(uuid, ['note']);
  const action = useAction();
  const staff = session.party === 'staff';
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    void action.run(async () => {
      const body = { body: String(f.get('body') ?? ''), ...(staff ? { visibility: String(f.get('visibility')) } : {}) };
      const done = await sendOrQueue({ jobUuid: uuid, jobReference: reference, kind: 'note', label: 'Note', body });
      form.reset();
      if (done === 'sent') list.reload();
    });
  };
  return (
    <section aria-labelledby="notes">
      <h2 id="notes">Notes</h2>
      <ProblemMessage problem={list.problem} onRetry={list.reload} />
      <ul className="notes">
        {(list.data ?? []).map((n) => (
          <li key={n.uuid}>
            <p>{n.body}</p>
            <span className="meta">
              {n.author_name ?? 'Someone'}, {formatDateTime(n.created_at)} · {visibilityLabel(n.visibility, session.party)}
            </span>
          </li>
        ))}
        {waiting.map((w) => (
          <li key={w.key}>
            <p>{String(w.body?.body ?? '')}</p>
            <span className="meta waiting">Waiting to send (written {formatDateTime(w.createdAt)})</span>
          </li>
        ))}
      </ul>
      <form className="form" onSubmit={onSubmit}>
        <div className="field">
          <label htmlFor="note-body">Add a note</label>
          <textarea id="note-body" name="body" rows={3} required maxLength={5000} aria-invalid={action.problem?.field === 'body' || undefined} />
          {action.problem?.field === 'body' ? <p className="field-error">{action.problem.message}</p> : null}
        </div>
        {staff ? (
          <div className="field">
            <label htmlFor="note-visibility">Who sees it</label>
            <select id="note-visibility" name="visibility" defaultValue="internal">
              <Options labels={VISIBILITY} />
            </select>
          </div>
        ) : (
          <p className="hint">Your notes are seen by the agency.</p>
        )}
        {action.problem?.field !== 'body' ? <ProblemMessage problem={action.problem} /> : null}
        <Button type="submit" variant="secondary" isDisabled={action.busy}>
          Add note
        </Button>
      </form>
    </section>
  );
}
