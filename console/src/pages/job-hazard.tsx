/**
 * The hazard (Awaab's Law) panel of the job page, for staff (docs/console.md "A job's hazard
 * and competing quotes"; docs/compliance.md "Hazards and statutory
 * clocks"): the hazard the job carries and its statutory clocks, each with its due date ("Thu 26
 * Nov 2026") and whether it is running, at risk, met or breached (GET /api/jobs/{uuid}/hazard);
 * classifying or changing the hazard (PUT /api/jobs/{uuid}/hazard); recording a milestone with
 * when it happened (POST /api/jobs/{uuid}/hazard/milestones); issuing the written summary to the
 * tenant (POST /api/jobs/{uuid}/hazard/summary), its printable letter (a plain link to
 * GET /api/jobs/{uuid}/hazard/summary/letter) and "Posted on" for that letter
 * (POST /api/jobs/{uuid}/hazard/summary/posted). Reading needs `api.hazards.view`, every change
 * `api.hazards.manage`.
 */
import { useState, type FormEvent } from 'react';
import { api } from '../api.ts';
import { useSession } from '../session.tsx';
import type { RequestBody } from '../types.ts';
import { Button, formatLondonDate, formatLondonDateTime, ProblemMessage, useAction, useLoad } from '../ui.tsx';
import { Labelled } from './labelled.tsx';
import { Notice } from './people-forms.tsx';

type Milestone = 'made_safe' | 'investigated' | 'works_started' | 'further_works_started' | 'works_completed';
type HazardInput = RequestBody<'/api/jobs/{uuid}/hazard', 'put'>;
type Severity = HazardInput['severity'];

/** The milestones in people's words, in the order they happen. */
const MILESTONES: Record<Milestone, string> = {
  made_safe: 'Made safe',
  investigated: 'Investigation finished',
  works_started: 'Safety work done',
  further_works_started: 'Further works begun',
  works_completed: 'Works finished',
};

const SEVERITIES: Record<Severity, string> = {
  emergency: 'Emergency (investigate and make safe within 24 hours)',
  significant: 'Significant (the working-day clocks)',
};

const CLOCK_STATES: Record<string, string> = { running: 'Running', at_risk: 'At risk', met: 'Met', breached: 'Breached' };

/**
 * A clock's deadline for people: "end of Mon 7 Dec 2026" when it falls at London midnight (the
 * working-day clocks end with their last day), else the London date and time (the 24-hour clock).
 */
function dueText(iso: string): string {
  const at = formatLondonDateTime(iso);
  return at.endsWith(', 00:00') ? `end of ${formatLondonDate(new Date(Date.parse(iso) - 1).toISOString())}` : at;
}

/** The ISO instant of a datetime-local value (the browser's time zone), or undefined for "now". */
function instantOf(value: FormDataEntryValue | null): string | undefined {
  const text = String(value ?? '').trim();
  return text ? new Date(text).toISOString() : undefined;
}

/**
 * The hazard panel of a job: nothing without `api.hazards.view`; "no hazard" with the classify
 * form when the job carries none (404 "Hazard not found"); otherwise the clocks, milestones and
 * written summary.
 * @param jobUuid the job's uuid
 */
export function HazardPanel({ jobUuid }: { jobUuid: string }) {
  const session = useSession();
  const canView = session.permissions.has('api.hazards.view');
  const canManage = session.permissions.has('api.hazards.manage');
  const path = { params: { path: { uuid: jobUuid } } };
  const hazard = useLoad(['jobs', jobUuid, 'hazard', canView], async () => {
    if (!canView) return null;
    try {
      return (await api.GET('/api/jobs/{uuid}/hazard', path)).data!.data;
    } catch (e) {
      // The job carries no hazard: the API answers 404, which is "none" here.
      if ((e as { status?: number }).status === 404) return null;
      throw e;
    }
  });
  const action = useAction();
  const [done, setDone] = useState<string | null>(null);
  const [changing, setChanging] = useState(false);
  if (!canView) return null;
  const h = hazard.data;

  const classify = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const reason = String(f.get('further_works_reason') ?? '').trim();
    const description = String(f.get('description') ?? '').trim();
    void action.run(async () => {
      await api.PUT('/api/jobs/{uuid}/hazard', {
        ...path,
        body: {
          category: String(f.get('category')) as HazardInput['category'],
          severity: f.get('severity') === 'emergency' ? 'emergency' : 'significant',
          ...(description ? { description } : {}),
          further_works_required: f.get('further_works_required') === 'on',
          further_works_reason: reason || null,
        },
      });
      setDone(h ? 'Hazard changed; the clocks follow it.' : 'Hazard recorded; its clocks have started.');
      setChanging(false);
      hazard.reload();
    });
  };

  const record = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    const milestone = String(f.get('milestone')) as Milestone;
    const at = instantOf(f.get('at'));
    void action.run(async () => {
      await api.POST('/api/jobs/{uuid}/hazard/milestones', { ...path, body: { milestone, ...(at ? { at } : {}) } });
      setDone(`"${MILESTONES[milestone]}" recorded.`);
      form.reset();
      hazard.reload();
    });
  };

  const sendSummary = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    void action.run(async () => {
      await api.POST('/api/jobs/{uuid}/hazard/summary', { ...path, body: { findings: String(f.get('findings') ?? ''), actions: String(f.get('actions') ?? '') } });
      setDone('Written summary sent to the tenant.');
      hazard.reload();
    });
  };

  const posted = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const day = String(new FormData(e.currentTarget).get('posted_on') ?? '');
    const today = new Date().toLocaleDateString('en-CA', { timeZone: 'Europe/London' });
    // Today is "now" (the API's default); an earlier day is its London midday.
    const postedAt = day && day !== today ? new Date(`${day}T12:00:00Z`).toISOString() : undefined;
    void action.run(async () => {
      await api.POST('/api/jobs/{uuid}/hazard/summary/posted', { ...path, body: postedAt ? { posted_at: postedAt } : {} });
      setDone('Letter recorded as posted.');
      hazard.reload();
    });
  };

  const open = h ? (Object.keys(MILESTONES) as Milestone[]).filter((m) => isOpen(m, h)) : [];

  return (
    <section aria-labelledby="hazard" className="hazard-panel">
      <h2 id="hazard">Hazard (Awaab&rsquo;s Law)</h2>
      <ProblemMessage problem={action.problem ?? hazard.problem} onRetry={hazard.reload} />
      <Notice text={done} />
      {hazard.loading && !h && !hazard.problem ? <p>Loading…</p> : null}
      {!hazard.loading && !h && !hazard.problem ? (
        <p>{canManage ? 'No hazard recorded on this job. If the tenant reported damp, mould or another hazard, record it to start its clocks.' : 'No hazard recorded on this job.'}</p>
      ) : null}
      {h ? (
        <>
          <dl className="details">
            <dt>Hazard</dt>
            <dd>
              {h.category_name}, {h.severity === 'emergency' ? 'emergency' : 'significant'}
            </dd>
            {h.description ? (
              <>
                <dt>What was found</dt>
                <dd>{h.description}</dd>
              </>
            ) : null}
            <dt>Known since</dt>
            <dd>
              {formatLondonDateTime(h.reported_at)}
              {h.awareness_reason ? ` (${h.awareness_reason})` : ''}
            </dd>
            <dt>Covered</dt>
            <dd>{h.scope_text}</dd>
          </dl>
          {h.clocks.length === 0 ? (
            <p>No statutory clocks run for this hazard.</p>
          ) : (
            <div className="table-wrap" role="region" aria-label="Statutory clocks" tabIndex={0}>
              <table>
                <thead>
                  <tr>
                    <th scope="col">What the law requires</th>
                    <th scope="col">Due by</th>
                    <th scope="col">State</th>
                  </tr>
                </thead>
                <tbody>
                  {h.clocks.map((c) => (
                    <tr key={c.kind}>
                      <td>{c.label}</td>
                      <td>
                        <time dateTime={c.due_at}>{dueText(c.due_at)}</time>
                      </td>
                      <td>
                        {CLOCK_STATES[c.state] ?? c.state}
                        {c.stopped_at ? `: done ${formatLondonDate(c.stopped_at)}` : c.breached_at ? ` since ${formatLondonDate(c.breached_at)}` : ''}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {canManage && open.length > 0 ? (
            <form className="form inline" onSubmit={record} aria-label="Record a milestone">
              <Labelled label="Milestone">
                {(id) => (
                  <select id={id} name="milestone">
                    {open.map((m) => (
                      <option key={m} value={m}>
                        {MILESTONES[m]}
                      </option>
                    ))}
                  </select>
                )}
              </Labelled>
              <Labelled label="When it happened" hint="Leave empty for now.">
                {(id, describedBy) => <input id={id} name="at" type="datetime-local" aria-describedby={describedBy} />}
              </Labelled>
              <div className="button-row">
                <Button type="submit" isDisabled={action.busy}>
                  Record milestone
                </Button>
              </div>
            </form>
          ) : null}
          <h3>Written summary</h3>
          {h.summary ? (
            <>
              <p>
                Sent {formatLondonDate(h.summary_sent_at)}.{' '}
                {h.summary.delivered_at
                  ? `Reached the tenant ${formatLondonDate(h.summary.delivered_at)} by ${h.summary.delivery_method === 'post' ? 'post' : h.summary.delivery_method === 'sms' ? 'text message' : 'e-mail'}.`
                  : 'Not delivered yet: if it does not reach the tenant, print the letter and post it.'}
              </p>
              <p>
                <a href={`/api/jobs/${jobUuid}/hazard/summary/letter`} target="_blank" rel="noreferrer" className="btn btn-secondary">
                  Open the letter (PDF)
                </a>
              </p>
              {canManage && !h.summary.delivered_at ? (
                <form className="form inline" onSubmit={posted} aria-label="The letter was posted">
                  <Labelled label="Posted on" hint="Leave empty for today.">
                    {(id, describedBy) => <input id={id} name="posted_on" type="date" aria-describedby={describedBy} />}
                  </Labelled>
                  <div className="button-row">
                    <Button type="submit" isDisabled={action.busy}>
                      Record the letter as posted
                    </Button>
                  </div>
                </form>
              ) : null}
              <details>
                <summary>The summary as sent</summary>
                <p className="description">{h.summary.text}</p>
              </details>
            </>
          ) : h.investigated_at ? (
            canManage ? (
              <form className="form" onSubmit={sendSummary} aria-label="Send the written summary">
                <Labelled label="What the investigation found" required>
                  {(id) => <textarea id={id} name="findings" rows={3} required maxLength={4000} />}
                </Labelled>
                <Labelled label="What the agency will do" required>
                  {(id) => <textarea id={id} name="actions" rows={3} required maxLength={4000} />}
                </Labelled>
                <div className="button-row">
                  <Button type="submit" isDisabled={action.busy}>
                    Send the written summary
                  </Button>
                </div>
              </form>
            ) : (
              <p>Not sent yet.</p>
            )
          ) : (
            <p>Sent to the tenant once the investigation is recorded.</p>
          )}
        </>
      ) : null}
      {canManage && !hazard.problem && !(hazard.loading && !h) ? (
        changing ? (
          <HazardForm key={h?.uuid ?? 'new'} current={h} busy={action.busy} onSubmit={classify} onCancel={() => setChanging(false)} />
        ) : (
          <Button variant="secondary" onPress={() => setChanging(true)}>
            {h ? 'Change the hazard' : 'Record a hazard'}
          </Button>
        )
      ) : null}
    </section>
  );
}

/** Whether a milestone may still be recorded: not yet recorded and fitting the hazard's severity and works. */
function isOpen(m: Milestone, h: { severity: string; made_safe_at: string | null; investigated_at: string | null; works_started_at: string | null; further_works_started_at: string | null; works_completed_at: string | null; further_works_required: boolean }): boolean {
  if (m === 'made_safe') return h.severity === 'emergency' && !h.made_safe_at;
  if (m === 'further_works_started') return h.further_works_required && !h.further_works_started_at;
  const at = { investigated: h.investigated_at, works_started: h.works_started_at, works_completed: h.works_completed_at }[m];
  return !at;
}

/** The classify / change form (PUT /api/jobs/{uuid}/hazard): kind, severity, what was found, further works. */
function HazardForm({
  current,
  busy,
  onSubmit,
  onCancel,
}: {
  current: { category: string; severity: string; description: string; further_works_required: boolean; further_works_reason: string | null } | null;
  busy: boolean;
  onSubmit: (e: FormEvent<HTMLFormElement>) => void;
  onCancel: () => void;
}) {
  const categories = useLoad(['hazards', 'categories'], async () => (await api.GET('/api/hazards/categories')).data!.data);
  return (
    <form className="form" onSubmit={onSubmit} aria-label={current ? 'Change the hazard' : 'Record a hazard'}>
      <h3>{current ? 'Change the hazard' : 'Record a hazard'}</h3>
      <ProblemMessage problem={categories.problem} onRetry={categories.reload} />
      <Labelled label="Kind of hazard" required>
        {(id) => (
          <select id={id} name="category" required defaultValue={current?.category ?? 'damp_and_mould'}>
            {(categories.data ?? []).map((c) => (
              <option key={c.code} value={c.code}>
                {c.name}
              </option>
            ))}
          </select>
        )}
      </Labelled>
      <Labelled label="Severity" required>
        {(id) => (
          <select id={id} name="severity" required defaultValue={current?.severity ?? 'significant'}>
            {Object.entries(SEVERITIES).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        )}
      </Labelled>
      <Labelled label="What was found">
        {(id) => <textarea id={id} name="description" rows={3} maxLength={4000} defaultValue={current?.description ?? ''} />}
      </Labelled>
      <label className="checkbox-native">
        <input type="checkbox" name="further_works_required" defaultChecked={current?.further_works_required ?? true} /> Further (preventative) works are needed
      </label>
      <Labelled label="Why further works cannot begin within 5 working days" hint="Gives them 12 weeks instead. Leave empty otherwise.">
        {(id, describedBy) => <textarea id={id} name="further_works_reason" rows={2} maxLength={1000} aria-describedby={describedBy} defaultValue={current?.further_works_reason ?? ''} />}
      </Labelled>
      <div className="button-row">
        <Button type="submit" isDisabled={busy || !categories.data}>
          {current ? 'Save the hazard' : 'Record the hazard'}
        </Button>
        <Button variant="secondary" onPress={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
