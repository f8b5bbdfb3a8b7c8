/**
 * The job page's "What next" (job.tsx): the legal moves as buttons (logic/transitions.ts over GET
 * /api/jobs/statuses), accept or decline for the assigned contractor, and for staff the assignment
 * to a matched contractor with a visit slot (POST /api/jobs/{uuid}/assignment). Accept, decline
 * and the moves go through the outbox (outbox.ts); the moves that end a job are asked about first.
 */
import { useState, type FormEvent } from 'react';
import { api } from '../api.ts';
import { canAssign, canDecline, legalMoves, moveLabel, type JobStatus, type NextStatus } from '../logic/transitions.ts';
import { sendOrQueue } from '../outbox.ts';
import { useSession } from '../session.tsx';
import type { RequestBody } from '../types.ts';
import { Button, formatDate, ProblemMessage, useAction, useConfirm, useLoad } from '../ui.tsx';
import { type JobRow } from './jobs.tsx';
import { useWaiting } from './job-waiting.ts';

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

/**
 * "What next": only the moves the caller may make now, as clear choices. The assigned contractor
 * first accepts or declines (no other move until accepted); a tenant gets "add details" and
 * "cancel this repair"; staff get the moves with an optional note, and the assignment form.
 * Cancel, close and decline are asked about in a dialog first (useConfirm).
 */
export function Actions({ job, statuses, onChanged, onTab }: { job: JobRow; statuses: JobStatus[]; onChanged: () => void; onTab: (tab: string) => void }) {
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
  const confirm = useConfirm();
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
    if (match && warnings.length > 0)
      confirm.ask({
        title: `Assign ${match.company_name} anyway?`,
        body: (
          <>
            <ul>
              {warnings.map((w) => (
                <li key={w}>{w}.</li>
              ))}
            </ul>
            <p>A better-matched contractor may be listed above.</p>
          </>
        ),
        confirmLabel: 'Assign anyway',
        cancelLabel: 'Choose another',
        danger: true,
        onConfirm: () => void assign(body),
      });
    else void assign(body);
  };
  const field = action.problem?.field;
  return (
    <form className="form assign" onSubmit={onSubmit} aria-labelledby="assign-title">
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
      {confirm.dialog}
    </form>
  );
}
