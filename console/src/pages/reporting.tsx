/**
 * Tenant self-service pages (docs/tenant-reporting.md): the guided report (flows, one question at
 * a time with its self-help, the emergency instruction shown at once, duplicates and recalls
 * offered, the photos asked for), the flow editor with its live preview (admins), the survey
 * page reached by a signed link (no account) and a contractor's scorecard. Built for a 390 px
 * phone first.
 */
import { lazy, Suspense, useEffect, useEffectEvent, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { api } from '../api.ts';
import { describeProblem, type Problem } from '../logic/errors.ts';
import type { RequestBody } from '../types.ts';
import { Button, formatLondonDateTime, PageTitle, ProblemMessage, useAction, useLoad } from '../ui.tsx';
import { uploadPhoto } from './report.tsx';

interface Option { id: string; label: string }
interface Question { id: string; text: string; help: string | null; options: Option[] }
interface Outcome {
  id: string; kind: 'advice' | 'emergency' | 'job'; title: string; text: string | null; instruction: string | null; phone: string | null;
  job: { title: string; trade: string; job_type: string; priority: number; photos: string[] } | null;
}
interface JobBrief { uuid: string; reference: string; title: string; status: string; at: string }
interface Step {
  flow: { code: string; name: string; version: number };
  answers: Array<{ node: string; question: string; option: string; answer: string }>;
  next: Question | null; outcome: Outcome | null; duplicates: JobBrief[]; recall_candidates: JobBrief[];
}
interface FlowSummary { uuid: string; code: string; name: string; version: number; emergency: boolean; tree: unknown }
type Answer = { node: string; option: string };

// Typed calls of the generated client; these pages read their answers as their own shapes (above).

/** The emergency instruction, shown at once and first. */
function Emergency({ outcome, reference }: { outcome: Outcome; reference: string | null }) {
  return (
    <section className="emergency" role="alert" aria-labelledby="emergency-title">
      <h2 id="emergency-title">{outcome.title}</h2>
      <p>{outcome.instruction}</p>
      {outcome.phone ? (
        <p>
          <a className="btn btn-danger call" href={`tel:${outcome.phone.replace(/\s/g, '')}`}>
            Call {outcome.phone}
          </a>
        </p>
      ) : null}
      <p className="hint">{reference ? `Emergency job ${reference} raised; our on-call contact has been told.` : 'Raising an emergency job…'}</p>
    </section>
  );
}

/** The guided report: choose a flow, answer, and submit at the outcome. */
export function GuidedReport() {
  const navigate = useNavigate();
  const flows = useLoad(['flows'], async () => (await api.GET('/api/reporting/flows')).data!.data as unknown as FlowSummary[]);
  const [flow, setFlow] = useState<FlowSummary | null>(null);
  const [answers, setAnswers] = useState<Answer[]>([]);
  const [step, setStep] = useState<Step | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [done, setDone] = useState<{ reference: string | null; outcome: string } | null>(null);
  const submitAction = useAction();
  // Called by the walk's effect with the render's latest answers (an effect event: not a dependency).
  const onOutcome = useEffectEvent((s: Step) => void submit(s, {}));

  useEffect(() => {
    if (!flow) return;
    let live = true;
    setProblem(null);
    api.POST('/api/reporting/walk', { body: { flow_code: flow.code, version: flow.version, answers } }).then(
      (r) => {
        if (!live) return;
        const s = r.data!.data as Step;
        setStep(s);
        // Advice and emergencies are recorded as soon as they are reached (a deflection counts
        // even if the tenant just closes the page; an emergency waits for nobody).
        if (s.outcome && s.outcome.kind !== 'job') onOutcome(s);
      },
      (e: unknown) => live && setProblem(describeProblem(e, navigator.onLine)),
    );
    return () => {
      live = false;
    };
  }, [flow, answers]);

  async function submit(s: Step, extra: Record<string, unknown>, words = '', photos: File[] = []) {
    await submitAction.run(async () => {
      const r = await api.POST('/api/reporting/reports', { body: { flow_code: s.flow.code, version: s.flow.version, answers, ...(words ? { description: words } : {}), ...extra } });
      const d = r.data!.data as { report: { job_uuid: string | null; job_reference: string | null; outcome: string } };
      if (d.report.outcome === 'job' || d.report.outcome === 'added_to_job') {
        for (const f of photos) await uploadPhoto(d.report.job_uuid!, f);
        navigate(`/jobs/${d.report.job_uuid}`, { state: { flash: d.report.outcome === 'job' ? 'Thank you: your repair has been reported.' : `Added to ${d.report.job_reference}.` } });
        return;
      }
      setDone({ reference: d.report.job_reference, outcome: d.report.outcome });
    });
  }

  if (!flow) {
    return (
      <>
        <PageTitle>Report a repair</PageTitle>
        <p>What is the problem about? Smell gas? Choose the first one now.</p>
        <ProblemMessage problem={flows.problem} onRetry={flows.reload} />
        <ul className="flow-list">
          {(flows.data ?? []).map((f) => (
            <li key={f.uuid}>
              <Button variant={f.code === 'gas_smell' ? 'danger' : 'secondary'} onPress={() => { setAnswers([]); setStep(null); setDone(null); setFlow(f); }}>
                {f.name}
              </Button>
            </li>
          ))}
        </ul>
        <p className="hint">
          Something else? <Link to="/jobs/new">Describe it in your own words</Link>.
        </p>
      </>
    );
  }
  const outcome = step?.outcome ?? null;
  return (
    <>
      <PageTitle>{flow.name}</PageTitle>
      <ProblemMessage problem={problem ?? submitAction.problem} />
      {outcome?.kind === 'emergency' ? <Emergency outcome={outcome} reference={done?.reference ?? null} /> : null}
      {step && step.answers.length > 0 ? (
        <ol className="answers" aria-label="Your answers">
          {step.answers.map((a) => (
            <li key={a.node}>
              {a.question} <strong>{a.answer}</strong>
            </li>
          ))}
        </ol>
      ) : null}
      {step?.next ? (
        <fieldset className="question">
          <legend>{step.next.text}</legend>
          {step.next.help ? <p className="help">{step.next.help}</p> : null}
          {step.next.options.map((o) => (
            <Button key={o.id} variant="secondary" onPress={() => setAnswers([...answers, { node: step.next!.id, option: o.id }])}>
              {o.label}
            </Button>
          ))}
        </fieldset>
      ) : null}
      {outcome?.kind === 'advice' ? (
        <section className="advice" aria-labelledby="advice-title">
          <h2 id="advice-title">{outcome.title}</h2>
          <p>{outcome.text}</p>
          <p className="hint">{done ? 'No repair needed: we have noted it.' : 'Saving…'}</p>
        </section>
      ) : null}
      {outcome?.kind === 'job' && step ? <JobOutcome step={step} outcome={outcome} busy={submitAction.busy} onSubmit={(extra, words, photos) => void submit(step, extra, words, photos)} /> : null}
      <p className="actions">
        {answers.length > 0 && !done ? (
          <Button variant="secondary" onPress={() => setAnswers(answers.slice(0, -1))}>
            Back
          </Button>
        ) : null}
        <Button variant="secondary" onPress={() => setFlow(null)}>
          {done ? 'Report something else' : 'Choose another problem'}
        </Button>
      </p>
    </>
  );
}

/** The job outcome: what happens next, duplicates and recalls offered, the tenant's words and photos. */
function JobOutcome({ step, outcome, busy, onSubmit }: { step: Step; outcome: Outcome; busy: boolean; onSubmit: (extra: Record<string, unknown>, words: string, photos: File[]) => void }) {
  const [choice, setChoice] = useState<string>('new');
  const onForm = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const photos = form.getAll('photo').filter((p): p is File => p instanceof File && p.size > 0);
    const extra = choice.startsWith('add:') ? { add_to_job_uuid: choice.slice(4) } : choice.startsWith('recall:') ? { recall_of_job_uuid: choice.slice(7) } : {};
    onSubmit(extra, String(form.get('words') ?? ''), photos);
  };
  const offers = step.duplicates.length + step.recall_candidates.length > 0;
  return (
    <form className="form job-outcome" onSubmit={onForm}>
      <h2>{outcome.title}</h2>
      <p>
        We will raise: <strong>{outcome.job!.title}</strong> (priority {outcome.job!.priority}).
      </p>
      {offers ? (
        <fieldset>
          <legend>Is this already reported?</legend>
          {step.duplicates.map((d) => (
            <label key={d.uuid} className="choice">
              <input type="radio" name="choice" value={`add:${d.uuid}`} checked={choice === `add:${d.uuid}`} onChange={() => setChoice(`add:${d.uuid}`)} /> Add to{' '}
              {d.reference} “{d.title}” ({d.status})
            </label>
          ))}
          {step.recall_candidates.map((d) => (
            <label key={d.uuid} className="choice">
              <input type="radio" name="choice" value={`recall:${d.uuid}`} checked={choice === `recall:${d.uuid}`} onChange={() => setChoice(`recall:${d.uuid}`)} /> The
              repair {d.reference} “{d.title}” failed again
            </label>
          ))}
          <label className="choice">
            <input type="radio" name="choice" value="new" checked={choice === 'new'} onChange={() => setChoice('new')} /> No, report it as new
          </label>
        </fieldset>
      ) : null}
      <div className="field">
        <label htmlFor="words">Anything else we should know? (optional)</label>
        <textarea id="words" name="words" rows={3} maxLength={4000} />
      </div>
      {!choice.startsWith('add:') && outcome.job!.photos.length > 0 ? (
        <fieldset>
          <legend>Photos that help the contractor</legend>
          {outcome.job!.photos.map((p, i) => (
            <div className="field" key={p}>
              <label htmlFor={`photo-${i}`}>Photo of {p}</label>
              <input id={`photo-${i}`} name="photo" type="file" accept="image/jpeg,image/png,image/webp,image/heic" capture="environment" />
            </div>
          ))}
        </fieldset>
      ) : null}
      <Button type="submit" isDisabled={busy}>
        {busy ? 'Sending…' : choice.startsWith('add:') ? 'Add to that repair' : 'Report repair'}
      </Button>
    </form>
  );
}

/** The admins' list of flows, each opening the editor. */
export function FlowsPage() {
  const flows = useLoad(['flows'], async () => (await api.GET('/api/reporting/flows')).data!.data as unknown as FlowSummary[]);
  return (
    <>
      <PageTitle>Triage flows</PageTitle>
      <p>The questions tenants answer when they report a repair. Saving a flow makes a new version; reports keep the version they were made with.</p>
      <ProblemMessage problem={flows.problem} onRetry={flows.reload} />
      <ul className="flow-list">
        {(flows.data ?? []).map((f) => (
          <li key={f.uuid}>
            <Link to={`/flows/${f.code}`}>{f.name}</Link> <span className="hint">version {f.version}{f.emergency ? ', has an emergency' : ''}</span>
          </li>
        ))}
      </ul>
    </>
  );
}

/** The flow editor: the tree as JSON, checked and walked live by the preview; save makes a version. */
export function FlowEditor() {
  const { code = '' } = useParams();
  const flow = useLoad(['flows', code], async () => (await api.GET('/api/reporting/flows/{code}', { params: { path: { code } } })).data!.data as unknown as FlowSummary);
  const [name, setName] = useState('');
  const [text, setText] = useState('');
  const [answers, setAnswers] = useState<Answer[]>([]);
  const [preview, setPreview] = useState<{ problems: Array<{ path: string; problem: string }>; step: Step | null } | null>(null);
  const [parseProblem, setParseProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const save = useAction();

  useEffect(() => {
    if (!flow.data) return;
    setName(flow.data.name);
    setText(JSON.stringify(flow.data.tree, null, 2));
  }, [flow.data]);

  useEffect(() => {
    if (!text) return;
    // The server checks the tree (400 naming the node); the console sends what was typed.
    let tree: RequestBody<'/api/reporting/flows/preview', 'post'>['tree'];
    try {
      tree = JSON.parse(text);
      setParseProblem(null);
    } catch (e) {
      setParseProblem(`Not valid JSON: ${(e as Error).message}`);
      return;
    }
    let live = true;
    api.POST('/api/reporting/flows/preview', { body: { tree, answers } }).then(
      (r) => live && setPreview(r.data!.data as typeof preview),
      (e: unknown) => {
        if (!live) return;
        // Answers that no longer fit the edited tree: start the preview again.
        if (answers.length > 0) setAnswers([]);
        else setParseProblem(describeProblem(e, navigator.onLine).message);
      },
    );
    return () => {
      live = false;
    };
  }, [text, answers]);

  const onSave = () =>
    void save.run(async () => {
      const r = await api.PUT('/api/reporting/flows/{code}', { params: { path: { code } }, body: { name, tree: JSON.parse(text) } });
      setSaved(`Saved as version ${r.data!.data.version}.`);
    });

  const step = preview?.step ?? null;
  return (
    <>
      <PageTitle>{flow.data ? `Edit: ${flow.data.name}` : 'Edit flow'}</PageTitle>
      <ProblemMessage problem={flow.problem} onRetry={flow.reload} />
      <div className="editor">
        <div className="form">
          <div className="field">
            <label htmlFor="flow-name">Name shown to tenants</label>
            <input id="flow-name" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
          </div>
          <div className="field">
            <label htmlFor="flow-tree">Questions and outcomes (JSON)</label>
            <textarea id="flow-tree" className="code" rows={18} value={text} spellCheck={false} onChange={(e) => { setText(e.target.value); setSaved(null); }} />
            <p className="hint">Nodes: question (text, help, options with next), advice (title, text), emergency (title, instruction, phone, job), job (title, job: title, trade, job_type, priority, photos).</p>
          </div>
          {parseProblem ? <p className="field-error">{parseProblem}</p> : null}
          {preview && preview.problems.length > 0 ? (
            <ul className="field-error" aria-label="Problems">
              {preview.problems.map((p) => (
                <li key={p.path + p.problem}>
                  {p.path}: {p.problem}
                </li>
              ))}
            </ul>
          ) : null}
          <ProblemMessage problem={save.problem} />
          {saved ? <p role="status">{saved}</p> : null}
          <Button onPress={onSave} isDisabled={save.busy || !!parseProblem || (preview?.problems.length ?? 1) > 0}>
            Save as a new version
          </Button>
          <FlowVersions code={code} saved={saved} />
        </div>
        <section className="preview" aria-labelledby="preview-title">
          <h2 id="preview-title">Preview (as a tenant sees it)</h2>
          {step?.next ? (
            <fieldset className="question">
              <legend>{step.next.text}</legend>
              {step.next.help ? <p className="help">{step.next.help}</p> : null}
              {step.next.options.map((o) => (
                <Button key={o.id} variant="secondary" onPress={() => setAnswers([...answers, { node: step.next!.id, option: o.id }])}>
                  {o.label}
                </Button>
              ))}
            </fieldset>
          ) : null}
          {step?.outcome ? (
            <div className={step.outcome.kind === 'emergency' ? 'emergency' : 'advice'}>
              <h3>
                {step.outcome.kind === 'advice' ? 'Advice' : step.outcome.kind === 'emergency' ? 'Emergency' : 'Job'}: {step.outcome.title}
              </h3>
              <p>{step.outcome.instruction ?? step.outcome.text}</p>
              {step.outcome.job ? (
                <p className="hint">
                  Raises “{step.outcome.job.title}”: trade {step.outcome.job.trade}, {step.outcome.job.job_type}, priority {step.outcome.job.priority}
                  {step.outcome.job.photos.length ? `; photos: ${step.outcome.job.photos.join('; ')}` : ''}
                </p>
              ) : null}
            </div>
          ) : null}
          {answers.length > 0 ? (
            <Button variant="secondary" onPress={() => setAnswers([])}>
              Start again
            </Button>
          ) : null}
        </section>
      </div>
    </>
  );
}

interface SurveyView { agency_name: string; job_reference: string; job_title: string; property: string | null; contractor_name: string | null; completed_on: string | null; expires: string }

/** The survey page of a signed link (/survey?token=...): one question, 1 to 5, and a comment. No account needed. */
export function SurveyPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [view, setView] = useState<SurveyView | null>(null);
  const [refused, setRefused] = useState<string | null>(null);
  const [rating, setRating] = useState<number | null>(null);
  const [thanks, setThanks] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    document.title = 'How did we do? · Caretaker';
    void fetch(`/api/surveys/link/${encodeURIComponent(token)}`).then(async (r) => {
      const body = (await r.json()) as { data?: SurveyView; error?: string };
      if (r.ok) setView(body.data!);
      else setRefused(body.error ?? 'This link does not work.');
    });
  }, [token]);
  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (rating === null) return;
    setBusy(true);
    const comment = String(new FormData(e.currentTarget).get('comment') ?? '');
    const r = await fetch(`/api/surveys/link/${encodeURIComponent(token)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rating, ...(comment ? { comment } : {}) }) });
    setBusy(false);
    if (r.ok) setThanks(true);
    else setRefused(((await r.json()) as { error?: string }).error ?? 'Your answer was not saved.');
  };
  return (
    <main id="main" className="survey">
      <h1>How did we do?</h1>
      {refused ? <p role="alert">{refused}</p> : null}
      {thanks ? <p role="status">Thank you: your answer has been recorded.</p> : null}
      {view && !thanks && !refused ? (
        <form className="form" onSubmit={(e) => void onSubmit(e)}>
          <p>
            {view.agency_name}: <strong>{view.job_title}</strong> ({view.job_reference}){view.property ? ` at ${view.property}` : ''}
            {view.contractor_name ? `, by ${view.contractor_name}` : ''}
            {view.completed_on ? `, completed ${view.completed_on}` : ''}.
          </p>
          <fieldset className="rating">
            <legend>How well was the repair done?</legend>
            {[1, 2, 3, 4, 5].map((n) => (
              <label key={n} className="choice">
                <input type="radio" name="rating" value={n} checked={rating === n} onChange={() => setRating(n)} /> {n}{' '}
                {n === 1 ? '(very poor)' : n === 5 ? '(very good)' : ''}
              </label>
            ))}
          </fieldset>
          <div className="field">
            <label htmlFor="comment">Comment (optional)</label>
            <textarea id="comment" name="comment" rows={3} maxLength={2000} />
          </div>
          <p className="hint">This link works once, until {view.expires}.</p>
          <button type="submit" className="btn btn-primary" disabled={busy || rating === null}>
            Send
          </button>
        </form>
      ) : null}
    </main>
  );
}

interface Scorecard {
  company_name: string; from_date: string; to_date: string; jobs: number;
  response: { median_s: number | null; jobs: number }; attendance: { visits_due: number; on_slot: number; rate: number | null };
  first_time_fix: { completed: number; fixed_first_time: number; recalls: number; rate: number | null };
  rating: { surveys: number; average: number | null }; cost: { jobs: number; total_pence: number; mean_pence: number | null };
  sla: { met: number; breached: number; compliance: number | null };
}

const pct = (r: number | null) => (r === null ? '-' : `${Math.round(r * 100)}%`);
const hours = (s: number | null) => (s === null ? '-' : s < 3600 ? `${Math.round(s / 60)} min` : `${(s / 3600).toFixed(1)} h`);

/** A contractor's scorecard over the last 90 days. */
export function ContractorScorecardPage() {
  const { uuid = '' } = useParams();
  const card = useLoad(async () => (await api.GET('/api/contractors/{uuid}/scorecard', { params: { path: { uuid } } })).data!.data as unknown as Scorecard, [uuid]);
  const c = card.data;
  return (
    <>
      <PageTitle>{c ? `${c.company_name}: scorecard` : 'Scorecard'}</PageTitle>
      <ProblemMessage problem={card.problem} onRetry={card.reload} />
      {c ? (
        <dl className="scorecard">
          <dt>Jobs ({c.from_date} to {c.to_date})</dt>
          <dd>{c.jobs}</dd>
          <dt>Response (median, assignment to acceptance)</dt>
          <dd>{hours(c.response.median_s)}</dd>
          <dt>On the booked slot</dt>
          <dd>
            {pct(c.attendance.rate)} ({c.attendance.on_slot} of {c.attendance.visits_due})
          </dd>
          <dt>First-time fix</dt>
          <dd>
            {pct(c.first_time_fix.rate)} ({c.first_time_fix.fixed_first_time} of {c.first_time_fix.completed}; {c.first_time_fix.recalls} recalls)
          </dd>
          <dt>Tenant rating</dt>
          <dd>{c.rating.average === null ? '-' : `${c.rating.average} / 5 (${c.rating.surveys} surveys)`}</dd>
          <dt>Cost per job</dt>
          <dd>{c.cost.mean_pence === null ? '-' : (c.cost.mean_pence / 100).toLocaleString('en-GB', { style: 'currency', currency: 'GBP' })}</dd>
          <dt>SLA compliance</dt>
          <dd>
            {pct(c.sla.compliance)} ({c.sla.met} met, {c.sla.breached} breached)
          </dd>
        </dl>
      ) : null}
      {c ? (
        <Suspense fallback={null}>
          <ContractorOffice uuid={uuid} name={c.company_name} />
        </Suspense>
      ) : null}
      <p>
        <Link to="/contractors">All contractors</Link>
      </p>
    </>
  );
}

/** The flow's versions, newest first, with who saved each and when (GET /api/reporting/flows/{code}/versions). */
function FlowVersions({ code, saved }: { code: string; saved: string | null }) {
  const versions = useLoad(['flows', code, 'versions', saved], async () => (await api.GET('/api/reporting/flows/{code}/versions', { params: { path: { code } } })).data!.data);
  if (!versions.data || versions.data.length === 0) return null;
  return (
    <details className="flow-versions">
      <summary>Earlier versions ({versions.data.length})</summary>
      <ul>
        {versions.data.map((v) => (
          <li key={v.version}>
            Version {v.version}: {v.name}, saved {formatLondonDateTime(v.created_at)}
            {v.created_by ? ` by ${v.created_by.name}` : ' with the app'}
          </li>
        ))}
      </ul>
    </details>
  );
}

/** The contractor's certificates, VAT and self-billing (contractor-extras.tsx), in their own chunk. */
const ContractorOffice = lazy(async () => ({ default: (await import('./contractor-extras.tsx')).ContractorOffice }));
