/**
 * The job page's staff operations (docs/console.md "The job page: managing a job"), each shown
 * only to staff holding its permission key and each showing the API's message when refused:
 * - "Manage this job": edit the job (PUT /api/jobs/{uuid}), merge a duplicate into another job at
 *   the same property (POST /api/jobs/{uuid}/merge), raise a recall of a completed repair (POST
 *   /api/jobs/{uuid}/recall), ask the landlord to approve a cost (POST
 *   /api/jobs/{uuid}/landlord-approval), delete a Closed or Cancelled job for good (DELETE
 *   /api/jobs/{uuid}?soft_delete=true, then back to the board) and download the evidence pack (a
 *   plain link to GET /api/jobs/{uuid}/evidence-pack?format=pdf|zip);
 * - the SLA clocks in words (GET /api/jobs/{uuid}/sla) and the visit day's weather (GET
 *   /api/jobs/{uuid}/weather);
 * - the linked jobs (GET /api/jobs/{uuid}/links), the estimate from the price list (GET
 *   /api/pricing/estimate) and a quote's lines (GET /api/jobs/{uuid}/quotes/{quote_uuid}).
 */
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '../api.ts';
import { PRIORITIES } from '../logic/job-filters.ts';
import { useSession } from '../session.tsx';
import { Button, formatLondonDate, formatLondonDateTime, formatPence, Options, ProblemMessage, useAction, useConfirm, useLoad } from '../ui.tsx';
import type { JobRow } from './jobs.tsx';

/** The statuses from which a repair can be recalled (the API refuses the others). */
const RECALLABLE = ['Completed', 'Invoiced', 'Closed'];

/** A notice after a change, with an optional link (the recall raised). */
type Done = { text: string; link?: { to: string; label: string } };

/**
 * "Manage this job" for staff: the buttons of the operations the caller's keys allow, the edit
 * and merge forms they open, and the evidence pack's links; nothing when no key allows any.
 * `onChanged` reloads the job and its history after a change.
 */
export function JobManage({ job, onChanged }: { job: JobRow; onChanged: () => void }) {
  const session = useSession();
  const has = (key: string) => session.party === 'staff' && session.permissions.has(key);
  const canEdit = has('api.jobs.update.manage') && job.is_open;
  const canMerge = has('api.jobs.update.manage') && job.is_open;
  const canRecall = has('api.jobs.transitions.manage') && job.completed_at !== null && RECALLABLE.includes(job.status);
  const canAsk = has('api.landlords.approvals.manage') && job.is_open;
  const canDelete = has('api.jobs.delete.manage') && has('api.jobs.transitions.manage') && !job.is_open;
  const canPack = has('api.jobs.evidence-pack.view');
  const [open, setOpen] = useState<'edit' | 'merge' | null>(null);
  const [done, setDone] = useState<Done | null>(null);
  const action = useAction();
  const { ask, dialog } = useConfirm();
  const navigate = useNavigate();
  const path = { params: { path: { uuid: job.uuid } } };
  if (!canEdit && !canMerge && !canRecall && !canAsk && !canDelete && !canPack) return null;
  const finished = (d: Done) => {
    setDone(d);
    setOpen(null);
    onChanged();
  };
  const recall = () =>
    ask({
      title: `Raise a recall of ${job.reference}?`,
      body: 'A new job "Recall: …" is made at the same property and linked to this one; the contractor comes back, and it counts against their first-time fixes.',
      text: { label: 'What is wrong again?', required: true },
      confirmLabel: 'Raise recall',
      onConfirm: (reason) =>
        void action.run(async () => {
          const r = (await api.POST('/api/jobs/{uuid}/recall', { ...path, body: { reason: reason.trim() } })).data!.data;
          finished({ text: `Recall ${r.reference} raised: the contractor comes back.`, link: { to: `/jobs/${r.uuid}`, label: `Open ${r.reference}` } });
        }),
    });
  const askLandlord = () =>
    ask({
      title: 'Ask the landlord to approve a cost?',
      body: 'Above the landlord’s spend limit the job waits for their answer and they get an e-mail to approve or decline it. At or under the limit nothing is sent.',
      amount: { label: 'Cost in pounds, including VAT' },
      text: { label: 'What the money is for (the landlord reads this)', required: true },
      confirmLabel: 'Ask the landlord',
      onConfirm: (description, pence) =>
        void action.run(async () => {
          const amount = pence ?? 0;
          const d = (await api.POST('/api/jobs/{uuid}/landlord-approval', { ...path, body: { amount_pence: amount, description: description.trim() } })).data!.data;
          finished({
            text: d.required
              ? `Asked ${d.approval?.landlord_name ?? 'the landlord'} to approve ${formatPence(amount)}; the job waits for their answer.`
              : d.limit_pence === null
                ? `No approval needed for ${formatPence(amount)}: the property has no landlord or no spend limit.`
                : `No approval needed: ${formatPence(amount)} is within the spend limit of ${formatPence(d.limit_pence)}.`,
          });
        }),
    });
  const remove = () =>
    ask({
      title: `Delete ${job.reference} for good?`,
      body: 'The job leaves the board, the searches and the reports. Its history is kept for the records, but it cannot be brought back here.',
      confirmLabel: 'Delete job',
      cancelLabel: 'Keep the job',
      danger: true,
      onConfirm: () =>
        void action.run(async () => {
          await api.DELETE('/api/jobs/{uuid}', { params: { path: { uuid: job.uuid }, query: { soft_delete: true } } });
          navigate('/jobs', { state: { flash: `${job.reference} (${job.title}) was deleted.` } });
        }),
    });
  return (
    <section aria-labelledby="manage" className="job-manage">
      <h2 id="manage">Manage this job</h2>
      <div className="button-row">
        {canEdit ? (
          <Button variant="secondary" onPress={() => setOpen(open === 'edit' ? null : 'edit')} aria-expanded={open === 'edit'}>
            Edit job
          </Button>
        ) : null}
        {canMerge ? (
          <Button variant="secondary" onPress={() => setOpen(open === 'merge' ? null : 'merge')} aria-expanded={open === 'merge'}>
            Merge into another job
          </Button>
        ) : null}
        {canRecall ? (
          <Button variant="secondary" onPress={recall} isDisabled={action.busy}>
            Raise a recall
          </Button>
        ) : null}
        {canAsk ? (
          <Button variant="secondary" onPress={askLandlord} isDisabled={action.busy}>
            Ask the landlord
          </Button>
        ) : null}
        {canDelete ? (
          <Button variant="danger" onPress={remove} isDisabled={action.busy}>
            Delete job
          </Button>
        ) : null}
      </div>
      <ProblemMessage problem={action.problem} />
      {done ? (
        <p className="notice" role="status">
          {done.text} {done.link ? <Link to={done.link.to}>{done.link.label}</Link> : null}
        </p>
      ) : null}
      {open === 'edit' ? <EditJob job={job} onSaved={() => finished({ text: 'Job saved.' })} /> : null}
      {open === 'merge' ? <MergeJob job={job} onMerged={(kept) => finished({ text: `${job.reference} was merged into ${kept.reference} and cancelled as a duplicate.`, link: { to: `/jobs/${kept.uuid}`, label: `Open ${kept.reference}` } })} /> : null}
      {canPack ? (
        <p>
          Evidence pack (every event of the job, oldest first, for a council or the Housing Ombudsman):{' '}
          <a href={`/api/jobs/${job.uuid}/evidence-pack?format=pdf`} target="_blank" rel="noreferrer">
            Download the evidence pack (PDF)
          </a>
          {' or '}
          <a href={`/api/jobs/${job.uuid}/evidence-pack?format=zip`} download>
            with its files (ZIP)
          </a>
        </p>
      ) : null}
      <JobSlaClocks jobUuid={job.uuid} />
      <JobWeather jobUuid={job.uuid} />
      {dialog}
    </section>
  );
}

/** The edit form: title, description, priority, trade and job type; sends them with PUT /api/jobs/{uuid}. */
function EditJob({ job, onSaved }: { job: JobRow; onSaved: () => void }) {
  const trades = useLoad(['trades'], async () => (await api.GET('/api/contractors/trades', { params: { query: {} } })).data!.data);
  const types = useLoad(['jobs', 'types'], async () => (await api.GET('/api/jobs/types')).data!.data);
  const action = useAction();
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const trade = String(f.get('trade') ?? '');
    const body = {
      title: String(f.get('title') ?? '').trim(),
      description: String(f.get('description') ?? ''),
      priority: Number(f.get('priority')),
      job_type_id: Number(f.get('job_type')),
      trade_id: trade ? Number(trade) : null,
    };
    void action.run(async () => {
      await api.PUT('/api/jobs/{uuid}', { params: { path: { uuid: job.uuid } }, body });
      onSaved();
    });
  };
  const tradeLabels: Record<string, string> = { '': 'Not set' };
  for (const t of trades.data ?? []) if (!t.retired_at || t.ID === job.trade_id) tradeLabels[String(t.ID)] = t.name;
  const typeLabels: Record<string, string> = {};
  for (const t of types.data ?? [{ ID: job.job_type_id, code: '', name: job.job_type }]) typeLabels[String(t.ID)] = t.name;
  return (
    <form className="form" onSubmit={onSubmit} aria-labelledby="edit-job">
      <h3 id="edit-job">Edit {job.reference}</h3>
      <div className="field">
        <label htmlFor="edit-title">Title</label>
        <input id="edit-title" name="title" defaultValue={job.title} required maxLength={200} />
      </div>
      <div className="field">
        <label htmlFor="edit-description">Description</label>
        <textarea id="edit-description" name="description" rows={3} defaultValue={job.description} maxLength={5000} />
      </div>
      <div className="field">
        <label htmlFor="edit-priority">Priority</label>
        <select id="edit-priority" name="priority" defaultValue={String(job.priority)}>
          <Options labels={PRIORITIES} />
        </select>
      </div>
      <div className="field">
        <label htmlFor="edit-trade">Trade</label>
        <select id="edit-trade" name="trade" defaultValue={job.trade_id === null ? '' : String(job.trade_id)} key={trades.data ? 'loaded' : 'loading'}>
          <Options labels={tradeLabels} />
        </select>
      </div>
      <div className="field">
        <label htmlFor="edit-type">Job type</label>
        <select id="edit-type" name="job_type" defaultValue={String(job.job_type_id)} key={types.data ? 'loaded' : 'loading'}>
          <Options labels={typeLabels} />
        </select>
      </div>
      <ProblemMessage problem={action.problem ?? trades.problem ?? types.problem} />
      <Button type="submit" isDisabled={action.busy}>
        Save job
      </Button>
    </form>
  );
}

/** The merge form: the open jobs at the same property to keep, an optional note, and a confirmation. */
function MergeJob({ job, onMerged }: { job: JobRow; onMerged: (kept: { uuid: string; reference: string }) => void }) {
  const address = job.address_uuid;
  const others = useLoad(['jobs', 'same-property', address, job.uuid], async () =>
    address
      ? (await api.GET('/api/jobs/manage', { params: { query: { address_uuid: address, limit: 50, sort: 'created_at', order: 'desc' } } })).data!.data.filter((o) => o.uuid !== job.uuid && o.is_open)
      : [],
  );
  const [kept, setKept] = useState('');
  const [note, setNote] = useState('');
  const action = useAction();
  const { ask, dialog } = useConfirm();
  const list = others.data ?? [];
  const choice = list.find((o) => o.uuid === kept) ?? list[0];
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!choice) return;
    ask({
      title: `Merge ${job.reference} into ${choice.reference}?`,
      body: `${job.reference} is cancelled as a duplicate of ${choice.reference} (${choice.title}). Both keep their history, notes and files, and each names the other.`,
      confirmLabel: 'Merge jobs',
      cancelLabel: 'Keep both',
      danger: true,
      onConfirm: () =>
        void action.run(async () => {
          await api.POST('/api/jobs/{uuid}/merge', { params: { path: { uuid: job.uuid } }, body: { into_job_uuid: choice.uuid, ...(note.trim() ? { note: note.trim() } : {}) } });
          onMerged(choice);
        }),
    });
  };
  if (!address) return <p>This job has no property: only jobs at the same property can be merged.</p>;
  if (others.data && list.length === 0) return <p>No other open job at this property: a duplicate is merged into an open job at the same address.</p>;
  const labels: Record<string, string> = {};
  for (const o of list) labels[o.uuid] = `${o.reference}: ${o.title} (${o.status})`;
  return (
    <form className="form" onSubmit={onSubmit} aria-labelledby="merge-job">
      <h3 id="merge-job">Merge {job.reference} as a duplicate</h3>
      <ProblemMessage problem={others.problem} onRetry={others.reload} />
      <div className="field">
        <label htmlFor="merge-into">The job to keep</label>
        <select id="merge-into" value={choice?.uuid ?? ''} onChange={(e) => setKept(e.target.value)}>
          <Options labels={labels} />
        </select>
      </div>
      <div className="field">
        <label htmlFor="merge-note">Note (optional)</label>
        <input id="merge-note" value={note} onChange={(e) => setNote(e.target.value)} maxLength={2000} />
      </div>
      <ProblemMessage problem={action.problem} />
      <Button type="submit" isDisabled={action.busy || !choice}>
        Merge into the job kept
      </Button>
      {dialog}
    </form>
  );
}

const SLA_WORDS: Record<string, string> = {
  running: 'On time',
  at_risk: 'At risk',
  breached: 'Missed',
  met: 'Met',
  paused: 'Paused while on hold',
  not_applicable: 'Does not apply',
};
const CALENDARS: Record<string, string> = { calendar_hours: 'round the clock', calendar_days: 'calendar days', working_days: 'working days', office_hours: 'office hours' };

/** "1 day", "3 days": a count and its word. */
const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;

/** "2 days 3 hours", "5 hours", "40 minutes" from a number of seconds (its absolute value). */
export function durationWords(seconds: number): string {
  const s = Math.abs(seconds);
  const days = Math.floor(s / 86_400);
  const hours = Math.floor((s % 86_400) / 3600);
  if (days > 0) return hours > 0 ? `${plural(days, 'day')} ${plural(hours, 'hour')}` : plural(days, 'day');
  if (hours > 0) return plural(hours, 'hour');
  return plural(Math.max(1, Math.floor(s / 60)), 'minute');
}

/** The job's SLA clocks in words (GET /api/jobs/{uuid}/sla), for staff holding `api.sla.view` (docs/sla.md). */
export function JobSlaClocks({ jobUuid }: { jobUuid: string }) {
  const session = useSession();
  const allowed = session.party === 'staff' && session.permissions.has('api.sla.view');
  const clocks = useLoad(['jobs', jobUuid, 'sla', allowed], async () => (allowed ? (await api.GET('/api/jobs/{uuid}/sla', { params: { path: { uuid: jobUuid } } })).data!.data : []));
  if (!allowed) return null;
  const list = clocks.data ?? [];
  return (
    <div aria-labelledby="sla-clocks">
      <h3 id="sla-clocks">SLA clocks</h3>
      <ProblemMessage problem={clocks.problem} onRetry={clocks.reload} />
      {clocks.data && list.length === 0 ? <p>No SLA clock runs on this job: the SLA rules (under SLA rules) start one for its priority and status.</p> : null}
      <ul className="documents">
        {list.map((c) => {
          const allowance = c.response_hours !== null ? plural(c.response_hours, 'hour') : plural(c.minimum_response_days, 'day');
          const due = formatLondonDateTime(c.due_at);
          const when =
            c.state === 'met'
              ? `met on ${formatLondonDateTime(c.stopped_at)}, due by ${due}`
              : c.state === 'breached'
                ? `was due by ${due}${c.breached_at ? `, missed on ${formatLondonDateTime(c.breached_at)}` : ''}`
                : c.state === 'paused'
                  ? `due by ${due} when the job comes off hold`
                  : c.state === 'not_applicable'
                    ? 'the rule does not apply to this job'
                    : `due by ${due}${c.time_left_seconds !== null ? `, ${durationWords(c.time_left_seconds)} ${c.time_left_seconds >= 0 ? 'left' : 'over'}` : ''}`;
          return (
            <li key={c.ID}>
              <strong>{SLA_WORDS[c.state] ?? c.state}</strong>: {c.rule_description} ({allowance}, {CALENDARS[c.calendar] ?? c.calendar}), {when}.
              {c.rule_deleted ? ' The rule has since been removed.' : ''}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

const WEATHER_REASONS: Record<string, string> = {
  no_visit_date: 'No visit day is booked yet: the forecast shows here once a visit is booked.',
  no_address: 'The job has no property, so there is no forecast.',
  postcode_not_found: 'The property’s postcode was not found, so there is no forecast.',
  outside_forecast_range: 'The visit day is too far ahead for a forecast: look again closer to the day.',
  provider_unavailable: 'The weather service did not answer: try again later.',
};

/** The visit day's forecast at the property (GET /api/jobs/{uuid}/weather), or why there is none. */
export function JobWeather({ jobUuid }: { jobUuid: string }) {
  const session = useSession();
  const allowed = session.permissions.has('api.weather.view');
  const weather = useLoad(['jobs', jobUuid, 'weather', allowed], async () => (allowed ? (await api.GET('/api/jobs/{uuid}/weather', { params: { path: { uuid: jobUuid } } })).data!.data : null));
  if (!allowed) return null;
  const d = weather.data;
  const w = d?.weather;
  const num = (v: number | null, unit: string) => (v === null ? null : `${Math.round(v)}${unit}`);
  return (
    <div aria-labelledby="weather">
      <h3 id="weather">Weather on the visit day</h3>
      <ProblemMessage problem={weather.problem} onRetry={weather.reload} />
      {d && !w ? <p>{WEATHER_REASONS[d.reason ?? ''] ?? 'No forecast for the visit day.'}</p> : null}
      {w ? (
        <p>
          {formatLondonDate(w.date)}: {w.summary}
          {[
            w.temperature_min_c !== null && w.temperature_max_c !== null ? `${num(w.temperature_min_c, '')} to ${num(w.temperature_max_c, ' °C')}` : null,
            w.precipitation_probability_pct !== null ? `${num(w.precipitation_probability_pct, ' %')} chance of rain` : null,
            w.wind_gusts_max_kmh !== null ? `gusts up to ${num(w.wind_gusts_max_kmh, ' km/h')}` : null,
          ]
            .filter(Boolean)
            .map((x) => `, ${x}`)
            .join('')}
          .
        </p>
      ) : null}
      {d?.weather_risk ? (
        <p className="notice" role="status">
          Outdoor work at risk: {d.risks.map((r) => (r === 'heavy_rain' ? 'heavy rain' : 'strong wind')).join(' and ')} forecast for the visit day.
        </p>
      ) : null}
    </div>
  );
}

/** One linked job as a list item: its reference as a link, title, status, when and the note. */
function LinkedJob({ label, j }: { label: string; j: { uuid: string; reference: string; title: string; status: string; note: string | null; at: string } }) {
  return (
    <li>
      {label} <Link to={`/jobs/${j.uuid}`}>{j.reference}</Link>: {j.title} ({j.status}), {formatLondonDate(j.at)}
      {j.note ? `: ${j.note}` : ''}
    </li>
  );
}

/** The jobs linked to this one (GET /api/jobs/{uuid}/links): what it recalls or was merged into, its recalls and merged duplicates. */
export function LinkedJobs({ jobUuid }: { jobUuid: string }) {
  const session = useSession();
  const allowed = session.party === 'staff' && session.permissions.has('api.jobs.manage.manage');
  const links = useLoad(['jobs', jobUuid, 'links', allowed], async () => (allowed ? (await api.GET('/api/jobs/{uuid}/links', { params: { path: { uuid: jobUuid } } })).data!.data : null));
  if (!allowed) return null;
  const l = links.data;
  const none = l && !l.recall_of && !l.merged_into && l.recalls.length === 0 && l.merged.length === 0;
  return (
    <section aria-labelledby="linked-jobs">
      <h2 id="linked-jobs">Linked jobs</h2>
      <ProblemMessage problem={links.problem} onRetry={links.reload} />
      {none ? <p>No linked jobs. A recall raised from this job, or a duplicate merged into it, shows here.</p> : null}
      {l ? (
        <ul className="documents">
          {l.recall_of ? <LinkedJob label="A recall of" j={l.recall_of} /> : null}
          {l.merged_into ? <LinkedJob label="Merged as a duplicate into" j={l.merged_into} /> : null}
          {l.recalls.map((r) => (
            <LinkedJob key={r.uuid} label="Recalled as" j={r} />
          ))}
          {l.merged.map((m) => (
            <LinkedJob key={m.uuid} label="Duplicate merged into this job:" j={m} />
          ))}
        </ul>
      ) : null}
      {l?.survey?.answered_at ? (
        <p>
          The tenant’s survey: {l.survey.rating !== null ? `${l.survey.rating} out of 5` : 'no rating'}
          {l.survey.comment ? `, “${l.survey.comment}”` : ''} ({formatLondonDate(l.survey.answered_at)}).
        </p>
      ) : null}
    </section>
  );
}

/** Lines of a quote or an estimate as a table: work, quantity, unit price, before VAT, VAT. */
function LinesTable({ caption, lines, vatRegistered }: { caption: string; lines: Array<{ position: number; description: string; quantity: number; unit_price_pence: number; vat_rate_bp: number; net_pence: number; vat_pence: number }>; vatRegistered: boolean }) {
  return (
    <div className="table-wrap" role="region" aria-label={caption} tabIndex={0}>
      <table>
        <caption>{caption}</caption>
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
          {lines.map((l) => (
            <tr key={l.position}>
              <td>{l.description}</td>
              <td>{l.quantity}</td>
              <td>{formatPence(l.unit_price_pence)}</td>
              <td>{formatPence(l.net_pence)}</td>
              <td>{vatRegistered ? `${formatPence(l.vat_pence)} (${l.vat_rate_bp / 100} %)` : 'No VAT'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The job's estimate from the price list (GET /api/pricing/estimate), for staff holding `api.pricing.view`. */
export function PriceEstimate({ jobUuid }: { jobUuid: string }) {
  const session = useSession();
  const allowed = session.party === 'staff' && session.permissions.has('api.pricing.view');
  const estimate = useLoad(['pricing', 'estimate', jobUuid, allowed], async () => (allowed ? (await api.GET('/api/pricing/estimate', { params: { query: { job_uuid: jobUuid } } })).data!.data : null));
  if (!allowed) return null;
  const e = estimate.data;
  return (
    <section aria-labelledby="estimate">
      <h2 id="estimate">Estimate from the price list</h2>
      <ProblemMessage problem={estimate.problem} onRetry={estimate.reload} />
      {e && e.lines.length === 0 ? <p>Nothing in the price list matches this job’s trade and type: add prices under Price list.</p> : null}
      {e && e.lines.length > 0 ? (
        <>
          <LinesTable caption="Estimated work" lines={e.lines} vatRegistered={e.vat_registered} />
          <p>
            Estimate: {formatPence(e.net_pence)} before VAT,{' '}
            {e.vat_registered ? `${formatPence(e.gross_pence)} including VAT` : `${formatPence(e.gross_pence)}, no VAT (not VAT-registered)`}
            {e.contractor_uuid ? ', at the contractor’s rates where set' : ''}.
          </p>
        </>
      ) : null}
    </section>
  );
}

/** A quote's detail (GET /api/jobs/{uuid}/quotes/{quote_uuid}): its lines, notes and decision. */
export function QuoteDetail({ jobUuid, quoteUuid }: { jobUuid: string; quoteUuid: string }) {
  const quote = useLoad(['jobs', jobUuid, 'quotes', quoteUuid], async () => (await api.GET('/api/jobs/{uuid}/quotes/{quote_uuid}', { params: { path: { uuid: jobUuid, quote_uuid: quoteUuid } } })).data!.data);
  const q = quote.data;
  return (
    <div aria-labelledby="quote-detail">
      <ProblemMessage problem={quote.problem} onRetry={quote.reload} />
      {q ? (
        <>
          <h3 id="quote-detail">
            Quote of {q.contractor_name}, {formatLondonDate(q.created_at)}
          </h3>
          <LinesTable caption={`Lines of the quote of ${q.contractor_name}`} lines={q.lines} vatRegistered={q.vat_registered} />
          <p>
            Total {formatPence(q.net_pence)} before VAT, {q.vat_registered ? `${formatPence(q.gross_pence)} including VAT` : `${formatPence(q.gross_pence)}, no VAT (not VAT-registered)`}.
            {q.notes ? ` Notes: ${q.notes}` : ''}
            {q.decided_at ? ` Decided on ${formatLondonDate(q.decided_at)}${q.decision_reason ? `: ${q.decision_reason}` : ''}.` : ''}
          </p>
        </>
      ) : (
        <p id="quote-detail">Loading the quote…</p>
      )}
    </div>
  );
}
